package views

import (
	"net/url"
	"strconv"

	"incidentlib/internal/catalog"
)

// URL shapes live here and nowhere else. Permalinks are promises: never change one.

// A kind's pages are under its plural (catalog.KindDef.Plural): /{lang}/causes lists the causes,
// /{lang}/causes/{slug} is one cause. Years have an index page but no topic pages.

// KindOfIndex returns the kind whose index page a path segment names.
func KindOfIndex(segment string) (catalog.Kind, bool) { return catalog.KindOfPlural(segment) }

// KindOfPath returns the kind a topic path segment names.
func KindOfPath(segment string) (catalog.Kind, bool) {
	if k, ok := catalog.KindOfPlural(segment); ok && k.IsTopic() {
		return k, true
	}
	return "", false
}

// IndexURL is the page listing every value of a kind: /{lang}/causes, /orgs, /years.
func IndexURL(lang catalog.Lang, kind catalog.Kind) string {
	return "/" + string(lang) + "/" + kind.Plural()
}

// CheckURL is the page of one check.
func CheckURL(lang catalog.Lang, slug string) string {
	return "/" + string(lang) + "/checks/" + url.PathEscape(slug)
}

// ChecksURL is the list of checks, narrowed to a stack when components or factors are given.
func ChecksURL(lang catalog.Lang, q url.Values) string {
	return withQuery("/"+string(lang)+"/checks", q)
}

// CardImageURL is a case's link-preview image.
func CardImageURL(lang catalog.Lang, id string) string {
	return "/" + string(lang) + "/cases/" + id + "/card.png"
}

// CiteURL is the API address of a case's citation in a format (bibtex or csl-json).
func CiteURL(id, format string) string { return "/api/v1/cases/" + id + "/cite?format=" + format }

// NeutralCaseURL is a case's address without a language: it opens in the reader's language.
func NeutralCaseURL(id string) string { return "/cases/" + id }

// HomeURL is the listing without filters.
func HomeURL(lang catalog.Lang) string { return "/" + string(lang) + "/" }

// CaseURL is a case's permalink path.
func CaseURL(lang catalog.Lang, id string) string { return "/" + string(lang) + "/cases/" + id }

// TopicURL is the page of one value; years have no page and link to the filtered listing.
func TopicURL(lang catalog.Lang, t catalog.Term) string {
	if t.Kind.IsTopic() {
		return "/" + string(lang) + "/" + t.Kind.Plural() + "/" + url.PathEscape(t.Slug)
	}
	return ListURL(lang, catalog.Filter{Values: map[catalog.Kind][]string{t.Kind: {t.Slug}}})
}

// StatsURL is the page of durations.
func StatsURL(lang catalog.Lang) string { return "/" + string(lang) + "/stats" }

// GraphURL is the catalog graph, narrowed by the filter.
func GraphURL(lang catalog.Lang, f catalog.Filter) string {
	q := filterQuery(f)
	q.Del("page")
	q.Del("sort")
	return withQuery("/"+string(lang)+"/graph", q)
}

// APIPageURL is the page that explains the API and MCP server.
func APIPageURL(lang catalog.Lang) string { return "/" + string(lang) + "/api" }

// FeedURL is the Atom feed of a language.
func FeedURL(lang catalog.Lang) string { return "/" + string(lang) + "/feed.xml" }

// CaseJSONURL is the API address of one case.
func CaseJSONURL(id string) string { return "/api/v1/cases/" + id }

// SimilarJSONURL is the API address of a case's similar cases.
func SimilarJSONURL(id string) string { return "/api/v1/cases/" + id + "/similar" }

// ListURL is the listing for a filter. Defaults (page 1, default sort) are left out so every
// listing has one canonical address.
func ListURL(lang catalog.Lang, f catalog.Filter) string {
	return withQuery(HomeURL(lang), filterQuery(f))
}

func filterQuery(f catalog.Filter) url.Values {
	q := url.Values{}
	if f.Q != "" {
		q.Set("q", f.Q)
	}
	for _, kind := range catalog.FilterKinds {
		for _, v := range f.Values[kind] {
			q.Add(string(kind), v)
		}
	}
	if f.Sort != "" && f.Sort != defaultSort(f) {
		q.Set("sort", f.Sort)
	}
	if f.Page > 1 {
		q.Set("page", strconv.Itoa(f.Page))
	}
	if f.Group != "" {
		q.Set("group", f.Group)
	}
	return q
}

