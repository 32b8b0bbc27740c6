package views

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"incidentlib/internal/catalog"
)

// SortIndex orders a kind's values for a page: by label in the page's language, years newest
// first. On Korean pages names written in Hangul come first in 가나다 order, then the rest, so
// 국민은행 comes before Zerodha.
func SortIndex(lang catalog.Lang, entries []catalog.IndexEntry) {
	if len(entries) == 0 || entries[0].Kind == catalog.KindYear {
		return
	}
	tag := language.English
	if lang == catalog.Korean {
		tag = language.Korean
	}
	c := collate.New(tag, collate.IgnoreCase)
	slices.SortStableFunc(entries, func(a, b catalog.IndexEntry) int {
		if lang == catalog.Korean {
			if ha, hb := startsHangul(a.Label), startsHangul(b.Label); ha != hb {
				if ha {
					return -1
				}
				return 1
			}
		}
		return c.CompareString(a.Label, b.Label)
	})
}

// NarrowIndex keeps the values whose label, slug or aliases contain every typed word.
func NarrowIndex(entries []catalog.IndexEntry, q string) []catalog.IndexEntry {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return entries
	}
	var out []catalog.IndexEntry
	for _, e := range entries {
		hay := strings.ToLower(e.Label + " " + e.Slug + " " + strings.Join(e.Aliases, " "))
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, e)
		}
	}
	return out
}

func startsHangul(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return catalog.HasHangul(string(r))
}
