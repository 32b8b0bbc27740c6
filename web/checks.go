package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"incidentlib/views"
)

// stackParams are the query parameters of a checklist.
var stackParams = []string{string(catalog.KindComponent), string(catalog.KindFactor), "format"}

// parseStack reads the components and factors of a checklist; unknown values are input errors.
func (s *Server) parseStack(raw string) (components, factors []string, selected map[string]bool, err error) {
	q, perr := url.ParseQuery(raw)
	if perr != nil {
		return nil, nil, nil, inputErr("error.bad_query", "", nil)
	}
	selected = map[string]bool{}
	for _, kind := range []catalog.Kind{catalog.KindComponent, catalog.KindFactor} {
		for _, v := range q[string(kind)] {
			v = strings.TrimSpace(v)
			if v == "" || selected[string(kind)+"/"+v] {
				continue
			}
			if !s.cat.Known(kind, v) {
				return nil, nil, nil, inputErr("error.bad_value", string(kind), map[string]any{"Value": clipValue(v), "Kind": kind})
			}
			selected[string(kind)+"/"+v] = true
			if kind == catalog.KindComponent {
				components = append(components, v)
			} else {
				factors = append(factors, v)
			}
		}
	}
	return components, factors, selected, nil
}

// showChecks renders every check, or the checklist for the chosen components and factors; with
// format=md, as Markdown to paste into a review.
func (s *Server) showChecks(c echo.Context) error {
	lang := pageLang(c)
	comps, facts, selected, err := s.parseStack(c.Request().URL.RawQuery)
	if err != nil {
		return err
	}
	checks := s.cat.Checks(lang, comps, facts)
	switch format := c.QueryParam("format"); format {
	case "":
	case "md":
		md := views.ChecklistMarkdown(c.Request().Context(), checks, selected)
		return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", []byte(md))
	default:
		return inputErr("error.bad_format", "format", map[string]any{"Value": clipValue(format)})
	}
	return render(c, http.StatusOK, views.ChecksPage(views.ChecksView{
		Checks: checks, Selected: selected, Stack: len(selected) > 0,
		Components: s.cat.Values(lang, catalog.KindComponent), Factors: s.cat.Values(lang, catalog.KindFactor),
	}))
}

// showCheck renders one check with the cases behind it.
func (s *Server) showCheck(c echo.Context) error {
	d, err := s.cat.Check(c.Request().Context(), pageLang(c), c.Param("slug"))
	if errorsIsNotFound(err) {
		return &notFound{id: "error.check_not_found", data: map[string]any{"Slug": clipValue(c.Param("slug"))}, err: err,
			up: views.Link{Href: views.ChecksURL(pageLang(c), nil), Label: views.T(c.Request().Context(), "nav.checks")}}
	}
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.CheckPage(d))
}

// apiChecks lists the checks, or the checklist for the components and factors given.
func (s *Server) apiChecks(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	comps, facts, _, err := s.parseStack(c.Request().URL.RawQuery)
	if err != nil {
		return err
	}
	out := model.Checklist{Lang: lang, Components: nonNilStrings(comps), Factors: nonNilStrings(facts), Checks: []model.Check{}}
	ctx := s.apiContext(c, lang)
	for _, ch := range s.cat.Checks(lang, comps, facts) {
		out.Checks = append(out.Checks, checkOf(ctx, lang, ch))
	}
	return s.apiJSON(c, out)
}

// apiCheck returns one check with the cases and action items behind it.
func (s *Server) apiCheck(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	d, err := s.cat.Check(c.Request().Context(), lang, c.Param("slug"))
	if errorsIsNotFound(err) {
		return &notFound{id: "error.check_not_found", data: map[string]any{"Slug": clipValue(c.Param("slug"))}, err: err}
	}
	if err != nil {
		return err
	}
	ctx := s.apiContext(c, lang)
	ev := []model.Evidence{}
	for _, e := range d.Evidence {
		ev = append(ev, model.Evidence{ID: e.ID, URL: views.AbsURL(ctx, views.CaseURL(lang, e.ID)), Org: term(e.Org), Date: e.Date,
			Headline: e.Headline, Title: e.Title, Items: e.Items})
	}
	return s.apiJSON(c, map[string]any{"lang": lang, "check": checkOf(ctx, lang, d.CheckSummary), "evidence": ev})
}

// cslJSONType is the media type of CSL-JSON, as the OpenAPI document gives it.
const cslJSONType = "application/vnd.citationstyles.csl+json"

// apiCite returns a citation of a case: BibTeX or CSL-JSON.
func (s *Server) apiCite(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	cs, err := s.cat.Case(c.Request().Context(), lang, id)
	if err != nil {
		return s.caseNotFound(err, id)
	}
	ctx := s.apiContext(c, lang)
	switch format := c.QueryParam("format"); format {
	case "", "bibtex":
		c.Response().Header().Set("Cache-Control", pageCacheControl)
		return c.Blob(http.StatusOK, "application/x-bibtex; charset=utf-8", []byte(views.BibTeX(ctx, cs)))
	case "csl-json":
		b, err := json.Marshal(views.CSLJSON(ctx, cs))
		if err != nil {
			return err
		}
		return s.apiBlobOf(c, cslJSONType, b)
	default:
		return inputErr("error.bad_cite_format", "format", map[string]any{"Value": clipValue(format)})
	}
}
