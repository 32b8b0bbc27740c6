package views

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"incidentlib/internal/catalog"
)

// checkGroup is the checks of one component or factor.
type checkGroup struct {
	Label  string
	Checks []catalog.CheckSummary
}

// groupChecks groups checks by their first component (or first factor), in the order the
// vocabulary defines; with a stack chosen, by the first chosen value they belong to.
func groupChecks(ctx context.Context, checks []catalog.CheckSummary, selected map[string]bool) []checkGroup {
	var groups []checkGroup
	index := map[string]int{}
	for _, c := range checks {
		key := groupOf(c, selected)
		i, ok := index[string(key.Kind)+"/"+key.Slug]
		if !ok {
			i = len(groups)
			index[string(key.Kind)+"/"+key.Slug] = i
			label := key.Label
			if key.Slug == "" {
				label = T(ctx, "checks.general")
			}
			groups = append(groups, checkGroup{Label: label})
		}
		groups[i].Checks = append(groups[i].Checks, c)
	}
	return groups
}

func groupOf(c catalog.CheckSummary, selected map[string]bool) catalog.Term {
	all := append(append([]catalog.Term{}, c.Components...), c.Factors...)
	for _, t := range all {
		if selected[string(t.Kind)+"/"+t.Slug] {
			return t
		}
	}
	if len(all) > 0 {
		return all[0]
	}
	return catalog.Term{}
}

// stackQuery is the query of a checklist for the chosen components and factors.
func stackQuery(selected map[string]bool) url.Values {
	q := url.Values{}
	for _, kind := range []catalog.Kind{catalog.KindComponent, catalog.KindFactor} {
		for key := range selected {
			if k, slug, _ := strings.Cut(key, "/"); k == string(kind) {
				q.Add(string(kind), slug)
			}
		}
	}
	for _, vs := range q {
		slices.Sort(vs)
	}
	return q
}

func withFormat(q url.Values, format string) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = v
	}
	out.Set("format", format)
	return out
}

// ChecklistMarkdown is a checklist as CommonMark: a heading, then one "- [ ]" item per check with
// its why and a link to its page, grouped like the page.
func ChecklistMarkdown(ctx context.Context, checks []catalog.CheckSummary, selected map[string]bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", mdEscape(T(ctx, "checks.title")))
	if len(checks) == 0 {
		fmt.Fprintf(&b, "%s\n", mdEscape(T(ctx, "checks.none")))
	}
	for _, g := range groupChecks(ctx, checks, selected) {
		fmt.Fprintf(&b, "## %s\n\n", mdEscape(g.Label))
		for _, c := range g.Checks {
			fmt.Fprintf(&b, "- [ ] %s ([%s](%s))\n  %s\n", mdEscape(c.Label), mdEscape(N(ctx, "checks.supported", c.Cases)),
				AbsURL(ctx, CheckURL(Lang(ctx), c.Slug)), mdEscape(c.Why))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// mdEscape keeps text literal in CommonMark.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()#+-.!<>|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func topChecks(cs []catalog.CheckSummary, n int) []catalog.CheckSummary {
	if len(cs) > n {
		return cs[:n]
	}
	return cs
}

// checksURLFor is the checklist a topic's "What to check" leads to: narrowed to the value when
// it is a component or factor.
func checksURLFor(lang catalog.Lang, t catalog.Term) string {
	q := url.Values{}
	if t.Kind == catalog.KindComponent || t.Kind == catalog.KindFactor {
		q.Set(string(t.Kind), t.Slug)
	}
	return ChecksURL(lang, q)
}
