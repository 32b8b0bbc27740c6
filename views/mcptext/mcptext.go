// Package mcptext writes the text answers of the MCP tools: Markdown-ish plain text in the
// answer's language, written from the structured answer (internal/model) so both say the same.
package mcptext

import (
	"context"
	"fmt"
	"strings"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"incidentlib/views"
)

// List writes a page of cases under an optional heading.
func List(ctx context.Context, head string, out model.ToolList) string {
	var b strings.Builder
	if head != "" {
		fmt.Fprintf(&b, "# %s\n\n", head)
	}
	from := (out.Page-1)*out.PageSize + 1
	if out.Total == 0 {
		fmt.Fprintf(&b, "%s. %s\n", views.T(ctx, "list.none"), views.T(ctx, "list.empty_hint"))
	} else {
		fmt.Fprintf(&b, "%s. %s %s\n", views.N(ctx, "list.range", out.Total, map[string]any{"From": from, "To": from + len(out.Cases) - 1}),
			listWhat(ctx, out), views.T(ctx, "list.order_"+out.Sort))
	}
	if len(out.Suggestions) > 0 {
		var sug []string
		for _, s := range out.Suggestions {
			sug = append(sug, fmt.Sprintf("%s (%s=%s)", s.Label, s.Kind, s.Slug))
		}
		fmt.Fprintf(&b, "%s: %s\n", views.T(ctx, "list.suggested"), strings.Join(sug, " · "))
	}
	for i, c := range out.Cases {
		fmt.Fprintf(&b, "\n%d. %s · %s · %s — %s\n   %s\n   %s\n", from+i, c.ID, c.Org.Label,
			views.FormatCaseDate(out.Lang, c.Date, c.Zone), c.Title, c.Summary, c.URL)
	}
	if out.Page < out.Pages {
		fmt.Fprintf(&b, "\n%s\n", views.T(ctx, "mcp.next_page", map[string]any{"Next": out.Page + 1, "Pages": out.Pages}))
	}
	return b.String()
}

// listWhat says what the list holds, as the listing page does.
func listWhat(ctx context.Context, out model.ToolList) string {
	words := len(catalog.ParseQuery(out.Query)) > 0
	switch {
	case !words && len(out.Filters) == 0:
		return views.T(ctx, "list.what_all")
	case !words:
		return views.T(ctx, "list.what_filters")
	case out.AnyWords:
		return views.N(ctx, "list.what_search_groups", out.AllWords, map[string]any{"Some": out.Total - out.AllWords})
	case len(out.Filters) > 0:
		return views.T(ctx, "list.what_search_filters")
	}
	return views.T(ctx, "list.what_search")
}

// Case writes a case: facts and classification in the first language, the account in each of
// langs (localize gives the context of a language), then sources and related cases.
func Case(ctx context.Context, langs []catalog.Lang, out model.Case, localize func(lang catalog.Lang) context.Context) string {
	lang := langs[0]
	var b strings.Builder
	fmt.Fprintf(&b, "# %s · %s · %s\n%s\n\n", out.ID, out.Org.Label, views.FormatCaseDate(lang, out.Date, out.Zone), out.URL)
	fmt.Fprintf(&b, "## %s\n", views.T(ctx, "case.facts"))
	severity := "–"
	if out.Severity != nil {
		severity = views.T(ctx, "severity."+*out.Severity)
	}
	fmt.Fprintf(&b, "- %s: %s\n", views.T(ctx, "case.severity"), severity)
	fmt.Fprintf(&b, "- %s: %s\n", views.T(ctx, "case.time_to_detect"), views.FormatMinutes(lang, out.TimeToDetect))
	fmt.Fprintf(&b, "- %s: %s\n", views.T(ctx, "case.time_to_resolve"), views.FormatMinutes(lang, out.TimeToResolve))
	for _, kind := range catalog.VocabKinds {
		var vs []string
		for _, tm := range out.Tags[kind] {
			vs = append(vs, tm.Label+" ("+tm.Slug+")")
		}
		fmt.Fprintf(&b, "- %s: %s\n", views.KindPlural(ctx, kind), views.Or(strings.Join(vs, ", ")))
	}
	for _, l := range langs {
		lctx, tx := localize(l), out.Text[l]
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", tx.Title, tx.Summary)
		// The field table decides what is written and in which order: the short facts as a
		// list, then each section.
		for _, f := range catalog.Fields {
			v := f.Values(&tx)
			switch {
			case len(v) == 0 || f.Key == "headline" || f.Key == "title" || f.Key == "summary":
			case !f.Section:
				fmt.Fprintf(&b, "- %s: %s\n", views.T(lctx, "case."+f.Key), v[0])
			case f.List:
				fmt.Fprintf(&b, "\n### %s\n", views.T(lctx, "case."+f.Key))
				for _, it := range v {
					fmt.Fprintf(&b, "- %s\n", it)
				}
			default:
				fmt.Fprintf(&b, "\n### %s\n%s\n", views.T(lctx, "case."+f.Key), v[0])
			}
		}
	}
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "case.sources"))
	for _, src := range out.Sources {
		if src.Title != "" {
			fmt.Fprintf(&b, "- %s (%s): %s", src.Title, views.T(ctx, "source."+src.Kind), src.URL)
		} else {
			fmt.Fprintf(&b, "- %s (%s)", src.URL, views.T(ctx, "source."+src.Kind))
		}
		if src.Archive != "" {
			fmt.Fprintf(&b, " · %s: %s", views.T(ctx, "case.archive"), src.Archive)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "case.related"))
	if len(out.Related) == 0 {
		fmt.Fprintf(&b, "%s\n", views.T(ctx, "case.no_related"))
	}
	for _, r := range out.Related {
		fmt.Fprintf(&b, "- %s · %s · %s — %s (%s)\n", r.ID, r.Org.Label, views.FormatDate(lang, r.Date), r.Title, r.Why)
	}
	return b.String()
}

