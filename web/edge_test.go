package web

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/testcatalog"
	"incidentlib/locales"
	"incidentlib/static"
)

// liveServer runs a server over the test catalog on a real socket.
func liveServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	b, err := locales.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Catalog, cfg.Bundle = testcatalog.Open(t), b
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://example.com"
	}
	ts := httptest.NewServer(New(cfg))
	t.Cleanup(ts.Close)
	return ts
}

type live struct {
	status int
	header http.Header
	body   string
}

// do sends one request without following redirects or decompressing.
func do(t *testing.T, ts *httptest.Server, method, path string, headers ...string) live {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return live{resp.StatusCode, resp.Header, string(b)}
}

// A browser revalidating after a restart asks a server whose cache is empty: it gets 304, or
// the page, never an empty 200.
func TestConditionalGetOnColdCache(t *testing.T) {
	first := liveServer(t, Config{})
	plain := do(t, first, "GET", "/en/cases/IL-0003")
	gz := do(t, first, "GET", "/en/cases/IL-0003", "Accept-Encoding", "gzip")
	if plain.status != 200 || plain.header.Get("ETag") == "" || gz.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("first answers: %d %q, gzip %q", plain.status, plain.header.Get("ETag"), gz.header.Get("Content-Encoding"))
	}
	for _, tt := range []struct{ name, etag, enc string }{
		{"identity", plain.header.Get("ETag"), ""},
		{"gzip", gz.header.Get("ETag"), "gzip"},
	} {
		restarted := liveServer(t, Config{})
		r := do(t, restarted, "GET", "/en/cases/IL-0003", "If-None-Match", tt.etag, "Accept-Encoding", tt.enc)
		if r.status != http.StatusNotModified && (r.status != 200 || len(r.body) == 0) {
			t.Errorf("%s: revalidation after restart = %d with %d bytes, want 304 or the page", tt.name, r.status, len(r.body))
		}
		if r.status == http.StatusNotModified && r.header.Get("ETag") != tt.etag {
			t.Errorf("%s: 304 carries ETag %q, want %q", tt.name, r.header.Get("ETag"), tt.etag)
		}
	}
	cold := liveServer(t, Config{})
	if r := do(t, cold, "GET", "/en/cases/IL-0003", "If-None-Match", `"not-this-one"`); r.status != 200 || !strings.Contains(r.body, "IL-0003") {
		t.Errorf("a stale ETag on a cold cache = %d with %d bytes, want the page", r.status, len(r.body))
	}
	if r := do(t, cold, "GET", "/en/cases/IL-0003", "If-None-Match", "*"); r.status != http.StatusNotModified {
		t.Errorf("If-None-Match: * = %d, want 304", r.status)
	}
}

// HEAD answers like GET, without a body, on every kind of route, cached or not.
func TestHeadMirrorsGet(t *testing.T) {
	ts := liveServer(t, Config{})
	paths := []string{"/en/cases/IL-0003", "/ko/", "/en/graph", "/en/causes/config-change", "/sitemap.xml", "/robots.txt",
		"/healthz", "/readyz", "/metrics", "/static/" + strings.TrimPrefix(static.Path("css/site.css"), "/static/"),
		"/api/v1/cases", "/api/v1/cases/IL-0003", "/en/cases/IL-9999", "/en/feed.xml"}
	for _, p := range paths {
		head := do(t, ts, "HEAD", p) // first, on a cold cache
		get := do(t, ts, "GET", p)
		if head.status != get.status {
			t.Errorf("HEAD %s = %d, GET = %d", p, head.status, get.status)
		}
		if head.body != "" {
			t.Errorf("HEAD %s has a body of %d bytes", p, len(head.body))
		}
		if head.header.Get("Content-Type") != get.header.Get("Content-Type") {
			t.Errorf("HEAD %s Content-Type %q, GET %q", p, head.header.Get("Content-Type"), get.header.Get("Content-Type"))
		}
		if p != "/metrics" && get.header.Get("ETag") != head.header.Get("ETag") {
			t.Errorf("HEAD %s ETag %q, GET %q", p, head.header.Get("ETag"), get.header.Get("ETag"))
		}
	}
}

