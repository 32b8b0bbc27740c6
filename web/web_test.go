package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"incidentlib/internal/testcatalog"
	"incidentlib/locales"
)

func newTestServer(t testing.TB) *Server { return newTestServerWith(t, 1000, 1000) }

func newTestServerWith(t testing.TB, rate float64, burst int) *Server {
	t.Helper()
	b, err := locales.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{Catalog: testcatalog.Open(t), Bundle: b, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BaseURL: "http://example.com", RateLimit: rate, RateBurst: burst})
}

type response struct {
	status int
	header http.Header
	body   string
	doc    *goquery.Document
}

func get(t testing.TB, s http.Handler, path string, headers ...string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(rec.Body.String()))
	return response{rec.Code, rec.Header(), rec.Body.String(), doc}
}

func texts(sel *goquery.Selection) []string {
	var out []string
	sel.Each(func(_ int, s *goquery.Selection) { out = append(out, strings.TrimSpace(s.Text())) })
	return out
}

func TestPages(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name   string
		path   string
		status int
		sel    string // a CSS selector that must match
		want   string // text the selection must contain
	}{
		{"listing ko", "/ko/", 200, ".count", "9건 중 1~9번째"},
		{"listing en", "/en/", 200, ".count", "1–9 of 9 cases"},
		{"listing html lang", "/en/", 200, "html[lang=en]", ""},
		{"filtered listing", "/en/?cause=power-facility", 200, ".count", "1–3 of 3 cases"},
		{"filter sentence", "/en/?cause=power-facility", 200, ".list-sentence", "Filters only, no search words."},
		{"order said once", "/en/?cause=power-facility", 200, ".sort .current", "Newest"},
		{"search order", "/en/?q=fire", 200, ".sort .current", "Best match"},
		{"chip for applied filter", "/ko/?cause=power-facility", 200, ".applied .chip", "전력·시설"},
		{"one case singular", "/en/?org=kakao", 200, ".count", "1–1 of 1 case"},
		{"suggested filter", "/en/?q=dns", 200, ".suggestions .chip", "DNS"},
		{"case page en", "/en/cases/IL-0003", 200, "h1", "Kakao"},
		{"case page ko", "/ko/cases/IL-0003", 200, "h1", "카카오"},
		{"case facts dash", "/en/cases/IL-0003", 200, ".facts dd", ""},
		{"case date ko", "/ko/cases/IL-0003", 200, ".case-meta time", "2022년 10월 15일"},
		{"case date en", "/en/cases/IL-0003", 200, ".case-meta time", "15 Oct 2022"},
		{"case sources", "/en/cases/IL-0003", 200, "#sources li", "archived copy"},
		{"case related reasons", "/en/cases/IL-0003", 200, "#related .reasons", "same kind of cause"},
		{"case related reasons ko", "/ko/cases/IL-0003", 200, "#related .reasons", "같은 원인"},
		{"case json link", "/en/cases/IL-0003", 200, ".machine-links a[href='/api/v1/cases/IL-0003']", ""},
		{"case og tags", "/en/cases/IL-0003", 200, "meta[property='og:type'][content=article]", ""},
		{"case permalink", "/en/cases/IL-0003", 200, "input#permalink[value$='/en/cases/IL-0003']", ""},
		{"back to results keeps filters", "/en/cases/IL-0003?from=cause%3Dpower-facility", 200, ".crumbs a[href='/en/?cause=power-facility']", ""},
		{"topic cause", "/en/causes/power-facility", 200, ".topic-count", "3 cases."},
		{"topic org ko", "/ko/orgs/google-cloud", 200, "h1", "Google Cloud"},
		{"topic year chart", "/en/causes/power-facility", 200, ".year-chart rect", ""},
		{"graph page", "/en/graph", 200, "svg.graph a.node[href='/en/causes/power-facility']", ""},
		{"unknown case 404 en", "/en/cases/IL-9999", 404, ".lede", "There is no case IL-9999"},
		{"unknown case 404 ko", "/ko/cases/IL-9999", 404, ".lede", "IL-9999 사례는 없습니다"},
		{"unknown topic 404", "/en/causes/gremlins", 404, ".lede", "gremlins"},
		{"unknown kind 404", "/en/colors/red", 404, "a[href='/en/']", ""},
		{"unknown path 404", "/en/nothing/here/at/all", 404, "h1", "Page not found"},
		{"bad page 400", "/en/?page=abc", 400, ".lede", "The page number “abc” is not valid"},
		{"zero page 400", "/ko/?page=0", 400, ".lede", "페이지 번호 “0”"},
		{"page past the end 400", "/en/?page=5", 400, ".lede", "There is no page 5: this list ends at page 1."},
		{"zero page 400 en", "/en/?page=0", 400, ".lede", "“0” is not valid: pages are whole numbers from 1 up."},
		{"huge page 400", "/en/?page=99999999999999999999", 400, ".lede", "this list ends at page 1."},
		{"topic page past the end 400", "/ko/causes/power-facility?page=3", 400, ".lede", "3페이지는 없습니다. 이 목록은 1페이지까지 있습니다."},
		{"topic zero page 400", "/en/causes/power-facility?page=-2", 400, ".lede", "pages are whole numbers from 1 up"},
		{"unknown filter value dropped", "/en/?cause=gremlins", 200, ".notice", "No cause “gremlins”, so it was left out."},
		{"long query 400", "/en/?q=" + strings.Repeat("a", 201), 400, ".lede", "at most 200 characters"},
		{"bad sort 400", "/en/?sort=random", 400, ".lede", "newest, oldest or relevance"},
		{"malformed query 400", "/en/?q=%zz", 400, ".lede", "malformed query string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := get(t, s, tt.path)
			if r.status != tt.status {
				t.Fatalf("GET %s = %d, want %d", tt.path, r.status, tt.status)
			}
			sel := r.doc.Find(tt.sel)
			if sel.Length() == 0 {
				t.Fatalf("GET %s: nothing matches %q", tt.path, tt.sel)
			}
			if tt.want != "" && !strings.Contains(strings.Join(texts(sel), "\n"), tt.want) {
				t.Errorf("GET %s: %q = %q, want it to contain %q", tt.path, tt.sel, texts(sel), tt.want)
			}
		})
	}
}

