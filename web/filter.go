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
	var dropped []catalog.Dropped
	f, err := s.readFilterInto(raw, pageSize, func(kind, v string) error {
		closest := s.cat.Closest("en", kind, v, 3)
		if lenient {
			dropped = append(dropped, catalog.Dropped{Kind: kind, Value: clipValue(v), Closest: closest})
			return nil
		}
		var names []string
		for _, t := range closest {
			names = append(names, t.Slug)
		}
		return inputErr("error.bad_value", kind, map[string]any{"Value": clipValue(v), "Kind": kind, "Closest": strings.Join(names, ", ")})
	})
	return f, dropped, err
}

func (s *Server) readFilterInto(raw string, pageSize int, unknown func(kind, v string) error) (catalog.Filter, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return catalog.Filter{}, inputErr("error.bad_query", "", nil)
	}
	f := catalog.Filter{Values: map[string][]string{}, Page: 1, PageSize: pageSize}
	f.Q = cleanQuery(q.Get("q"))
	if utf8.RuneCountInString(f.Q) > catalog.MaxQueryLen {
		return f, inputErr("error.query_too_long", "q", map[string]any{"Max": catalog.MaxQueryLen})
	}
	n := 0
	for _, kind := range catalog.FilterKinds {
		for _, v := range q[kind] {
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			if !s.cat.Known(kind, v) {
				if err := unknown(kind, v); err != nil {
					return f, err
				}
				continue
			}
			if !f.Has(kind, v) {
				f.Values[kind] = append(f.Values[kind], v)
				n++
			}
		}
	}
	if n > maxValues {
		return f, inputErr("error.too_many_values", "", map[string]any{"Max": maxValues})
	}
	if p := q.Get("page"); p != "" {
		page, err := strconv.Atoi(p)
		if err != nil || page < 1 || page > maxPage {
			return f, inputErr("error.bad_page", "page", map[string]any{"Value": clipValue(p), "Max": maxPage})
		}
		f.Page = page
	}
	switch g := q.Get("group"); g {
	case "", "cause":
		f.Group = g
	default:
		return f, inputErr("error.bad_group", "group", map[string]any{"Value": clipValue(g)})
	}
	switch srt := q.Get("sort"); srt {
	case "", catalog.SortNewest, catalog.SortOldest, catalog.SortRelevance:
		f.Sort = srt
	default:
		return f, inputErr("error.bad_sort", "sort", map[string]any{"Value": clipValue(srt)})
	}
	return f, nil
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
