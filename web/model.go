package web

import (
	"cmp"
	"context"
	"strings"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"incidentlib/views"
)

// Builders of the JSON model (internal/model) from catalog types, for the API and MCP alike.
// Links are absolute, on the base URL of the locale in ctx.

// defaultAPILang is the language of API and MCP answers that do not name one; both languages'
// text is given when a case is asked for without one.
const defaultAPILang = catalog.English

func term(t catalog.Term) model.Term { return model.Term{Kind: t.Kind, Slug: t.Slug, Label: t.Label} }

func terms(ts []catalog.Term) []model.Term {
	out := make([]model.Term, 0, len(ts))
	for _, t := range ts {
		out = append(out, term(t))
	}
	return out
}

// allWords is how many of a result's cases have every search word.
func allWords(r catalog.Result) int {
	if r.AnyWords {
		return r.AllWords
	}
	if len(r.Words) == 0 {
		return 0
	}
	return r.Total
}

// facetTerms are the values of facets, without their counts.
func facetTerms(fs []catalog.Facet) []model.Term {
	out := make([]model.Term, 0, len(fs))
	for _, f := range fs {
		out = append(out, term(f.Term))
	}
	return out
}

func facets(fs []catalog.Facet) []model.Facet {
	out := make([]model.Facet, 0, len(fs))
	for _, f := range fs {
		out = append(out, model.Facet{Slug: f.Slug, Label: f.Label, Count: f.Count})
	}
	return out
}

// cardsOf builds list cards; summaryChars > 0 cuts each summary to about that many characters.
func cardsOf(ctx context.Context, lang catalog.Lang, cs []catalog.Card, summaryChars int) []model.Card {
	out := make([]model.Card, 0, len(cs))
	for _, c := range cs {
		var snip strings.Builder
		for _, sp := range c.Snippet {
			snip.WriteString(sp.Text)
		}
		summary := c.Summary
		if summaryChars > 0 {
			summary = catalog.Clip(summary, summaryChars)
		}
		out = append(out, model.Card{ID: c.ID, URL: views.AbsURL(ctx, views.CaseURL(lang, c.ID)), Org: term(c.Org), Date: c.Date, Zone: c.Zone,
			Headline: c.Headline, Title: c.Title, Summary: summary, Snippet: snip.String(), Tags: terms(c.Tags)})
	}
	return out
}

func relatedOf(ctx context.Context, lang catalog.Lang, rs []catalog.Related) []model.Related {
	out := make([]model.Related, 0, len(rs))
	for _, r := range rs {
		out = append(out, model.Related{ID: r.ID, URL: views.AbsURL(ctx, views.CaseURL(lang, r.ID)), Title: r.Title, Org: term(r.Org),
			Date: r.Date, Score: r.Score, Reasons: terms(r.Reasons), Why: views.Reasons(ctx, r.Reasons)})
	}
	return out
}

// caseOf reads a case in the languages asked for (the first gives labels and links) and builds
// its model. ctx must carry the first language's locale.
func (s *Server) caseOf(ctx context.Context, langs []catalog.Lang, id string) (model.Case, error) {
	out := model.Case{Text: map[catalog.Lang]catalog.Text{}, Timeline: []model.Event{}, Checks: []model.CheckLink{}, Links: []model.CaseLink{}}
	lang := langs[0]
	for i, l := range langs {
		cs, err := s.cat.Case(ctx, l, id)
		if err != nil {
			return model.Case{}, s.caseNotFound(err, id)
		}
		out.Text[l] = cs.Text
		for j, e := range cs.Timeline {
			if i == 0 {
				out.Timeline = append(out.Timeline, model.Event{At: e.At.Format("2006-01-02T15:04Z07:00"),
					UTC: e.At.UTC().Format("2006-01-02T15:04Z07:00"), Mark: e.Mark, Text: map[catalog.Lang]string{}})
			}
			out.Timeline[j].Text[l] = e.Text
		}
		if i > 0 {
			continue
		}
		out.ID, out.Org, out.Date, out.Zone = cs.ID, term(cs.Org), cs.Date, cs.Zone
		out.URL = views.AbsURL(ctx, views.CaseURL(lang, cs.ID))
		if cs.Severity != "" {
			out.Severity = &cs.Severity
		}
		out.TimeToDetect, out.TimeToResolve = cs.TimeToDetect, cs.TimeToResolve
		out.Tags = map[catalog.Kind][]model.Term{}
		for _, kind := range catalog.VocabKinds {
			out.Tags[kind] = terms(cs.Values(kind))
		}
		out.Sources = cs.Sources
		out.Related = relatedOf(ctx, lang, cs.Related)
		for _, l := range cs.Links {
			out.Links = append(out.Links, model.CaseLink{Kind: l.Kind, ID: l.ID, URL: views.AbsURL(ctx, views.CaseURL(lang, l.ID)),
				Title: cmp.Or(l.Headline, l.Title), Date: l.Date})
		}
		for _, l := range cs.Checks {
			out.Checks = append(out.Checks, model.CheckLink{Slug: l.Check.Slug, Title: l.Check.Label,
				URL: views.AbsURL(ctx, views.CheckURL(lang, l.Check.Slug)), Items: l.Items})
		}
	}
	return out, nil
}

func checkOf(ctx context.Context, lang catalog.Lang, c catalog.CheckSummary) model.Check {
	return model.Check{Slug: c.Slug, URL: views.AbsURL(ctx, views.CheckURL(lang, c.Slug)), Title: c.Label, Why: c.Why,
		Components: terms(c.Components), Factors: terms(c.Factors), Cases: c.Cases}
}

func vocabValueOf(v catalog.VocabEntry) model.VocabValue {
	aliases := v.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return model.VocabValue{Term: term(v.Term), Definition: v.Definition, Aliases: aliases, Count: v.Count}
}

func nonNilStrings(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}
