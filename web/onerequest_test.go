package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"incidentlib/internal/testcatalog"
	"incidentlib/locales"
)

// These tests send one bad request each through a real socket, as an attacker would, and check
// that the server answers it as the client's error and goes on answering everyone else.

// startServer serves s on a loopback socket with the timeouts of the real command, shortened.
func startServer(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

// newLoggedServer is a test server whose log is kept, to check what one request writes there.
func newLoggedServer(t *testing.T, cfg Config) (*Server, *bytes.Buffer) {
	t.Helper()
	b, err := locales.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cfg.Catalog, cfg.Bundle, cfg.BaseURL = testcatalog.Open(t), b, "http://example.com"
	cfg.Logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return New(cfg), &log
}

func mcpPost(t *testing.T, base, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /mcp %s: %v", body, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func mustAnswer(t *testing.T, base string) {
	t.Helper()
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the server stopped answering: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestMCPUnknownToolIsAnErrorAndTheServerGoesOn(t *testing.T) {
	ts := startServer(t, newTestServer(t))
	for _, params := range []string{`{"name":"nope"}`, `{"name":""}`, `{}`, `{"name":"vocab","arguments":7}`} {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`
		status, _, got := mcpPost(t, ts.URL, body)
		var msg struct {
			ID    int `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(got), &msg); err != nil {
			t.Fatalf("%s: %d %q is not a JSON-RPC answer", params, status, got)
		}
		if msg.ID != 1 || (msg.Error == nil && (msg.Result == nil || !msg.Result.IsError)) {
			t.Errorf("%s: want an error answer with id 1, got %s", params, got)
		}
		mustAnswer(t, ts.URL)
	}
}

func TestMCPSchemaErrorsSayNoGoInternals(t *testing.T) {
	ts := startServer(t, newTestServer(t))
	cases := map[string]string{
		`{"name":"search_incidents","arguments":[]}`:             "must be a JSON object",
		`{"name":"get_incident","arguments":{}}`:                 `"id" is required`,
		`{"name":"get_incident","arguments":{"id":null}}`:        `"id" must be a string; it was null`,
		`{"name":"search_incidents","arguments":{"cause":"x"}}`:  `"cause" must be an array; it was a string`,
		`{"name":"search_incidents","arguments":{"page":"two"}}`: `"page" must be an integer; it was a string`,
	}
	for params, want := range cases {
		_, _, got := mcpPost(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+params+`}`)
		got = strings.ReplaceAll(got, `\"`, `"`)
		for _, bad := range []string{"reflect", "Go value", "interface {}", "unmarshal"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: the answer shows Go internals (%q): %s", params, bad, got)
			}
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: want %q in %s", params, want, got)
		}
	}
}

func TestMCPIdsComeBackAsSentAndContentIsKept(t *testing.T) {
	ts := startServer(t, newTestServer(t))
	batch := `[{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"vocab","arguments":{"words":"incidentlib-rpc-id-0"}}},` +
		`{"jsonrpc":"2.0","id":"incidentlib-rpc-id-0","method":"ping"},{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}]`
	_, _, got := mcpPost(t, ts.URL, batch)
	var answers []struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &answers); err != nil {
		t.Fatalf("not a batch answer: %s", got)
	}
	ids := map[string]string{}
	for _, a := range answers {
		ids[string(a.ID)] = string(a.Result)
	}
	for _, id := range []string{`1.5`, `"incidentlib-rpc-id-0"`, `12345678901234567890`} {
		if _, ok := ids[id]; !ok {
			t.Errorf("no answer with id %s in %s", id, got)
		}
	}
	if !strings.Contains(ids["1.5"], "incidentlib-rpc-id-0") {
		t.Errorf("the vocab answer lost the words it was given: %s", ids["1.5"])
	}
}

func TestMCPCutOffBodyIsTheClientsError(t *testing.T) {
	s, log := newLoggedServer(t, Config{})
	ts := startServer(t, s)
	for name, send := range map[string]func(net.Conn){
		"cut off": func(c net.Conn) { c.(*net.TCPConn).CloseWrite() },
		"slow":    func(net.Conn) { time.Sleep(600 * time.Millisecond) }, // past the read timeout
	} {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n"+`{"jsonrpc":"2.0","id":1,`)
		send(c)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: no answer: %v", name, err)
		}
		resp.Body.Close()
		c.Close()
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusRequestTimeout {
			t.Errorf("%s body: status %d, want 400 or 408", name, resp.StatusCode)
		}
	}
	mustAnswer(t, ts.URL)
	if strings.Contains(log.String(), "level=ERROR") || strings.Contains(log.String(), "level=WARN") {
		t.Errorf("a client's unfinished body was logged as the server's problem:\n%s", log.String())
	}
}

