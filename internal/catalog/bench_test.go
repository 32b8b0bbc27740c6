package catalog_test

import (
	"context"
	"os"
	"testing"

	"incidentlib/internal/catalog"
	"incidentlib/internal/testcatalog"
)

// Benchmarks of the store's main queries. They run on the fixture catalog, or on the catalog file
// named by BENCH_DB (a synthetic one from cmd/gencatalog, or data/embedded/catalog.db):
//
//	go test -run '^$' -bench . -benchmem ./internal/catalog/
//	BENCH_DB=/tmp/cat100k.db go test -run '^$' -bench . -benchmem ./internal/catalog/

// benchCase is a case present in the fixtures, the real catalog and every synthetic one.
const benchCase = "IL-0003"

// benchSearch is a search with matches in every catalog.
const benchSearch = "power outage"

func benchStore(b *testing.B) *catalog.Store {
	b.Helper()
	path := os.Getenv("BENCH_DB")
	var s *catalog.Store
	if path == "" {
		s = testcatalog.Open(b)
	} else {
		var err error
		if s, err = catalog.Open(path); err != nil {
			b.Fatalf("open BENCH_DB: %v", err)
		}
		b.Cleanup(func() { s.Close() })
	}
	if err := s.Warm(context.Background()); err != nil { // as the server does at startup
		b.Fatal(err)
	}
	return s
}

// benchFilter is two filters of different kinds that select benchCase: its main cause and its
// main component, so the listing is never empty whatever the catalog.
func benchFilter(b *testing.B, s *catalog.Store) catalog.Filter {
	b.Helper()
	c, err := s.Case(context.Background(), "en", benchCase)
	if err != nil {
		b.Fatal(err)
	}
	causes, comps := c.Values(catalog.KindCause), c.Values(catalog.KindComponent)
	if len(causes) == 0 || len(comps) == 0 {
		b.Fatalf("%s has no cause or no component", benchCase)
	}
	return catalog.Filter{Values: map[catalog.Kind][]string{
		catalog.KindCause:     {causes[0].Slug},
		catalog.KindComponent: {comps[0].Slug},
	}}
}

func BenchmarkStoreCase(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Case(ctx, "en", benchCase); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStoreCasesTwoFilters(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	f := benchFilter(b, s)
	b.ReportAllocs()
	for b.Loop() {
		r, err := s.Cases(ctx, "en", f)
		if err != nil {
			b.Fatal(err)
		}
		if r.Total == 0 {
			b.Fatal("two filters: no case")
		}
	}
}

func BenchmarkStoreCasesSearch(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r, err := s.Cases(ctx, "en", catalog.Filter{Q: benchSearch})
		if err != nil {
			b.Fatal(err)
		}
		if r.Total == 0 {
			b.Fatalf("search %q: no case", benchSearch)
		}
	}
}

func BenchmarkStoreCasesSearchKo(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Cases(ctx, "ko", catalog.Filter{Q: "데이터센터 화재"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStoreTopic(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	f := benchFilter(b, s)
	cause := f.Values[catalog.KindCause][0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Topic(ctx, "en", catalog.KindCause, cause); err != nil {
			b.Fatal(err)
		}
	}
}
