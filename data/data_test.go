package data

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"

	"incidentlib/internal/catalog/build"
)

// minCases is the size the catalog must not fall below.
const minCases = 250

// sameDay lists pairs of cases that share an organization and a date but are different
// incidents, checked by an editor against their sources.
var sameDay = map[string]bool{
	"IL-0068 IL-0069": true, // CircleCI 2025-04-04: a WAF rule (00:16 UTC) and a database upgrade (22:08 UTC)
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
		for _, kind := range []string{"cause", "symptom", "component", "factor"} {
			for _, s := range c.Tags(kind) {
				used[kind+"/"+s] = true
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
	for _, kind := range []string{"cause", "symptom", "component", "factor"} {
		for _, v := range d.Taxonomy.Kind(kind) {
			if !used[kind+"/"+v.Slug] {
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
