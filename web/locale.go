package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"

	"incidentlib/views"
)

const langCookie = "lang"

// langCookies are the Set-Cookie values remembering the reader's language for a year.
var langCookies = map[string]string{}

func init() {
	for _, lang := range []string{"ko", "en"} {
		langCookies[lang] = (&http.Cookie{Name: langCookie, Value: lang, Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()),
			SameSite: http.SameSiteLaxMode, HttpOnly: true}).String()
	}
}

var langMatcher = language.NewMatcher([]language.Tag{language.Korean, language.English})

func validLang(lang string) bool { return lang == "ko" || lang == "en" }

// preferredLang picks the language for a path without one: the cookie the reader's last page
// set, then Accept-Language, then Korean.
func preferredLang(r *http.Request) string {
	if c, err := r.Cookie(langCookie); err == nil && validLang(c.Value) {
		return c.Value
	}
	if al := r.Header.Get("Accept-Language"); al != "" {
		tags, _, err := language.ParseAcceptLanguage(al)
		if err == nil && len(tags) > 0 {
			_, i, conf := langMatcher.Match(tags...)
			if conf != language.No {
				return []string{"ko", "en"}[i]
			}
		}
	}
	return "ko"
}

// withLocale checks the language segment and puts the request's views.Locale in its context.
// A first segment that is not a language means a path without one: it is redirected.
func (s *Server) withLocale(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		lang := c.Param("lang")
		if !validLang(lang) {
			return s.fallback(c)
		}
		r := c.Request()
		c.Response().Header().Add("Set-Cookie", langCookies[lang])
		loc := &views.Locale{
			Lang:      lang,
			Localizer: s.localizers[lang],
			Path:      strings.TrimPrefix(r.URL.Path, "/"+lang),
			RawQuery:  r.URL.RawQuery,
			Origin:    s.origin(r),
		}
		c.SetRequest(r.WithContext(views.WithLocale(r.Context(), loc)))
		return next(c)
	}
}

// origin is the public scheme and host for absolute links.
func (s *Server) origin(r *http.Request) string {
	if s.cfg.BaseURL != "" {
		return strings.TrimSuffix(s.cfg.BaseURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// redirectToLang sends / to the reader's language.
func (s *Server) redirectToLang(c echo.Context) error {
	return c.Redirect(http.StatusFound, "/"+preferredLang(c.Request())+"/")
}

// redirectToSlash sends /ko to /ko/.
func (s *Server) redirectToSlash(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, "/"+c.Param("lang")+"/"+query(c.Request().URL))
}

// langPaths are the first segments of pages that exist under a language prefix.
var langPaths = map[string]bool{"cases": true, "graph": true, "api": true, "feed.xml": true,
	"causes": true, "symptoms": true, "components": true, "factors": true, "orgs": true}

// fallback handles paths no route matched: a page path without its language is redirected to
// the reader's language (only to a local path, so no open redirect), anything else is a 404.
func (s *Server) fallback(c echo.Context) error {
	p := c.Request().URL.Path
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	if c.Request().Method == http.MethodGet && langPaths[first] && !strings.Contains(p, "//") {
		return c.Redirect(http.StatusFound, "/"+preferredLang(c.Request())+p+query(c.Request().URL))
	}
	return echo.ErrNotFound
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
	if seg, after, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/"); validLang(seg) {
		lang, rest = seg, "/"+after
	}
	return &views.Locale{Lang: lang, Localizer: s.localizers[lang], Path: rest, Origin: s.origin(r)}
}
