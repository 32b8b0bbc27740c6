package web

import (
	"errors"
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
func filterInputError(fe *catalog.FilterError) error {
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
