package catalog_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
	"incidentlib/internal/testcatalog"
)

func ids(cards []catalog.Card) []string {
	var out []string
	for _, c := range cards {
		out = append(out, c.ID)
	}
	return out
}

func vals(kv ...string) map[catalog.Kind][]string {
	m := map[catalog.Kind][]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[catalog.Kind(kv[i])] = append(m[catalog.Kind(kv[i])], kv[i+1])
	}
	return m
}

func TestCasesFilters(t *testing.T) {
	s := testcatalog.Open(t)
	ctx := context.Background()
	tests := []struct {
		name string
		f    catalog.Filter
		want []string
	}{
		{"one cause, newest first", catalog.Filter{Values: vals("cause", "power-facility")}, []string{"IL-0004", "IL-0003", "IL-0088"}},
		{"values of one kind are OR", catalog.Filter{Values: vals("cause", "config-change", "cause", "operator-error")},
			[]string{"IL-0049", "IL-0048", "IL-0088", "IL-0090", "IL-0093", "IL-0136"}},
		{"kinds are AND", catalog.Filter{Values: vals("cause", "power-facility", "org", "google-cloud")}, []string{"IL-0088"}},
		{"year", catalog.Filter{Values: vals("year", "2018")}, []string{"IL-0130", "IL-0136"}},
		{"oldest first", catalog.Filter{Values: vals("year", "2018"), Sort: catalog.SortOldest}, []string{"IL-0136", "IL-0130"}},
		{"nothing matches", catalog.Filter{Values: vals("org", "kakao", "year", "2018")}, nil},
		{"component and factor", catalog.Filter{Values: vals("component", "database", "factor", "manual-operation")}, []string{"IL-0136"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := s.Cases(ctx, "en", tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(r.Cards)); diff != "" {
				t.Errorf("Cases(%v) ids (-want +got):\n%s", tt.f.Values, diff)
			}
			if r.Total != len(tt.want) {
				t.Errorf("Cases(%v).Total = %d, want %d", tt.f.Values, r.Total, len(tt.want))
			}
		})
	}
}

