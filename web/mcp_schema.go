package web

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
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
			p.Enum = []any{"en", "ko"}
		case "kind":
			p.Enum = []any{}
			for _, k := range toolKinds {
				p.Enum = append(p.Enum, k)
			}
		case "query", "words":
			p.MaxLength = new(catalog.MaxQueryLen)
		case "id", "slug":
			p.MaxLength = new(mcpMaxSlugLen)
		case "page":
			p.Minimum, p.Maximum, p.Default = new(1.0), new(float64(maxPage)), []byte("1")
		case "page_size":
			p.Minimum, p.Maximum, p.Default = new(1.0), new(float64(mcpMaxPageSize)), []byte(strconv.Itoa(mcpPageSize))
		case catalog.KindCause, catalog.KindSymptom, catalog.KindComponent, catalog.KindFactor, catalog.KindOrg, catalog.KindYear:
			// a slice infers as ["null","array"]; clients such as the MCP Inspector then cannot
			// send a list, and an absent list already means no filter
			p.Type, p.Types = "array", nil
			p.MaxItems = new(maxValues)
			p.Items.MaxLength = new(mcpMaxSlugLen)
		}
	}
	return s
}

// schemaError reads the SDK's message for arguments its schema refused, such as
// `validating "arguments": validating root: validating /properties/page: minimum: 0/1 is less
// than 1.000000`.
var schemaError = regexp.MustCompile(`^validating "arguments": .*?/properties/([a-z_]+)(?:/items)?: (\w+): (.*)$`)

// rewordSchemaError rewrites a schema refusal so that a model can act on it: which argument,
// what it must be, and what was sent.
func rewordSchemaError(r *mcp.CallToolResult) {
	if len(r.Content) != 1 {
		return
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		return
	}
	m := schemaError.FindStringSubmatch(tc.Text)
	if m == nil {
		return
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
		tc.Text = fmt.Sprintf("The argument %q must be at least %s; it was %s.", name, limit, got)
	case "maximum":
		tc.Text = fmt.Sprintf("The argument %q must be at most %s; it was %s.", name, limit, got)
	case "enum":
		value, allowed, _ := strings.Cut(detail, " does not equal any of: ")
		tc.Text = fmt.Sprintf("The argument %q must be one of %s; it was %q.", name,
			strings.Join(strings.Fields(strings.Trim(allowed, "[]")), ", "), value)
	case "maxLength", "maxItems":
		tc.Text = fmt.Sprintf("The argument %q is too long: %s.", name, detail)
	default:
		tc.Text = fmt.Sprintf("The argument %q is not valid (%s: %s).", name, rule, detail)
	}
}
