// Package model is the one JSON model of the catalog that scripts and AI tools read: the
// answers of /api/v1 and the structured content of the MCP tools. The web package builds these
// values from catalog types (web/model.go); views/mcptext writes the MCP tools' text from them.
// A field added here appears in both; openapi.json documents it, and the MCP SDK infers each
// tool's output schema from these types.
package model

import (
	"encoding/json"
	"fmt"

	"incidentlib/internal/catalog"
)

// Term is a vocabulary value, an organization, a year or a check, with its label.
type Term struct {
	Kind  catalog.Kind `json:"kind"`
	Slug  string       `json:"slug"`
	Label string       `json:"label"`
}

// Facet is a value with a number of cases.
type Facet struct {
	Slug  string `json:"slug"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Card is a case in a list.
type Card struct {
	ID       string `json:"id"`
	URL      string `json:"url" jsonschema:"the case's page"`
	Org      Term   `json:"org"`
	Date     string `json:"date" jsonschema:"YYYY-MM-DD, YYYY-MM or YYYY: the day it began in zone, or in UTC without one"`
	Zone     string `json:"zone,omitempty" jsonschema:"the IANA time zone of the date when the sources give local times, e.g. Asia/Seoul"`
	Headline string `json:"headline,omitempty" jsonschema:"a short headline naming the organization and what failed"`
	Title    string `json:"title"`
	Summary  string `json:"summary" jsonschema:"the summary (MCP lists give its start)"`
	Snippet  string `json:"snippet,omitempty" jsonschema:"text around the search words"`
	Tags     []Term `json:"tags" jsonschema:"causes, symptoms, components and contributing factors"`
}

// List is a page of cases as the API's /cases answers it.
type List struct {
	Lang        catalog.Lang              `json:"lang"`
	Query       string                    `json:"q"`
	Filters     map[catalog.Kind][]string `json:"filters"`
	Sort        string                    `json:"sort"`
	AnyWords    bool                      `json:"any_words"`
	AllWords    int                       `json:"all_words"`
	Total       int                       `json:"total"`
	Page        int                       `json:"page"`
	PageSize    int                       `json:"page_size"`
	Pages       int                       `json:"pages"`
	Cases       []Card                    `json:"cases"`
	Facets      map[catalog.Kind][]Facet  `json:"facets"`
	Suggestions []Term                    `json:"suggestions"`
}

// ToolList is a page of cases as the MCP tools answer it: the same cards, with the listing's
// address instead of its facets.
type ToolList struct {
	Lang        catalog.Lang              `json:"lang"`
	Query       string                    `json:"query,omitempty"`
	Filters     map[catalog.Kind][]string `json:"filters" jsonschema:"applied filter slugs by kind"`
	Sort        string                    `json:"sort" jsonschema:"relevance, newest or oldest"`
	AnyWords    bool                      `json:"any_words" jsonschema:"few cases had every word, so cases with some of them follow those that have them all"`
	AllWords    int                       `json:"all_words" jsonschema:"how many of the cases have every search word (all of them unless any_words)"`
	Total       int                       `json:"total" jsonschema:"cases in all pages"`
	Page        int                       `json:"page"`
	PageSize    int                       `json:"page_size"`
	Pages       int                       `json:"pages"`
	URL         string                    `json:"url" jsonschema:"the same list on the site"`
	Cases       []Card                    `json:"cases"`
	Suggestions []Term                    `json:"suggestions" jsonschema:"vocabulary values the words name, not yet applied: filters that may narrow the search"`
}

// Related is another case and why it is related.
type Related struct {
	ID      string  `json:"id"`
	URL     string  `json:"url"`
	Title   string  `json:"title"`
	Org     Term    `json:"org"`
	Date    string  `json:"date"`
	Score   float64 `json:"score"`
	Reasons []Term  `json:"reasons" jsonschema:"shared values; kind text means similar wording"`
	Why     string  `json:"why" jsonschema:"the reasons as a phrase"`
}

// Event is a moment of a case's timeline.
type Event struct {
	At   string                  `json:"at" jsonschema:"the time as the source gave it: UTC (Z) or local time with its offset"`
	UTC  string                  `json:"utc"`
	Mark string                  `json:"mark,omitempty" jsonschema:"start, detected, mitigated or resolved"`
	Text map[catalog.Lang]string `json:"text" jsonschema:"the event by language (en, ko)"`
}

// CheckLink is a check that some of a case's action items support.
type CheckLink struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	URL   string `json:"url"`
	Items []int  `json:"items" jsonschema:"positions (from 1) of the action items that support the check"`
}

// CaseLink is another case of the same event, or an earlier case at the same organization.
type CaseLink struct {
	Kind  string `json:"kind" jsonschema:"same-event or earlier-at-same-org"`
	ID    string `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
	Date  string `json:"date"`
}