// Every facet count is the number of cases the listing shows once that value is added.
func TestFacetCountsMatchResults(t *testing.T) {
	s := testcatalog.Open(t)
	ctx := context.Background()
	base := catalog.Filter{Values: vals("cause", "power-facility")}
	r, err := s.Cases(ctx, "ko", base)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, kind := range catalog.FilterKinds {
		for _, f := range r.Facets[kind] {
			g := catalog.Filter{Values: map[catalog.Kind][]string{}}
			for k, v := range base.Values {
				if k != kind {
					g.Values[k] = v
				}
			}
			g.Values[kind] = []string{f.Slug}
			got, err := s.Cases(ctx, "ko", g)
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != f.Count {
				t.Errorf("facet %s/%s count = %d, but the filtered list has %d", kind, f.Slug, f.Count, got.Total)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("checked only %d facet values", checked)
	}
}

func TestSearch(t *testing.T) {
	s := testcatalog.Open(t)
	ctx := context.Background()
	tests := []struct {
		q     string
		first string   // expected first result, if any
		has   []string // ids that must be in the result
	}{
		{q: "카카오", first: "IL-0003"},
		{q: "화재", has: []string{"IL-0003", "IL-0004"}},
		{q: "데이터센터에서", has: []string{"IL-0003", "IL-0004"}},
		{q: "Travis", first: "IL-0136"},
		{q: "IL-0090", first: "IL-0090"},
		{q: "orchestrator failover", first: "IL-0130"},
		{q: "BGP prefixes", has: []string{"IL-0090"}},
		{q: "Atlassian 사이트", first: "IL-0093"},
	}
	for _, tt := range tests {
		r, err := s.Cases(ctx, "ko", catalog.Filter{Q: tt.q})
		if err != nil {
			t.Fatalf("Cases(q=%q) = %v", tt.q, err)
		}
		got := ids(r.Cards)
		if tt.first != "" && (len(got) == 0 || got[0] != tt.first) {
			t.Errorf("Cases(q=%q) = %v, want %s first", tt.q, got, tt.first)
		}
		for _, id := range tt.has {
			if !slices.Contains(got, id) {
				t.Errorf("Cases(q=%q) = %v, want it to include %s", tt.q, got, id)
			}
		}
	}
}

// Searching a case's own title, in either language, puts that case first.
func TestSearchTitleFindsCase(t *testing.T) {
	s := testcatalog.Open(t)
	ctx := context.Background()
	all, _ := s.Cases(ctx, "en", catalog.Filter{PageSize: 100})
	for _, card := range all.Cards {
		for _, lang := range catalog.Langs {
			c, err := s.Case(ctx, lang, card.ID)
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Cases(ctx, lang, catalog.Filter{Q: c.Text.Title})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Cards) == 0 || r.Cards[0].ID != card.ID {
				t.Errorf("search for the %s title of %s = %v, want it first", lang, card.ID, ids(r.Cards))
			}
		}
	}
}

func TestSearchSnippetsMarkMatches(t *testing.T) {
	s := testcatalog.Open(t)
	r, err := s.Cases(context.Background(), "ko", catalog.Filter{Q: "화재"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Cards {
		if c.ID != "IL-0003" && c.ID != "IL-0004" {
			continue // matched through the vocabulary (화재 is an alias of power-facility), not the text
		}
		hit := false
		for _, sp := range c.Snippet {
			if sp.Hit && strings.Contains(sp.Text, "화재") {
				hit = true
			}
		}
		if !hit {
			t.Errorf("%s snippet %v has no marked 화재", c.ID, c.Snippet)
		}
	}
}

// No typed string reaches FTS5 as syntax.
func TestSearchAnyInputIsSafe(t *testing.T) {
	s := testcatalog.Open(t)
	for _, q := range []string{`"`, `*`, `(`, `)`, `NEAR`, `AND`, `OR NOT`, `-`, `a -b`, `"unterminated`, `^`, `col:word`,
		strings.Repeat("장애 ", 300), "\x00\x01\x7f", "\xff\xfe", `{}[]`, `NEAR(a b)`, `title:x`} {
		if _, err := s.Cases(context.Background(), "en", catalog.Filter{Q: q}); err != nil {
			t.Errorf("Cases(q=%q) = %v", q, err)
		}
	}
}

func TestSuggest(t *testing.T) {
	s := testcatalog.Open(t)
	got := s.Suggest("en", "DNS 재시도 데이터센터 화재", catalog.Filter{})
	var keys []string
	for _, t := range got {
		keys = append(keys, string(t.Kind)+"/"+t.Slug)
	}
	for _, want := range []string{"component/dns", "component/datacenter", "cause/power-facility"} {
		if !slices.Contains(keys, want) {
			t.Errorf("Suggest = %v, want %s", keys, want)
		}
	}
}

func TestCase(t *testing.T) {
	s := testcatalog.Open(t)
	c, err := s.Case(context.Background(), "ko", "IL-0003")
	if err != nil {
		t.Fatal(err)
	}
	if c.Org.Label != "카카오" || len(c.Sources) == 0 || c.Text.Title == "" {
		t.Errorf("Case(IL-0003) = org %q, %d sources, title %q", c.Org.Label, len(c.Sources), c.Text.Title)
	}
	if len(c.Related) == 0 || len(c.Related) > build.MaxRelated {
		t.Errorf("Case(IL-0003) has %d related cases, want 1 to %d", len(c.Related), build.MaxRelated)
	}
	for _, r := range c.Related {
		if r.ID == c.ID {
			t.Error("a case is related to itself")
		}
		if len(r.Reasons) == 0 {
			t.Errorf("related %s has no reason", r.ID)
		}
	}
	// Kakao's and Naver's cases share the fire's cause; starting the same day is no reason.
	related := false
	for _, r := range c.Related {
		related = related || r.ID == "IL-0004"
		for _, why := range r.Reasons {
			if why.Kind == "date" {
				t.Errorf("related %s is given the same day as a reason", r.ID)
			}
		}
	}
	if !related {
		t.Errorf("Case(IL-0003).Related = %v, want IL-0004 (same cause)", c.Related)
	}
	if _, err := s.Case(context.Background(), "ko", "IL-9999"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("Case(IL-9999) = %v, want ErrNotFound", err)
	}
}

func TestTopic(t *testing.T) {
	s := testcatalog.Open(t)
	tp, err := s.Topic(context.Background(), "en", "cause", "power-facility")
	if err != nil {
		t.Fatal(err)
	}
	if tp.Count != 3 || tp.Label != "Power and facility" {
		t.Errorf("Topic = %d cases labelled %q, want 3 labelled Power and facility", tp.Count, tp.Label)
	}
	sum := 0
	for _, y := range tp.Years {
		sum += y.Count
	}
	if sum != 3 {
		t.Errorf("Topic years %v add up to %d, want 3", tp.Years, sum)
	}
	if _, err := s.Topic(context.Background(), "en", "cause", "nope"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("Topic(nope) = %v, want ErrNotFound", err)
	}
}

// FuzzSearch: no search string makes the store fail.
func FuzzSearch(f *testing.F) {
	s := testcatalog.Open(f)
	for _, q := range []string{"장애", `"`, "NEAR(a b)", "-", "\x00", "\xff", "DNS race condition", "재시도 폭주로 인증이 느려졌다", "a AND OR NOT b*"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := s.Cases(context.Background(), "en", catalog.Filter{Q: q}); err != nil {
			t.Fatalf("Cases(q=%q) = %v", q, err)
		}
	})
}

// A replica whose index failed to load never reports ready.
func TestNotReadyAfterFailedIndexLoad(t *testing.T) {
	s, err := catalog.Open(testcatalog.Build(t))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Warm(context.Background()); err == nil {
		t.Fatal("Warm on a closed database succeeded")
	}
	if s.Ready() {
		t.Error("Ready() = true after the index failed to load")
	}
}

// A topic's year chart starts at its first year and groups the years before the last twelve.
func TestTopicYearsGroupEarlyYears(t *testing.T) {
	s := testcatalog.Open(t)
	tp, err := s.Topic(context.Background(), "en", "component", "datacenter")
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Years) == 0 || len(tp.Years) > 13 {
		t.Fatalf("years = %v", tp.Years)
	}
	total := 0
	for i, y := range tp.Years {
		total += y.Count
		if y.Before && i != 0 {
			t.Errorf("grouped column %v is not first", y)
		}
	}
	if total != tp.Count {
		t.Errorf("year columns add up to %d, the topic has %d cases", total, tp.Count)
	}
}

// Validate returns a typed error naming the parameter, the reason, the value and the limit, and
// the listing refuses a page past its end before doing the work.
func TestValidateFilter(t *testing.T) {
	s := testcatalog.Open(t)
	var fe *catalog.FilterError
	_, _, err := s.Validate(catalog.Filter{Values: map[catalog.Kind][]string{"org": {"cloudflar"}}, Page: 1}, false)
	if !errors.As(err, &fe) || fe.Param != "org" || fe.Reason != catalog.ReasonUnknownValue || len(fe.Closest) == 0 || fe.Closest[0].Slug != "cloudflare" {
		t.Errorf("unknown org: %v %+v", err, fe)
	}
	f, dropped, err := s.Validate(catalog.Filter{Values: map[catalog.Kind][]string{"org": {"cloudflar", "kakao"}}, Page: 1}, true)
	if err != nil || len(dropped) != 1 || !f.Has("org", "kakao") {
		t.Errorf("lenient: %v %v %v", err, dropped, f.Values)
	}
	if _, _, err := s.Validate(catalog.Filter{Page: 0}, false); !errors.As(err, &fe) || fe.Reason != catalog.ReasonBadPage || fe.PastEnd {
		t.Errorf("page 0: %v", err)
	}
	if _, _, err := s.Validate(catalog.Filter{Page: 1, Sort: "random"}, false); !errors.As(err, &fe) || fe.Param != "sort" {
		t.Errorf("bad sort: %v", err)
	}
	_, err = s.Cases(context.Background(), "en", catalog.Filter{Page: 99, PageSize: 20})
	if !errors.As(err, &fe) || fe.Param != "page" || fe.Limit != 1 {
		t.Errorf("page past the end: %v", err)
	}
}
