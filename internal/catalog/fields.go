package catalog

import "strings"

// Text is the prose of a case in one language, as the case file holds it and as pages, the API
// and MCP show it. Empty strings and nil lists mean the source did not give the field.
type Text struct {
	Headline      string   `yaml:"headline" json:"headline,omitempty"`
	Title         string   `yaml:"title" json:"title"`
	Summary       string   `yaml:"summary" json:"summary"`
	Region        string   `yaml:"region" json:"region,omitempty"`
	Scope         string   `yaml:"scope" json:"scope,omitempty"`
	UsersAffected string   `yaml:"users_affected" json:"users_affected,omitempty"`
	Symptoms      string   `yaml:"symptoms" json:"symptoms"`
	Trigger       string   `yaml:"trigger" json:"trigger"`
	Detection     string   `yaml:"detection" json:"detection,omitempty"`
	Remediation   []string `yaml:"remediation" json:"remediation,omitempty"`
	ActionItems   []string `yaml:"action_items" json:"action_items,omitempty"`
	Lessons       string   `yaml:"lessons" json:"lessons,omitempty"`
}

// Field is one prose field of a case.
type Field struct {
	Key      string // the key in case files and JSON; its UI label is the message "case.<Key>"
	Required bool   // every case has it, in both languages
	List     bool   // a list of items rather than paragraphs
	Line     bool   // a single line, not sentences
	Section  bool   // shown as a section of its own on the case page, in this order
	Max      int    // longest English value in characters, 0 for no limit (Korean: MaxKO)
	MaxKO    int
	text     func(*Text) *string
	list     func(*Text) *[]string
}

// Fields is the one list of a case's prose fields, in page order. The build checks and stores
// them, the full-text index reads them, the case page shows them as sections with a guide, MCP
// writes them out, and the synthetic catalogs fill them. Adding a field here (and to Text) is
// the whole change in code.
var Fields = []Field{
	{Key: "headline", Required: true, Line: true, Max: 60, MaxKO: 40, text: func(t *Text) *string { return &t.Headline }},
	{Key: "title", Required: true, Line: true, Max: 200, MaxKO: 200, text: func(t *Text) *string { return &t.Title }},
	{Key: "summary", Required: true, text: func(t *Text) *string { return &t.Summary }},
	{Key: "region", Line: true, text: func(t *Text) *string { return &t.Region }},
	{Key: "scope", text: func(t *Text) *string { return &t.Scope }},
	{Key: "users_affected", text: func(t *Text) *string { return &t.UsersAffected }},
	{Key: "symptoms", Required: true, Section: true, text: func(t *Text) *string { return &t.Symptoms }},
	{Key: "trigger", Required: true, Section: true, text: func(t *Text) *string { return &t.Trigger }},
	{Key: "detection", Section: true, text: func(t *Text) *string { return &t.Detection }},
	{Key: "remediation", List: true, Section: true, list: func(t *Text) *[]string { return &t.Remediation }},
	{Key: "action_items", List: true, Section: true, list: func(t *Text) *[]string { return &t.ActionItems }},
	{Key: "lessons", Section: true, text: func(t *Text) *string { return &t.Lessons }},
}

// Values returns the field's value in t: one string, the list's items, or nil when empty.
func (f Field) Values(t *Text) []string {
	if f.List {
		return *f.list(t)
	}
	if v := *f.text(t); strings.TrimSpace(v) != "" {
		return []string{v}
	}
	return nil
}

// Set stores values in the field of t: the first value for a text field.
func (f Field) Set(t *Text, values []string) {
	if f.List {
		*f.list(t) = values
		return
	}
	*f.text(t) = strings.Join(values, "\n\n")
}

// Anchor is the id of the field's section on the case page.
func (f Field) Anchor() string { return strings.ReplaceAll(f.Key, "_", "-") }

// Sections are the fields shown as sections of their own, in page order.
func Sections() []Field {
	var out []Field
	for _, f := range Fields {
		if f.Section {
			out = append(out, f)
		}
	}
	return out
}

// Body is the text of every field but the headline, title and summary, for the full-text index.
func (t *Text) Body() string {
	var parts []string
	for _, f := range Fields {
		switch f.Key {
		case "headline", "title", "summary":
			continue
		}
		parts = append(parts, f.Values(t)...)
	}
	return strings.Join(parts, " ")
}