// Topic writes a value: definition, count, values found with it and cases per year.
func Topic(ctx context.Context, kinds []catalog.Kind, out model.Topic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s (%s)\n%s\n\n", views.KindLabel(ctx, out.Kind), out.Label, out.Slug, out.URL)
	if out.Definition != "" {
		fmt.Fprintf(&b, "%s\n", out.Definition)
	}
	fmt.Fprintf(&b, "%s\n", views.N(ctx, "topic.count", out.Count))
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "topic.cooccur"))
	for _, kind := range kinds {
		fs := out.Related[kind]
		if len(fs) == 0 {
			continue
		}
		var vs []string
		for _, f := range fs[:min(len(fs), 8)] {
			vs = append(vs, fmt.Sprintf("%s (%s) %d", f.Label, f.Slug, f.Count))
		}
		fmt.Fprintf(&b, "- %s: %s\n", views.KindPlural(ctx, kind), strings.Join(vs, ", "))
	}
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "topic.per_year"))
	var ys []string
	for _, y := range out.Years {
		label := fmt.Sprint(y.Year)
		if y.Before {
			label = "≤" + label
		}
		ys = append(ys, fmt.Sprintf("%s: %d", label, y.Count))
	}
	fmt.Fprintf(&b, "%s\n", views.Or(strings.Join(ys, " · ")))
	return b.String()
}

// Vocab writes values grouped by kind: slug, label, number of cases and definition.
func Vocab(ctx context.Context, out model.VocabList) string {
	if len(out.Values) == 0 {
		return views.T(ctx, "mcp.no_values", map[string]any{"Q": out.Words}) + "\n"
	}
	var b strings.Builder
	var kind catalog.Kind
	for _, v := range out.Values {
		if v.Kind != kind {
			kind = v.Kind
			fmt.Fprintf(&b, "\n## %s (%s)\n", views.KindPlural(ctx, kind), kind)
		}
		fmt.Fprintf(&b, "- %s: %s, %s", v.Slug, v.Label, views.N(ctx, "mcp.case_count", v.Count))
		if v.Definition != "" {
			fmt.Fprintf(&b, ". %s", v.Definition)
		}
		b.WriteString("\n")
	}
	return strings.TrimPrefix(b.String(), "\n")
}

// Like writes the answer to a description: the values it names, then the closest cases with
// what each shares.
func Like(ctx context.Context, out model.Like) string {
	var b strings.Builder
	if len(out.Found) > 0 {
		b.WriteString(views.T(ctx, "like.found") + ":")
		for i, f := range out.Found {
			sep := " "
			if i > 0 {
				sep = ", "
			}
			fmt.Fprintf(&b, "%s%s %s (%s, %s)", sep, views.KindLabel(ctx, f.Kind), f.Label, f.Slug, views.N(ctx, "mcp.case_count", f.Count))
		}
		b.WriteString("\n\n")
	}
	if len(out.Cases) == 0 {
		return b.String() + views.T(ctx, "like.none") + "\n"
	}
	for i, c := range out.Cases {
		fmt.Fprintf(&b, "%d. %s · %s · %s\n   %s\n", i+1, c.ID, c.Org.Label, views.FormatCaseDate(out.Lang, c.Date, c.Zone), c.URL)
		fmt.Fprintf(&b, "   %s\n", c.Title)
		var why []string
		if c.Why != "" {
			why = append(why, c.Why)
		}
		if len(c.Words) > 0 {
			why = append(why, views.T(ctx, "like.words", map[string]any{"Words": strings.Join(c.Words, ", ")}))
		}
		if len(why) > 0 {
			fmt.Fprintf(&b, "   %s %s\n", views.T(ctx, "like.why"), strings.Join(why, " · "))
		}
	}
	return b.String()
}