// Other methods on a page get 405 with Allow; an unknown path is still 404.
func TestOtherMethods(t *testing.T) {
	ts := liveServer(t, Config{})
	for _, p := range []string{"/en/cases/IL-0003", "/ko/", "/sitemap.xml", "/api/v1/cases"} {
		r := do(t, ts, "POST", p)
		if r.status != http.StatusMethodNotAllowed || !strings.Contains(r.header.Get("Allow"), "GET") {
			t.Errorf("POST %s = %d, Allow %q; want 405 with Allow", p, r.status, r.header.Get("Allow"))
		}
	}
	if r := do(t, ts, "DELETE", "/nothing/here/at/all"); r.status != http.StatusNotFound {
		t.Errorf("DELETE on an unknown path = %d, want 404", r.status)
	}
	if r := do(t, ts, "POST", "/en/cases/IL-0003"); !strings.Contains(r.body, "GET") {
		t.Errorf("405 page does not say which methods work: %.200s", r.body)
	}
}

// URL variants go to the canonical URL with one 301, changing only what was off.
func TestURLVariantsRedirect(t *testing.T) {
	ts := liveServer(t, Config{})
	for from, to := range map[string]string{
		"/en/cases/IL-0003/":           "/en/cases/IL-0003",
		"/en/graph/":                   "/en/graph",
		"/en/causes/x/":                "/en/causes/x",
		"/api/v1/cases/IL-0003/":       "/api/v1/cases/IL-0003",
		"/en/cases/il-0003":            "/en/cases/IL-0003",
		"/en/cases/IL0003":             "/en/cases/IL-0003",
		"/en/cases/il0003/":            "/en/cases/IL-0003",
		"/ko/cases/il-0003?from=q%3D":  "/ko/cases/IL-0003?from=q%3D",
		"/api/v1/cases/il0003":         "/api/v1/cases/IL-0003",
		"/api/v1/cases/il0003/similar": "/api/v1/cases/IL-0003/similar",
		"/cases/il0003":                "/cases/IL-0003",
		"/en//":                        "/en/",
	} {
		r := do(t, ts, "GET", from)
		if r.status != http.StatusMovedPermanently || r.header.Get("Location") != to {
			t.Errorf("GET %s = %d to %q, want 301 to %s", from, r.status, r.header.Get("Location"), to)
		}
	}
	for _, p := range []string{"/en/", "/ko/", "/en/cases/IL-0003"} {
		if r := do(t, ts, "GET", p); r.status != 200 {
			t.Errorf("canonical %s = %d", p, r.status)
		}
	}
	if r := do(t, ts, "GET", "//evil.example/"); strings.HasPrefix(r.header.Get("Location"), "//") {
		t.Errorf("//evil.example/ redirects off the site to %q", r.header.Get("Location"))
	}
	if r := do(t, ts, "GET", "/en/?q=a;b"); r.status != 200 || !strings.Contains(r.body, `value="a;b"`) {
		t.Errorf("a raw ; in the query = %d, want 200 searching for a;b", r.status)
	}
}

// Pages can be kept by shared caches: no cookie, s-maxage; the language redirects say what
// they vary on.
func TestSharedCacheHeaders(t *testing.T) {
	ts := liveServer(t, Config{})
	for _, p := range []string{"/en/", "/ko/cases/IL-0003", "/en/causes/config-change"} {
		for i := 0; i < 2; i++ { // rendered, then cached
			r := do(t, ts, "GET", p)
			if r.header.Get("Set-Cookie") != "" {
				t.Errorf("%s sets a cookie", p)
			}
			cc := r.header.Get("Cache-Control")
			if !strings.Contains(cc, "public") || !strings.Contains(cc, "s-maxage=") || !strings.Contains(cc, "stale-while-revalidate=") {
				t.Errorf("%s Cache-Control %q", p, cc)
			}
		}
	}
	for _, p := range []string{"/", "/cases/IL-0003"} {
		r := do(t, ts, "GET", p, "Accept-Language", "en")
		if r.status != http.StatusFound || !strings.Contains(r.header.Get("Vary"), "Accept-Language") ||
			!strings.Contains(r.header.Get("Vary"), "Cookie") || !strings.Contains(r.header.Get("Cache-Control"), "private") ||
			!strings.Contains(r.header.Get("Set-Cookie"), "lang=en") {
			t.Errorf("redirect of %s: %d, Vary %q, Cache-Control %q, cookie %q", p, r.status, r.header.Get("Vary"),
				r.header.Get("Cache-Control"), r.header.Get("Set-Cookie"))
		}
	}
}

