package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"incidentlib/internal/catalog"
	"incidentlib/internal/testcatalog"
	"incidentlib/locales"
	"incidentlib/web"
)

// Benchmarks of whole requests through ServeHTTP: routing, middleware, the store and rendering.
// They run on the fixture catalog, or on the catalog file named by BENCH_DB:
//
//	go test -run '^$' -bench . -benchmem ./web/
//	BENCH_DB=/tmp/cat100k.db go test -run '^$' -bench . -benchmem ./web/
//
// Each page is benchmarked twice: as is (a repeated URL, which the response cache answers) and
// "Miss", with a new value of a parameter the page reads on every request, so every request is
// rendered from the catalog (the cache ignores parameters a page does not read). The API case
// reads none but lang, so it has no Miss; the case page's renders the same Store.Case.

// benchCase is a case present in the fixtures, the real catalog and every synthetic one.
const benchCase = "IL-0003"

func benchServer(b *testing.B) (*web.Server, *catalog.Store) {
	b.Helper()
	var cat *catalog.Store
	if path := os.Getenv("BENCH_DB"); path != "" {
		var err error
		if cat, err = catalog.Open(path); err != nil {
			b.Fatalf("open BENCH_DB: %v", err)
		}
		b.Cleanup(func() { cat.Close() })
	} else {
		cat = testcatalog.Open(b)
	}
	bundle, err := locales.Bundle()
	if err != nil {
		b.Fatal(err)
	}
	if err := cat.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	return web.New(web.Config{Catalog: cat, Bundle: bundle, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}), cat
}

// twoFilters is a listing query with benchCase's main cause and main component.
func twoFilters(b *testing.B, cat *catalog.Store) string {
	b.Helper()
	c, err := cat.Case(context.Background(), "en", benchCase)
	if err != nil {
		b.Fatal(err)
	}
	causes, comps := c.Values(catalog.KindCause), c.Values(catalog.KindComponent)
	if len(causes) == 0 || len(comps) == 0 {
		b.Fatalf("%s has no cause or no component", benchCase)
	}
	return url.Values{"cause": {causes[0].Slug}, "component": {comps[0].Slug}}.Encode()
}

// missPath is path made new to the response cache with n, as bench/run.sh's miss rows do: a
// case page's "from", a search's words gain "benchN", a listing gains the search "benchN
// network" (its filters' cases name "network", so it lists about the same cases).
func missPath(path string, n int) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	word := "bench" + strconv.Itoa(n)
	switch {
	case strings.Contains(path, "/cases/"):
		return path + sep + "from=q%3D" + word
	case strings.Contains(path, "q="):
		return strings.Replace(path, "q=", "q="+word+"+", 1)
	}
	return path + sep + "q=" + word + "+network"
}

// benchGet requests path b.N times and fails on any status but 200. With miss, every request
// is a new URL to the cache (missPath).
func benchGet(b *testing.B, s http.Handler, path string, miss bool) {
	b.Helper()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		p := path
		if miss {
			n++
			p = missPath(path, n)
		}
		req := httptest.NewRequest(http.MethodGet, p, nil)
		req.RemoteAddr = "127.0.0.1:1234"
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d\n%s", p, rec.Code, rec.Body.String())
		}
	}
}

func BenchmarkCasePage(b *testing.B) {
	s, _ := benchServer(b)
	benchGet(b, s, "/en/cases/"+benchCase, false)
}

func BenchmarkCasePageMiss(b *testing.B) {
	s, _ := benchServer(b)
	benchGet(b, s, "/en/cases/"+benchCase, true)
}

func BenchmarkListingTwoFilters(b *testing.B) {
	s, cat := benchServer(b)
	benchGet(b, s, "/en/?"+twoFilters(b, cat), false)
}

func BenchmarkListingTwoFiltersMiss(b *testing.B) {
	s, cat := benchServer(b)
	benchGet(b, s, "/en/?"+twoFilters(b, cat), true)
}

func BenchmarkSearch(b *testing.B) {
	s, _ := benchServer(b)
	benchGet(b, s, "/en/?q=power+outage", false)
}

func BenchmarkSearchMiss(b *testing.B) {
	s, _ := benchServer(b)
	benchGet(b, s, "/en/?q=power+outage", true)
}

func BenchmarkAPICase(b *testing.B) {
	s, _ := benchServer(b)
	benchGet(b, s, "/api/v1/cases/"+benchCase, false)
}
