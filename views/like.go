package views

import (
	"net/url"

	"incidentlib/internal/catalog"
)

// likeFilter is the listing filtered by one value the description names.
func likeFilter(t catalog.Term) catalog.Filter {
	return catalog.Filter{Values: map[catalog.Kind][]string{t.Kind: {t.Slug}}}
}

// likeChecks is the checklist query for the components and factors a description names.
func likeChecks(found []catalog.Facet) url.Values {
	q := url.Values{}
	for _, f := range found {
		if f.Kind == catalog.KindComponent || f.Kind == catalog.KindFactor {
			q.Add(string(f.Kind), f.Slug)
		}
	}
	return q
}
