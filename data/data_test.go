package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
)

// minCases is the size the catalog must not fall below.
const minCases = 650

// sameDay lists pairs of cases that share an organization and a date but are different
// incidents, checked by an editor against their sources.
var sameDay = map[string]bool{
	"IL-0068 IL-0069": true, // CircleCI 2025-04-04: a WAF rule (00:16 UTC) and a database upgrade (22:08 UTC)
	"IL-0501 IL-0502": true, // Wikimedia 2011-09-26: a loose rack power cable, and lag checks swamping the s7 master's switch
	"IL-0644 IL-0645": true, // DFDS 2022-02-08: NotReady nodes (PM2022-003), and Kafka metrics lost to consumer-group sprawl (PM2022-004)
	"IL-0838 IL-0839": true, // GitHub 2010-02-04: a DRBD setting pushed by Puppet, and a crawler overloading the file servers
	"IL-0382 IL-0383": true, // Azure 2020-01-24: SWAN backbone forwarding tables, and SQL gateway certificates in Azure Government
	"IL-0439 IL-0450": true, // Google Cloud 2018-05-16 (US Pacific): BigQuery configuration order, and us-east4 BGP withdrawal
}

// The catalog itself: every case validates (both languages complete, Hangul only in Korean
// text, known vocabulary, real URLs), the catalog is large enough, every vocabulary value is
// used, and no incident is written twice.
func TestCatalog(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatalf("data does not validate:\n%v", err)
	}
	if len(d.Cases) < minCases {
		t.Errorf("%d cases, want at least %d", len(d.Cases), minCases)
	}
	used := map[string]bool{}
	seen := map[string]string{}
	for _, c := range d.Cases {
		if len(c.Sources) == 0 {
			t.Errorf("%s has no source", c.ID)
		}
		for _, kind := range catalog.VocabKinds {
			for _, s := range c.Tags[kind] {
				used[string(kind)+"/"+s] = true
			}
		}
		key := c.Org + " " + c.Date
		if len(c.Date) == 10 {
			if other, dup := seen[key]; dup && !sameDay[other+" "+c.ID] {
				t.Errorf("%s and %s are both %s on %s: the same incident written twice?", other, c.ID, c.Org, c.Date)
			}
			seen[key] = c.ID
		}
	}
	for _, kind := range catalog.VocabKinds {
		for _, v := range d.Taxonomy.Kind(kind) {
			if !used[string(kind)+"/"+v.Slug] {
				t.Errorf("%s %q is used by no case: tag cases with it or remove it", kind, v.Slug)
			}
		}
	}
}

// Every case file matches the machine-readable schema that editors' tools use.
func TestCasesMatchSchema(t *testing.T) {
	b, err := os.ReadFile("case.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatalf("case.schema.json: %v", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("case.schema.json: %v", err)
	}
	files, _ := filepath.Glob("cases/*.yaml")
	if len(files) < minCases {
		t.Fatalf("%d case files", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := resolved.Validate(plain(doc.Content[0])); err != nil {
			t.Errorf("%s does not match case.schema.json: %v", f, err)
		}
	}
	// and the schema rejects what the build rejects
	bad := map[string]any{"id": "IL-1", "org": "x", "date": "yesterday", "causes": []any{"gremlins"}}
	if resolved.Validate(bad) == nil {
		t.Error("the schema accepts a case with a bad id, date and cause")
	}
}

// plain turns a YAML node into JSON values, keeping scalars as written (a date stays a string).
func plain(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = plain(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := []any{}
		for _, c := range n.Content {
			l = append(l, plain(c))
		}
		return l
	case yaml.AliasNode:
		return plain(n.Alias)
	}
	switch n.Tag {
	case "!!int":
		if v, err := strconv.Atoi(n.Value); err == nil {
			return v
		}
	case "!!bool":
		return n.Value == "true"
	case "!!null":
		return nil
	}
	return n.Value
}

// The catalog's balance: every case has a headline in both languages (the build checks their
// length), Korean organizations hold at least minKorean cases, no organization more than
// maxOrgShare of the catalog, every organization names its country, and no single year holds
// more than a fifth of the cases.
func TestCatalogBalance(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatalf("data does not validate:\n%v", err)
	}
	const minKorean, maxOrgShare = 60, 0.12
	country := map[string]string{}
	for _, o := range d.Orgs {
		if o.Country == "" {
			t.Errorf("organization %s has no country", o.Slug)
		}
		country[o.Slug] = o.Country
	}
	perOrg, perYear := map[string]int{}, map[string]int{}
	korean := 0
	for _, c := range d.Cases {
		if c.EN.Headline == "" || c.KO.Headline == "" {
			t.Errorf("%s has no headline in both languages", c.ID)
		}
		perOrg[c.Org]++
		perYear[c.Date[:4]]++
		if country[c.Org] == "KR" {
			korean++
		}
	}
	if korean < minKorean {
		t.Errorf("%d cases of Korean organizations, want at least %d", korean, minKorean)
	}
	for org, n := range perOrg {
		if float64(n) > maxOrgShare*float64(len(d.Cases)) {
			t.Errorf("%s has %d of %d cases, over %.0f%%", org, n, len(d.Cases), maxOrgShare*100)
		}
	}
	for y, n := range perYear {
		if n*5 > len(d.Cases) {
			t.Errorf("%s holds %d of %d cases: incidents should spread over the years", y, n, len(d.Cases))
		}
	}
	t.Logf("%d cases, %d of Korean organizations, %d organizations, %d years", len(d.Cases), korean, len(perOrg), len(perYear))
}

