package catalog

import (
	"context"
	"fmt"
)

// SearchIDs runs only the search part of a listing (the set and its order), for the relevance
// tests: no cards, facets, spread or suggestions are worked out. It returns the ids of the first
// n cases, how many have every word, and whether the any-word fallback ran.
func SearchIDs(ctx context.Context, s *Store, f Filter, n int) ([]string, int, bool, error) {
	words := ParseQuery(f.Q)
	sortBy := SortNewest
	if len(words) > 0 {
		sortBy = SortRelevance
	}
	sel, anyWords, err := s.selectCases(ctx, f, words, sortBy)
	if err != nil {
		return nil, 0, false, err
	}
	all := sel.result.count()
	if anyWords {
		every := sel.every.clone()
		every.and(sel.filter)
		all = every.count()
	}
	var ids []string
	for _, num := range sel.pageNums(Filter{Page: 1, PageSize: n, Sort: sortBy}) {
		ids = append(ids, fmt.Sprintf("IL-%04d", num))
	}
	return ids, all, anyWords, nil
}
