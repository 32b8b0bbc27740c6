// Package build turns the data files (cases, taxonomy, organizations) into the SQLite catalog.
// It reports every problem it finds with file, line and field, and writes nothing while any
// problem remains. Only cmd/catalog and tests import it.
package build

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"incidentlib/internal/catalog"
)

// Problem is one thing wrong in the data, located as precisely as the YAML allows.
type Problem struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc += ":" + strconv.Itoa(p.Line)
	}
	if p.Field != "" {
		return fmt.Sprintf("%s: %s: %s", loc, p.Field, p.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, p.Msg)
}

// Problems is the error returned when the data does not validate.
type Problems []Problem

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Text is the prose of a case in one language: the catalog's own type, so a field is defined
// once (catalog.Fields).
type Text = catalog.Text

// Source is a cited report.
type Source struct {
	URL     string `yaml:"url"`
	Kind    string `yaml:"kind"`
	Archive string `yaml:"archive"`
	Title   string `yaml:"title"`
}

// Event is one entry of a case's timeline: a moment the source states, with a short text in
// both languages. At is RFC 3339 without seconds: UTC ("2026-08-24T16:56Z") or a local time with
// its offset ("2026-08-24T16:56+09:00"). Mark names the moments the case's durations count from
// and to.
type Event struct {
	At   string `yaml:"at" json:"at"`
	Mark string `yaml:"mark" json:"mark,omitempty"`
	EN   string `yaml:"en" json:"en"`
	KO   string `yaml:"ko" json:"ko"`
}

// Case is one case file.
type Case struct {
	ID   string `yaml:"id"`
	Org  string `yaml:"org"`
	Date string `yaml:"date"`
	Zone string `yaml:"zone"` // IANA name; the date is then the local day
	// Added is the day the case entered the catalog and Revised the day it last changed, if
	// since: the feed lists cases newest added first and dates each entry by them.
	Added         string   `yaml:"added"`
	Revised       string   `yaml:"revised"`
	Severity      string   `yaml:"severity"`
	TimeToDetect  *int     `yaml:"time_to_detect"`
	TimeToResolve *int     `yaml:"time_to_resolve"`
	Sources       []Source `yaml:"sources"`
	Related       []string `yaml:"related"`
	// SameEvent are cases that are the same event seen from another organization: a provider's
	// outage and the outages it caused downstream. The link holds both ways.
	SameEvent []string `yaml:"same_event"`
	// CausedBy names the cases whose outage caused this one, as this case's source says: a
	// downstream outage names its provider's. The provider's page lists what it caused.
	CausedBy []string `yaml:"caused_by"`
	// RecurrenceOf names an earlier incident that this case's source itself calls a repeat of.
	RecurrenceOf []string `yaml:"recurrence_of"`
	Timeline     []Event  `yaml:"timeline"`
	// Checks links the case's action items to checks: a check slug from data/checks.yaml and
	// the positions (from 1) of the action items that support it.
	Checks map[string][]int `yaml:"checks"`
	EN     Text             `yaml:"en"`
	KO     Text             `yaml:"ko"`
	// Tags are the case's values of each taxonomy kind, in the author's order. A case file
	// gives them under the kind's plural ("causes: [power-facility]"), a key per kind of
	// catalog.Kinds, so they are read from Extra by ReadTags.
	Tags map[catalog.Kind][]string `yaml:"-"`
	// Extra holds the keys that are not fields above until ReadTags takes the tags from it.
	Extra map[string]yaml.Node `yaml:",inline"`

	file string
	root *yaml.Node
}

// ReadTags moves the taxonomy kinds' keys of Extra into Tags. Any other key is a problem: the
// case names a field that does not exist.
func (c *Case) ReadTags() Problems {
	var ps Problems
	c.Tags = map[catalog.Kind][]string{}
	for _, key := range slices.Sorted(maps.Keys(c.Extra)) {
		n := c.Extra[key]
		kind, ok := catalog.KindOfPlural(key)
		if !ok || !kind.Def().Taxonomy {
			ps = append(ps, Problem{File: c.file, Line: lineOf(c.root, key), Field: key, Msg: "unknown field; data/README.md lists a case's fields"})
			continue
		}
		var slugs []string
		if err := n.Decode(&slugs); err != nil {
			ps = append(ps, Problem{File: c.file, Line: n.Line, Field: key, Msg: "expected a list of slugs from data/taxonomy.yaml"})
			continue
		}
		c.Tags[kind] = slugs
	}
	c.Extra = nil
	return ps
}

// Lang returns the text in one language.
func (c *Case) Lang(lang catalog.Lang) *Text {
	if lang == catalog.Korean {
		return &c.KO
	}
	return &c.EN
}

