package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

const langCookie = "lang"

// langCookies are the Set-Cookie values remembering the reader's language for a year, by
// language. Under an https base URL they are Secure, so they never travel in clear text.
func langCookies(baseURL string) map[catalog.Lang]string {
	out := map[catalog.Lang]string{}
	for _, lang := range catalog.Langs {
		out[lang] = (&http.Cookie{Name: langCookie, Value: string(lang), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()),
			SameSite: http.SameSiteLaxMode, HttpOnly: true, Secure: strings.HasPrefix(baseURL, "https://")}).String()
	}
	return out
}

// langMatcher matches Accept-Language against catalog.Langs, in that order.
var langMatcher = language.NewMatcher(func() []language.Tag {
	var tags []language.Tag
	for _, l := range catalog.Langs {
		tags = append(tags, language.Make(string(l)))
	}
	return tags
}())

// validLang reports whether s names one of catalog.Langs.
func validLang(s string) bool {
	_, ok := catalog.ParseLang(s)
	return ok
}

// pageLang is the language of a page request, which withLocale has checked.
func pageLang(c echo.Context) catalog.Lang { return catalog.Lang(c.Param("lang")) }

// preferredLang picks the language for a path without one: the cookie the reader's last page
// set, then Accept-Language, then the site's default.
func preferredLang(r *http.Request) catalog.Lang {
	if c, err := r.Cookie(langCookie); err == nil {
		if l, ok := catalog.ParseLang(c.Value); ok {
			return l
		}
	}
	if al := r.Header.Get("Accept-Language"); al != "" {
		tags, _, err := language.ParseAcceptLanguage(al)
		if err == nil && len(tags) > 0 {
			_, i, conf := langMatcher.Match(tags...)
			if conf != language.No {
				return catalog.Langs[i]
			}
		}
	}
	return catalog.Langs[0]
}

// withLocale checks the language segment and puts the request's views.Locale in its context.
// A first segment that is not a language means a path without one: it is redirected.
func (s *Server) withLocale(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		lang, ok := catalog.ParseLang(c.Param("lang"))
		if !ok {
			return s.fallback(c)
		}
		r := c.Request()
		raw, _ := canonicalQuery(r.URL.RawQuery, paramsFor(r.URL.Path))
		loc := &views.Locale{
			Lang:      lang,
			Localizer: s.localizers[lang],
			Path:      strings.TrimPrefix(r.URL.Path, "/"+string(lang)),
			RawQuery:  raw, // only what the page reads, as the cache keeps it
			Origin:    s.origin(r),
		}
		c.SetRequest(r.WithContext(views.WithLocale(r.Context(), loc)))
		return next(c)
	}
}

// origin is the public scheme and host for absolute links: the configured base URL, never the
// request's Host.
func (s *Server) origin(*http.Request) string {
	if s.cfg.BaseURL != "" {
		return strings.TrimSuffix(s.cfg.BaseURL, "/")
	}
	return "http://localhost"
}

// langRedirect sends a path without a language to the reader's language. The answer depends on
// the cookie and Accept-Language, so it says so to caches, and it remembers the choice.
func (s *Server) langRedirect(c echo.Context, path string) error {
	lang := preferredLang(c.Request())
	h := c.Response().Header()
	h.Set("Vary", "Cookie, Accept-Language")
	h.Set("Cache-Control", "private, max-age=0")
	h.Add("Set-Cookie", s.cookies[lang])
	p, q, _ := strings.Cut(path, "?")
	to := localLocation("/" + string(lang) + p)
	if q != "" {
		to += "?" + q
	}
	return c.Redirect(http.StatusFound, to)
}

// redirectToLang sends / to the reader's language.
func (s *Server) redirectToLang(c echo.Context) error {
	return s.langRedirect(c, "/")
}

// switchLang remembers the language a reader switched to and sends them to the page in it.
// Pages carry no cookie, so shared caches keep them; this answer is the one that sets it.
func (s *Server) switchLang(c echo.Context) error {
	lang, ok := catalog.ParseLang(c.Param("lang"))
	to := c.QueryParam("to")
	if !ok || !strings.HasPrefix(to, "/"+string(lang)+"/") || strings.HasPrefix(to, "//") || strings.ContainsAny(to, "\\\r\n") {
		to = "/" + string(preferredLang(c.Request())) + "/"
		if ok {
			to = "/" + string(lang) + "/"
		}
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	if ok {
		h.Add("Set-Cookie", s.cookies[lang])
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// redirectToSlash sends /ko to /ko/.
func (s *Server) redirectToSlash(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, "/"+string(pageLang(c))+"/"+query(c.Request().URL))
}

// langPaths are the first segments of pages that exist under a language prefix: the pages of
// routes and the kinds' index and topic pages.
var langPaths = func() map[string]bool {
	m := map[string]bool{"cases": true, "graph": true, "api": true, "feed.xml": true, "checks": true, "stats": true, "like": true, "data": true}
	for _, d := range catalog.Kinds {
		m[d.Plural] = true
	}
	return m
}()

// fallback handles paths no route matched: a page path without its language is redirected to
// the reader's language (only to a local path, so no open redirect), anything else is a 404.
func (s *Server) fallback(c echo.Context) error {
	p := c.Request().URL.Path
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	if c.Request().Method != http.MethodGet {
		return echo.ErrNotFound // a page would have been answered 405 by onlyGET
	}
	if langPaths[first] && !strings.Contains(p, "//") {
		return s.langRedirect(c, p+query(c.Request().URL))
	}
	return echo.ErrNotFound
}

// onlyGET answers 405 with Allow to any method but GET (HEAD arrives as GET) and OPTIONS on an
// address that has a page, and answers OPTIONS there itself; /mcp takes POST. The API's
// OPTIONS are CORS preflights, answered by its own middleware.
func (s *Server) onlyGET(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodGet || strings.HasPrefix(r.URL.Path, "/api/") && r.Method == http.MethodOptions {
			return next(c)
		}
		if r.URL.Path == "/mcp" {
			if r.Method == http.MethodOptions {
				c.Response().Header().Set("Allow", allowed(r.URL.Path))
				return c.NoContent(http.StatusNoContent)
			}
			return next(c)
		}
		if !s.hasPage(r.URL.Path) {
			return next(c)
		}
		if r.Method == http.MethodOptions {
			c.Response().Header().Set("Allow", allowed(r.URL.Path))
			return c.NoContent(http.StatusNoContent)
		}
		return echo.ErrMethodNotAllowed
	}
}

// hasPage reports whether a GET route answers path.
func (s *Server) hasPage(path string) bool {
	rc := s.e.NewContext(nil, nil)
	s.e.Router().Find(http.MethodGet, path, rc)
	// A route matched only if it has as many segments as the path (the router reports the
	// last route it tried on a miss).
	p := rc.Path()
	return p == "/static/*" && strings.HasPrefix(path, "/static/") ||
		p != "" && !strings.HasSuffix(p, "/*") && strings.Count(p, "/") == strings.Count(path, "/")
}

func query(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}

// localeFor builds a locale for a request that did not pass through withLocale (an error on an
// unknown path), from its first segment or the reader's preference.
func (s *Server) localeFor(r *http.Request) *views.Locale {
	lang := preferredLang(r)
	rest := r.URL.Path
	seg, after, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if l, ok := catalog.ParseLang(seg); ok {
		lang, rest = l, "/"+after
	}
	return &views.Locale{Lang: lang, Localizer: s.localizers[lang], Path: rest, Origin: s.origin(r)}
}
