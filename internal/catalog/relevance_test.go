package catalog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
)

// The relevance tests run the search over the real catalog in data/, with queries a person would
// type and the cases a person would expect for them (testdata/relevance.yaml). The expected ids
// were chosen by reading the case files, not by running the search, so a low score is a fault of
// the search, not of the query set.

const (
	realDataDir       = "../../data"
	relevanceFile     = "../../testdata/relevance.yaml"
	relevanceCutoff   = 5 // precision is measured over the first five results
	maxExpectPerQuery = 8
)

// minMeanPrecision is the bar for the mean precision at 5 over all queries.
//
// Measured when the query set was written (255 cases): mean P@5 0.793 over 58 queries (ko 0.756,
// en 0.829). The search then changed (stop words dropped, particles glued to Latin words dropped,
// 다/고 endings stemmed, a few cross-language synonyms, tag aliases weighted down, and cases with
// only some of the words listed after those with all of them when fewer than five have all) and
// measured 0.932 (ko 0.934, en 0.929). One query falling from 1.0 to 0 moves the mean by
// 1/58 = 0.017, so the bar sits about two queries' worth below the measured mean: a ranking
// change that costs that much fails, a single case edit that nudges one ranking does not. Never
// set it below 0.6. Raise it when the search improves; do not lower it to let a regression pass.
const minMeanPrecision = 0.90

// relevanceQuery is one entry of testdata/relevance.yaml.
type relevanceQuery struct {
	Q      string       `yaml:"q"`
	Lang   catalog.Lang `yaml:"lang"`
	Expect []string     `yaml:"expect"`
	First  string       `yaml:"first"`
}

