package views

import (
	"context"
	"strconv"

	"incidentlib/internal/catalog"
)

func listTitle(ctx context.Context, r catalog.Result) string {
	if r.Filter.Q != "" {
		return T(ctx, "list.title_search", map[string]any{"Q": clip(r.Filter.Q, 60)})
	}
	return T(ctx, "list.heading")
}

// listSentence says what the list is: all cases, filters only, or a search, and its order.
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
		what = T(ctx, "list.what_search_any")
	case hasValues:
		what = T(ctx, "list.what_search_filters")
	default:
		what = T(ctx, "list.what_search")
	}
	return what + " " + T(ctx, "list.order_"+r.Filter.Sort)
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
