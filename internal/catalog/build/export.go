package build

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"incidentlib/internal/catalog"
)

// The open-data release: the whole catalog as JSON Lines (one case a line, both languages,
// every field) and as CSV (one row a case), gzip-compressed, written with the catalog and kept
// in it, so the binary serves the same files as the pages. A release is named by the day the
// catalog last changed and a short hash of its content: it changes only when the data does.

// ExportCase is one line of the JSON Lines file; export.schema.json (beside this file, served
// as /data/incidentlib.schema.json) describes it.
type ExportCase struct {
	ID            string              `json:"id"`
	Org           ExportOrg           `json:"org"`
	Date          string              `json:"date"`
	Zone          string              `json:"zone,omitempty"`
	Added         string              `json:"added"`
	Revised       string              `json:"revised,omitempty"`
	Severity      string              `json:"severity,omitempty"`
	TimeToDetect  *int                `json:"time_to_detect,omitempty"`
	TimeToResolve *int                `json:"time_to_resolve,omitempty"`
	Tags          map[string][]string `json:"tags"`
	Sources       []ExportSource      `json:"sources"`
	Timeline      []Event             `json:"timeline,omitempty"`
	SameEvent     []string            `json:"same_event,omitempty"`
	CausedBy      []string            `json:"caused_by,omitempty"`
	RecurrenceOf  []string            `json:"recurrence_of,omitempty"`
	Related       []string            `json:"related,omitempty"`
	Checks        map[string][]int    `json:"checks,omitempty"`
	Text          map[string]*Text    `json:"text"`
}

// ExportOrg is a case's organization with its names and country.
type ExportOrg struct {
	Slug    string `json:"slug"`
	EN      string `json:"en"`
	KO      string `json:"ko"`
	Country string `json:"country,omitempty"`
}

// ExportSource is a cited source.
type ExportSource struct {
	URL     string `json:"url"`
	Kind    string `json:"kind"`
	Title   string `json:"title,omitempty"`
	Archive string `json:"archive,omitempty"`
}

// Release is the catalog as downloads.
type Release struct {
	Version    string // e.g. 2026-12-02.1a2b3c4d
	Cases      int
	JSONL, CSV []byte // gzip-compressed
}

// csvColumns are the CSV file's columns, in order: the facts, a column per kind of value (slugs
// joined by "|"), the sources' URLs (joined by " | "), then each prose field in English and in
// Korean (list items joined by a newline).
func csvColumns() []string {
	cols := []string{"id", "org", "org_en", "org_ko", "country", "date", "zone", "added", "revised",
		"severity", "time_to_detect", "time_to_resolve"}
	for _, k := range catalog.VocabKinds {
		cols = append(cols, k.Plural())
	}
	cols = append(cols, "source_urls", "same_event", "caused_by", "recurrence_of")
	for _, f := range catalog.Fields {
		for _, lang := range catalog.Langs {
			cols = append(cols, f.Key+"_"+string(lang))
		}
	}
	return cols
}

// MakeRelease writes the downloads of the data.
func MakeRelease(d *Data) (Release, error) {
	orgs := map[string]Org{}
	for _, o := range d.Orgs {
		orgs[o.Slug] = o
	}
	var lines bytes.Buffer
	var table bytes.Buffer
	w := csv.NewWriter(&table)
	w.Write(csvColumns())
	last := ""
	for _, c := range d.Cases {
		e := exportOf(c, orgs[c.Org])
		b, err := json.Marshal(e)
		if err != nil {
			return Release{}, err
		}
		lines.Write(b)
		lines.WriteByte('\n')
		w.Write(csvRow(e))
		last = max(last, c.Added, c.Revised)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return Release{}, err
	}
	sum := sha256.Sum256(lines.Bytes())
	r := Release{Version: last + "." + hex.EncodeToString(sum[:4]), Cases: len(d.Cases)}
	var err error
	if r.JSONL, err = gz(lines.Bytes()); err != nil {
		return Release{}, err
	}
	if r.CSV, err = gz(table.Bytes()); err != nil {
		return Release{}, err
	}
	return r, nil
}

func exportOf(c *Case, o Org) ExportCase {
	e := ExportCase{ID: c.ID, Org: ExportOrg{Slug: o.Slug, EN: o.EN, KO: o.KO, Country: o.Country},
		Date: c.Date, Zone: c.Zone, Added: c.Added, Revised: c.Revised, Severity: c.Severity,
		TimeToDetect: c.TimeToDetect, TimeToResolve: c.TimeToResolve, Tags: map[string][]string{},
		Timeline: c.Timeline, SameEvent: c.SameEvent, CausedBy: c.CausedBy, RecurrenceOf: c.RecurrenceOf, Related: c.Related, Checks: c.Checks, Text: map[string]*Text{}}
	for _, k := range catalog.VocabKinds {
		e.Tags[k.Plural()] = append([]string{}, c.Tags[k]...)
	}
	for _, s := range c.Sources {
		e.Sources = append(e.Sources, ExportSource{URL: s.URL, Kind: s.Kind, Title: s.Title, Archive: s.Archive})
	}
	for _, lang := range catalog.Langs {
		e.Text[string(lang)] = c.Lang(lang)
	}
	return e
}

func csvRow(e ExportCase) []string {
	num := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	row := []string{e.ID, e.Org.Slug, e.Org.EN, e.Org.KO, e.Org.Country, e.Date, e.Zone, e.Added, e.Revised,
		e.Severity, num(e.TimeToDetect), num(e.TimeToResolve)}
	for _, k := range catalog.VocabKinds {
		row = append(row, strings.Join(e.Tags[k.Plural()], "|"))
	}
	var urls []string
	for _, s := range e.Sources {
		urls = append(urls, s.URL)
	}
	row = append(row, strings.Join(urls, " | "), strings.Join(e.SameEvent, "|"), strings.Join(e.CausedBy, "|"), strings.Join(e.RecurrenceOf, "|"))
	for _, f := range catalog.Fields {
		for _, lang := range catalog.Langs {
			t := e.Text[string(lang)]
			row = append(row, strings.Join(f.Values(t), "\n"))
		}
	}
	return row
}

func gz(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ExportSchema is the JSON Schema (draft 2020-12) of a line of the JSON Lines file.
//
//go:embed export.schema.json
var ExportSchema []byte
