package web

import (
	"cmp"
	"context"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

var getChecklistTool = &mcp.Tool{
	Name:  "get_checklist",
	Title: "What to check in a system",
	Description: "Answer \"what should I check in a system that uses X?\": the checks drawn from real incidents' action " +
		"items that belong to the given components (e.g. database, dns, kubernetes) or contributing factors (e.g. " +
		"retry-amplification), each with why it matters, how many cases back it, and its page. With neither, lists " +
		"every check. Find component and factor slugs with vocab. The answer is in English unless lang is ko; " +
		"Markdown with - [ ] items, ready to paste into a review.",
	InputSchema: inputSchema[checklistInput](),
	Annotations: readOnlyTool,
}

type checklistInput struct {
	Component []string `json:"component,omitempty" jsonschema:"component slugs of the system (see vocab), e.g. database"`
	Factor    []string `json:"factor,omitempty" jsonschema:"contributing factor slugs to guard against (see vocab)"`
	Lang      string   `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
}

type checklist struct {
	Lang       string     `json:"lang"`
	Components []string   `json:"components"`
	Factors    []string   `json:"factors"`
	URL        string     `json:"url" jsonschema:"the same checklist on the site"`
	Checks     []apiCheck `json:"checks" jsonschema:"checks in the order of the vocabulary"`
}

// toolGetChecklist answers with the checklist for a stack, as the checks page does.
func (s *Server) toolGetChecklist(ctx context.Context, req *mcp.CallToolRequest, in checklistInput) (*mcp.CallToolResult, checklist, error) {
	lang := cmp.Or(in.Lang, "en")
	ctx = s.toolLocale(ctx, lang)
	q := url.Values{catalog.KindComponent: in.Component, catalog.KindFactor: in.Factor}
	comps, facts, selected, err := s.parseStack(q.Encode())
	if err != nil {
		return nil, checklist{}, s.toolError(ctx, req, err)
	}
	origin := views.LocaleOf(ctx).Origin
	out := checklist{Lang: lang, Components: nonNilStrings(comps), Factors: nonNilStrings(facts), Checks: []apiCheck{},
		URL: origin + views.ChecksURL(lang, q)}
	checks := s.cat.Checks(lang, comps, facts)
	for _, ch := range checks {
		out.Checks = append(out.Checks, apiCheck{Slug: ch.Slug, URL: origin + views.CheckURL(lang, ch.Slug), Title: ch.Label,
			Why: ch.Why, Components: terms(ch.Components), Factors: terms(ch.Factors), Cases: ch.Cases})
	}
	md := views.ChecklistMarkdown(ctx, checks, selected)
	return textResult(strings.TrimSpace(md) + "\n\n" + out.URL), out, nil
}
