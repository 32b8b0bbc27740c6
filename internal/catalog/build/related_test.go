package build

import (
	"path/filepath"
	"reflect"
	"testing"

	"incidentlib/internal/catalog"
)

// The approximate path scores the pairs it compares exactly as the exact path does; on a small
// catalog, where every candidate group is whole, it finds the same links.
func TestRelatedApproxMatchesExact(t *testing.T) {
	for _, dir := range []string{filepath.Join("..", "..", "..", "testdata"), filepath.Join("..", "..", "..", "data")} {
		d, err := Load(dir)
		if err != nil {
			t.Fatalf("load %s: %v", dir, err)
		}
		exact, approx := relatedExact(d.Cases), RelatedApprox(d.Cases)
		found, total := 0, 0
		for id, links := range approx {
			byID := map[string]Link{}
			for _, l := range exact[id] {
				byID[l.ID] = l
			}
			for _, l := range links {
				if e, ok := byID[l.ID]; ok && (e.Score != l.Score || !reflect.DeepEqual(e.Reasons, l.Reasons)) {
					t.Errorf("%s: %s scored %v %v approximately, %v %v exactly", id, l.ID, l.Score, l.Reasons, e.Score, e.Reasons)
				}
			}
			for _, l := range exact[id] {
				if !shareMain(byIDCase(d, id), byIDCase(d, l.ID)) {
					continue // never compared by design
				}
				total++
				for _, a := range links {
					if a.ID == l.ID {
						found++
					}
				}
			}
		}
		if len(d.Cases) < approxPerGroup && found != total {
			t.Errorf("%s: approximate found %d of the %d exact links it compares, on a catalog smaller than a group", dir, found, total)
		}
		t.Logf("%s: %d cases, approximate finds %d of %d exact links", dir, len(d.Cases), found, total)
	}
}

// A shared undisclosed cause is no reason and adds nothing; editors' links say so.
func TestRelatedReasons(t *testing.T) {
	a := &Case{ID: "IL-0001", Date: "2020-01-01", Tags: map[catalog.Kind][]string{catalog.KindCause: {noCause}, catalog.KindComponent: {"dns"}}}
	b := &Case{ID: "IL-0002", Date: "2021-01-01", Tags: map[catalog.Kind][]string{catalog.KindCause: {noCause}, catalog.KindComponent: {"dns"}}}
	l, ok := pairScore(a, b, 0)
	if !ok || l.Score != 2 || len(l.Reasons) != 1 || l.Reasons[0].Kind != "component" {
		t.Errorf("pair sharing an undisclosed cause and a component = %+v, %v; want only the component", l, ok)
	}
	b.Tags[catalog.KindComponent] = nil
	if l, ok := pairScore(a, b, 0); ok {
		t.Errorf("pair sharing only an undisclosed cause is related: %+v", l)
	}
}

func byIDCase(d *Data, id string) *Case {
	for _, c := range d.Cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// shareMain reports whether two cases share their main cause or main component, the pairs the
// approximate path compares.
func shareMain(a, b *Case) bool {
	for _, k := range []catalog.Kind{catalog.KindCause, catalog.KindComponent} {
		if len(a.Tags[k]) > 0 && len(b.Tags[k]) > 0 && a.Tags[k][0] == b.Tags[k][0] {
			return true
		}
	}
	return false
}
