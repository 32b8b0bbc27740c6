package views

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/catalog"
)

func listTitle(ctx context.Context, r catalog.Result) string {
	if r.Filter.Q != "" {
		return T(ctx, "list.title_search", map[string]any{"Q": clip(r.Filter.Q, 60)})
	}
	var parts []string
	for _, kind := range catalog.FilterKinds {
		for _, f := range r.Facets[kind] {
			if r.Filter.Has(kind, f.Slug) {
				parts = append(parts, f.Label)
			}
		}
	}
	if len(parts) > 0 {
		return T(ctx, "list.heading") + ": " + strings.Join(parts, " · ") + " (" + strconv.Itoa(r.Total) + ")"
	}
	return T(ctx, "list.heading")
}

// listSentence says what the list is: all cases, filters only, or a search. The order is said
// once, by the sort links.
func listSentence(ctx context.Context, r catalog.Result) string {
	var what string
	hasValues := false
	for _, v := range r.Filter.Values {
		if len(v) > 0 {
			hasValues = true
		}
	}
	switch {
	case len(r.Words) == 0 && !hasValues:
		what = T(ctx, "list.what_all")
	case len(r.Words) == 0:
		what = T(ctx, "list.what_filters")
	case r.AnyWords:
		what = N(ctx, "list.what_search_groups", r.AllWords, map[string]any{"Some": r.Total - r.AllWords})
	case hasValues:
		what = T(ctx, "list.what_search_filters")
	default:
		what = T(ctx, "list.what_search")
	}
	what = strings.TrimSuffix(strings.TrimSpace(what), ";")
	if !strings.HasSuffix(what, ".") {
		what += "."
	}
	return what
}

func from(r catalog.Result) int {
	if r.Total == 0 {
		return 0
	}
	return (r.Filter.Page-1)*r.Filter.PageSize + 1
}

func to(r catalog.Result) int {
	return min(r.Total, r.Filter.Page*r.Filter.PageSize)
}

func sortOptions(r catalog.Result) []string {
	if len(r.Words) > 0 {
		return []string{catalog.SortRelevance, catalog.SortNewest, catalog.SortOldest}
	}
	return []string{catalog.SortNewest, catalog.SortOldest}
}

// pageNumbers lists the pages a pager shows: the first, the last and two around the current
// one, with 0 for a gap.
func pageNumbers(cur, last int) []int {
	var out []int
	for p := 1; p <= last; p++ {
		if p == 1 || p == last || (p >= cur-2 && p <= cur+2) {
			out = append(out, p)
		} else if len(out) > 0 && out[len(out)-1] != 0 {
			out = append(out, 0)
		}
	}
	return out
}

func top(fs []catalog.Facet, n int) []catalog.Facet {
	if len(fs) > n {
		return fs[:n]
	}
	return fs
}

// pct is n as a percentage of total, for SVG widths.
func pct(n, total int) string {
	if total <= 0 {
		return "0"
	}
	return strconv.FormatFloat(float64(n)*100/float64(total), 'f', 1, 64)
}

// listDescription names what a listing holds, for link previews: the filters and the count.
func listDescription(ctx context.Context, r catalog.Result) string {
	if r.Filter.Empty() {
		return T(ctx, "site.description")
	}
	var parts []string
	if r.Filter.Q != "" {
		parts = append(parts, "“"+clip(r.Filter.Q, 60)+"”")
	}
	for _, kind := range catalog.FilterKinds {
		for _, f := range r.Facets[kind] {
			if r.Filter.Has(kind, f.Slug) {
				parts = append(parts, KindLabel(ctx, kind)+": "+f.Label)
			}
		}
	}
	return N(ctx, "list.description", r.Total, map[string]any{"What": strings.Join(parts, " · ")})
}

// widenURL is the listing without one applied value (kind "q": without the search words).
func widenURL(lang catalog.Lang, f catalog.Filter, t catalog.Term) string {
	if t.Kind == catalog.KindWords {
		return ClearQueryURL(lang, f)
	}
	return ToggleURL(lang, f, t.Kind, t.Slug)
}

// cardLine is one labelled line of a card.
type cardLine struct {
	Label string
	Spans []catalog.Span
}

func cardLines(ctx context.Context, c catalog.Card) []cardLine {
	var out []cardLine
	for _, l := range c.Lines {
		out = append(out, cardLine{Label: T(ctx, "card."+l.Key), Spans: l.Spans})
	}
	return out
}

// facetTop is how many values of a kind the listing shows before the link to all of them.
const facetTop = 8

// facetShown are the values a facet lists: the chosen ones first, then the most frequent, up to
// facetTop in all (more when more are chosen).
func facetShown(r catalog.Result, kind catalog.Kind) []catalog.Facet {
	var chosen, rest []catalog.Facet
	for _, f := range r.Facets[kind] {
		if r.Filter.Has(kind, f.Slug) {
			chosen = append(chosen, f)
		} else if f.Count > 0 {
			rest = append(rest, f)
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].Count > rest[j].Count })
	return append(chosen, rest[:max(0, min(len(rest), facetTop-len(chosen)))]...)
}

// cardGroup is the cases of a page that share a main cause.
type cardGroup struct {
	catalog.Term
	Cards []catalog.Card
}

// groupByCause groups a page's cards by their main cause, largest group first, keeping the
// page's order within a group.
func groupByCause(cards []catalog.Card) []cardGroup {
	var groups []cardGroup
	index := map[string]int{}
	for _, c := range cards {
		var cause catalog.Term
		for _, t := range c.Tags {
			if t.Kind == catalog.KindCause {
				cause = t
				break
			}
		}
		i, ok := index[cause.Slug]
		if !ok {
			i = len(groups)
			index[cause.Slug] = i
			groups = append(groups, cardGroup{Term: cause})
		}
		groups[i].Cards = append(groups[i].Cards, c)
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].Cards) > len(groups[j].Cards) })
	return groups
}

// kindInSentence is a kind's plural as it reads inside a sentence: "all 15 contributing
// factors", not "All 15 Contributing factors". Korean has no capitals.
func kindInSentence(ctx context.Context, kind catalog.Kind) string {
	p := KindPlural(ctx, kind)
	if Lang(ctx) != catalog.English || p == "" {
		return p
	}
	r, n := utf8.DecodeRuneInString(p)
	return string(unicode.ToLower(r)) + p[n:]
}