func TestNoRedirectLeavesTheSite(t *testing.T) {
	ts := startServer(t, newTestServer(t))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/%5Cevil.example/", "/%09/evil.example/", "/%5C%5Cevil.example/", "/%0A/evil.example/",
		"/en/%5Cevil.example/", "/cases/%5Cevil.example/", "/%2F%2Fevil.example/", "/%5C/evil.example/cases/il-0001"} {
		resp, err := client.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if loc == "" {
			continue
		}
		// What a browser does with it: drop tabs and newlines, read backslashes as slashes.
		read := strings.NewReplacer("\t", "", "\n", "", "\r", "", `\`, "/").Replace(loc)
		u, err := url.Parse(read)
		if err != nil || u.Host != "" || !strings.HasPrefix(read, "/") || strings.HasPrefix(read, "//") {
			t.Errorf("GET %s: Location %q leads a browser to another host", p, loc)
		}
	}
}

func TestEarlyRedirectHasSecurityHeaders(t *testing.T) {
	r := get(t, newTestServer(t), "/en/cases/il-0003")
	if r.status != http.StatusMovedPermanently {
		t.Fatalf("status %d, want 301", r.status)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
		if r.header.Get(h) == "" {
			t.Errorf("the 301 has no %s", h)
		}
	}
}

func TestRepeatedUnknownValuesAreBounded(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?"+strings.Repeat("cause=zq&", 1000))
	if r.status != http.StatusBadRequest || len(r.body) > 100_000 {
		t.Errorf("cause=zq 1,000 times: status %d, %d bytes; want a short 400", r.status, len(r.body))
	}
	r = get(t, s, "/en/?cause=zq&cause=zq&cause=zq")
	if n := strings.Count(r.body, "“zq”"); r.status != http.StatusOK || n != 1 {
		t.Errorf("cause=zq three times: status %d, %d notices; want one notice", r.status, n)
	}
	long := strings.Repeat("a", 30_000)
	r = get(t, s, "/en/?org="+long)
	if r.status >= 500 || strings.Contains(r.body, "Did you mean") {
		t.Errorf("a 30,000-character value: status %d; want no suggestion", r.status)
	}
}

func TestIPv6ClientsShareTheirSlash64(t *testing.T) {
	_, trusted, _ := net.ParseCIDR("127.0.0.0/8")
	s, _ := newLoggedServer(t, Config{RateLimit: 1, RateBurst: 1, TrustedProxies: []*net.IPNet{trusted}})
	ts := startServer(t, s)
	status := func(addr string) int {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v1/vocab", nil)
		req.Header.Set("X-Forwarded-For", addr)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("2001:db8:1:2::1"); got != http.StatusOK {
		t.Fatalf("first request: %d", got)
	}
	if got := status("2001:db8:1:2:ffff::9"); got != http.StatusTooManyRequests {
		t.Errorf("another address of the same /64: %d, want 429", got)
	}
	if got := status("2001:db8:1:3::1"); got != http.StatusOK {
		t.Errorf("another /64: %d, want 200", got)
	}
}

func TestClientLimitsAreBounded(t *testing.T) {
	l := newClientLimits(1, 1)
	for i := range maxLimitKeys + 5000 {
		l.Allow(net.IP{10, byte(i >> 16), byte(i >> 8), byte(i)}.String())
	}
	if n := l.lru.Len(); n > maxLimitKeys {
		t.Errorf("%d buckets kept, want at most %d", n, maxLimitKeys)
	}
}

func TestHTTPDetails(t *testing.T) {
	s := newTestServer(t)
	ts := startServer(t, s)
	do := func(method, path string, headers ...string) *http.Response {
		req, _ := http.NewRequest(method, ts.URL+path, nil)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for _, p := range []string{"/en/", "/robots.txt", "/en/feed.xml", "/sitemap.xml", "/ko/cases/IL-0003"} {
		if r := do(http.MethodOptions, p); r.StatusCode != http.StatusNoContent || !strings.Contains(r.Header.Get("Allow"), "GET") {
			t.Errorf("OPTIONS %s: %d Allow %q", p, r.StatusCode, r.Header.Get("Allow"))
		}
	}
	if r := do(http.MethodPost, "/robots.txt"); r.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(r.Header.Get("Allow"), "HEAD") {
		t.Errorf("POST /robots.txt: %d Allow %q", r.StatusCode, r.Header.Get("Allow"))
	}
	req, _ := http.NewRequest("FOO", ts.URL+"/mcp", nil)
	req.Header.Set("Accept-Language", "ko")
	resp, _ := http.DefaultClient.Do(req)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(resp.Header.Get("Allow"), "POST") || !strings.Contains(string(b), "POST") || strings.ContainsRune(string(b), '이') {
		t.Errorf("FOO /mcp: %d Allow %q %s; want 405 naming POST, in English", resp.StatusCode, resp.Header.Get("Allow"), b)
	}
	if r := do(http.MethodGet, "/api/v1/cases/IL-0003/cite?format=csl-json"); r.Header.Get("Content-Type") != cslJSONType {
		t.Errorf("CSL-JSON served as %q", r.Header.Get("Content-Type"))
	}
	if r := do(http.MethodGet, "/api/v1/"); r.StatusCode != http.StatusMovedPermanently || do(http.MethodGet, r.Header.Get("Location")).StatusCode != http.StatusOK {
		t.Errorf("/api/v1/ does not lead to an answer: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	page := get(t, s, "/en/")
	var css string
	page.doc.Find(`link[rel="stylesheet"]`).Each(func(_ int, l *goquery.Selection) { css, _ = l.Attr("href") })
	plain := do(http.MethodGet, css, "Accept-Encoding", "identity").Header.Get("ETag")
	gz := do(http.MethodGet, css, "Accept-Encoding", "gzip").Header.Get("ETag")
	if plain == "" || plain == gz {
		t.Errorf("%s: identity and gzip bodies share the ETag %q", css, plain)
	}
}

func FuzzMCPBody(f *testing.F) {
	s := newTestServer(f)
	for _, b := range []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}`,
		`[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":"x","method":"tools/list"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_incidents","arguments":{"query":"dns","cause":["x"]}}}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"initialize","params":{}}`, `[]`, `[1,2]`, `{`, ``} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "http://example.com/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("POST /mcp %q = %d %s", body, rec.Code, rec.Body)
		}
	})
}

