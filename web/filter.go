package web

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/catalog"
)

// Limits on a listing request. They bound the work one request can ask for.
const (
	maxPage   = 10000
	maxValues = 30 // filter values over all kinds
)

// parseFilter reads a listing's query string strictly, for the API and MCP: a value that names
// nothing is an input error that lists the closest values. Unknown parameters are ignored
// (links carry tracking parameters).
func (s *Server) parseFilter(raw string, pageSize int) (catalog.Filter, error) {
	f, _, err := s.readFilter(raw, pageSize, false)
	return f, err
}

// parseFilterLenient reads a listing's query string for a page: a value that names nothing is
// left out and reported, with the closest values, so the reader keeps the other filters.
func (s *Server) parseFilterLenient(raw string, pageSize int) (catalog.Filter, []catalog.Dropped, error) {
	return s.readFilter(raw, pageSize, true)
}

func (s *Server) readFilter(raw string, pageSize int, lenient bool) (catalog.Filter, []catalog.Dropped, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return catalog.Filter{}, nil, inputErr("error.bad_query", "", nil)
	}
	f := catalog.Filter{Q: q.Get("q"), Values: map[string][]string{}, Page: 1, PageSize: pageSize, Sort: q.Get("sort"), Group: q.Get("group")}
	for _, kind := range catalog.FilterKinds {
		f.Values[kind] = q[kind]
	}
	if p := q.Get("page"); p != "" {
		page, err := strconv.Atoi(p)
		if err != nil {
			return f, nil, inputErr("error.bad_page", "page", map[string]any{"Value": clipValue(p), "Max": maxPage})
		}
		f.Page = page
	}
	return s.validate(f, lenient)
}

// checkFilter checks a filter built from typed arguments (MCP) as a URL's is checked.
func (s *Server) checkFilter(f catalog.Filter) (catalog.Filter, error) {
	f, _, err := s.validate(f, false)
	return f, err
}

// validate checks a filter and returns it cleaned: the words made safe, values deduplicated.
// A value that names nothing is an input error listing the closest values, or, lenient, left
// out and reported.
func (s *Server) validate(in catalog.Filter, lenient bool) (catalog.Filter, []catalog.Dropped, error) {
	f := catalog.Filter{Q: cleanQuery(in.Q), Values: map[string][]string{}, Page: in.Page, PageSize: in.PageSize, Sort: in.Sort, Group: in.Group}
	if utf8.RuneCountInString(f.Q) > catalog.MaxQueryLen {
		return f, nil, inputErr("error.query_too_long", "q", map[string]any{"Max": catalog.MaxQueryLen})
	}
	var dropped []catalog.Dropped
	n := 0
	for _, kind := range catalog.FilterKinds {
		for _, v := range in.Values[kind] {
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			if !s.cat.Known(kind, v) {
				closest := s.cat.Closest("en", kind, v, 3)
				if lenient {
					dropped = append(dropped, catalog.Dropped{Kind: kind, Value: clipValue(v), Closest: closest})
					continue
				}
				var names []string
				for _, t := range closest {
					names = append(names, t.Slug)
				}
				return f, nil, inputErr("error.bad_value", kind, map[string]any{"Value": clipValue(v), "Kind": kind, "Closest": strings.Join(names, ", ")})
			}
			if !f.Has(kind, v) {
				f.Values[kind] = append(f.Values[kind], v)
				n++
			}
		}
	}
	if n > maxValues {
		return f, nil, inputErr("error.too_many_values", "", map[string]any{"Max": maxValues})
	}
	if f.Page < 1 || f.Page > maxPage {
		return f, nil, inputErr("error.bad_page", "page", map[string]any{"Value": f.Page, "Max": maxPage})
	}
	switch f.Group {
	case "", "cause":
	default:
		return f, nil, inputErr("error.bad_group", "group", map[string]any{"Value": clipValue(f.Group)})
	}
	switch f.Sort {
	case "", catalog.SortNewest, catalog.SortOldest, catalog.SortRelevance:
	default:
		return f, nil, inputErr("error.bad_sort", "sort", map[string]any{"Value": clipValue(f.Sort)})
	}
	return f, dropped, nil
}

// cleanQuery makes any typed string safe to search and show: invalid UTF-8 and control
// characters become spaces, and runs of space collapse.
func cleanQuery(s string) string {
	s = strings.ToValidUTF8(s, " ")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\uFFFD' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// clipValue keeps an echoed bad value short and printable.
func clipValue(v string) string {
	v = cleanQuery(v)
	if utf8.RuneCountInString(v) > 40 {
		return string([]rune(v)[:40]) + "…"
	}
	return v
}