// Case is one case: facts and classification in the first language asked for, the account in
// every language asked for.
type Case struct {
	ID            string  `json:"id"`
	URL           string  `json:"url" jsonschema:"the case's page in the first language of the answer"`
	Org           Term    `json:"org"`
	Date          string  `json:"date" jsonschema:"YYYY-MM-DD, YYYY-MM or YYYY: the day it began in zone, or in UTC without one"`
	Zone          string  `json:"zone,omitempty" jsonschema:"the IANA time zone of the date when the sources give local times, e.g. Asia/Seoul"`
	Severity      *string `json:"severity" jsonschema:"critical, major or minor; null when the sources do not say"`
	TimeToDetect  *int    `json:"time_to_detect" jsonschema:"minutes; null when unknown"`
	TimeToResolve *int    `json:"time_to_resolve" jsonschema:"minutes; null when unknown"`
	// Tags are the case's values by taxonomy kind, written under each kind's plural
	// ("causes": [...]) by MarshalJSON.
	Tags     map[catalog.Kind][]Term       `json:"-"`
	Sources  []catalog.Source              `json:"sources"`
	Text     map[catalog.Lang]catalog.Text `json:"text" jsonschema:"the account by language (en, ko)"`
	Timeline []Event                       `json:"timeline"`
	Checks   []CheckLink                   `json:"checks"`
	Links    []CaseLink                    `json:"links"`
	Related  []Related                     `json:"related" jsonschema:"most related first"`
}

// VocabValue is a value of the vocabulary with its definition and number of cases.
type VocabValue struct {
	Term
	Definition string   `json:"definition"`
	Aliases    []string `json:"aliases" jsonschema:"other names it is found by, in either language"`
	Count      int      `json:"count" jsonschema:"cases with this value"`
}

// VocabList is what the MCP vocab tool answers.
type VocabList struct {
	Lang   catalog.Lang `json:"lang"`
	Words  string       `json:"words,omitempty"`
	Values []VocabValue `json:"values" jsonschema:"matching values (all values without words), by kind in vocabulary order"`
}

// Year is the number of cases in a year; Before marks the column of that year and every earlier
// one.
type Year struct {
	Year   int  `json:"year"`
	Count  int  `json:"count"`
	Before bool `json:"before,omitempty"`
}

// Topic is one value with its definition, count, co-occurring values and cases per year, as the
// MCP get_topic tool answers it.
type Topic struct {
	Term
	Definition string                   `json:"definition"`
	Count      int                      `json:"count" jsonschema:"cases with this value"`
	URL        string                   `json:"url" jsonschema:"the value's page"`
	Related    map[catalog.Kind][]Facet `json:"related" jsonschema:"values found in the same cases, by kind, most frequent first"`
	Years      []Year                   `json:"years" jsonschema:"cases per year, oldest first"`
}

