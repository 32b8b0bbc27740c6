package views

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

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

// shownLinks is how many of a group of linked cases (earlier at the same organization) are shown
// before the rest fold away: the related cases above them matter more.
const shownLinks = 3

// Reasons says why a case is related: "same kind of cause: Capacity limit · same component:
// Database", a phrase a kind.
func Reasons(ctx context.Context, rs []catalog.Term) string {
	// One phrase a kind, naming its shared values: "same kind of cause: Capacity limit, Software
	// bug", not the phrase twice.
	var kinds []catalog.Kind
	labels := map[catalog.Kind][]string{}
	for _, r := range rs {
		switch r.Kind {
		case catalog.KindSymptom, catalog.KindOrg, catalog.KindYear:
			continue // never a reason: too common to say anything
		}
		if _, ok := labels[r.Kind]; !ok {
			kinds = append(kinds, r.Kind)
		}
		if !slices.Contains(labels[r.Kind], r.Label) {
			labels[r.Kind] = append(labels[r.Kind], r.Label)
		}
	}
	var parts []string
	for _, k := range kinds {
		id := "reason." + string(k)
		s := T(ctx, id, map[string]any{"Label": strings.Join(labels[k], ", ")})
		if s == id {
			continue // a kind without a phrase of its own
		}
		parts = append(parts, s)
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

// caseTitle is the page title of a case: its headline (or title) and id.
func caseTitle(c catalog.Case) string {
	h := c.Text.Headline
	if h == "" {
		h = c.Text.Title
	}
	return h + " · " + c.ID
}

// casePreviewTitle is what a link preview shows: "IL-0016 · DigitalOcean · 2026-08-24 — headline".
func casePreviewTitle(c catalog.Case) string {
	h := c.Text.Headline
	if h == "" {
		h = clip(c.Text.Title, 90)
	}
	return c.ID + " · " + c.Org.Label + " · " + c.Date + " — " + h
}

// checksFor returns the checks that the action item at position n (from 1) supports.
func checksFor(links []catalog.CheckLink, n int) []catalog.Term {
	var out []catalog.Term
	for _, l := range links {
		if slices.Contains(l.Items, n) {
			out = append(out, l.Check)
		}
	}
	return out
}

func otherTimeline(c *catalog.Case) []catalog.Event {
	if c == nil {
		return nil
	}
	return c.Timeline
}

// elapsed is the time from the timeline's start (the event marked start, or the first one) to
// event i, as "+1h 52m"; false for the start itself and for events before it.
func elapsed(lang catalog.Lang, evs []catalog.Event, i int) (string, bool) {
	start := evs[0].At
	for _, e := range evs {
		if e.Mark == "start" {
			start = e.At
			break
		}
	}
	m := int(evs[i].At.Sub(start).Minutes())
	if m <= 0 {
		return "", false
	}
	return "+" + FormatMinutes(lang, &m), true
}

// FormatEventTime shows a timeline time as the source gave it, with its zone: "16:56 UTC" or
// "09:00 UTC+9", and the date when it is not the day of the case.
func FormatEventTime(lang catalog.Lang, t time.Time) string {
	zone := "UTC"
	if _, off := t.Zone(); off != 0 {
		zone = fmt.Sprintf("UTC%+d", off/3600)
		if off%3600 != 0 {
			zone = fmt.Sprintf("UTC%+d:%02d", off/3600, abs(off%3600)/60)
		}
	}
	return FormatDate(lang, t.Format("2006-01-02")) + " " + t.Format("15:04") + " " + zone
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// linkGroups splits a case's links by kind, keeping their order.
func linkGroups(links []catalog.CaseLink) [][]catalog.CaseLink {
	var out [][]catalog.CaseLink
	for _, l := range links {
		if n := len(out); n > 0 && out[n-1][0].Kind == l.Kind {
			out[n-1] = append(out[n-1], l)
			continue
		}
		out = append(out, []catalog.CaseLink{l})
	}
	return out
}

// sourceInKorean reports whether a source is written in Korean: a title in Hangul, or a site
// under .kr.
func sourceInKorean(s catalog.Source) bool {
	if catalog.HasHangul(s.Title) {
		return true
	}
	u, err := url.Parse(s.URL)
	return err == nil && strings.HasSuffix(u.Hostname(), ".kr")
}