// LangText is a label and definition in one language.
type LangText struct {
	Label      string `yaml:"label"`
	Definition string `yaml:"definition"`
}

// Value is one taxonomy value.
type Value struct {
	Slug    string   `yaml:"slug"`
	EN      LangText `yaml:"en"`
	KO      LangText `yaml:"ko"`
	Aliases []string `yaml:"aliases"`
}

// Taxonomy is data/taxonomy.yaml: the values of each taxonomy kind under the kind's plural
// ("causes:"), a key per taxonomy kind of catalog.Kinds.
type Taxonomy map[string][]Value

// Kind returns the values of one kind.
func (t Taxonomy) Kind(kind catalog.Kind) []Value { return t[kind.Plural()] }

// Org is one entry of data/orgs.yaml.
type Org struct {
	Slug    string `yaml:"slug"`
	EN      string `yaml:"en"`
	KO      string `yaml:"ko"`
	Country string `yaml:"country"` // ISO 3166-1 alpha-2, e.g. KR
}

// CheckText is a check in one language: an imperative title and one line saying why.
type CheckText struct {
	Title string `yaml:"title"`
	Why   string `yaml:"why"`
}

// Check is one entry of data/checks.yaml: something to check in your own system, with the
// components and factors it belongs to.
type Check struct {
	Slug       string    `yaml:"slug"`
	Components []string  `yaml:"components"`
	Factors    []string  `yaml:"factors"`
	EN         CheckText `yaml:"en"`
	KO         CheckText `yaml:"ko"`
}

// Data is everything under data/, loaded and validated.
type Data struct {
	Taxonomy Taxonomy
	Checks   []Check
	Orgs     []Org
	Cases    []*Case // sorted by id

	dir string
}

var caseFileName = regexp.MustCompile(`^IL-\d{4}\.yaml$`)

// Load reads and validates the data directory. It returns Problems listing everything wrong.
func Load(dir string) (*Data, error) {
	var ps Problems
	d := &Data{dir: dir}
	decodeFile(filepath.Join(dir, "taxonomy.yaml"), &d.Taxonomy, &ps)
	decodeFile(filepath.Join(dir, "orgs.yaml"), &d.Orgs, &ps)
	if _, err := os.Stat(filepath.Join(dir, "checks.yaml")); err == nil {
		decodeFile(filepath.Join(dir, "checks.yaml"), &d.Checks, &ps)
	}
	if len(ps) > 0 {
		return nil, ps
	}
	entries, err := os.ReadDir(filepath.Join(dir, "cases"))
	if err != nil {
		return nil, fmt.Errorf("read cases: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, "cases", name)
		if e.IsDir() || !strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml") {
			continue
		}
		if !caseFileName.MatchString(name) {
			ps = append(ps, Problem{File: path, Msg: "case file name must be IL-NNNN.yaml (IL- and four digits)"})
			continue
		}
		c := &Case{file: path}
		if root := decodeFile(path, c, &ps); root != nil {
			c.root = root
			ps = append(ps, c.ReadTags()...)
			d.Cases = append(d.Cases, c)
		}
	}
	sort.Slice(d.Cases, func(i, j int) bool { return d.Cases[i].ID < d.Cases[j].ID })
	ps = append(ps, check(d)...)
	if len(ps) > 0 {
		return nil, ps
	}
	return d, nil
}

// decodeFile strictly decodes one YAML file into v and returns its node tree, or records the
// problem and returns nil.
func decodeFile(path string, v any, ps *Problems) *yaml.Node {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			*ps = append(*ps, Problem{File: path, Msg: "file is missing"})
		} else {
			*ps = append(*ps, Problem{File: path, Msg: err.Error()})
		}
		return nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		*ps = append(*ps, yamlProblem(path, err))
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		*ps = append(*ps, yamlProblem(path, err))
		return nil
	}
	return &root
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// yamlProblem turns a YAML error into a Problem, keeping its line number.
func yamlProblem(path string, err error) Problem {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Problem{File: path, Line: line, Msg: "malformed YAML: " + m[2]}
	}
	return Problem{File: path, Msg: "malformed YAML: " + msg}
}

// lineOf finds the line of a field given as path elements: map keys (string) and list indexes
// (int). It falls back to the nearest enclosing node that exists.
func lineOf(root *yaml.Node, path ...any) int {
	if root == nil {
		return 0
	}
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, p := range path {
		var next *yaml.Node
		switch k := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == k {
						line = n.Content[i].Line
						next = n.Content[i+1]
						break
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && k < len(n.Content) {
				next = n.Content[k]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}
