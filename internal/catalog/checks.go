package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// MinSupport is how many cases must support a check before it is shown.
const MinSupport = 2

// timelineEvent is a timeline event as stored: both languages.
type timelineEvent struct {
	At   string `json:"at"`
	Mark string `json:"mark"`
	EN   string `json:"en"`
	KO   string `json:"ko"`
}

// readTimeline decodes a stored timeline in one language.
func readTimeline(stored string, lang Lang) ([]Event, error) {
	var evs []timelineEvent
	if err := json.Unmarshal([]byte(stored), &evs); err != nil {
		return nil, err
	}
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		at, err := ParseEventTime(e.At)
		if err != nil {
			return nil, err
		}
		text := e.KO
		if lang == English {
			text = e.EN
		}
		out = append(out, Event{At: at, Mark: e.Mark, Text: text})
	}
	return out, nil
}

// ParseEventTime reads a timeline time: RFC 3339 with or without seconds, in UTC (Z) or with
// the local offset.
func ParseEventTime(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04Z07:00", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time; expected UTC as 2026-08-24T16:56Z or a local time with its offset as 2026-08-24T16:56+09:00", s)
}

// checksOf returns the checks a case's action items support, in the checks' order.
func (s *Store) checksOf(ctx context.Context, lang Lang, num int) ([]CheckLink, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT k.slug, k.title_en, k.title_ko, cc.items FROM case_checks cc
		JOIN checks k ON k.slug = cc.slug WHERE cc.num = ? ORDER BY k.pos`, num)
	if err != nil {
		return nil, fmt.Errorf("checks of case: %w", err)
	}
	defer rows.Close()
	var out []CheckLink
	for rows.Next() {
		var l CheckLink
		var title [2]string
		var items string
		if err := rows.Scan(&l.Check.Slug, &title[0], &title[1], &items); err != nil {
			return nil, err
		}
		l.Check.Kind, l.Check.Label = KindCheck, title[li(lang)]
		json.Unmarshal([]byte(items), &l.Items)
		sort.Ints(l.Items)
		out = append(out, l)
	}
	return out, rows.Err()
}

// checkRow is a check as loaded at open, with the cases that support it.
type checkRow struct {
	slug       string
	components []string
	factors    []string
	title, why [2]string // en, ko
	cases      []string  // ids of supporting cases, newest first
}

// CheckSummary is a check in one language with the number of cases that support it.
type CheckSummary struct {
	Term
	Why        string
	Components []Term
	Factors    []Term
	Cases      int
}

// Evidence is a case behind a check: the case and the action items that support the check.
type Evidence struct {
	ID       string
	Org      Term
	Date     string
	Zone     string
	Headline string
	Title    string
	Items    []string
}

// CheckDetail is one check with the cases and action items behind it.
type CheckDetail struct {
	CheckSummary
	Evidence []Evidence
}

func (s *Store) loadChecks(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT slug, components, factors, title_en, title_ko, why_en, why_ko,
		coalesce((SELECT json_group_array(id) FROM (SELECT c.id FROM case_checks cc JOIN cases c ON c.num = cc.num
			WHERE cc.slug = k.slug ORDER BY c.date DESC, c.num DESC)), '[]')
		FROM checks k ORDER BY pos`)
	if err != nil {
		return fmt.Errorf("load checks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r checkRow
		var comps, facts, cases string
		if err := rows.Scan(&r.slug, &comps, &facts, &r.title[0], &r.title[1], &r.why[0], &r.why[1], &cases); err != nil {
			return err
		}
		json.Unmarshal([]byte(comps), &r.components)
		json.Unmarshal([]byte(facts), &r.factors)
		json.Unmarshal([]byte(cases), &r.cases)
		if len(r.cases) >= MinSupport {
			s.checks = append(s.checks, r)
		}
	}
	return rows.Err()
}

func (s *Store) summary(lang Lang, r checkRow) CheckSummary {
	cs := CheckSummary{Term: Term{Kind: KindCheck, Slug: r.slug, Label: r.title[li(lang)]}, Why: r.why[li(lang)], Cases: len(r.cases)}
	for _, c := range r.components {
		cs.Components = append(cs.Components, s.Term(lang, KindComponent, c))
	}
	for _, f := range r.factors {
		cs.Factors = append(cs.Factors, s.Term(lang, KindFactor, f))
	}
	return cs
}

// Checks lists the checks that at least MinSupport cases support, in their defined order. With
// components or factors given, only the checks that belong to one of them: the checklist for a
// stack.
func (s *Store) Checks(lang Lang, components, factors []string) []CheckSummary {
	var out []CheckSummary
	for _, r := range s.checks {
		if len(components)+len(factors) > 0 && !overlaps(r.components, components) && !overlaps(r.factors, factors) {
			continue
		}
		out = append(out, s.summary(lang, r))
	}
	return out
}

// ChecksFor lists the checks that the given cases support most, for a topic page: each with the
// number of those cases behind it, most first, at most limit.
func (s *Store) ChecksFor(lang Lang, ids []string, limit int) []CheckSummary {
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	var out []CheckSummary
	for _, r := range s.checks {
		n := 0
		for _, id := range r.cases {
			if in[id] {
				n++
			}
		}
		if n > 0 {
			cs := s.summary(lang, r)
			cs.Cases = n
			out = append(out, cs)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cases > out[j].Cases })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// Check returns one check with the cases and action items behind it, newest case first.
func (s *Store) Check(ctx context.Context, lang Lang, slug string) (CheckDetail, error) {
	for _, r := range s.checks {
		if r.slug != slug {
			continue
		}
		d := CheckDetail{CheckSummary: s.summary(lang, r)}
		rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.org, c.date, c.zone, t.headline, t.title, t.text, cc.items FROM case_checks cc
			JOIN cases c ON c.num = cc.num JOIN case_text t ON t.num = c.num AND t.lang = ?
			WHERE cc.slug = ? ORDER BY c.date DESC, c.num DESC`, lang, slug)
		if err != nil {
			return CheckDetail{}, fmt.Errorf("check %s: %w", slug, err)
		}
		defer rows.Close()
		for rows.Next() {
			var e Evidence
			var org, text, items string
			if err := rows.Scan(&e.ID, &org, &e.Date, &e.Zone, &e.Headline, &e.Title, &text, &items); err != nil {
				return CheckDetail{}, err
			}
			var t Text
			var pos []int
			json.Unmarshal([]byte(text), &t)
			json.Unmarshal([]byte(items), &pos)
			sort.Ints(pos)
			for _, p := range pos {
				if p >= 1 && p <= len(t.ActionItems) {
					e.Items = append(e.Items, t.ActionItems[p-1])
				}
			}
			e.Org = s.Term(lang, KindOrg, org)
			d.Evidence = append(d.Evidence, e)
		}
		return d, rows.Err()
	}
	return CheckDetail{}, fmt.Errorf("check %q: %w", slug, ErrNotFound)
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}
