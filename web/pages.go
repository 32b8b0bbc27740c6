package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

// listCases renders the listing: search, filters, cards and the summary of the result set.
func (s *Server) listCases(c echo.Context) error {
	lang := pageLang(c)
	f, dropped, err := s.parseFilterLenient(c.Request().URL.RawQuery, catalog.DefaultPageSize)
	if err != nil {
		return err
	}
	if id, ok := caseIDIn(f.Q); ok && f.Count() == 0 {
		if _, err := s.cat.Case(c.Request().Context(), lang, id); err == nil {
			return c.Redirect(http.StatusSeeOther, views.CaseURL(lang, id)) // an id typed into search
		}
	}
	r, err := s.listPage(c.Request().Context(), lang, f)
	if err != nil {
		return err
	}
	for _, d := range dropped { // the closest values in the page's language
		for i, t := range d.Closest {
			d.Closest[i] = s.cat.Term(lang, t.Kind, t.Slug)
		}
		r.Dropped = append(r.Dropped, d)
	}
	if r.Total == 0 {
		if r.Widen, err = s.widen(c, lang, f); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.ListPage(r))
}

// caseIDIn reports whether a search is a case id, written any way people write one.
func caseIDIn(q string) (string, bool) {
	m := looseCaseID.FindStringSubmatch(strings.TrimSpace(q))
	if m == nil {
		return "", false
	}
	return "IL-" + m[1], true
}

