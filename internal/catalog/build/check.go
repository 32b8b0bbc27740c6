package build

import (
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"incidentlib/internal/catalog"
)

var (
	idPattern   = regexp.MustCompile(`^IL-\d{4}$`)
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	datePattern = regexp.MustCompile(`^\d{4}(-\d{2}(-\d{2})?)?$`)
)

// SourceKinds are the kinds a source may have, in the order of trust.
var SourceKinds = []string{"official-postmortem", "official-status", "engineering-blog", "news", "government-report", "community"}

// Severities are the allowed severity values.
var Severities = []string{"critical", "major", "minor"}

// Marks are the moments of a timeline that the case's durations count from and to.
var Marks = []string{"start", "detected", "mitigated", "resolved"}

var countryPattern = regexp.MustCompile(`^[A-Z]{2}$`)

// HasHangul reports whether s contains a Hangul syllable or letter.
func HasHangul(s string) bool { return catalog.HasHangul(s) }

// check validates the loaded data and returns every problem.
func check(d *Data) Problems {
	var ps Problems
	ps = append(ps, checkTaxonomy(d)...)
	orgsFile := filepath.Join(d.dir, "orgs.yaml")
	orgs := map[string]bool{}
	for i, o := range d.Orgs {
		f := fmt.Sprintf("[%d]", i)
		switch {
		case !slugPattern.MatchString(o.Slug):
			ps = append(ps, Problem{File: orgsFile, Field: f + ".slug", Msg: fmt.Sprintf("%q is not a slug (lowercase letters, digits and hyphens)", o.Slug)})
		case orgs[o.Slug]:
			ps = append(ps, Problem{File: orgsFile, Field: f + ".slug", Msg: fmt.Sprintf("duplicate organization %q", o.Slug)})
		}
		if o.Country != "" && !countryPattern.MatchString(o.Country) {
			ps = append(ps, Problem{File: orgsFile, Field: f + ".country", Msg: fmt.Sprintf("%q is not a country; expected an ISO 3166 two-letter code such as KR or US", o.Country)})
		}
		if strings.TrimSpace(o.EN) == "" || strings.TrimSpace(o.KO) == "" {
			ps = append(ps, Problem{File: orgsFile, Field: f, Msg: fmt.Sprintf("organization %q needs both an en and a ko name", o.Slug)})
		}
		orgs[o.Slug] = true
	}
	vocab := map[catalog.Kind]map[string]bool{}
	for _, kind := range catalog.VocabKinds {
		vocab[kind] = map[string]bool{}
		for _, v := range d.Taxonomy.Kind(kind) {
			vocab[kind][v.Slug] = true
		}
	}
	checks := checkChecks(d, vocab)
	// Ids are unique because each must equal its file's name (checked in checkCase).
	ids := map[string]string{}
	for _, c := range d.Cases {
		ids[c.ID] = c.file
	}
	for _, c := range d.Cases {
		ps = append(ps, checkCase(c, orgs, vocab, ids)...)
		ps = append(ps, checkCaseChecks(c, checks)...)
	}
	ps = append(ps, checkCauseCycles(d.Cases)...)
	return append(ps, checks.problems...)
}

// checkCauseCycles reports a caused_by chain that comes back to where it started: an outage
// cannot have caused itself, however many providers stand between.
func checkCauseCycles(cases []*Case) Problems {
	by := map[string]*Case{}
	for _, c := range cases {
		by[c.ID] = c
	}
	var ps Problems
	state := map[string]int{} // 0 unseen, 1 on the path, 2 done
	var visit func(c *Case, path []string) bool
	visit = func(c *Case, path []string) bool {
		switch state[c.ID] {
		case 1:
			ps = append(ps, c.problem([]any{"caused_by"}, "caused_by", "caused_by goes round in a circle: "+strings.Join(append(path, c.ID), " → ")))
			return false
		case 2:
			return true
		}
		state[c.ID] = 1
		for _, o := range c.CausedBy {
			if next := by[o]; next != nil && !visit(next, append(path, c.ID)) {
				return false
			}
		}
		state[c.ID] = 2
		return true
	}
	for _, c := range cases {
		if state[c.ID] == 0 {
			visit(c, nil)
		}
	}
	return ps
}

// checkSet is the checks by slug, with the problems found in data/checks.yaml.
type checkSet struct {
	slugs    map[string]bool
	problems Problems
}

