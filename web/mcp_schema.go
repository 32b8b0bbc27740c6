package web

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
)

// inputSchema infers the schema of a tool's arguments and adds the bounds a tag cannot say. The
// SDK checks them before a handler runs, so a handler sees only arguments within them.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(In), err)) // a programming error, found by every test
	}
	for name, p := range s.Properties {
		switch name {
		case "lang":
			p.Enum = []any{}
			for _, l := range caseLangs("") { // the default first
				p.Enum = append(p.Enum, string(l))
			}
		case "kind":
			p.Enum = []any{}
			for _, k := range toolKinds {
				p.Enum = append(p.Enum, k)
			}
		case "query", "words":
			p.MaxLength = new(catalog.MaxQueryLen)
		case "text":
			p.MaxLength = new(catalog.MaxLikeLen)
		case "id", "slug":
			p.MaxLength = new(mcpMaxSlugLen)
		case "page":
			p.Minimum, p.Maximum, p.Default = new(1.0), new(float64(maxPage)), []byte("1")
		case "page_size":
			p.Minimum, p.Maximum, p.Default = new(1.0), new(float64(mcpMaxPageSize)), []byte(strconv.Itoa(mcpPageSize))
		}
	}
	for name := range s.Properties {
		if d := catalog.Kind(name).Def(); d.Kind != "" && s.Properties[name].Items != nil {
			// a list of values, such as a checklist's components, described as its tag says
			fs := filterSchema(d)
			fs.Description = cmp.Or(s.Properties[name].Description, fs.Description)
			s.Properties[name] = fs
		}
	}
	if _, ok := any(*new(In)).(interface{ hasFilters() }); ok {
		var names []string
		for _, d := range catalog.Kinds {
			s.Properties[string(d.Kind)] = filterSchema(d)
			names = append(names, string(d.Kind))
		}
		s.PropertyOrder = slices.Insert(s.PropertyOrder, min(1, len(s.PropertyOrder)), names...)
	}
	return s
}

// caseSchema is the output schema of a case: the inferred one with the lists of values that
// model.Case.MarshalJSON writes under each taxonomy kind's plural.
func caseSchema() *jsonschema.Schema {
	s, err := jsonschema.For[model.Case](nil)
	if err != nil {
		panic(fmt.Sprintf("output schema of a case: %v", err)) // a programming error, found by every test
	}
	for _, kind := range catalog.VocabKinds {
		list, _ := jsonschema.For[[]model.Term](nil)
		list.Description = kind.Def().Noun + " values, the main one first"
		s.Properties[kind.Plural()] = list
		s.Required = append(s.Required, kind.Plural())
	}
	return s
}

// filterSchema is the argument that filters by a kind: a list of slugs. It is typed "array",
// not ["null","array"], so that clients such as the MCP Inspector can send a list; an absent
// list already means no filter.
func filterSchema(d catalog.KindDef) *jsonschema.Schema {
	desc := fmt.Sprintf("%s slugs, e.g. %s (see vocab)", d.Noun, d.Example)
	if !d.Topic {
		desc = fmt.Sprintf("%ss of the incident, e.g. %s", d.Noun, d.Example)
	}
	return &jsonschema.Schema{Type: "array", Description: desc, MaxItems: new(maxValues),
		Items: &jsonschema.Schema{Type: "string", MaxLength: new(mcpMaxSlugLen)}}
}

// The SDK's messages for arguments its schema refused, such as `validating "arguments":
// validating root: validating /properties/page: minimum: 0/1 is less than 1.000000`. They are
// read here only to be said again in words a model can act on; one that is not recognised gets
// a plain sentence, never the SDK's Go internals.
var (
	schemaError   = regexp.MustCompile(`^validating "arguments": .*?/properties/([a-z_]+)(?:/items)?: (\w+): (.*)$`)
	requiredError = regexp.MustCompile(`^validating "arguments": .*required: missing properties: \[(.*)\]$`)
	extraError    = regexp.MustCompile(`unexpected additional properties \[(.*)\]$`)
	typeDetail    = regexp.MustCompile(`has type "(\w+)", want "(\w+)"`)
)

// rewordSchemaError rewrites a schema refusal so that a model can act on it: which argument,
// what it must be, and what was sent.
func rewordSchemaError(r *mcp.CallToolResult) {
	if len(r.Content) != 1 {
		return
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok || !strings.HasPrefix(tc.Text, "validating \"arguments\"") {
		return
	}
	tc.Text = schemaSentence(tc.Text)
}

// schemaSentence is the sentence for one SDK refusal.
func schemaSentence(text string) string {
	if m := requiredError.FindStringSubmatch(text); m != nil {
		names := strings.ReplaceAll(m[1], `"`, "")
		return fmt.Sprintf("The argument %q is required.", strings.ReplaceAll(names, ",", ", "))
	}
	if m := extraError.FindStringSubmatch(text); m != nil {
		return fmt.Sprintf("This tool takes no argument %s (see tools/list for the ones it takes).", strings.ReplaceAll(m[1], ",", ", "))
	}
	if strings.Contains(text, "unmarshaling arguments") {
		return "The arguments must be a JSON object of named arguments, such as {\"query\": \"dns\"}."
	}
	m := schemaError.FindStringSubmatch(text)
	if m == nil {
		return "The arguments do not fit the tool's input schema (see tools/list)."
	}
	name, rule, detail := m[1], m[2], m[3]
	got, limit, _ := strings.Cut(detail, " is ")
	got, _, _ = strings.Cut(got, "/")
	limit = strings.TrimPrefix(strings.TrimPrefix(limit, "less than "), "greater than ")
	if v, err := strconv.ParseFloat(limit, 64); err == nil {
		limit = strconv.FormatFloat(v, 'f', -1, 64)
	}
	switch rule {
	case "minimum":
		return fmt.Sprintf("The argument %q must be at least %s; it was %s.", name, limit, got)
	case "maximum":
		return fmt.Sprintf("The argument %q must be at most %s; it was %s.", name, limit, got)
	case "enum":
		value, allowed, _ := strings.Cut(detail, " does not equal any of: ")
		return fmt.Sprintf("The argument %q must be one of %s; it was %q.", name,
			strings.Join(strings.Fields(strings.Trim(allowed, "[]")), ", "), value)
	case "maxLength", "maxItems":
		return fmt.Sprintf("The argument %q is too long: %s.", name, detail)
	case "type":
		if t := typeDetail.FindStringSubmatch(detail); t != nil {
			return fmt.Sprintf("The argument %q must be %s; it was %s.", name, article(t[2]), article(t[1]))
		}
	}
	return fmt.Sprintf("The argument %q does not fit the tool's input schema (%s).", name, rule)
}

// article names a JSON type with its article: "an array", "a string", "null".
func article(jsonType string) string {
	switch jsonType {
	case "null":
		return "null"
	case "array", "integer", "object":
		return "an " + jsonType
	}
	return "a " + jsonType
}

// hasFilters marks the arguments that take a filter per kind: inputSchema declares them.
func (searchInput) hasFilters() {}

// UnmarshalJSON reads the arguments, with a list of slugs under each filter kind's name.
func (in *searchInput) UnmarshalJSON(b []byte) error {
	type plain searchInput
	if err := json.Unmarshal(b, (*plain)(in)); err != nil {
		return err
	}
	var err error
	in.Filters, err = model.ListsByKind[string](b, catalog.FilterKinds, func(k catalog.Kind) string { return string(k) })
	return err
}