// widen counts, for a search with no result, the cases each applied value's removal would give:
// the search words (as the value "q") and every filter value.
func (s *Server) widen(c echo.Context, lang catalog.Lang, f catalog.Filter) ([]catalog.Facet, error) {
	var out []catalog.Facet
	try := func(t catalog.Term, g catalog.Filter) error {
		g.Page, g.PageSize = 1, 1
		r, err := s.cat.Cases(c.Request().Context(), lang, g)
		if err != nil {
			return err
		}
		if r.Total > 0 {
			out = append(out, catalog.Facet{Term: t, Count: r.Total})
		}
		return nil
	}
	if f.Q != "" {
		g := f
		g.Q = ""
		if err := try(catalog.Term{Kind: catalog.KindWords, Slug: f.Q, Label: f.Q}, g); err != nil {
			return nil, err
		}
	}
	for _, kind := range catalog.FilterKinds {
		for _, v := range f.Values[kind] {
			g := f
			g.Values = map[catalog.Kind][]string{}
			for k, vs := range f.Values {
				for _, x := range vs {
					if k != kind || x != v {
						g.Values[k] = append(g.Values[k], x)
					}
				}
			}
			if err := try(s.cat.Term(lang, kind, v), g); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// showCase renders one case in the language of the URL.
func (s *Server) showCase(c echo.Context) error {
	id := strings.ToUpper(c.Param("id"))
	if id != c.Param("id") {
		return c.Redirect(http.StatusMovedPermanently, views.CaseURL(pageLang(c), id))
	}
	cs, err := s.cat.Case(c.Request().Context(), pageLang(c), id)
	if err != nil {
		return s.caseNotFound(err, id)
	}
	v := views.CaseView{Case: cs}
	switch view := c.QueryParam("view"); view {
	case "":
	case "both":
		other, err := s.cat.Case(c.Request().Context(), pageLang(c).Other(), id)
		if err != nil {
			return err
		}
		v.Other = &other
	default:
		return inputErr("error.bad_view", "view", map[string]any{"Value": clipValue(view)})
	}
	walk := catalog.Filter{}
	if from := c.QueryParam("from"); strings.HasPrefix(from, views.TopicFromPrefix) {
		k, slug, _ := strings.Cut(strings.TrimPrefix(from, views.TopicFromPrefix), "/")
		if kind := catalog.Kind(k); kind.IsTopic() && s.cat.Known(kind, slug) {
			t := s.cat.Term(pageLang(c), kind, slug)
			v.FromTopic, v.FromQuery = &t, from
			walk = catalog.Filter{Values: map[catalog.Kind][]string{kind: {slug}}}
		}
	} else if from != "" {
		if f, err := s.parseFilter(from, catalog.DefaultPageSize); err == nil {
			v.From, v.FromQuery, walk = &f, from, f
		}
	}
	prev, next, ok, err := s.cat.Around(c.Request().Context(), pageLang(c), walk, id)
	if err != nil {
		return err
	}
	if !ok && v.FromQuery != "" { // the case is not in that listing: walk the whole catalog
		if prev, next, _, err = s.cat.Around(c.Request().Context(), pageLang(c), catalog.Filter{}, id); err != nil {
			return err
		}
	}
	v.Prev, v.Next = prev, next
	return render(c, http.StatusOK, views.CasePage(v))
}

func (s *Server) caseNotFound(err error, id string) error {
	if errorsIsNotFound(err) {
		return &notFound{id: "error.case_not_found", data: map[string]any{"ID": clipValue(id)}, err: err}
	}
	return err
}

// showTopic renders the page of one cause, symptom, component, factor or organization.
func (s *Server) showTopic(c echo.Context) error {
	kind, ok := views.KindOfPath(c.Param("kinds"))
	if !ok {
		return echo.ErrNotFound
	}
	page := 1
	if p := c.QueryParam("page"); p != "" {
		n, err := parsePage(p)
		if err != nil {
			return err
		}
		page = n
	}
	t, err := s.cat.TopicPage(c.Request().Context(), pageLang(c), kind, c.Param("slug"), min(page, maxPage), catalog.DefaultPageSize)
	if errorsIsNotFound(err) {
		return &notFound{id: "error.topic_not_found", data: map[string]any{"Kind": views.KindLabel(c.Request().Context(), kind), "Slug": clipValue(c.Param("slug"))}, err: err}
	}
	if err != nil {
		return err
	}
	if page > t.Pages() {
		return pastEnd(page, t.Pages())
	}
	v := views.TopicView{Topic: t}
	if kind == catalog.KindOrg {
		v.Country = s.cat.Country(c.Param("slug"))
	}
	if v.Spread, err = s.cat.TopicSpread(c.Request().Context(), pageLang(c), kind, c.Param("slug")); err != nil {
		return err
	}
	st, err := s.cat.Stats(c.Request().Context(), pageLang(c))
	if err != nil {
		return err
	}
	v.All = st.All
	var ids []string
	for _, card := range t.Cards {
		ids = append(ids, card.ID)
	}
	if kind == catalog.KindComponent || kind == catalog.KindFactor {
		v.Checks = s.cat.Checks(pageLang(c), filterOf(kind, c.Param("slug"), catalog.KindComponent), filterOf(kind, c.Param("slug"), catalog.KindFactor))
	} else {
		v.Checks = s.cat.ChecksFor(pageLang(c), ids, 8)
	}
	return render(c, http.StatusOK, views.TopicPage(v))
}

// showGraph renders the catalog graph, narrowed by the listing's filters.
func (s *Server) showGraph(c echo.Context) error {
	f, err := s.parseFilter(c.Request().URL.RawQuery, catalog.DefaultPageSize)
	if err != nil {
		return err
	}
	spread, links, total, err := s.cat.Graph(c.Request().Context(), pageLang(c), f)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.GraphPage(views.GraphView{Filter: f, Total: total, Spread: spread, Links: links}))
}

// showAPIPage explains the API and the MCP server.
func (s *Server) showAPIPage(c echo.Context) error {
	return render(c, http.StatusOK, views.APIPage())
}

// caseCard draws a case's link-preview image (1200×630 PNG). It is drawn once per language and
// kept with the other answers.
func (s *Server) caseCard(c echo.Context) error {
	lang, id := pageLang(c), c.Param("id")
	cs, err := s.cat.Case(c.Request().Context(), lang, id)
	if err != nil {
		return s.caseNotFound(err, id)
	}
	b, err := views.CardPNG(c.Request().Context(), cs)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400, s-maxage=604800")
	return c.Blob(http.StatusOK, "image/png", b)
}

// showStats renders the spread of time to detect and to resolve by cause and component.
func (s *Server) showStats(c echo.Context) error {
	st, err := s.cat.Stats(c.Request().Context(), pageLang(c))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.StatsPage(st))
}

func filterOf(kind catalog.Kind, slug string, want catalog.Kind) []string {
	if kind == want {
		return []string{slug}
	}
	return nil
}

// showIndex lists every value of a kind with its count, sorted for the page's language and
// narrowed by typed words (the form works without JavaScript).
func (s *Server) showIndex(c echo.Context) error {
	kind, ok := views.KindOfIndex(c.Param("kinds"))
	if !ok {
		return echo.ErrNotFound
	}
	lang := pageLang(c)
	entries, err := s.cat.Index(c.Request().Context(), lang, kind)
	if err != nil {
		return err
	}
	q := cleanQuery(c.QueryParam("q"))
	if len([]rune(q)) > catalog.MaxQueryLen {
		return inputErr("error.query_too_long", "q", map[string]any{"Max": catalog.MaxQueryLen})
	}
	views.SortIndex(lang, entries)
	v := views.IndexView{Kind: kind, Q: q, Total: len(entries), Entries: views.NarrowIndex(entries, q)}
	return render(c, http.StatusOK, views.IndexPage(v))
}
