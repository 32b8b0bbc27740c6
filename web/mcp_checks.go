package web

import (
	"cmp"
	"context"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
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
	Component []string     `json:"component,omitempty" jsonschema:"component slugs of the system (see vocab), e.g. database"`
	Factor    []string     `json:"factor,omitempty" jsonschema:"contributing factor slugs to guard against (see vocab)"`
	Lang      catalog.Lang `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
}

// toolGetChecklist answers with the checklist for a stack, as the checks page does.
func (s *Server) toolGetChecklist(ctx context.Context, req *mcp.CallToolRequest, in checklistInput) (*mcp.CallToolResult, model.Checklist, error) {
	lang := cmp.Or(in.Lang, defaultAPILang)
	ctx = s.toolLocale(ctx, lang)
	q := url.Values{string(catalog.KindComponent): in.Component, string(catalog.KindFactor): in.Factor}
	comps, facts, selected, err := s.parseStack(q.Encode())
	if err != nil {
		return nil, model.Checklist{}, s.toolError(ctx, req, err)
	}
	origin := views.LocaleOf(ctx).Origin
	out := model.Checklist{Lang: lang, Components: nonNilStrings(comps), Factors: nonNilStrings(facts), Checks: []model.Check{},
		URL: origin + views.ChecksURL(lang, q)}
	checks := s.cat.Checks(lang, comps, facts)
	for _, ch := range checks {
		out.Checks = append(out.Checks, checkOf(ctx, lang, ch))
	}
	md := views.ChecklistMarkdown(ctx, checks, selected)
	return textResult(strings.TrimSpace(md) + "\n\n" + out.URL), out, nil
}
