package views

import (
	"context"
	"strings"

	"incidentlib/internal/catalog"
)

func severity(ctx context.Context, s string) string {
	if s == "" {
		return "–"
	}
	return T(ctx, "severity."+s)
}

// paragraphs splits text at blank lines; an empty text is one dash.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return []string{"–"}
	}
	return out
}

func sourceLabel(s catalog.Source) string {
	if s.Title != "" {
		return s.Title
	}
	u := strings.TrimPrefix(strings.TrimPrefix(s.URL, "https://"), "http://")
	return clip(u, 80)
}

// archiveURL is the source's archived copy: the one the case names, or the Wayback Machine's
// latest capture of the source address.
func archiveURL(s catalog.Source) string {
	if s.Archive != "" {
		return s.Archive
	}
	return "https://web.archive.org/web/" + s.URL
}

// Reasons says why a case is related: "same root cause · shared Database".
func Reasons(ctx context.Context, rs []catalog.Term) string {
	var parts []string
	seen := map[string]bool{}
	for _, r := range rs {
		var s string
		switch r.Kind {
		case catalog.KindCause:
			s = T(ctx, "reason.cause", map[string]any{"Label": r.Label})
		case catalog.KindComponent:
			s = T(ctx, "reason.component", map[string]any{"Label": r.Label})
		case catalog.KindFactor:
			s = T(ctx, "reason.factor", map[string]any{"Label": r.Label})
		case "text":
			s = T(ctx, "reason.text")
		case "date":
			s = T(ctx, "reason.date")
		default:
			continue
		}
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
		if len(parts) == 3 {
			break
		}
	}
	if len(parts) == 0 {
		return T(ctx, "reason.symptom")
	}
	return strings.Join(parts, " · ")
}

// codeSpans splits text at backticks: odd pieces were quoted as code. An unpaired backtick is
// kept as written.
func codeSpans(text string) []string {
	parts := strings.Split(text, "`")
	if len(parts)%2 == 0 {
		return []string{text}
	}
	return parts
}