func checkChecks(d *Data, vocab map[catalog.Kind]map[string]bool) checkSet {
	cs := checkSet{slugs: map[string]bool{}}
	file := filepath.Join(d.dir, "checks.yaml")
	add := func(field, msg string) {
		cs.problems = append(cs.problems, Problem{File: file, Field: field, Msg: msg})
	}
	for i, ch := range d.Checks {
		f := fmt.Sprintf("[%d]", i)
		switch {
		case !slugPattern.MatchString(ch.Slug):
			add(f+".slug", fmt.Sprintf("%q is not a slug (lowercase letters, digits and hyphens)", ch.Slug))
		case cs.slugs[ch.Slug]:
			add(f+".slug", fmt.Sprintf("duplicate check %q", ch.Slug))
		}
		cs.slugs[ch.Slug] = true
		if len(ch.Components)+len(ch.Factors) == 0 {
			add(f, fmt.Sprintf("check %q needs at least one component or factor", ch.Slug))
		}
		for kind, list := range map[catalog.Kind][]string{catalog.KindComponent: ch.Components, catalog.KindFactor: ch.Factors} {
			for j, v := range list {
				if !vocab[kind][v] {
					add(fmt.Sprintf("%s.%s[%d]", f, kind.Plural(), j), fmt.Sprintf("unknown %s %q; expected a slug from data/taxonomy.yaml", kind, v))
				}
			}
		}
		for lang, t := range map[catalog.Lang]CheckText{catalog.English: ch.EN, catalog.Korean: ch.KO} {
			switch {
			case strings.TrimSpace(t.Title) == "" || strings.TrimSpace(t.Why) == "":
				add(f+"."+string(lang), fmt.Sprintf("check %q needs a title and a why in %s", ch.Slug, langName(lang)))
			case lang == catalog.English && (HasHangul(t.Title) || HasHangul(t.Why)):
				add(f+".en", "English text contains Hangul")
			case lang == catalog.Korean && !HasHangul(t.Title):
				add(f+".ko", "Korean text contains no Hangul")
			}
		}
	}
	return cs
}

// checkCaseChecks checks that a case links existing checks to action items it has.
func checkCaseChecks(c *Case, checks checkSet) Problems {
	var ps Problems
	if len(c.Checks) > 0 && len(c.EN.ActionItems) != len(c.KO.ActionItems) {
		ps = append(ps, c.problem([]any{"checks"}, "checks", fmt.Sprintf("checks point at action items by position, so en and ko need the same number of action items (en has %d, ko %d)", len(c.EN.ActionItems), len(c.KO.ActionItems))))
	}
	for slug, items := range c.Checks {
		if !checks.slugs[slug] {
			ps = append(ps, c.problem([]any{"checks", slug}, "checks."+slug, fmt.Sprintf("unknown check %q; expected a slug from data/checks.yaml", slug)))
		}
		if len(items) == 0 {
			ps = append(ps, c.problem([]any{"checks", slug}, "checks."+slug, "expected the positions (from 1) of the action items that support the check"))
		}
		for _, n := range items {
			if n < 1 || n > len(c.EN.ActionItems) {
				ps = append(ps, c.problem([]any{"checks", slug}, "checks."+slug, fmt.Sprintf("action item %d does not exist; the case has %d", n, len(c.EN.ActionItems))))
			}
		}
	}
	return ps
}

func (c *Case) problem(path []any, field, msg string) Problem {
	return Problem{File: c.file, Line: lineOf(c.root, path...), Field: field, Msg: msg}
}

