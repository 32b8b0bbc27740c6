package web

import (
	"cmp"
	"encoding/xml"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

// Atom feed of the newest cases, sitemap and robots.txt.

// feedSize is how many cases the feed holds, newest added first: enough for a reader who checks
// weekly, small enough to fetch often (all 689 cases made 816 KB).
const feedSize = 50

// sitemapMax is the most URLs one sitemap file may hold.
const sitemapMax = 50000

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Lang string `xml:"hreflang,attr,omitempty"`
}

type atomEntry struct {
	Title     string   `xml:"title"`
	ID        string   `xml:"id"`
	Link      atomLink `xml:"link"`
	Published string   `xml:"published"`
	Updated   string   `xml:"updated"`
	Author    string   `xml:"author>name"`
	Summary   string   `xml:"summary"`
}

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

// feed serves the Atom feed of the newest cases in the URL's language.
func (s *Server) feed(c echo.Context) error {
	ctx := c.Request().Context()
	lang := pageLang(c)
	// A feed for any listing: the listing's filters and search words, strictly checked.
	filter, _, err := s.readFilter(c.Request().URL.RawQuery, catalog.DefaultPageSize, false)
	if err != nil {
		return err
	}
	entries, err := s.cat.FilteredEntries(ctx, lang, filter, feedSize)
	if err != nil {
		return err
	}
	origin := s.origin(c.Request())
	built := s.cat.BuiltAt(ctx)
	title := views.T(ctx, "feed.title")
	var parts []string
	for _, kind := range catalog.FilterKinds {
		for _, v := range filter.Values[kind] {
			parts = append(parts, s.cat.Term(lang, kind, v).Label)
		}
	}
	if filter.Q != "" {
		parts = append(parts, "“"+filter.Q+"”")
	}
	if len(parts) > 0 {
		title += " · " + strings.Join(parts, " · ")
	}
	self := origin + views.ListFeedURL(lang, filter)
	f := atomFeed{Lang: string(lang), Title: title, ID: self, Updated: built,
		Links: []atomLink{{Href: self, Rel: "self"}, {Href: origin + views.ListURL(lang, filter), Rel: "alternate"}}}
	for _, e := range entries {
		// An entry is dated by the catalog: when the case was added, or last revised. The day of
		// the incident itself, in its own zone, leads the summary.
		f.Entries = append(f.Entries, atomEntry{Title: e.Title, ID: origin + views.CaseURL(lang, e.ID),
			Link: atomLink{Href: origin + views.CaseURL(lang, e.ID)}, Published: atomDate(e.Added, "", built),
			Updated: atomDate(cmp.Or(e.Revised, e.Added), "", built), Author: e.Org.Label,
			Summary: views.FormatCaseDate(lang, e.Date, e.Zone) + " · " + e.Summary})
	}
	return s.xml(c, "application/atom+xml; charset=utf-8", f)
}

// atomDate turns a case date into an RFC 3339 time: the start of that day in the case's zone
// (UTC without one); partial dates take the first day.
func atomDate(date, zone, fallback string) string {
	loc, err := catalog.LoadZone(zone)
	if err != nil {
		return fallback
	}
	layout := map[int]string{4: "2006", 7: "2006-01", 10: "2006-01-02"}[len(date)]
	t, err := time.ParseInLocation(layout, date, loc)
	if layout == "" || err != nil {
		return fallback
	}
	return t.Format(time.RFC3339)
}

type sitemapLink struct {
	Rel  string `xml:"rel,attr"`
	Lang string `xml:"hreflang,attr"`
	Href string `xml:"href,attr"`
}

type sitemapURL struct {
	Loc   string        `xml:"loc"`
	Links []sitemapLink `xml:"xhtml:link"`
}

type sitemap struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	XHTML   string       `xml:"xmlns:xhtml,attr"`
	URLs    []sitemapURL `xml:"url"`
}

// sitemap lists every page in both languages with its alternates.
func (s *Server) sitemap(c echo.Context) error {
	ctx := c.Request().Context()
	origin := s.origin(c.Request())
	var paths []string // paths after the language prefix
	paths = append(paths, "/", "/graph", "/api")
	first := catalog.Langs[0]
	unprefix := func(path string) string { return strings.TrimPrefix(path, "/"+string(first)) }
	for _, kind := range catalog.TopicKinds {
		for _, t := range s.cat.Values(first, kind) {
			paths = append(paths, unprefix(views.TopicURL(first, t)))
		}
	}
	entries, err := s.cat.Entries(ctx, first, sitemapMax/2-len(paths))
	if err != nil {
		return err
	}
	for _, e := range entries {
		paths = append(paths, unprefix(views.CaseURL(first, e.ID)))
	}
	sm := sitemap{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", XHTML: "http://www.w3.org/1999/xhtml"}
	for _, p := range paths {
		var links []sitemapLink
		for _, lang := range catalog.Langs {
			links = append(links, sitemapLink{Rel: "alternate", Lang: string(lang), Href: origin + "/" + string(lang) + p})
		}
		links = append(links, sitemapLink{Rel: "alternate", Lang: "x-default", Href: origin + "/" + string(first) + p})
		for _, lang := range catalog.Langs {
			sm.URLs = append(sm.URLs, sitemapURL{Loc: origin + "/" + string(lang) + p, Links: links})
		}
	}
	return s.xml(c, "application/xml; charset=utf-8", sm)
}

func (s *Server) robots(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.String(http.StatusOK, "User-agent: *\nAllow: /\nDisallow: /mcp\n\nSitemap: "+s.origin(c.Request())+"/sitemap.xml\n")
}

func (s *Server) xml(c echo.Context, contentType string, v any) error {
	b, err := xml.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, contentType, append([]byte(xml.Header), b...))
}