// Filters narrow the list, and each card shown carries the filtered value.
func TestFilterNarrowsCards(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?cause=config-change&org=cloudflare")
	got := texts(r.doc.Find(".card .case-id"))
	want := []string{"IL-0048", "IL-0090"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("cards = %v, want %v", got, want)
	}
}

// A chip's link removes exactly its own filter.
func TestChipRemovesOneFilter(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?cause=config-change&org=cloudflare")
	var href string
	r.doc.Find(".applied .chip").Each(func(_ int, c *goquery.Selection) {
		if strings.Contains(c.Text(), "Cloudflare") {
			href, _ = c.Attr("href")
		}
	})
	if href != "/en/?cause=config-change" {
		t.Fatalf("Cloudflare chip links to %q, want /en/?cause=config-change", href)
	}
	r = get(t, s, href)
	if got := texts(r.doc.Find(".count")); len(got) == 0 || !strings.Contains(got[0], "of 3 cases") {
		t.Errorf("after removing the chip: %v, want 3 cases", got)
	}
	if clear, _ := r.doc.Find(".clear-all").Attr("href"); clear != "/en/" {
		t.Errorf("clear all = %q, want /en/", clear)
	}
}

// The language switch keeps the page and its filters.
func TestLanguageSwitchKeepsPageAndFilters(t *testing.T) {
	s := newTestServer(t)
	for path, want := range map[string]string{
		"/en/?cause=config-change&q=bgp": "/ko/?cause=config-change&q=bgp",
		"/ko/cases/IL-0090":              "/en/cases/IL-0090",
		"/en/orgs/cloudflare":            "/ko/orgs/cloudflare",
	} {
		r := get(t, s, path)
		href, _ := r.doc.Find("a.lang-switch").Attr("href")
		u, err := url.Parse(href)
		if err != nil || u.Path != "/lang/"+want[1:3] || u.Query().Get("to") != want {
			t.Errorf("switch on %s = %q, want /lang/%s?to=%s", path, href, want[1:3], want)
			continue
		}
		sw := get(t, s, href)
		if sw.status != http.StatusSeeOther || sw.header.Get("Location") != want ||
			!strings.Contains(sw.header.Get("Set-Cookie"), "lang="+want[1:3]) || sw.header.Get("Cache-Control") != "no-store" {
			t.Errorf("following the switch: %d to %q, cookie %q", sw.status, sw.header.Get("Location"), sw.header.Get("Set-Cookie"))
		}
		if alt, _ := r.doc.Find("link[rel=alternate][hreflang=ko]").Attr("href"); !strings.HasSuffix(alt, strings.Replace(want, "/en/", "/ko/", 1)) && !strings.HasSuffix(alt, want) {
			t.Errorf("hreflang ko on %s = %q", path, alt)
		}
	}
}

