package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// FuzzListingQuery: no query string makes the listing or the API answer 5xx.
func FuzzListingQuery(f *testing.F) {
	s := newTestServer(f)
	for _, q := range []string{"", "q=%22", "page=-1", "cause=config-change&cause=%00", "q=NEAR(a+b)&sort=x", "page=99999999999999999999", "q=%ff%fe", "year=2022&org=kakao", "%zz", "q=" + url.QueryEscape("<script>")} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, path := range []string{"/en/", "/api/v1/cases", "/ko/graph"} {
			req := httptest.NewRequest(http.MethodGet, "http://example.com"+path, nil)
			req.URL.RawQuery = raw
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("GET %s?%s = %d", path, raw, rec.Code)
			}
		}
	})
}

// FuzzPaths: no case id, topic slug or other path makes the server answer 5xx.
func FuzzPaths(f *testing.F) {
	s := newTestServer(f)
	for _, p := range []string{"/en/cases/IL-0003", "/ko/cases/il-0003", "/en/cases/%00", "/en/causes/..%2f", "/cases/x", "/en/orgs/kakao", "/api/v1/cases/IL-0003/similar", "/api/v1/topics/x/y"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		u, err := url.Parse("http://example.com" + p)
		if err != nil || u.Host != "example.com" {
			return
		}
		req := httptest.NewRequest(http.MethodGet, "http://example.com/", nil)
		req.URL = u
		req.RequestURI = u.RequestURI()
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("GET %q = %d", p, rec.Code)
		}
	})
}
