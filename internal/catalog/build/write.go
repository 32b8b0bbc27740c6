package build

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"fmt"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"incidentlib/internal/catalog"
)

//go:embed schema.sql
var schema string

// Write builds the catalog database at path atomically: it writes a temporary file beside it
// and renames it into place only when everything succeeded.
func Write(ctx context.Context, d *Data, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".catalog-*.db")
	if err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpPath) // no-op after a successful rename
	if err := writeDB(ctx, d, tmpPath); err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	if err := os.Chmod(tmpPath, 0o644); err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	return nil
}

func writeDB(ctx context.Context, d *Data, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := insertTerms(ctx, tx, d); err != nil {
		return err
	}
	related := Related(d.Cases)
	nums := map[string]int{}
	for _, c := range d.Cases {
		nums[c.ID] = caseNum(c.ID)
	}
	labels := termLabels(d)
	countries := map[string]string{}
	for _, o := range d.Orgs {
		countries[o.Slug] = o.Country
	}
	for _, c := range d.Cases {
		if err := insertCase(ctx, tx, c, labels, countries); err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		links := related[c.ID]
		for i := len(c.Related) - 1; i >= 0; i-- { // editors' links come first, in their order
			r := c.Related[i]
			links = append([]Link{{ID: r, Score: 100, Reasons: []Reason{{Kind: catalog.KindEditor}}}}, removeLink(links, r)...)
		}
		for pos, l := range links {
			reasons, _ := json.Marshal(nonNil(l.Reasons))
			if _, err := tx.ExecContext(ctx, `INSERT INTO related VALUES (?,?,?,?,?)`, nums[c.ID], pos, nums[l.ID], l.Score, string(reasons)); err != nil {
				return err
			}
		}
	}
	if err := insertLinks(ctx, tx, d.Cases, nums); err != nil {
		return err
	}
	rel, err := MakeRelease(d)
	if err != nil {
		return err
	}
	for name, body := range map[string][]byte{"jsonl": rel.JSONL, "csv": rel.CSV} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO files VALUES (?,?)`, name, body); err != nil {
			return err
		}
	}
	meta := map[string]string{
		"built_at": time.Now().UTC().Format(time.RFC3339),
		"cases":    strconv.Itoa(len(d.Cases)),
		"release":  rel.Version,
	}
	for k, v := range meta {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta VALUES (?,?)`, k, v); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO case_fts(case_fts) VALUES ('optimize'); ANALYZE; VACUUM;`)
	return err
}

func nonNil(r []Reason) []Reason {
	if r == nil {
		return []Reason{}
	}
	return r
}

func removeLink(links []Link, id string) []Link {
	out := links[:0:0]
	for _, l := range links {
		if l.ID != id {
			out = append(out, l)
		}
	}
	return out
}

// caseNum is the numeric part of a validated id.
func caseNum(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "IL-"))
	return n
}

func insertTerms(ctx context.Context, tx *sql.Tx, d *Data) error {
	for _, kind := range catalog.VocabKinds {
		for pos, v := range d.Taxonomy.Kind(kind) {
			aliases, _ := json.Marshal(append([]string{}, v.Aliases...))
			if _, err := tx.ExecContext(ctx, `INSERT INTO terms VALUES (?,?,?,?,?,?,?,?,'')`,
				kind, v.Slug, pos, v.EN.Label, v.KO.Label, v.EN.Definition, v.KO.Definition, string(aliases)); err != nil {
				return err
			}
		}
	}
	for pos, ch := range d.Checks {
		comps, _ := json.Marshal(append([]string{}, ch.Components...))
		facts, _ := json.Marshal(append([]string{}, ch.Factors...))
		if _, err := tx.ExecContext(ctx, `INSERT INTO checks VALUES (?,?,?,?,?,?,?,?)`,
			ch.Slug, pos, string(comps), string(facts), ch.EN.Title, ch.KO.Title, ch.EN.Why, ch.KO.Why); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for pos, o := range d.Orgs {
		aliases, _ := json.Marshal([]string{o.EN, o.KO})
		if _, err := tx.ExecContext(ctx, `INSERT INTO terms VALUES (?,?,?,?,?,'','',?,?)`,
			catalog.KindOrg, o.Slug, pos, o.EN, o.KO, string(aliases), o.Country); err != nil {
			return err
		}
		if o.Country != "" && !seen[o.Country] {
			seen[o.Country] = true
			en, ko := countryName(o.Country, language.English), countryName(o.Country, language.Korean)
			aliases, _ := json.Marshal([]string{o.Country, en, ko})
			if _, err := tx.ExecContext(ctx, `INSERT INTO terms VALUES (?,?,?,?,?,'','',?,?)`,
				catalog.KindCountry, o.Country, len(seen), en, ko, string(aliases), o.Country); err != nil {
				return err
			}
		}
	}
	return nil
}

// countryName is a country's name in a language, from its ISO 3166 code ("KR" → "South Korea",
// "대한민국"); the code itself when unknown.
func countryName(code string, lang language.Tag) string {
	r, err := language.ParseRegion(code)
	if err != nil {
		return code
	}
	if n := display.Regions(lang).Name(r); n != "" {
		return n
	}
	return code
}

// termLabels maps kind/slug to every word that names the value in either language, for the
// full-text index.
func termLabels(d *Data) map[string]string {
	out := map[string]string{}
	for _, kind := range catalog.VocabKinds {
		for _, v := range d.Taxonomy.Kind(kind) {
			out[string(kind)+"/"+v.Slug] = strings.Join(append([]string{v.EN.Label, v.KO.Label}, v.Aliases...), " ")
		}
	}
	for _, o := range d.Orgs {
		out["org/"+o.Slug] = o.EN + " " + o.KO
	}
	return out
}

func insertCase(ctx context.Context, tx *sql.Tx, c *Case, labels, countries map[string]string) error {
	num := caseNum(c.ID)
	year, _ := strconv.Atoi(c.Date[:4])
	timeline, _ := json.Marshal(append([]Event{}, c.Timeline...))
	if _, err := tx.ExecContext(ctx, `INSERT INTO cases VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		num, c.ID, c.Org, c.Date, year, c.Severity, c.TimeToDetect, c.TimeToResolve, string(timeline), c.Zone, c.Added, c.Revised); err != nil {
		return err
	}
	for slug, items := range c.Checks {
		b, _ := json.Marshal(items)
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_checks VALUES (?,?,?)`, num, slug, string(b)); err != nil {
			return err
		}
	}
	var tagWords []string
	addTag := func(kind catalog.Kind, slug string, pos int) error {
		tagWords = append(tagWords, labels[string(kind)+"/"+slug])
		_, err := tx.ExecContext(ctx, `INSERT INTO tags VALUES (?,?,?,?)`, num, kind, slug, pos)
		return err
	}
	for _, kind := range catalog.VocabKinds {
		for pos, s := range c.Tags[kind] {
			if err := addTag(kind, s, pos); err != nil {
				return err
			}
		}
	}
	if err := addTag(catalog.KindOrg, c.Org, 0); err != nil {
		return err
	}
	if err := addTag(catalog.KindYear, strconv.Itoa(year), 0); err != nil {
		return err
	}
	if country := countries[c.Org]; country != "" {
		if err := addTag(catalog.KindCountry, country, 0); err != nil {
			return err
		}
	}
	var titles, summaries, bodies []string
	for _, lang := range catalog.Langs {
		t := c.Lang(lang)
		text, _ := json.Marshal(t)
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_text VALUES (?,?,?,?,?,?)`,
			num, lang, t.Title, t.Headline, t.Summary, string(text)); err != nil {
			return err
		}
		titles = append(titles, t.Headline, t.Title)
		summaries = append(summaries, t.Summary)
		bodies = append(bodies, t.Body())
	}
	for pos, s := range c.Sources {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sources VALUES (?,?,?,?,?,?)`, num, pos, s.URL, s.Kind, s.Archive, s.Title); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO case_fts (rowid, id, title, summary, body, tags) VALUES (?,?,?,?,?,?)`, num,
		catalog.IndexText(c.ID),
		catalog.IndexText(strings.Join(titles, " ")+" "+labels["org/"+c.Org]),
		catalog.IndexText(strings.Join(summaries, " ")),
		catalog.IndexText(strings.Join(bodies, " ")),
		catalog.IndexText(strings.Join(tagWords, " ")))
	return err
}

