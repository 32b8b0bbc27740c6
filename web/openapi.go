package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"incidentlib/internal/catalog"
)

// openapi.json is written by hand except for what follows the catalog's own lists: a filter
// parameter per kind, the kinds a topic may be, the values of a case by taxonomy kind, the
// filters, facets and vocabulary by kind, and the prose fields of a case's text. Those parts are
// written in here from catalog.Kinds and catalog.Fields, so that adding a kind or a field changes
// the document with it.

//go:embed openapi.json
var openAPIBase []byte

// openAPIDoc is the API document served at /api/v1/openapi.json.
var openAPIDoc = func() []byte {
	b, err := completeOpenAPI(openAPIBase)
	if err != nil {
		panic(fmt.Sprintf("openapi.json: %v", err)) // a programming error, found by every test
	}
	return b
}()

type jsonObject = map[string]any

// completeOpenAPI writes the kind and field parts into the hand-written document.
func completeOpenAPI(base []byte) ([]byte, error) {
	var doc jsonObject
	dec := json.NewDecoder(bytes.NewReader(base))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	at := func(keys ...string) jsonObject {
		o := doc
		for _, k := range keys {
			next, ok := o[k].(jsonObject)
			if !ok {
				panic(fmt.Sprintf("openapi.json has no object at %v", keys))
			}
			o = next
		}
		return o
	}
	schemas := at("components", "schemas")
	list := func(items jsonObject) jsonObject { return jsonObject{"type": "array", "items": items} }
	ref := func(name string) jsonObject { return jsonObject{"$ref": "#/components/schemas/" + name} }
	str := jsonObject{"type": "string"}

	// GET /cases: a filter parameter per kind, after q.
	op := at("paths", "/cases", "get")
	var params []any
	for _, p := range op["parameters"].([]any) {
		params = append(params, p)
		if p.(jsonObject)["name"] != "q" {
			continue
		}
		for _, d := range catalog.Kinds {
			params = append(params, jsonObject{"name": string(d.Kind), "in": "query", "required": false,
				"description": fmt.Sprintf("Filter by %s, e.g. %s; repeat for OR within the kind. Kinds combine with AND.", d.Noun, d.Example),
				"schema":      list(str), "style": "form", "explode": true})
		}
	}
	op["parameters"] = params

	// GET /topics/{kind}/{slug}: the kinds with topics.
	var topicKinds []any
	for _, k := range catalog.TopicKinds {
		topicKinds = append(topicKinds, string(k))
	}
	for _, p := range at("paths", "/topics/{kind}/{slug}", "get")["parameters"].([]any) {
		if p := p.(jsonObject); p["name"] == "kind" {
			p["schema"] = jsonObject{"type": "string", "enum": topicKinds}
			p["description"] = "The kind of value: one of the enum."
		}
	}

	// A case's values, by taxonomy kind.
	kase := schemas["Case"].(jsonObject)
	for _, k := range catalog.VocabKinds {
		kase["properties"].(jsonObject)[k.Plural()] = list(ref("Term"))
		kase["required"] = append(kase["required"].([]any), k.Plural())
	}

	// A listing's filters and facets, and the vocabulary, by kind.
	byKind := func(o jsonObject, kinds []catalog.Kind, items jsonObject) {
		props := jsonObject{}
		for _, k := range kinds {
			props[string(k)] = list(items)
		}
		o["properties"], o["additionalProperties"] = props, false
	}
	caseList := schemas["CaseList"].(jsonObject)["properties"].(jsonObject)
	byKind(caseList["filters"].(jsonObject), catalog.FilterKinds, str)
	byKind(caseList["facets"].(jsonObject), catalog.FilterKinds, ref("Facet"))
	byKind(schemas["Vocab"].(jsonObject)["properties"].(jsonObject)["vocab"].(jsonObject), catalog.TopicKinds, ref("VocabEntry"))

	// A case's text: the prose fields.
	text := jsonObject{}
	var required []any
	for _, f := range catalog.Fields {
		p := jsonObject{"type": "string"}
		if f.List {
			p = list(str)
		}
		if f.Max > 0 {
			p["description"] = fmt.Sprintf("At most %d characters in English, %d in Korean.", f.Max, f.MaxKO)
		}
		text[f.Key] = p
		if f.Required {
			required = append(required, f.Key)
		}
	}
	schemas["Text"] = jsonObject{"type": "object", "required": required, "properties": text, "additionalProperties": false}
	return json.MarshalIndent(doc, "", "  ")
}