// openRealCatalog builds the catalog from data/ into a temporary file and opens it.
func openRealCatalog(t *testing.T) (*catalog.Store, *build.Data) {
	t.Helper()
	d, err := build.Load(realDataDir)
	if err != nil {
		t.Fatalf("load %s: %v", realDataDir, err)
	}
	path := filepath.Join(t.TempDir(), "catalog.db")
	if err := build.Write(context.Background(), d, path); err != nil {
		t.Fatalf("build catalog: %v", err)
	}
	s, err := catalog.Open(path)
	if err != nil {
		t.Fatalf("open catalog: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, d
}

func loadRelevanceQueries(t *testing.T, d *build.Data) []relevanceQuery {
	t.Helper()
	f, err := os.Open(relevanceFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var qs []relevanceQuery
	if err := dec.Decode(&qs); err != nil {
		t.Fatalf("%s: %v", relevanceFile, err)
	}
	known := map[string]bool{}
	for _, c := range d.Cases {
		known[c.ID] = true
	}
	seen := map[string]bool{}
	for i, q := range qs {
		where := fmt.Sprintf("%s: query %d (%q)", relevanceFile, i+1, q.Q)
		if strings.TrimSpace(q.Q) == "" {
			t.Errorf("%s: empty q", where)
		}
		if _, ok := catalog.ParseLang(string(q.Lang)); !ok {
			t.Errorf("%s: lang %q, want one of %v", where, q.Lang, catalog.Langs)
		}
		if seen[string(q.Lang)+"\x00"+q.Q] {
			t.Errorf("%s: duplicate query", where)
		}
		seen[string(q.Lang)+"\x00"+q.Q] = true
		if len(q.Expect) == 0 || len(q.Expect) > maxExpectPerQuery {
			t.Errorf("%s: %d expected ids, want 1 to %d", where, len(q.Expect), maxExpectPerQuery)
		}
		for _, id := range q.Expect {
			if !known[id] {
				t.Errorf("%s: expected id %s is not in the catalog", where, id)
			}
		}
		if q.First != "" && !slices.Contains(q.Expect, q.First) {
			t.Errorf("%s: first %s is not among the expected ids", where, q.First)
		}
	}
	return qs
}

// precisionAt returns |top n ∩ expect| / min(n, |expect|) and the expected ids not in the top n.
func precisionAt(n int, got, expect []string) (float64, []string) {
	top := got[:min(n, len(got))]
	hit := 0
	var missed []string
	for _, id := range expect {
		if slices.Contains(top, id) {
			hit++
		} else {
			missed = append(missed, id)
		}
	}
	return float64(hit) / float64(min(n, len(expect))), missed
}

// padRunes pads s with spaces to w display runes (wide Hangul counts as two) for the log table.
func padRunes(s string, w int) string {
	width := 0
	for _, r := range s {
		width++
		if r >= 0x1100 && (r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) || (r >= 0xff00 && r <= 0xff60)) {
			width++
		}
	}
	if width >= w {
		return s
	}
	return s + strings.Repeat(" ", w-width)
}

func TestRelevance(t *testing.T) {
	s, d := openRealCatalog(t)
	qs := loadRelevanceQueries(t, d)
	if t.Failed() {
		t.FailNow()
	}
	if n := len(qs); n < 44 {
		t.Errorf("%s has %d queries, want at least 44", relevanceFile, n)
	}
	ctx := context.Background()
	sum := map[catalog.Lang]float64{}
	count := map[catalog.Lang]int{}
	var table strings.Builder
	fmt.Fprintf(&table, "\n%s %s %-4s  %-44s  %s\n", padRunes("query", 52), "lang", "P@5", "top 5", "missed")
	for _, q := range qs {
		r, err := s.Cases(ctx, q.Lang, catalog.Filter{Q: q.Q})
		if err != nil {
			t.Fatalf("Cases(%s, q=%q): %v", q.Lang, q.Q, err)
		}
		var got []string
		for _, c := range r.Cards {
			got = append(got, c.ID)
		}
		p, missed := precisionAt(relevanceCutoff, got, q.Expect)
		sum[q.Lang] += p
		count[q.Lang]++
		label := q.Q
		if utf8.RuneCountInString(label) > 50 {
			label = string([]rune(label)[:49]) + "…"
		}
		note := ""
		if r.AnyWords {
			note = " (any-word fallback)"
		}
		fmt.Fprintf(&table, "%s %-4s %.2f  %-44s  %s%s\n", padRunes(label, 52), q.Lang, p,
			strings.Join(got[:min(relevanceCutoff, len(got))], " "), strings.Join(missed, " "), note)
		if q.First != "" && (len(got) == 0 || got[0] != q.First) {
			t.Errorf("Cases(%s, q=%q) top 5 = %v, want %s first", q.Lang, q.Q, got[:min(relevanceCutoff, len(got))], q.First)
		}
	}
	t.Log(table.String())
	all := (sum["ko"] + sum["en"]) / float64(count["ko"]+count["en"])
	for _, lang := range catalog.Langs {
		if count[lang] > 0 {
			t.Logf("mean P@5 %s: %.3f over %d queries", lang, sum[lang]/float64(count[lang]), count[lang])
		}
	}
	t.Logf("mean P@5 all: %.3f over %d queries (bar %.2f)", all, len(qs), minMeanPrecision)
	if count["ko"] == 0 || count["en"] == 0 || absDiff(count["ko"], count["en"]) > 2 {
		t.Errorf("queries per language: ko %d, en %d; want about half each", count["ko"], count["en"])
	}
	if all < minMeanPrecision {
		t.Errorf("mean P@5 = %.3f, below the bar %.2f", all, minMeanPrecision)
	}
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// Searching a case's full title, in English and in Korean, puts that case first, for every case
// in the real catalog.
func TestRelevanceTitleFindsItsCase(t *testing.T) {
	s, d := openRealCatalog(t)
	ctx := context.Background()
	failed := 0
	for _, c := range d.Cases {
		for _, lang := range catalog.Langs {
			title := c.Lang(lang).Title
			r, err := s.Cases(ctx, lang, catalog.Filter{Q: title, PageSize: relevanceCutoff})
			if err != nil {
				t.Fatalf("Cases(%s, q=%q): %v", lang, title, err)
			}
			var got []string
			for _, card := range r.Cards {
				got = append(got, card.ID)
			}
			if len(got) == 0 || got[0] != c.ID {
				failed++
				t.Errorf("%s title of %s: got %v, want %s first; q=%q", lang, c.ID, got, c.ID, title)
			}
		}
	}
	t.Logf("%d of %d title searches did not put their case first", failed, 2*len(d.Cases))
}
