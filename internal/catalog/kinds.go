package catalog

// Kind is a kind of value a case is classified and filtered by: the taxonomy's kinds,
// organizations and years. Terms also carry kinds that are not values of a case: KindCheck,
// the reasons of related cases and a few more.
type Kind string

// The kinds of Kinds, then the kinds of terms that are not values of a case.
const (
	KindCause     Kind = "cause"
	KindSymptom   Kind = "symptom"
	KindComponent Kind = "component"
	KindFactor    Kind = "factor"
	KindOrg       Kind = "org"
	KindYear      Kind = "year"
	KindCountry   Kind = "country"

	KindCheck  Kind = "check"  // a check of data/checks.yaml
	KindText   Kind = "text"   // a related case's reason: similar wording
	KindEditor Kind = "editor" // a related case's reason: linked by the editors
	KindWords  Kind = "q"      // a listing's search words, as a term of what can be widened
	KindAll    Kind = "all"    // the whole catalog, as the term of its durations
)

// KindDef is everything the build, the pages, the API and MCP know of a kind.
type KindDef struct {
	Kind Kind
	// Plural names the kind's values wherever they are listed: the key in a case file, in
	// data/taxonomy.yaml and in the JSON model of a case, and the path of the kind's pages
	// (/{lang}/causes, /{lang}/causes/{slug}).
	Plural string
	// Taxonomy kinds have their values, labels and definitions in data/taxonomy.yaml and are
	// tagged on cases; organizations and years come from the cases' own fields, and countries
	// from the organizations' (data/orgs.yaml).
	Taxonomy bool
	// Required kinds have at least one value on every case.
	Required bool
	// Topic kinds give each value a page of its own, with its definition and cases.
	Topic bool
	// Noun and Example describe the kind in the API document and the MCP tools' schemas, which
	// are in English: "contributing factor", "human-error".
	Noun, Example string
}

// Kinds is the one list of kinds, in the order pages, answers and cards show them. Adding a
// kind is a row here, its values in data/taxonomy.yaml (with an enum in data/case.schema.json,
// which a test compares) and its labels in locales/; the build, the store, the filters, the
// pages, the API document and the MCP schemas range over this list.
var Kinds = []KindDef{
	{Kind: KindCause, Plural: "causes", Taxonomy: true, Required: true, Topic: true, Noun: "cause", Example: "power-facility"},
	{Kind: KindSymptom, Plural: "symptoms", Taxonomy: true, Required: true, Topic: true, Noun: "symptom", Example: "full-outage"},
	{Kind: KindComponent, Plural: "components", Taxonomy: true, Required: true, Topic: true, Noun: "component", Example: "dns"},
	{Kind: KindFactor, Plural: "factors", Taxonomy: true, Topic: true, Noun: "contributing factor", Example: "no-staged-rollout"},
	{Kind: KindOrg, Plural: "orgs", Required: true, Topic: true, Noun: "organization", Example: "kakao"},
	{Kind: KindYear, Plural: "years", Required: true, Noun: "year", Example: "2022"},
	{Kind: KindCountry, Plural: "countries", Required: true, Noun: "country (ISO 3166 code of the organization's country)", Example: "KR"},
}

var (
	// VocabKinds are the taxonomy's kinds.
	VocabKinds = kindsWhere(func(d KindDef) bool { return d.Taxonomy })
	// TopicKinds are the kinds whose values have a page of their own.
	TopicKinds = kindsWhere(func(d KindDef) bool { return d.Topic })
	// FilterKinds are every kind a listing can filter by.
	FilterKinds = kindsWhere(func(KindDef) bool { return true })
)

func kindsWhere(keep func(KindDef) bool) []Kind {
	var out []Kind
	for _, d := range Kinds {
		if keep(d) {
			out = append(out, d.Kind)
		}
	}
	return out
}

// Def returns the kind's row of Kinds, or the zero KindDef for a kind that is not there.
func (k Kind) Def() KindDef {
	for _, d := range Kinds {
		if d.Kind == k {
			return d
		}
	}
	return KindDef{}
}

// Plural is the kind's Plural, or "" for a kind not in Kinds.
func (k Kind) Plural() string { return k.Def().Plural }

// IsTopic reports whether the kind's values have pages of their own.
func (k Kind) IsTopic() bool { return k.Def().Topic }

// ParseKind returns the kind s names: "cause", "org", … Only kinds in Kinds parse.
func ParseKind(s string) (Kind, bool) {
	d := Kind(s).Def()
	return d.Kind, d.Kind != ""
}

// KindOfPlural returns the kind whose Plural is p: "causes" → KindCause.
func KindOfPlural(p string) (Kind, bool) {
	for _, d := range Kinds {
		if d.Plural == p {
			return d.Kind, true
		}
	}
	return "", false
}
