package web

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

//go:embed openapi.json
var openAPIDoc []byte

// JSON shapes of the API. They are documented in openapi.json; tests check responses against it.

type apiTerm struct {
	Kind  string `json:"kind"`
	Slug  string `json:"slug"`
	Label string `json:"label"`
}

type apiCard struct {
	ID       string    `json:"id"`
	URL      string    `json:"url"`
	Org      apiTerm   `json:"org"`
	Date     string    `json:"date"`
	Headline string    `json:"headline,omitempty"`
	Title    string    `json:"title"`
	Summary  string    `json:"summary"`
	Snippet  string    `json:"snippet,omitempty"`
	Tags     []apiTerm `json:"tags"`
}

type apiFacet struct {
	Slug  string `json:"slug"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

type apiList struct {
	Lang        string                `json:"lang"`
	Query       string                `json:"q"`
	Filters     map[string][]string   `json:"filters"`
	Sort        string                `json:"sort"`
	AnyWords    bool                  `json:"any_words"`
	Total       int                   `json:"total"`
	Page        int                   `json:"page"`
	PageSize    int                   `json:"page_size"`
	Pages       int                   `json:"pages"`
	Cases       []apiCard             `json:"cases"`
	Facets      map[string][]apiFacet `json:"facets"`
	Suggestions []apiTerm             `json:"suggestions"`
}

type apiRelated struct {
	ID      string    `json:"id"`
	URL     string    `json:"url"`
	Title   string    `json:"title"`
	Org     apiTerm   `json:"org"`
	Date    string    `json:"date"`
	Score   float64   `json:"score"`
	Reasons []apiTerm `json:"reasons"`
	Why     string    `json:"why"`
}

type apiCase struct {
	ID            string                  `json:"id"`
	URL           string                  `json:"url"`
	Org           apiTerm                 `json:"org"`
	Date          string                  `json:"date"`
	Severity      *string                 `json:"severity"`
	TimeToDetect  *int                    `json:"time_to_detect"`
	TimeToResolve *int                    `json:"time_to_resolve"`
	Causes        []apiTerm               `json:"causes"`
	Symptoms      []apiTerm               `json:"symptoms"`
	Components    []apiTerm               `json:"components"`
	Factors       []apiTerm               `json:"factors"`
	Sources       []catalog.Source        `json:"sources"`
	Text          map[string]catalog.Text `json:"text"`
	Timeline      []apiEvent              `json:"timeline"`
	Checks        []apiCheckLink          `json:"checks"`
	Links         []apiCaseLink           `json:"links"`
	Related       []apiRelated            `json:"related"`
}

// apiCaseLink is a link to another case: the same event elsewhere, or an earlier case at the
// same organization.
type apiCaseLink struct {
	Kind  string `json:"kind"`
	ID    string `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
	Date  string `json:"date"`
}

// apiEvent is a timeline event: the time as the source gave it, in UTC too, and the text in
// each language asked for.
type apiEvent struct {
	At   string            `json:"at"`
	UTC  string            `json:"utc"`
	Mark string            `json:"mark,omitempty"`
	Text map[string]string `json:"text"`
}

type apiCheckLink struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	URL   string `json:"url"`
	Items []int  `json:"items"`
}

type apiVocabEntry struct {
	Slug       string   `json:"slug"`
	Label      string   `json:"label"`
	Definition string   `json:"definition"`
	Aliases    []string `json:"aliases"`
	Count      int      `json:"count"`
}

type apiTopic struct {
	apiTerm
	Definition string                `json:"definition"`
	Count      int                   `json:"count"`
	Related    map[string][]apiFacet `json:"related"`
	Years      []catalog.YearCount   `json:"years"`
	Cases      []apiCard             `json:"cases"`
}

func term(t catalog.Term) apiTerm { return apiTerm{Kind: t.Kind, Slug: t.Slug, Label: t.Label} }

