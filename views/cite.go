package views

import (
	"context"
	"strconv"
	"strings"

	"incidentlib/internal/catalog"
)

// Citations of a case: the permalink is what is cited, with the organization's own report as a
// note, so a reader can go to the primary source.

// BibTeX cites a case as a @misc entry.
func BibTeX(ctx context.Context, c catalog.Case) string {
	var b strings.Builder
	key := strings.ReplaceAll(c.ID, "-", "")
	b.WriteString("@misc{" + key + ",\n")
	field := func(name, value string) {
		if value != "" {
			b.WriteString("  " + name + " = {" + value + "},\n")
		}
	}
	field("title", "{"+bibEscape(orDefault(c.Text.Headline, c.Text.Title))+"}")
	field("author", "{"+bibEscape(T(ctx, "site.name"))+"}")
	field("organization", bibEscape(c.Org.Label))
	field("year", c.Date[:4])
	if len(c.Date) >= 7 {
		m, _ := strconv.Atoi(c.Date[5:7])
		field("month", strings.ToLower(enMonths[m-1]))
	}
	u := AbsURL(ctx, CaseURL(c.Lang, c.ID))
	field("url", u)
	field("howpublished", `\url{`+u+`}`)
	field("language", map[catalog.Lang]string{catalog.Korean: "korean", catalog.English: "english"}[c.Lang])
	var notes []string
	notes = append(notes, c.ID)
	for _, s := range c.Sources {
		notes = append(notes, T(ctx, "cite.source")+`: \url{`+s.URL+`}`)
		break
	}
	field("note", bibEscape(strings.Join(notes[:1], ""))+strings.Join(prefixAll(notes[1:], ". "), ""))
	out := strings.TrimSuffix(b.String(), ",\n")
	return out + "\n}\n"
}

func prefixAll(v []string, p string) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = p + s
	}
	return out
}

// bibEscape keeps text literal in BibTeX.
func bibEscape(s string) string {
	r := strings.NewReplacer(`\`, `\textbackslash{}`, "{", `\{`, "}", `\}`, "%", `\%`, "&", `\&`, "$", `\$`, "#", `\#`, "_", `\_`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`)
	return r.Replace(s)
}

// CSLJSON cites a case as CSL-JSON (one item in an array), the format of Zotero and pandoc.
func CSLJSON(ctx context.Context, c catalog.Case) []map[string]any {
	var parts []any
	for _, p := range strings.Split(c.Date, "-") {
		n, _ := strconv.Atoi(p)
		parts = append(parts, n)
	}
	item := map[string]any{
		"id":              c.ID,
		"type":            "webpage",
		"title":           orDefault(c.Text.Headline, c.Text.Title),
		"container-title": T(ctx, "site.name"),
		"author":          []map[string]string{{"literal": T(ctx, "site.name")}},
		"URL":             AbsURL(ctx, CaseURL(c.Lang, c.ID)),
		"issued":          map[string]any{"date-parts": []any{parts}},
		"language":        c.Lang,
		"abstract":        c.Text.Summary,
		"publisher":       c.Org.Label,
	}
	if len(c.Sources) > 0 {
		item["note"] = T(ctx, "cite.source") + ": " + c.Sources[0].URL
	}
	return []map[string]any{item}
}

// DatasetBibTeX cites the whole catalog as a dataset, at one release.
func DatasetBibTeX(ctx context.Context, r catalog.Release) string {
	year := r.Version[:4]
	return "@misc{incidentlib" + strings.ReplaceAll(r.Version[:10], "-", "") + ",\n" +
		"  title = {{" + bibEscape(T(ctx, "site.name")) + ": " + bibEscape(T(ctx, "data.dataset_title")) + "}},\n" +
		"  author = {{" + bibEscape(T(ctx, "site.name")) + "}},\n" +
		"  year = {" + year + "},\n" +
		"  version = {" + r.Version + "},\n" +
		"  url = {" + AbsURL(ctx, DataURL(Lang(ctx))) + "},\n" +
		"  note = {" + strconv.Itoa(r.Cases) + " cases, CC BY 4.0}\n}\n"
}

// DatasetCSLJSON is the same citation as CSL-JSON.
func DatasetCSLJSON(ctx context.Context, r catalog.Release) []map[string]any {
	y, _ := strconv.Atoi(r.Version[:4])
	m, _ := strconv.Atoi(r.Version[5:7])
	d, _ := strconv.Atoi(r.Version[8:10])
	return []map[string]any{{
		"id": "incidentlib-" + r.Version, "type": "dataset",
		"title":   T(ctx, "site.name") + ": " + T(ctx, "data.dataset_title"),
		"author":  []map[string]string{{"literal": T(ctx, "site.name")}},
		"version": r.Version, "URL": AbsURL(ctx, DataURL(Lang(ctx))),
		"issued": map[string]any{"date-parts": []any{[]int{y, m, d}}},
		"note":   strconv.Itoa(r.Cases) + " cases, CC BY 4.0",
	}}
}
