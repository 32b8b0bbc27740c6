package data

import (
	"testing"

	"incidentlib/internal/catalog/build"
)

// minCases is the size the catalog must not fall below.
const minCases = 250

// sameDay lists pairs of cases that share an organization and a date but are different
// incidents, checked by an editor against their sources.
var sameDay = map[string]bool{
	"IL-0068 IL-0069": true, // CircleCI 2025-04-04: a WAF rule (00:16 UTC) and a database upgrade (22:08 UTC)
}

// The catalog itself: every case validates (both languages complete, Hangul only in Korean
// text, known vocabulary, real URLs), the catalog is large enough, every vocabulary value is
// used, and no incident is written twice.
func TestCatalog(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatalf("data does not validate:\n%v", err)
	}
	if len(d.Cases) < minCases {
		t.Errorf("%d cases, want at least %d", len(d.Cases), minCases)
	}
	used := map[string]bool{}
	seen := map[string]string{}
	for _, c := range d.Cases {
		if len(c.Sources) == 0 {
			t.Errorf("%s has no source", c.ID)
		}
		for _, kind := range []string{"cause", "symptom", "component", "factor"} {
			for _, s := range c.Tags(kind) {
				used[kind+"/"+s] = true
			}
		}
		key := c.Org + " " + c.Date
		if len(c.Date) == 10 {
			if other, dup := seen[key]; dup && !sameDay[other+" "+c.ID] {
				t.Errorf("%s and %s are both %s on %s: the same incident written twice?", other, c.ID, c.Org, c.Date)
			}
			seen[key] = c.ID
		}
	}
	for _, kind := range []string{"cause", "symptom", "component", "factor"} {
		for _, v := range d.Taxonomy.Kind(kind) {
			if !used[kind+"/"+v.Slug] {
				t.Errorf("%s %q is used by no case: tag cases with it or remove it", kind, v.Slug)
			}
		}
	}
}