func terms(ts []catalog.Term) []apiTerm {
	out := make([]apiTerm, 0, len(ts))
	for _, t := range ts {
		out = append(out, term(t))
	}
	return out
}

func facets(fs []catalog.Facet) []apiFacet {
	out := make([]apiFacet, 0, len(fs))
	for _, f := range fs {
		out = append(out, apiFacet{Slug: f.Slug, Label: f.Label, Count: f.Count})
	}
	return out
}

func (s *Server) cards(r *http.Request, lang string, cs []catalog.Card) []apiCard {
	out := make([]apiCard, 0, len(cs))
	for _, c := range cs {
		var snip strings.Builder
		for _, sp := range c.Snippet {
			snip.WriteString(sp.Text)
		}
		out = append(out, apiCard{ID: c.ID, URL: s.origin(r) + views.CaseURL(lang, c.ID), Org: term(c.Org), Date: c.Date,
			Headline: c.Headline, Title: c.Title, Summary: c.Summary, Snippet: snip.String(), Tags: terms(c.Tags)})
	}
	return out
}

// apiLang reads the lang parameter: ko or en, default given.
func apiLang(c echo.Context, def string) (string, error) {
	lang := c.QueryParam("lang")
	if lang == "" {
		return def, nil
	}
	if !validLang(lang) {
		return "", inputErr("error.bad_lang", "lang", map[string]any{"Value": clipValue(lang)})
	}
	return lang, nil
}

// apiCases lists and searches cases with the listing's filters and paging.
func (s *Server) apiCases(c echo.Context) error {
	lang, err := apiLang(c, "en")
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
	r, err := s.cat.Cases(c.Request().Context(), lang, f)
	if err != nil {
		return err
	}
	if f.Page > r.Pages() {
		return inputErr("error.bad_page", "page", map[string]any{"Value": f.Page, "Max": r.Pages()})
	}
	out := apiList{Lang: lang, Query: r.Filter.Q, Filters: map[string][]string{}, Sort: r.Filter.Sort, AnyWords: r.AnyWords,
		Total: r.Total, Page: r.Filter.Page, PageSize: r.Filter.PageSize, Pages: r.Pages(),
		Cases: s.cards(c.Request(), lang, r.Cards), Facets: map[string][]apiFacet{}, Suggestions: terms(r.Suggestions)}
	for _, kind := range catalog.FilterKinds {
		out.Filters[kind] = append([]string{}, r.Filter.Values[kind]...)
		out.Facets[kind] = facets(r.Facets[kind])
	}
	return s.apiJSON(c, out)
}

// apiCase returns one case, in both languages unless lang names one.
func (s *Server) apiCase(c echo.Context) error {
	id := strings.ToUpper(c.Param("id"))
	langs := catalog.Langs
	if c.QueryParam("lang") != "" {
		lang, err := apiLang(c, "")
		if err != nil {
			return err
		}
		langs = []string{lang}
	}
	out := apiCase{Text: map[string]catalog.Text{}, Timeline: []apiEvent{}, Checks: []apiCheckLink{}, Links: []apiCaseLink{}}
	for i, lang := range langs {
		cs, err := s.cat.Case(c.Request().Context(), lang, id)
		if err != nil {
			return s.caseNotFound(err, id)
		}
		out.Text[lang] = cs.Text
		for j, e := range cs.Timeline {
			if i == 0 {
				out.Timeline = append(out.Timeline, apiEvent{At: e.At.Format("2006-01-02T15:04Z07:00"),
					UTC: e.At.UTC().Format("2006-01-02T15:04Z07:00"), Mark: e.Mark, Text: map[string]string{}})
			}
			out.Timeline[j].Text[lang] = e.Text
		}
		if i > 0 {
			continue
		}
		for _, l := range cs.Links {
			out.Links = append(out.Links, apiCaseLink{Kind: l.Kind, ID: l.ID, URL: s.origin(c.Request()) + views.CaseURL(lang, l.ID),
				Title: cmp.Or(l.Headline, l.Title), Date: l.Date})
		}
		for _, l := range cs.Checks {
			out.Checks = append(out.Checks, apiCheckLink{Slug: l.Check.Slug, Title: l.Check.Label,
				URL: s.origin(c.Request()) + views.CheckURL(lang, l.Check.Slug), Items: l.Items})
		}
		out.ID, out.Org, out.Date = cs.ID, term(cs.Org), cs.Date
		out.URL = s.origin(c.Request()) + views.CaseURL(lang, cs.ID)
		if cs.Severity != "" {
			out.Severity = &cs.Severity
		}
		out.TimeToDetect, out.TimeToResolve = cs.TimeToDetect, cs.TimeToResolve
		out.Causes, out.Symptoms, out.Components, out.Factors = terms(cs.Causes), terms(cs.Symptoms), terms(cs.Components), terms(cs.Factors)
		out.Sources = cs.Sources
		out.Related = s.related(c, lang, cs.Related)
	}
	return s.apiJSON(c, out)
}