func checkTaxonomy(d *Data) Problems {
	var ps Problems
	file := filepath.Join(d.dir, "taxonomy.yaml")
	for _, key := range slices.Sorted(maps.Keys(d.Taxonomy)) {
		if k, ok := catalog.KindOfPlural(key); !ok || !k.Def().Taxonomy {
			ps = append(ps, Problem{File: file, Field: key, Msg: "unknown kind; a kind is added to catalog.Kinds first"})
		}
	}
	for _, kind := range catalog.VocabKinds {
		seen := map[string]bool{}
		vals := d.Taxonomy.Kind(kind)
		if len(vals) == 0 && kind.Def().Required { // every case needs one; other kinds may have none yet
			ps = append(ps, Problem{File: file, Field: kind.Plural(), Msg: "expected at least one value"})
		}
		for i, v := range vals {
			f := fmt.Sprintf("%s[%d]", kind.Plural(), i)
			if !slugPattern.MatchString(v.Slug) {
				ps = append(ps, Problem{File: file, Field: f + ".slug", Msg: fmt.Sprintf("%q is not a slug", v.Slug)})
			}
			if seen[v.Slug] {
				ps = append(ps, Problem{File: file, Field: f + ".slug", Msg: fmt.Sprintf("duplicate %s %q", kind, v.Slug)})
			}
			seen[v.Slug] = true
			for lang, lt := range map[catalog.Lang]LangText{catalog.English: v.EN, catalog.Korean: v.KO} {
				if strings.TrimSpace(lt.Label) == "" || strings.TrimSpace(lt.Definition) == "" {
					ps = append(ps, Problem{File: file, Field: f + "." + string(lang), Msg: fmt.Sprintf("%s %q needs a label and a definition in %s", kind, v.Slug, lang)})
				}
			}
		}
	}
	return ps
}