// Accept-Encoding is read by the RFC: q=0 refuses, case does not matter, * stands for gzip.
func TestAcceptEncoding(t *testing.T) {
	ts := liveServer(t, Config{})
	do(t, ts, "GET", "/en/cases/IL-0003")
	for ae, want := range map[string]bool{"gzip": true, "GZIP": true, "gzip;q=0": false, "br, gzip;q=0.5": true,
		"*": true, "identity": false, "*;q=0": false, "gzip;q=0, *": false, "deflate, gzip; q=0.001": true} {
		r := do(t, ts, "GET", "/en/cases/IL-0003", "Accept-Encoding", ae)
		if got := r.header.Get("Content-Encoding") == "gzip"; got != want {
			t.Errorf("Accept-Encoding %q: gzip = %v, want %v", ae, got, want)
		}
	}
}

// The cache keeps one entry per page whatever is added to the URL or the Host, and links are
// built on the configured base URL.
func TestCacheKeysAndHost(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	for i := 0; i < 50; i++ {
		do(t, ts, "GET", fmt.Sprintf("/robots.txt?q=%d", i))
		do(t, ts, "GET", "/en/cases/IL-0003", "Host", fmt.Sprintf("h%d.evil.example", i))
		do(t, ts, "GET", fmt.Sprintf("/en/cases/IL-0003?utm_source=%d", i))
	}
	if n := len(s.cache.items); n != 2 {
		t.Errorf("cache holds %d entries after 150 variants of 2 answers, want 2", n)
	}
	r := do(t, ts, "GET", "/en/cases/IL-0003", "Host", "evil.example")
	if strings.Contains(r.body, "evil.example") {
		t.Error("a page links to the request's Host")
	}
	if !strings.Contains(r.body, `href="http://example.com/en/cases/IL-0003"`) {
		t.Error("the canonical link is not on the base URL")
	}
}

// Each entry is charged for what it really holds, so the cache stays within its bound.
func TestCacheBound(t *testing.T) {
	rc := newResponseCache()
	for i := 0; i < 100000; i++ {
		rc.put(fmt.Sprintf("/en/?q=%d", i), &cachedResponse{header: http.Header{"Content-Type": {"text/html"}}, body: []byte("x")})
	}
	if rc.bytes > maxCacheBytes {
		t.Errorf("cache counts %d bytes, over its bound %d", rc.bytes, maxCacheBytes)
	}
	if n := len(rc.items); n > maxCacheBytes/entryOverhead {
		t.Errorf("cache holds %d tiny entries; their overhead is not counted", n)
	}
}

