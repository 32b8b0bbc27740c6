package catalog

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on a listing request. They bound the work one request can ask for.
const (
	MaxPage   = 10000 // the most an MCP schema offers; a listing's own last page is the real bound
	MaxValues = 30    // filter values over all kinds
)

// FilterError is a filter that cannot be run, said so that a caller can explain it: the
// parameter at fault, why (one of the Reason constants), the value given, the limit it broke and,
// for an unknown value, the closest values that exist.
type FilterError struct {
	Param   string
	Reason  string
	Value   string
	Limit   int
	Closest []Term
	PastEnd bool // a page number beyond the last page, which Limit then is
}

// Reasons of a FilterError.
const (
	ReasonQueryTooLong  = "query_too_long"
	ReasonUnknownValue  = "bad_value"
	ReasonTooManyValues = "too_many_values"
	ReasonBadPage       = "bad_page"
	ReasonBadSort       = "bad_sort"
	ReasonBadGroup      = "bad_group"
)

func (e *FilterError) Error() string { return "filter " + e.Param + ": " + e.Reason + " " + e.Value }

// Validate checks a filter and returns it cleaned: the words made safe, values trimmed and
// deduplicated. A value that names nothing is a FilterError listing the closest values or,
// lenient, is left out and reported. The site, the API and MCP all check filters here.
func (s *Store) Validate(in Filter, lenient bool) (Filter, []Dropped, error) {
	f := Filter{Q: CleanQuery(in.Q), Values: map[Kind][]string{}, Page: in.Page, PageSize: in.PageSize, Sort: in.Sort, Group: in.Group}
	if utf8.RuneCountInString(f.Q) > MaxQueryLen {
		return f, nil, &FilterError{Param: "q", Reason: ReasonQueryTooLong, Limit: MaxQueryLen}
	}
	// Every value given counts against the limit, repeats included, before any is looked up:
	// the limit bounds the work of a request, and a repeat costs the reader nothing to drop.
	n := 0
	for _, kind := range FilterKinds {
		for _, v := range in.Values[kind] {
			if strings.TrimSpace(v) != "" {
				n++
			}
		}
	}
	if n > MaxValues {
		return f, nil, &FilterError{Reason: ReasonTooManyValues, Limit: MaxValues}
	}
	var dropped []Dropped
	seen := map[termKey]bool{}
	for _, kind := range FilterKinds {
		for _, v := range in.Values[kind] {
			v = strings.TrimSpace(v)
			if v == "" || seen[termKey{kind, v}] {
				continue
			}
			seen[termKey{kind, v}] = true
			if !s.Known(kind, v) {
				closest := s.Closest(English, kind, v, 3)
				if lenient {
					dropped = append(dropped, Dropped{Kind: kind, Value: ClipValue(v), Closest: closest})
					continue
				}
				return f, nil, &FilterError{Param: string(kind), Reason: ReasonUnknownValue, Value: ClipValue(v), Closest: closest}
			}
			f.Values[kind] = append(f.Values[kind], v)
		}
	}
	if f.Page < 1 { // a page past the end is caught once the cases are counted, with the real last page
		return f, nil, &FilterError{Param: "page", Reason: ReasonBadPage, Value: strconv.Itoa(f.Page)}
	}
	switch f.Group {
	case "", "cause":
	default:
		return f, nil, &FilterError{Param: "group", Reason: ReasonBadGroup, Value: ClipValue(f.Group)}
	}
	switch f.Sort {
	case "", SortNewest, SortOldest, SortRelevance:
	default:
		return f, nil, &FilterError{Param: "sort", Reason: ReasonBadSort, Value: ClipValue(f.Sort)}
	}
	return f, dropped, nil
}

// CleanQuery makes any typed string safe to search and show: invalid UTF-8 and control
// characters become spaces, and runs of space collapse.
func CleanQuery(s string) string {
	s = strings.ToValidUTF8(s, " ")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\uFFFD' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// ClipValue keeps an echoed bad value short and printable.
func ClipValue(v string) string {
	v = CleanQuery(v)
	if utf8.RuneCountInString(v) > 40 {
		return string([]rune(v)[:40]) + "…"
	}
	return v
}