func checkCase(c *Case, orgs map[string]bool, vocab map[catalog.Kind]map[string]bool, ids map[string]string) Problems {
	var ps Problems
	add := func(path []any, msg string) {
		ps = append(ps, c.problem(path, fieldName(path), msg))
	}
	want := strings.TrimSuffix(strings.TrimSuffix(fileBase(c.file), ".yaml"), ".yml")
	switch {
	case c.ID == "":
		add([]any{"id"}, "missing; expected the case id, e.g. "+want)
	case !idPattern.MatchString(c.ID):
		add([]any{"id"}, fmt.Sprintf("%q is not an id; expected IL- and four digits", c.ID))
	case c.ID != want:
		add([]any{"id"}, fmt.Sprintf("%s does not match the file name; expected %s", c.ID, want))
	}
	switch {
	case c.Org == "":
		add([]any{"org"}, "missing; expected an organization slug from data/orgs.yaml")
	case !orgs[c.Org]:
		add([]any{"org"}, fmt.Sprintf("unknown organization %q; expected a slug from data/orgs.yaml", c.Org))
	}
	if msg := checkDate(c.Date); msg != "" {
		add([]any{"date"}, msg)
	}
	if _, err := catalog.LoadZone(c.Zone); err != nil {
		add([]any{"zone"}, err.Error())
	}
	switch {
	case c.Added == "":
		add([]any{"id"}, "added: missing; expected the day the case enters the catalog, YYYY-MM-DD")
	case len(c.Added) != 10 || checkDate(c.Added) != "":
		add([]any{"added"}, fmt.Sprintf("%q is not a day; expected YYYY-MM-DD, the day the case enters the catalog", c.Added))
	}
	if c.Revised != "" && (len(c.Revised) != 10 || checkDate(c.Revised) != "" || c.Revised < c.Added) {
		add([]any{"revised"}, fmt.Sprintf("%q is not a day on or after added (%s); expected YYYY-MM-DD", c.Revised, c.Added))
	}
	for _, kind := range catalog.VocabKinds {
		key := kind.Plural()
		tags := c.Tags[kind]
		if kind.Def().Required && len(tags) == 0 {
			add([]any{key}, fmt.Sprintf("expected at least one %s from data/taxonomy.yaml", kind))
		}
		seen := map[string]bool{}
		for i, s := range tags {
			switch {
			case !vocab[kind][s]:
				add([]any{key, i}, fmt.Sprintf("unknown %s %q; expected a %s slug from data/taxonomy.yaml", kind, s, kind))
			case seen[s]:
				add([]any{key, i}, fmt.Sprintf("%q is listed twice", s))
			}
			seen[s] = true
		}
	}
	if c.Severity != "" && !slices.Contains(Severities, c.Severity) {
		add([]any{"severity"}, fmt.Sprintf("%q is not a severity; expected one of %s, or no severity", c.Severity, strings.Join(Severities, ", ")))
	}
	for key, v := range map[string]*int{"time_to_detect": c.TimeToDetect, "time_to_resolve": c.TimeToResolve} {
		if v != nil && *v < 0 {
			add([]any{key}, "expected a number of minutes, 0 or more")
		}
	}
	if len(c.Sources) == 0 {
		add([]any{"sources"}, "expected at least one source with a url and a kind")
	}
	for i, s := range c.Sources {
		if msg := checkURL(s.URL); msg != "" {
			add([]any{"sources", i, "url"}, msg)
		}
		if !slices.Contains(SourceKinds, s.Kind) {
			add([]any{"sources", i, "kind"}, fmt.Sprintf("%q is not a source kind; expected one of %s", s.Kind, strings.Join(SourceKinds, ", ")))
		}
		if s.Archive != "" {
			if msg := checkURL(s.Archive); msg != "" {
				add([]any{"sources", i, "archive"}, msg)
			}
		}
	}
	for i, r := range c.SameEvent {
		switch {
		case r == c.ID:
			add([]any{"same_event", i}, "a case cannot be the same event as itself")
		case ids[r] == "":
			add([]any{"same_event", i}, fmt.Sprintf("case %s does not exist", r))
		}
	}
	for key, links := range map[string][]string{"caused_by": c.CausedBy, "recurrence_of": c.RecurrenceOf} {
		for i, r := range links {
			switch {
			case r == c.ID:
				add([]any{key, i}, "a case cannot link to itself")
			case ids[r] == "":
				add([]any{key, i}, fmt.Sprintf("case %s does not exist", r))
			}
		}
	}
	for i, r := range c.Related {
		switch {
		case r == c.ID:
			add([]any{"related", i}, "a case cannot be related to itself")
		case ids[r] == "":
			add([]any{"related", i}, fmt.Sprintf("related case %s does not exist", r))
		}
	}
	for _, f := range catalog.Fields {
		en, ko := f.Values(&c.EN), f.Values(&c.KO)
		for _, lang := range catalog.Langs {
			vals := en
			if lang == catalog.Korean {
				vals = ko
			}
			path := []any{string(lang), f.Key}
			if len(vals) == 0 {
				if f.Required {
					add([]any{string(lang), f.Key}, fmt.Sprintf("missing; the %s of the case in %s is required", f.Key, langName(lang)))
				}
				continue
			}
			for i, v := range vals {
				p := path
				if f.List {
					p = append(append([]any{}, path...), i)
				}
				switch {
				case !utf8.ValidString(v):
					add(p, "text is not valid UTF-8")
				case strings.TrimSpace(v) == "":
					add(p, "empty text")
				case lang == catalog.English && HasHangul(v):
					add(p, "English text contains Hangul; write Korean names in romanization")
				case lang == catalog.Korean && f.Key != "region" && !HasHangul(v):
					add(p, "Korean text contains no Hangul")
				}
			}
		}
		if !f.Required && (len(en) == 0) != (len(ko) == 0) {
			missing := catalog.Korean
			if len(en) == 0 {
				missing = catalog.English
			}
			add([]any{string(missing), f.Key}, fmt.Sprintf("missing in %s but present in the other language; write both or neither", langName(missing)))
		}
	}
	for _, f := range catalog.Fields {
		for _, lang := range catalog.Langs {
			limit := f.Max
			if lang == catalog.Korean {
				limit = f.MaxKO
			}
			for _, v := range f.Values(c.Lang(lang)) {
				if n := utf8.RuneCountInString(v); limit > 0 && (n > limit || strings.ContainsAny(v, "\n\r")) {
					add([]any{string(lang), f.Key}, fmt.Sprintf("a %s is one line of at most %d characters in %s (this one has %d)", f.Key, limit, langName(lang), n))
				}
			}
		}
	}
	ps = append(ps, checkTimeline(c)...)
	return ps
}

