package web

import (
	"fmt"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

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
