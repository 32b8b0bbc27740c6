package web

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"

	"incidentlib/internal/catalog"
)

// Limits on a listing request. They bound the work one request can ask for.
const (
	maxPage   = catalog.MaxPage
	maxValues = catalog.MaxValues
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
	f := catalog.Filter{Q: q.Get("q"), Values: map[catalog.Kind][]string{}, Page: 1, PageSize: pageSize, Sort: q.Get("sort"), Group: q.Get("group")}
	for _, kind := range catalog.FilterKinds {
		f.Values[kind] = q[string(kind)]
	}
	if p := q.Get("page"); p != "" {
		page, err := parsePage(p)
		if err != nil {
			return f, nil, err
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

// validate checks a filter with catalog.Store.Validate and turns its FilterError into the
// reader's message.
func (s *Server) validate(in catalog.Filter, lenient bool) (catalog.Filter, []catalog.Dropped, error) {
	f, dropped, err := s.cat.Validate(in, lenient)
	var fe *catalog.FilterError
	if errors.As(err, &fe) {
		return f, nil, filterInputError(fe)
	}
	return f, dropped, err
}

// filterInputError is the message of a FilterError: its reason names the message.
// parsePage reads a page number. A number too big for an int is past any list's end, and is
// told so once the list is counted; anything else that is not a whole number from 1 is refused.
func parsePage(p string) (int, error) {
	n, err := strconv.Atoi(p)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(p, "-") {
		return math.MaxInt, nil
	}
	if err != nil || n < 1 {
		return 0, inputErr("error.bad_page", "page", map[string]any{"Value": clipValue(p)})
	}
	return n, nil
}

// pastEnd is the answer to a page number beyond a list's last page.
func pastEnd(page, last int) error {
	v := strconv.Itoa(page)
	if page == math.MaxInt {
		v = "…"
	}
	return inputErr("error.bad_page", "page", map[string]any{"Value": v, "Max": last})
}

func filterInputError(fe *catalog.FilterError) error {
	if fe.Reason == catalog.ReasonBadPage && fe.PastEnd {
		n, _ := strconv.Atoi(fe.Value)
		return pastEnd(n, fe.Limit)
	}
	data := map[string]any{"Value": fe.Value, "Max": fe.Limit}
	switch fe.Reason {
	case catalog.ReasonUnknownValue:
		var names []string
		for _, t := range fe.Closest {
			names = append(names, t.Slug)
		}
		data = map[string]any{"Value": fe.Value, "Kind": catalog.Kind(fe.Param), "Closest": strings.Join(names, ", ")}
	case catalog.ReasonQueryTooLong, catalog.ReasonTooManyValues:
		data = map[string]any{"Max": fe.Limit}
	}
	return inputErr("error."+fe.Reason, fe.Param, data)
}

// cleanQuery and clipValue are catalog's, for the web's own inputs.
func cleanQuery(s string) string { return catalog.CleanQuery(s) }

func clipValue(v string) string { return catalog.ClipValue(v) }
