// Package catalog reads the built incident catalog: cases, vocabulary, organizations, search and
// related cases. It opens the SQLite file read-only and knows nothing of HTTP or UI wording.
package catalog

import (
	"errors"
	"time"
)

// ErrNotFound reports that an id or slug names nothing in the catalog.
var ErrNotFound = errors.New("not found")

// Term is one value of a kind (a cause, an organization, a year) with its label in one language.
type Term struct {
	Kind  Kind
	Slug  string
	Label string
}

// Source is a public report a case is written from.
type Source struct {
	URL     string `json:"url"`
	Kind    string `json:"kind"`
	Archive string `json:"archive,omitempty"`
	Title   string `json:"title,omitempty"`
}

// Card is what a listing shows of a case.
type Card struct {
	ID       string
	Org      Term
	Date     string // YYYY-MM-DD, YYYY-MM or YYYY: the local day in Zone, or in UTC
	Zone     string // IANA name when the source gives local times, else empty
	Title    string
	Headline string // empty for a case not yet given one
	Summary  string
	Text     Text   // trigger, detection and remediation, for the card's lines
	Tags     []Term // causes, symptoms, components, factors in that order
	Snippet  []Span // where the search words matched; nil without search words
	Lines    []Line // trigger, detection and main fix, one line each, search words marked
}

// Line is one line of a card: a field of the case (its Key in Fields) cut to a line.
type Line struct {
	Key   string
	Spans []Span
}

// Span is a piece of snippet text; Hit marks a search match.
type Span struct {
	Text string
	Hit  bool
}

// Case is one incident in one language, with everything its page shows.
type Case struct {
	ID            string
	Lang          Lang
	Org           Term
	Date          string // the local day in Zone, or in UTC when Zone is empty
	Zone          string // IANA name when the source gives local times
	Severity      string // critical, major, minor or empty
	TimeToDetect  *int   // minutes; nil when unknown
	TimeToResolve *int   // minutes; nil when unknown
	Tags          []Term // values of the taxonomy kinds, in the order of Kinds, each kind in the author's order
	Sources       []Source
	Text          Text
	Timeline      []Event // in time order; empty when the source gives no times
	Checks        []CheckLink
	Links         []CaseLink // same event elsewhere, earlier cases at the same organization
	Related       []Related
}

// Event is a moment of a case's timeline in one language.
type Event struct {
	At   time.Time // with the offset the source gave (UTC or local)
	Mark string    // start, detected, mitigated, resolved, or empty
	Text string
}

// CaseLink is another case linked to this one: Kind "same-event" or "earlier-at-same-org".
type CaseLink struct {
	Kind     string
	ID       string
	Org      Term
	Date     string
	Zone     string
	Headline string
	Title    string
}

// CheckLink is a check that some of a case's action items support.
type CheckLink struct {
	Check Term  // Kind "check"
	Items []int // positions (from 1) in the case's action items
}

// Related is another case and why it is related.
type Related struct {
	ID      string
	Title   string
	Org     Term
	Date    string
	Score   float64
	Reasons []Term // shared values; Kind "text" (no slug) for similar wording
}

// VocabEntry is a value of the taxonomy with its definition and the number of cases using it.
type VocabEntry struct {
	Term
	Definition string
	Aliases    []string
	Count      int
}

// Values are the case's values of one kind, in the author's order; the first is the main one.
func (c Case) Values(kind Kind) []Term {
	var out []Term
	for _, t := range c.Tags {
		if t.Kind == kind {
			out = append(out, t)
		}
	}
	return out
}