// GroupURL is the listing with its cases grouped by main cause, or not ("").
func GroupURL(lang catalog.Lang, f catalog.Filter, group string) string {
	f.Group = group
	return ListURL(lang, f)
}

func defaultSort(f catalog.Filter) string {
	if f.HasWords() {
		return catalog.SortRelevance
	}
	return catalog.SortNewest
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// clone copies a filter so a link can change it without touching the page's own.
func clone(f catalog.Filter) catalog.Filter {
	g := f
	g.Values = map[catalog.Kind][]string{}
	for k, v := range f.Values {
		g.Values[k] = append([]string(nil), v...)
	}
	return g
}

// ToggleURL adds the value to the filter, or removes it when applied; it returns to page 1.
func ToggleURL(lang catalog.Lang, f catalog.Filter, kind catalog.Kind, slug string) string {
	g := clone(f)
	g.Page = 0
	if f.Has(kind, slug) {
		var keep []string
		for _, v := range g.Values[kind] {
			if v != slug {
				keep = append(keep, v)
			}
		}
		g.Values[kind] = keep
	} else {
		g.Values[kind] = append(g.Values[kind], slug)
	}
	return ListURL(lang, g)
}

// ClearURL keeps the search words and drops every filter value.
func ClearURL(lang catalog.Lang, f catalog.Filter) string {
	return ListURL(lang, catalog.Filter{Q: f.Q})
}

// ClearQueryURL keeps the filter values and drops the search words.
func ClearQueryURL(lang catalog.Lang, f catalog.Filter) string {
	g := clone(f)
	g.Q, g.Page, g.Sort = "", 0, ""
	return ListURL(lang, g)
}

// PageURL is the same listing at another page.
func PageURL(lang catalog.Lang, f catalog.Filter, page int) string {
	g := clone(f)
	g.Page = page
	return ListURL(lang, g)
}

// SortURL is the same listing in another order, from page 1.
func SortURL(lang catalog.Lang, f catalog.Filter, sort string) string {
	g := clone(f)
	g.Sort, g.Page = sort, 0
	return ListURL(lang, g)
}

// FromQuery is the query string of a listing, carried by case links as ?from= so the case page
// can lead back to the same listing. Empty for the unfiltered first page.
func FromQuery(f catalog.Filter) string {
	return filterQuery(f).Encode()
}

// TopicFromPrefix starts the from parameter of a case opened from a topic page:
// "topic:cause/power-facility". Its back link returns to the topic page.
const TopicFromPrefix = "topic:"

// TopicFrom is the from parameter of the cases listed on a topic page.
func TopicFrom(t catalog.Term) string { return TopicFromPrefix + string(t.Kind) + "/" + t.Slug }

// CaseFromURL is a case's address reached from a listing; the permalink stays CaseURL.
func CaseFromURL(lang catalog.Lang, id, from string) string {
	if from == "" {
		return CaseURL(lang, id)
	}
	return CaseURL(lang, id) + "?" + url.Values{"from": {from}}.Encode()
}

// LikeURL is the "incidents like mine" page, with a description when one is given.
func LikeURL(lang catalog.Lang, text string) string {
	if text == "" {
		return "/" + string(lang) + "/like"
	}
	return withQuery("/"+string(lang)+"/like", url.Values{"text": {text}})
}

// LikeJSONURL is the API's answer to a description.
func LikeJSONURL(text string) string { return withQuery("/api/v1/similar", url.Values{"text": {text}}) }

// DataURL is the open-data page.
func DataURL(lang catalog.Lang) string { return "/" + string(lang) + "/data" }

// DownloadURL is a file of the open-data release: "jsonl", "csv" or "schema".
func DownloadURL(format string) string {
	if format == "schema" {
		return "/data/incidentlib.schema.json"
	}
	return "/data/incidentlib." + format + ".gz"
}

// ListFeedURL is the Atom feed of a listing: its filters and search words, newest added first.
func ListFeedURL(lang catalog.Lang, f catalog.Filter) string {
	q := filterQuery(f)
	q.Del("page")
	q.Del("sort")
	q.Del("group")
	return withQuery(FeedURL(lang), q)
}

// Link is a labelled place to go, such as the list an error page points back to.
type Link struct {
	Href  string
	Label string
}