func TestRedirectsByCookieThenAcceptLanguage(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		path    string
		headers []string
		want    string
	}{
		{"/", nil, "/ko/"},
		{"/", []string{"Accept-Language", "en-US,en;q=0.9"}, "/en/"},
		{"/", []string{"Accept-Language", "en-US", "Cookie", "lang=ko"}, "/ko/"},
		{"/cases/IL-0003", []string{"Accept-Language", "en"}, "/en/cases/IL-0003"},
		{"/causes/expiry?x=1", nil, "/ko/causes/expiry?x=1"},
		{"/en", nil, "/en/"},
	}
	for _, tt := range tests {
		r := get(t, s, tt.path, tt.headers...)
		if r.status/100 != 3 || r.header.Get("Location") != tt.want {
			t.Errorf("GET %s %v = %d %q, want redirect to %q", tt.path, tt.headers, r.status, r.header.Get("Location"), tt.want)
		}
	}
	// Nothing redirects to another host.
	for _, p := range []string{"//evil.example/", "/%2F%2Fevil.example", "/cases//evil.example"} {
		r := get(t, s, p)
		if loc := r.header.Get("Location"); strings.Contains(loc, "evil") && !strings.HasPrefix(loc, "/ko/") && !strings.HasPrefix(loc, "/en/") {
			t.Errorf("GET %s redirects to %q", p, loc)
		}
	}
}

var rawID = regexp.MustCompile(`\b(list|case|nav|error|graph|topic|search|pager|kind|kinds|sort|source|severity|reason|footer|site|feed)\.[a-z_]+\b`)

// No page shows a raw message id or a class templ could not write, in either language.
func TestNoRawMessageIDs(t *testing.T) {
	s := newTestServer(t)
	for _, lang := range []string{"ko", "en"} {
		for _, p := range []string{"/", "/?q=dns&cause=config-change", "/?q=zzzz", "/cases/IL-0003", "/cases/IL-0136", "/causes/power-facility", "/orgs/kakao", "/graph", "/cases/IL-9999", "/?page=x"} {
			r := get(t, s, "/"+lang+p)
			text := r.doc.Find("body").Text()
			r.doc.Find("[aria-label],[placeholder],[title],[content]").Each(func(_ int, s *goquery.Selection) {
				for _, a := range []string{"aria-label", "placeholder", "title", "content"} {
					v, _ := s.Attr(a)
					text += " " + v
				}
			})
			if m := rawID.FindString(text); m != "" {
				t.Errorf("/%s%s shows the raw message id %q", lang, p, m)
			}
			// templ writes this class for a value it cannot use as one, such as a typed string
			if strings.Contains(r.body, "templ-css-class-unknown-type") {
				t.Errorf("/%s%s has a class templ could not write", lang, p)
			}
		}
	}
}

// Script tags in queries are escaped, never executed.
func TestEscapesInput(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?q="+url.QueryEscape(`<script>alert(1)</script>`))
	if strings.Contains(r.body, "<script>alert") {
		t.Error("search words were written into the page unescaped")
	}
	if r.doc.Find("script:not([src])").Length() > 0 {
		t.Error("the page has an inline script")
	}
}

func TestSecurityHeaders(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/")
	for h, want := range map[string]string{
		"Content-Security-Policy": "frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "strict-origin-when-cross-origin",
	} {
		if !strings.Contains(r.header.Get(h), want) {
			t.Errorf("%s = %q, want %q", h, r.header.Get(h), want)
		}
	}
	if strings.Contains(r.body, " style=") {
		t.Error("a page uses an inline style attribute, which the CSP forbids")
	}
}

func TestStaticAssetsAreHashedAndImmutable(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/")
	href, _ := r.doc.Find("link[rel=stylesheet]").Attr("href")
	if !regexp.MustCompile(`^/static/css/site\.[0-9a-f]{10}\.css$`).MatchString(href) {
		t.Fatalf("stylesheet href = %q, want a content-hashed name", href)
	}
	a := get(t, s, href, "Accept-Encoding", "gzip")
	if a.status != 200 || !strings.Contains(a.header.Get("Cache-Control"), "immutable") || a.header.Get("Content-Encoding") != "gzip" {
		t.Errorf("GET %s = %d, Cache-Control %q, Content-Encoding %q", href, a.status, a.header.Get("Cache-Control"), a.header.Get("Content-Encoding"))
	}
	if get(t, s, "/static/css/site.css").status != 404 {
		t.Error("an unhashed asset name is served")
	}
}

func TestHealth(t *testing.T) {
	s := newTestServer(t)
	if r := get(t, s, "/healthz"); r.status != 200 {
		t.Errorf("GET /healthz = %d", r.status)
	}
	if r := get(t, s, "/readyz"); r.status != 503 {
		t.Errorf("GET /readyz before the index is loaded = %d, want 503", r.status)
	}
	if err := s.cat.Warm(t.Context()); err != nil {
		t.Fatal(err)
	}
	if r := get(t, s, "/readyz"); r.status != 200 {
		t.Errorf("GET /readyz when warm = %d, want 200", r.status)
	}
}