// checkTimeline checks each event and that the case's durations agree with its marked events.
func checkTimeline(c *Case) Problems {
	var ps Problems
	add := func(path []any, msg string) {
		ps = append(ps, c.problem(path, fieldName(path), msg))
	}
	marked := map[string]time.Time{}
	var prev time.Time
	for i, e := range c.Timeline {
		t, err := catalog.ParseEventTime(e.At)
		if err != nil {
			add([]any{"timeline", i, "at"}, err.Error())
		} else {
			if !prev.IsZero() && t.Before(prev) {
				add([]any{"timeline", i, "at"}, "events must be in time order; this one is earlier than the one before it")
			}
			prev = t
		}
		if e.Mark != "" {
			switch {
			case !slices.Contains(Marks, e.Mark):
				add([]any{"timeline", i, "mark"}, fmt.Sprintf("%q is not a mark; expected one of %s, or no mark", e.Mark, strings.Join(Marks, ", ")))
			case !marked[e.Mark].IsZero():
				add([]any{"timeline", i, "mark"}, fmt.Sprintf("mark %q is used twice", e.Mark))
			case err == nil:
				marked[e.Mark] = t
			}
		}
		if strings.TrimSpace(e.EN) == "" || HasHangul(e.EN) {
			add([]any{"timeline", i, "en"}, "expected a short English text without Hangul")
		}
		if !HasHangul(e.KO) {
			add([]any{"timeline", i, "ko"}, "expected a short Korean text")
		}
	}
	ps = append(ps, checkLocalDate(c, marked["start"])...)
	start, ok := marked["start"]
	if !ok {
		if len(c.Timeline) > 0 && len(marked) > 0 {
			add([]any{"timeline"}, `a timeline with marks needs one event marked "start"`)
		}
		return ps
	}
	for key, mark := range map[string]string{"time_to_detect": "detected", "time_to_resolve": "resolved"} {
		v := c.TimeToDetect
		if key == "time_to_resolve" {
			v = c.TimeToResolve
		}
		end, ok := marked[mark]
		if !ok || v == nil {
			continue
		}
		if got := int(end.Sub(start).Minutes()); got < *v-1 || got > *v+1 {
			add([]any{key}, fmt.Sprintf("%d minutes does not match the timeline, where %q comes %d minutes after \"start\"", *v, mark, got))
		}
	}
	return ps
}

// checkLocalDate checks the date against the timeline: a timeline in local time needs the
// case's zone, and the date is the day of the event marked "start" in that zone (in UTC without
// one). A timeline with no start mark may begin after the incident did, so it sets no day.
func checkLocalDate(c *Case, start time.Time) Problems {
	var ps Problems
	if len(c.Timeline) == 0 {
		return nil
	}
	marked := !start.IsZero()
	if !marked {
		t, err := catalog.ParseEventTime(c.Timeline[0].At)
		if err != nil {
			return nil // reported with the event
		}
		start = t
	}
	loc, err := catalog.LoadZone(c.Zone)
	if err != nil {
		return nil // reported with the zone
	}
	if _, off := start.Zone(); off != 0 && c.Zone == "" {
		ps = append(ps, c.problem([]any{"zone"}, "zone", fmt.Sprintf("the timeline starts in local time (%s): name the zone, e.g. zone: Asia/Seoul, and give date as the local day", start.Format("-07:00"))))
		return ps
	}
	if len(c.Date) != 10 || !marked {
		return ps
	}
	if day := start.In(loc).Format("2006-01-02"); day != c.Date {
		where := "UTC"
		if c.Zone != "" {
			where = c.Zone
		}
		ps = append(ps, c.problem([]any{"date"}, "date", fmt.Sprintf("%s is not the day the timeline starts in %s (%s)", c.Date, where, day)))
	}
	return ps
}

func checkDate(s string) string {
	if s == "" {
		return "missing; expected the incident start date as YYYY-MM-DD (or YYYY-MM, YYYY), in UTC or in the case's zone"
	}
	if !datePattern.MatchString(s) {
		return fmt.Sprintf("%q is not a date; expected YYYY-MM-DD, YYYY-MM or YYYY", s)
	}
	layout := map[int]string{4: "2006", 7: "2006-01", 10: "2006-01-02"}[len(s)]
	t, err := time.Parse(layout, s)
	if err != nil {
		return fmt.Sprintf("%q is not a calendar date; expected YYYY-MM-DD, YYYY-MM or YYYY", s)
	}
	if t.After(time.Now().UTC()) {
		return fmt.Sprintf("%q is in the future", s)
	}
	return ""
}

func checkURL(s string) string {
	u, err := url.Parse(s)
	if s == "" {
		return "missing; expected an http or https URL"
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.Contains(u.Host, ".") || strings.ContainsAny(s, " \t\n") {
		return fmt.Sprintf("%q is not a URL; expected an absolute http or https URL", s)
	}
	return ""
}

func fieldName(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch v := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(v)
		case int:
			fmt.Fprintf(&b, "[%d]", v)
		}
	}
	return b.String()
}

func langName(lang catalog.Lang) string {
	if lang == catalog.Korean {
		return "Korean (ko)"
	}
	return "English (en)"
}

func fileBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