// A client that never reads its answer holds no render slot: uncached pages are still rendered
// for everyone else.
func TestSlowReadersHoldNoSlot(t *testing.T) {
	ts := liveServer(t, Config{})
	addr := strings.TrimPrefix(ts.URL, "http://")
	for i := 0; i < 3*renderSlots()+2; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.(*net.TCPConn).SetReadBuffer(1024)
		t.Cleanup(func() { c.Close() })
		// large uncached answers that this client never reads
		fmt.Fprintf(c, "GET /api/v1/cases?page_size=100&page=1&q=%d HTTP/1.1\r\nHost: x\r\n\r\n", i)
		fmt.Fprintf(c, "GET /sitemap.xml?n=%d HTTP/1.1\r\nHost: x\r\n\r\n", i)
	}
	time.Sleep(200 * time.Millisecond)
	done := make(chan int, 1)
	go func() {
		resp, err := http.Get(ts.URL + "/en/cases/IL-0003")
		if err != nil {
			done <- -1
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	select {
	case st := <-done:
		if st != 200 {
			t.Errorf("uncached page = %d", st)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("an uncached page waited behind clients that do not read")
	}
}

// Rendering pages not in the cache is limited per client; cached pages are not.
func TestRenderBudgetPerClient(t *testing.T) {
	ts := liveServer(t, Config{RenderRate: 0.01, RenderBurst: 3})
	do(t, ts, "GET", "/en/cases/IL-0003")
	limited := false
	for i := 0; i < 5; i++ {
		if do(t, ts, "GET", fmt.Sprintf("/en/?q=word%d", i)).status == http.StatusTooManyRequests {
			limited = true
		}
	}
	if !limited {
		t.Error("a client rendered uncached pages past its budget")
	}
	if r := do(t, ts, "GET", "/en/cases/IL-0003"); r.status != 200 {
		t.Errorf("a cached page = %d for a client over its render budget", r.status)
	}
}

// Behind a trusted proxy each forwarded client has its own bucket; from anyone else the header
// is ignored.
func TestTrustedProxy(t *testing.T) {
	trusted, _ := ParseCIDRs("127.0.0.1")
	for _, tt := range []struct {
		name    string
		trusted bool
		want429 bool
	}{{"trusted", true, false}, {"untrusted", false, true}} {
		cfg := Config{RateLimit: 0.01, RateBurst: 1}
		if tt.trusted {
			cfg.TrustedProxies = trusted
		}
		ts := liveServer(t, cfg)
		got429 := false
		for i := 0; i < 3; i++ {
			r := do(t, ts, "GET", "/api/v1/vocab", "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i+1))
			if r.status == http.StatusTooManyRequests {
				got429 = true
			}
		}
		if got429 != tt.want429 {
			t.Errorf("%s proxy: three forwarded clients, 429 = %v, want %v", tt.name, got429, tt.want429)
		}
	}
}

// 413 names the problem in the request's language; long queries are echoed in full once.
func TestSmallThings(t *testing.T) {
	ts := liveServer(t, Config{})
	big := strings.Repeat("x", 70<<10)
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "en")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(b), `"payload_too_large"`) || !strings.Contains(string(b), "too large") {
		t.Errorf("oversized POST = %d %s", resp.StatusCode, b)
	}
	q := strings.Repeat("데이터베이스장애", 20)
	r := do(t, ts, "GET", "/ko/?q="+q)
	if n := strings.Count(r.body, q); n != 1 {
		t.Errorf("a long query appears %d times in the page, want once (the search box)", n)
	}
	for p, want := range map[string]bool{"/en/?q=dns": true, "/en/?cause=config-change&org=cloudflare": true,
		"/en/?cause=config-change": false, "/en/causes/config-change": false, "/en/": false} {
		r := do(t, ts, "GET", p)
		if got := strings.Contains(r.body, `<meta name="robots" content="noindex, follow">`); got != want {
			t.Errorf("%s noindex = %v, want %v", p, got, want)
		}
	}
}

// A batch of MCP calls is bounded, and ids come back exactly as sent.
func TestMCPBatchesAndIDs(t *testing.T) {
	ts := liveServer(t, Config{})
	post := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, id := range []string{"1e20", "1.5", "9007199254740993", `"abc"`, "7"} {
		status, body := post(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`)
		if status != 200 || !strings.Contains(body, `"id":`+id+`,`) && !strings.Contains(body, `"id":`+id+`}`) {
			t.Errorf("id %s: %d %.200s", id, status, body)
		}
	}
	var calls []string
	for i := 0; i < 50; i++ {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"vocab","arguments":{}}}`, i))
	}
	status, body := post("[" + strings.Join(calls, ",") + "]")
	if status != http.StatusBadRequest || !strings.Contains(body, "batch") {
		t.Errorf("a batch of 50 calls = %d %.200s, want 400", status, body)
	}
}

// The header of an answer is complete before the body: a reader that reads the status line
// sees 200 for a rendered page.
func TestStatusLineOfRenderedPage(t *testing.T) {
	ts := liveServer(t, Config{})
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "GET /en/cases/IL-0003 HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"x\"\r\n\r\n")
	line, _ := bufio.NewReader(c).ReadString('\n')
	if !strings.HasPrefix(line, "HTTP/1.1 200") {
		t.Errorf("status line %q", line)
	}
}