// Checklists and timelines stand on the data: at least 60 checks are backed by two or more
// cases, every component has a backed check, and at least 200 cases have a timeline.
func TestChecksAndTimelines(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatalf("data does not validate:\n%v", err)
	}
	support := map[string]int{}
	timelines := 0
	for _, c := range d.Cases {
		for slug := range c.Checks {
			support[slug]++
		}
		if len(c.Timeline) > 0 {
			timelines++
		}
	}
	backed := 0
	covered := map[string]bool{}
	for _, ch := range d.Checks {
		if support[ch.Slug] >= 2 {
			backed++
			for _, comp := range ch.Components {
				covered[comp] = true
			}
		}
	}
	if backed < 60 {
		t.Errorf("%d checks backed by at least two cases, want 60", backed)
	}
	for _, v := range d.Taxonomy.Kind(catalog.KindComponent) {
		if !covered[v.Slug] {
			t.Errorf("component %s has no check backed by two cases", v.Slug)
		}
	}
	if timelines < 200 {
		t.Errorf("%d cases have a timeline, want 200", timelines)
	}
	t.Logf("%d checks (%d backed by two cases or more), %d cases with a timeline", len(d.Checks), backed, timelines)
}

// The schema's lists of allowed values are the taxonomy's: a value added to taxonomy.yaml must
// be added to case.schema.json too, or editors' YAML validation would reject it.
func TestSchemaEnumsMatchTaxonomy(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatalf("data does not validate:\n%v", err)
	}
	b, err := os.ReadFile("case.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]struct {
			Items struct {
				Enum []string `json:"enum"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	for _, kind := range catalog.VocabKinds {
		var want []string
		for _, v := range d.Taxonomy.Kind(kind) {
			want = append(want, v.Slug)
		}
		got := schema.Properties[kind.Plural()].Items.Enum
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("case.schema.json %s = %v, taxonomy.yaml has %v", kind.Plural(), got, want)
		}
	}
}

// Every kind's example, which the API document and the MCP schemas show, is a value of the
// catalog.
func TestKindExamplesExist(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	values := map[catalog.Kind]map[string]bool{catalog.KindOrg: {}, catalog.KindYear: {}, catalog.KindCountry: {}}
	country := map[string]string{}
	for _, o := range d.Orgs {
		country[o.Slug] = o.Country
	}
	for _, kind := range catalog.VocabKinds {
		values[kind] = map[string]bool{}
		for _, v := range d.Taxonomy.Kind(kind) {
			values[kind][v.Slug] = true
		}
	}
	for _, c := range d.Cases {
		values[catalog.KindOrg][c.Org] = true
		values[catalog.KindYear][c.Date[:4]] = true
		values[catalog.KindCountry][country[c.Org]] = true
	}
	for _, k := range catalog.Kinds {
		if !values[k.Kind][k.Example] {
			t.Errorf("the example of %s, %q, is not one of its values", k.Kind, k.Example)
		}
	}
}

// The open-data release: every JSON Lines row validates against the published schema, both files
// hold every case, and the CSV has its documented columns.
func TestReleaseFilesMatchTheirSchema(t *testing.T) {
	d, err := build.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := build.MakeRelease(d)
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(build.ExportSchema, &schema); err != nil {
		t.Fatalf("export schema: %v", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("export schema: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(rel.JSONL))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	n := 0
	for sc.Scan() {
		n++
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d is not JSON: %v", n, err)
		}
		if err := resolved.Validate(v); err != nil {
			t.Errorf("line %d does not match export.schema.json: %v", n, err)
		}
	}
	if n != len(d.Cases) {
		t.Errorf("the JSON Lines file has %d lines for %d cases", n, len(d.Cases))
	}
	zr, err = gzip.NewReader(bytes.NewReader(rel.CSV))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatalf("the CSV does not parse: %v", err)
	}
	if len(rows) != len(d.Cases)+1 || rows[0][0] != "id" || !slices.Contains(rows[0], "summary_ko") {
		t.Errorf("the CSV has %d rows, header %v", len(rows), rows[0][:5])
	}
	if !strings.HasPrefix(rel.Version, "2026-") || len(rel.Version) != len("2026-12-02.1a2b3c4d") {
		t.Errorf("release version %q, want the catalog's last day and a short hash", rel.Version)
	}
}