// FuzzIDSwap: the JSON-RPC shim puts back exactly the ids it took, whatever the batch holds.
func FuzzIDSwap(f *testing.F) {
	for _, b := range []string{`{"id":1.5}`, `[{"id":1e20},{"id":"a"},{"id":null}]`, `{"id":123456789012345678901234}`, `[`, `{"id":-0.0}`} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		msgs, _ := splitBatch([]byte(body))
		ids := idSwap{prefix: "p-", orig: map[string]json.RawMessage{}}
		var answers []rpcResponse
		for _, m := range msgs {
			swapped := ids.swap(m)
			var v struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(swapped, &v) == nil && len(v.ID) > 0 {
				answers = append(answers, rpcResponse{JSONRPC: "2.0", ID: v.ID, Result: json.RawMessage(`{}`)})
			}
		}
		if len(answers) == 0 {
			return
		}
		out, _ := json.Marshal(answers)
		var back []rpcResponse
		if err := json.Unmarshal(ids.restore(out), &back); err != nil {
			t.Fatalf("restore broke the answer: %v", err)
		}
		for _, a := range back {
			var s string
			if json.Unmarshal(a.ID, &s) == nil && strings.HasPrefix(s, "p-") {
				t.Fatalf("placeholder %q left in the answer", s)
			}
		}
	})
}

// A page that compresses is kept gzipped only, until a client asks for the plain body; the
// bytes counted follow what is kept.
func TestCacheKeepsGzipOnlyUntilAsked(t *testing.T) {
	s := newTestServer(t)
	gz := get(t, s, "/en/cases/IL-0003", "Accept-Encoding", "gzip")
	cr := s.cache.get("/en/cases/IL-0003")
	if gz.status != 200 || cr == nil || cr.gz == nil {
		t.Fatalf("the page was not kept gzipped (status %d)", gz.status)
	}
	before := s.cache.bytes
	if cr.body != nil || cr.plain.Load() != nil {
		t.Errorf("the plain body is kept beside the gzip one before anyone asked for it")
	}
	plain := get(t, s, "/en/cases/IL-0003")
	if plain.status != 200 || !strings.Contains(plain.body, "</html>") || cr.plain.Load() == nil {
		t.Fatalf("the plain body was not served and kept (status %d)", plain.status)
	}
	if before >= len(plain.body) {
		t.Errorf("the cache counts %d bytes for a page kept gzipped, more than its plain body of %d", before, len(plain.body))
	}
	if grown := s.cache.bytes - before; grown != len(plain.body) {
		t.Errorf("the cache counted %d more bytes for a plain body of %d", grown, len(plain.body))
	}
}