func (s *Server) related(c echo.Context, lang string, rs []catalog.Related) []apiRelated {
	ctx := views.WithLocale(c.Request().Context(), &views.Locale{Lang: lang, Localizer: s.localizers[lang]})
	out := make([]apiRelated, 0, len(rs))
	for _, r := range rs {
		out = append(out, apiRelated{ID: r.ID, URL: s.origin(c.Request()) + views.CaseURL(lang, r.ID), Title: r.Title, Org: term(r.Org),
			Date: r.Date, Score: r.Score, Reasons: terms(r.Reasons), Why: views.Reasons(ctx, r.Reasons)})
	}
	return out
}

// apiSimilar returns the cases most like one case, with reasons.
func (s *Server) apiSimilar(c echo.Context) error {
	lang, err := apiLang(c, "en")
	if err != nil {
		return err
	}
	id := strings.ToUpper(c.Param("id"))
	rs, err := s.cat.Similar(c.Request().Context(), lang, id)
	if err != nil {
		return s.caseNotFound(err, id)
	}
	return s.apiJSON(c, map[string]any{"id": id, "lang": lang, "similar": s.related(c, lang, rs)})
}

// apiVocab returns every vocabulary value and organization with its case count.
func (s *Server) apiVocab(c echo.Context) error {
	lang, err := apiLang(c, "en")
	if err != nil {
		return err
	}
	out := map[string][]apiVocabEntry{}
	for kind, vs := range s.cat.Vocab(lang) {
		for _, v := range vs {
			aliases := v.Aliases
			if aliases == nil {
				aliases = []string{}
			}
			out[kind] = append(out[kind], apiVocabEntry{Slug: v.Slug, Label: v.Label, Definition: v.Definition, Aliases: aliases, Count: v.Count})
		}
	}
	return s.apiJSON(c, map[string]any{"lang": lang, "vocab": out})
}

// apiTopic returns one value with its definition, co-occurring values and cases.
func (s *Server) apiTopic(c echo.Context) error {
	lang, err := apiLang(c, "en")
	if err != nil {
		return err
	}
	kind := c.Param("kind")
	t, err := s.cat.Topic(c.Request().Context(), lang, kind, c.Param("slug"))
	if errorsIsNotFound(err) {
		return &notFound{id: "error.topic_not_found", data: map[string]any{"Kind": clipValue(kind), "Slug": clipValue(c.Param("slug"))}, err: err}
	}
	if err != nil {
		return err
	}
	out := apiTopic{apiTerm: term(t.Term), Definition: t.Definition, Count: t.Count, Related: map[string][]apiFacet{},
		Years: t.Years, Cases: s.cards(c.Request(), lang, t.Cards)}
	if out.Years == nil {
		out.Years = []catalog.YearCount{}
	}
	for k, fs := range t.Related {
		out.Related[k] = facets(fs)
	}
	return s.apiJSON(c, out)
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
	etag := etagOf(b)
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300")
	if match := c.Request().Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}