// maxEarlier is how many of an organization's earlier cases a case links to.
const maxEarlier = 5

// insertLinks writes the links between cases: same-event both ways, and each case's earlier
// cases at the same organization, nearest first.
func insertLinks(ctx context.Context, tx *sql.Tx, cases []*Case, nums map[string]int) error {
	same := map[string][]string{}
	for _, c := range cases {
		for _, o := range c.SameEvent {
			if !slices.Contains(same[c.ID], o) {
				same[c.ID] = append(same[c.ID], o)
			}
			if !slices.Contains(same[o], c.ID) {
				same[o] = append(same[o], c.ID)
			}
		}
	}
	byOrg := map[string][]*Case{}
	for _, c := range cases {
		byOrg[c.Org] = append(byOrg[c.Org], c)
	}
	for _, cs := range byOrg {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Date < cs[j].Date })
	}
	add := func(c *Case, kind string, others []string) error {
		for pos, o := range others {
			if _, err := tx.ExecContext(ctx, `INSERT INTO case_links VALUES (?,?,?,?)`, nums[c.ID], kind, pos, nums[o]); err != nil {
				return err
			}
		}
		return nil
	}
	// Typed links hold both ways: a downstream case names its cause, the provider's lists what it
	// caused; a repeat names the earlier incident, the earlier one its repeats.
	caused, recurred := map[string][]string{}, map[string][]string{}
	for _, c := range cases {
		for _, o := range c.CausedBy {
			caused[o] = append(caused[o], c.ID)
		}
		for _, o := range c.RecurrenceOf {
			recurred[o] = append(recurred[o], c.ID)
		}
	}
	for _, c := range cases {
		for _, l := range []struct {
			kind string
			ids  []string
		}{{"caused-by", c.CausedBy}, {"caused", caused[c.ID]}, {"recurrence-of", c.RecurrenceOf}, {"recurred-as", recurred[c.ID]}} {
			if err := add(c, l.kind, l.ids); err != nil {
				return err
			}
		}
		if err := add(c, "same-event", same[c.ID]); err != nil {
			return err
		}
		var earlier []string
		org := byOrg[c.Org]
		for i := len(org) - 1; i >= 0 && len(earlier) < maxEarlier; i-- {
			if o := org[i]; o.Date < c.Date && o.ID != c.ID {
				earlier = append(earlier, o.ID)
			}
		}
		if err := add(c, "earlier-at-same-org", earlier); err != nil {
			return err
		}
	}
	return nil
}
