package web

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"incidentlib/views"
)

// The JSON API. Its answers are the JSON model (internal/model, built in web/model.go),
// documented in openapi.json (completed by web/openapi.go); tests check responses against it.
//
// Language: answers are in English unless ?lang=ko, errors included; a case asked for without
// lang carries its account in both languages, with labels and links in English.

// apiLang reads the lang parameter: ko or en, defaultAPILang when absent.
func apiLang(c echo.Context) (catalog.Lang, error) {
	raw := c.QueryParam("lang")
	if raw == "" {
		return defaultAPILang, nil
	}
	lang, ok := catalog.ParseLang(raw)
	if !ok {
		return "", inputErr("error.bad_lang", "lang", map[string]any{"Value": clipValue(raw)})
	}
	return lang, nil
}

// apiContext is the request's context with the locale of lang, for labels and links.
func (s *Server) apiContext(c echo.Context, lang catalog.Lang) context.Context {
	return views.WithLocale(c.Request().Context(), &views.Locale{Lang: lang, Localizer: s.localizers[lang], Origin: s.origin(c.Request())})
}

// apiCases lists and searches cases with the listing's filters and paging.
func (s *Server) apiCases(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	size := catalog.DefaultPageSize
	if ps := c.QueryParam("page_size"); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil || n < 1 || n > catalog.MaxPageSize {
			return inputErr("error.bad_page_size", "page_size", map[string]any{"Value": clipValue(ps), "Max": catalog.MaxPageSize})
		}
		size = n
	}
	f, err := s.parseFilter(c.Request().URL.RawQuery, size)
	if err != nil {
		return err
	}
	r, err := s.listPage(c.Request().Context(), lang, f)
	if err != nil {
		return err
	}
	ctx := s.apiContext(c, lang)
	out := model.List{Lang: lang, Query: r.Filter.Q, Filters: map[catalog.Kind][]string{}, Sort: r.Filter.Sort, AnyWords: r.AnyWords, AllWords: allWords(r),
		Total: r.Total, Page: r.Filter.Page, PageSize: r.Filter.PageSize, Pages: r.Pages(),
		Cases: cardsOf(ctx, lang, r.Cards, 0), Facets: map[catalog.Kind][]model.Facet{}, Suggestions: facetTerms(r.Suggestions)}
	for _, kind := range catalog.FilterKinds {
		out.Filters[kind] = append([]string{}, r.Filter.Values[kind]...)
		out.Facets[kind] = facets(r.Facets[kind])
	}
	return s.apiJSON(c, out)
}

// listPage runs a listing; the store refuses a page past its end before doing the work. The
// site, the API and MCP share it.
func (s *Server) listPage(ctx context.Context, lang catalog.Lang, f catalog.Filter) (catalog.Result, error) {
	r, err := s.cat.Cases(ctx, lang, f)
	var fe *catalog.FilterError
	if errors.As(err, &fe) {
		return r, filterInputError(fe)
	}
	return r, err
}

// caseLangs are the languages a case is asked for in: the one lang names, or both, English first.
func caseLangs(lang catalog.Lang) []catalog.Lang {
	if lang != "" {
		return []catalog.Lang{lang}
	}
	return []catalog.Lang{defaultAPILang, defaultAPILang.Other()}
}

// apiCase returns one case, in both languages unless lang names one.
func (s *Server) apiCase(c echo.Context) error {
	var lang catalog.Lang
	if c.QueryParam("lang") != "" {
		var err error
		if lang, err = apiLang(c); err != nil {
			return err
		}
	}
	langs := caseLangs(lang)
	out, err := s.caseOf(s.apiContext(c, langs[0]), langs, strings.ToUpper(c.Param("id")))
	if err != nil {
		return err
	}
	return s.apiJSON(c, out)
}

// apiSimilar returns the cases most like one case, with reasons.
func (s *Server) apiSimilar(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	id := strings.ToUpper(c.Param("id"))
	rs, err := s.cat.Similar(c.Request().Context(), lang, id)
	if err != nil {
		return s.caseNotFound(err, id)
	}
	return s.apiJSON(c, map[string]any{"id": id, "lang": lang, "similar": relatedOf(s.apiContext(c, lang), lang, rs)})
}

// apiVocab returns every vocabulary value and organization with its case count.
func (s *Server) apiVocab(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	out := map[catalog.Kind][]model.VocabValue{}
	for kind, vs := range s.cat.Vocab(lang) {
		for _, v := range vs {
			out[kind] = append(out[kind], vocabValueOf(v))
		}
	}
	return s.apiJSON(c, map[string]any{"lang": lang, "vocab": out})
}

// apiTopic returns one value with its definition, co-occurring values and cases.
func (s *Server) apiTopic(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	kind := c.Param("kind")
	t, err := s.cat.Topic(c.Request().Context(), lang, catalog.Kind(kind), c.Param("slug"))
	if errorsIsNotFound(err) {
		return &notFound{id: "error.topic_not_found", data: map[string]any{"Kind": catalog.Kind(clipValue(kind)), "Slug": clipValue(c.Param("slug"))}, err: err}
	}
	if err != nil {
		return err
	}
	out := model.APITopic{Term: term(t.Term), Definition: t.Definition, Count: t.Count, Related: map[catalog.Kind][]model.Facet{},
		Years: t.Years, Cases: cardsOf(s.apiContext(c, lang), lang, t.Cards, 0)}
	if out.Years == nil {
		out.Years = []catalog.YearCount{}
	}
	for k, fs := range t.Related {
		out.Related[k] = facets(fs)
	}
	return s.apiJSON(c, out)
}

// apiIndex is the API's front door: where its description is and what it offers.
func (s *Server) apiIndex(c echo.Context) error {
	origin := s.origin(c.Request())
	return s.apiJSON(c, map[string]any{
		"name":    "Incident Library API",
		"openapi": origin + "/api/v1/openapi.json",
		"docs":    origin + views.APIPageURL(defaultAPILang),
		"cases":   origin + "/api/v1/cases",
		"vocab":   origin + "/api/v1/vocab",
		"checks":  origin + "/api/v1/checks",
	})
}

func (s *Server) apiOpenAPI(c echo.Context) error {
	return s.apiBlob(c, openAPIDoc)
}

// apiJSON writes v with an ETag and Cache-Control, answering 304 when the client has it.
func (s *Server) apiJSON(c echo.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.apiBlob(c, b)
}

func (s *Server) apiBlob(c echo.Context, b []byte) error {
	return s.apiBlobOf(c, echo.MIMEApplicationJSON, b)
}

// apiBlobOf answers b as the media type, with an ETag and a short public cache life.
func (s *Server) apiBlobOf(c echo.Context, mediaType string, b []byte) error {
	etag := etagOf(b)
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300")
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, mediaType, b)
}