func TestMetricsCountRequests(t *testing.T) {
	s := newTestServer(t)
	get(t, s, "/en/cases/IL-0003")
	get(t, s, "/en/cases/IL-9999")
	r := get(t, s, "/metrics")
	for _, want := range []string{`incidentlib_http_requests_total{code="200",route="/:lang/cases/:id"} 1`, `incidentlib_http_requests_total{code="404",route="/:lang/cases/:id"} 1`, "incidentlib_http_request_duration_seconds_bucket"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// Pages are rendered once and then served from memory, compressed, with an ETag.
func TestPageCache(t *testing.T) {
	s := newTestServer(t)
	first := get(t, s, "/en/cases/IL-0003")
	second := get(t, s, "/en/cases/IL-0003", "Accept-Encoding", "gzip")
	if first.status != 200 || second.status != 200 || second.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("statuses %d %d, encoding %q", first.status, second.status, second.header.Get("Content-Encoding"))
	}
	etag, gzETag := first.header.Get("ETag"), second.header.Get("ETag")
	if etag == "" || gzETag == "" || gzETag == etag {
		t.Errorf("ETags %q and %q, want one per encoding", etag, gzETag)
	}
	if get(t, s, "/en/cases/IL-0003", "If-None-Match", etag).status != 304 {
		t.Error("If-None-Match did not give 304")
	}
	if get(t, s, "/en/cases/IL-0003", "If-None-Match", gzETag, "Accept-Encoding", "gzip").status != 304 {
		t.Error("If-None-Match with the gzip ETag did not give 304")
	}
	if r := get(t, s, "/en/cases/IL-0003", "If-None-Match", gzETag); r.status != 200 || r.body != first.body {
		t.Errorf("the gzip ETag without gzip = %d, want 200 with the page", r.status)
	}
	if third := get(t, s, "/en/cases/IL-0003"); third.body != first.body {
		t.Error("the cached page differs from the rendered one")
	}
	if r := get(t, s, "/en/cases/IL-9999"); r.status != 404 {
		t.Errorf("a missing case is %d after caching", r.status)
	}
	if r := get(t, s, "/ko/cases/IL-0003"); r.header.Get("Set-Cookie") != "" {
		t.Error("a page sets a cookie, so shared caches will not keep it")
	}
}

// A case opened from a filtered listing leads back to that listing.
func TestCaseLeadsBackToListing(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?cause=config-change&org=cloudflare")
	href, _ := r.doc.Find(".card-title a").First().Attr("href")
	if !strings.HasPrefix(href, "/en/cases/IL-0048?from=") {
		t.Fatalf("card link = %q, want the case with ?from=", href)
	}
	c := get(t, s, href)
	back, _ := c.doc.Find(".crumbs a").Attr("href")
	if back != "/en/?cause=config-change&org=cloudflare" {
		t.Errorf("back link = %q, want the listing", back)
	}
	if canon, _ := c.doc.Find("link[rel=canonical]").Attr("href"); !strings.HasSuffix(canon, "/en/cases/IL-0048") {
		t.Errorf("canonical = %q, want the bare permalink", canon)
	}
}

// Cached pages are answered before routing with the same headers as the rendered ones.
func TestFastPathKeepsHeaders(t *testing.T) {
	s := newTestServer(t)
	first := get(t, s, "/ko/causes/power-facility")
	second := get(t, s, "/ko/causes/power-facility", "Cookie", "lang=ko")
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Content-Type", "ETag", "Cache-Control"} {
		if first.header.Get(h) == "" || first.header.Get(h) != second.header.Get(h) {
			t.Errorf("%s: rendered %q, cached %q", h, first.header.Get(h), second.header.Get(h))
		}
	}
	if a, b := first.header.Get("X-Request-Id"), second.header.Get("X-Request-Id"); a == "" || b == "" || a == b {
		t.Errorf("request ids %q and %q, want two different ones", a, b)
	}
	if first.header.Get("Set-Cookie") != "" || second.header.Get("Set-Cookie") != "" {
		t.Error("a page sets a cookie")
	}
	if first.body != second.body {
		t.Error("cached body differs")
	}
	// a made-up parameter is answered from the same entry, not kept as a copy
	before := len(s.cache.items)
	if r := get(t, s, "/ko/causes/power-facility?utm=1"); r.body != first.body {
		t.Error("a made-up parameter changed the page")
	}
	if len(s.cache.items) != before {
		t.Error("a URL with an unknown parameter was kept as another entry")
	}
}