// APITopic is a topic as /api/v1/topics answers it: with its newest cases, and its years in the
// shape that endpoint has always had (catalog.YearCount: "Year", "Count").
type APITopic struct {
	Term
	Definition string                   `json:"definition"`
	Count      int                      `json:"count"`
	Related    map[catalog.Kind][]Facet `json:"related"`
	Years      []catalog.YearCount      `json:"years"`
	Cases      []Card                   `json:"cases"`
}

// Check is something to check in your own system.
type Check struct {
	Slug       string `json:"slug"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Why        string `json:"why"`
	Components []Term `json:"components"`
	Factors    []Term `json:"factors"`
	Cases      int    `json:"cases" jsonschema:"cases whose action items support it"`
}

// Evidence is a case behind a check, with the action items that support it.
type Evidence struct {
	ID       string   `json:"id"`
	URL      string   `json:"url"`
	Org      Term     `json:"org"`
	Date     string   `json:"date"`
	Headline string   `json:"headline,omitempty"`
	Title    string   `json:"title"`
	Items    []string `json:"action_items"`
}

// Checklist is the checks for a stack.
type Checklist struct {
	Lang       catalog.Lang `json:"lang"`
	Components []string     `json:"components"`
	Factors    []string     `json:"factors"`
	URL        string       `json:"url,omitempty" jsonschema:"the same checklist on the site"`
	Checks     []Check      `json:"checks" jsonschema:"checks in the order of the vocabulary"`
}

// MarshalJSON writes a case with its values of each taxonomy kind under the kind's plural:
// "causes", "symptoms", "components", "factors", an empty list for a kind without values.
func (c Case) MarshalJSON() ([]byte, error) {
	type plain Case
	b, err := json.Marshal(plain(c))
	if err != nil {
		return nil, err
	}
	b = b[:len(b)-1] // reopen the object: plain has fields, so it ends "…}"
	for _, kind := range catalog.VocabKinds {
		ts := c.Tags[kind]
		if ts == nil {
			ts = []Term{}
		}
		v, err := json.Marshal(ts)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"`+kind.Plural()+`":`...), v...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Case) UnmarshalJSON(b []byte) error {
	type plain Case
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	var err error
	c.Tags, err = ListsByKind[Term](b, catalog.VocabKinds, catalog.Kind.Plural)
	return err
}

// ListsByKind reads the lists a JSON object holds under each kind's key (key(kind): "causes"
// for a case's values, "cause" for a filter argument). A kind without a key, or with null, has
// no list.
func ListsByKind[T any](b []byte, kinds []catalog.Kind, key func(catalog.Kind) string) (map[catalog.Kind][]T, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	out := map[catalog.Kind][]T{}
	for _, kind := range kinds {
		raw, ok := obj[key(kind)]
		if !ok || string(raw) == "null" {
			continue
		}
		var list []T
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("%s: expected a list", key(kind))
		}
		out[kind] = list
	}
	return out, nil
}

// Like is the answer to "incidents like mine": the cases closest to a description.
type Like struct {
	Lang  catalog.Lang `json:"lang"`
	Text  string       `json:"text" jsonschema:"the description as read (cleaned, at most 2,000 characters)"`
	Found []TermCount  `json:"found" jsonschema:"vocabulary values the description names, with their case counts: filters to apply"`
	Words []string     `json:"words" jsonschema:"the description's distinctive words that were looked up"`
	Cases []LikeCase   `json:"cases" jsonschema:"the closest cases, closest first"`
}

// TermCount is a value with its kind and a number of cases.
type TermCount struct {
	Term
	Count int `json:"count"`
}

// LikeCase is a case close to a description, with why.
type LikeCase struct {
	Card
	Score  float64  `json:"score" jsonschema:"how close: shared values by kind (cause 3, component and factor 2, symptom 1) plus up to 6 for shared distinctive wording"`
	Shared []Term   `json:"shared" jsonschema:"values the description names that the case carries"`
	Words  []string `json:"words_in_common" jsonschema:"distinctive words of the description found in the case"`
	Why    string   `json:"why,omitempty" jsonschema:"the shared values, as a sentence"`
}
