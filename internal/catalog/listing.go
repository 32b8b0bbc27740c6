package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sort orders of a listing.
const (
	SortNewest    = "newest"
	SortOldest    = "oldest"
	SortRelevance = "relevance" // only with search words
)

// Bounds of a listing request. MaxQueryLen keeps one query's work small; MaxPageSize bounds a
// page for the API.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
	MaxQueryLen     = 200 // characters
)

// Filter is what a listing asks for. Values within a kind are OR, kinds are AND.
type Filter struct {
	Q        string
	Values   map[Kind][]string // kind -> slugs, for the kinds in FilterKinds
	Sort     string            // SortNewest, SortOldest, SortRelevance; empty picks the default
	Page     int               // from 1
	PageSize int
	Group    string // a page option: "cause" shows the page's cases under their main cause
	// Words is Q parsed, set by Cases so that the links of a page do not parse it again; nil
	// when not parsed yet.
	Words []QueryWord
}

// HasWords reports whether the search has words (stop words and punctuation do not count).
func (f Filter) HasWords() bool {
	if f.Words != nil {
		return len(f.Words) > 0
	}
	return len(ParseQuery(f.Q)) > 0
}

// Has reports whether the filter selects slug of kind.
func (f Filter) Has(kind Kind, slug string) bool {
	for _, v := range f.Values[kind] {
		if v == slug {
			return true
		}
	}
	return false
}

// Count is the number of filter values chosen, over all kinds.
func (f Filter) Count() int {
	n := 0
	for _, v := range f.Values {
		n += len(v)
	}
	return n
}

// Empty reports whether the filter has neither search words nor values.
func (f Filter) Empty() bool {
	if strings.TrimSpace(f.Q) != "" {
		return false
	}
	for _, v := range f.Values {
		if len(v) > 0 {
			return false
		}
	}
	return true
}

// Facet is one value with the number of cases it gives.
type Facet struct {
	Term
	Count int
}

// Result is one page of a listing and everything the listing page shows about the whole set.
type Result struct {
	Filter      Filter
	Words       []QueryWord
	AnyWords    bool // few cases had every word; the list holds cases with any of them
	AllWords    int  // with AnyWords: how many of Total have every word (they come first)
	Total       int
	Cards       []Card
	Facets      map[Kind][]Facet // kind -> values with counts under the other kinds' filters
	Spread      map[Kind][]Facet // kind -> values with counts in this result set, most first
	Links       []Link           // co-occurrences of values in this result set, for its graph
	Suggestions []Facet          // vocabulary values named by the search words, not yet applied, with their cases within the filters
	Dropped     []Dropped        // values the request named that do not exist, left out
	Widen       []Facet          // with no result: each applied value, with the count without it
}

// Dropped is a filter value that names nothing, with the values closest to it.
type Dropped struct {
	Kind    Kind
	Value   string
	Closest []Term
}

// Link is how many cases of a set carry two values together.
type Link struct {
	A, B  Term
	Count int
}

// Pages is the number of pages in the result.
func (r Result) Pages() int {
	if r.Filter.PageSize <= 0 {
		return 1
	}
	return max(1, (r.Total+r.Filter.PageSize-1)/r.Filter.PageSize)
}

// bm25 weights of the index columns id, title, summary, body, tags: a match in the title counts
// several times one deep in the text.
// The tags column holds vocabulary labels and aliases: a case tagged with what the words name
// ("DDoS", "certificate expired") gains over one that only mentions them deep in its body, but
// less than one whose title or summary is about them.
const rankExpr = `bm25(case_fts, 20.0, 8.0, 3.0, 1.0, 4.0)`

// minAllWords is how many cases having every search word are enough: with fewer, the list
// takes cases having any of the words, ranked so that those with more of them come first.
const minAllWords = 5

// selection is the set of cases a filter selects, with what the listing needs to order it.
type selection struct {
	ix     *index
	kinds  map[Kind]bitset // kind -> cases carrying any of the filter's values of that kind
	match  bitset          // cases matching the search words; nil without words
	every  bitset          // cases whose text has every search word; nil without words
	all    bitset          // every case
	filter bitset          // the vocabulary filters alone
	result bitset          // the intersection of all the above
	ranked []int32         // with search words: matching case numbers, best first
}

// setExcept is the selection without one kind's filter (for that kind's facet counts).
func (sel *selection) setExcept(skip Kind) (bitset, bool) {
	b := sel.all.clone()
	narrowed := false
	for kind, set := range sel.kinds {
		if kind != skip {
			b.and(set)
			narrowed = true
		}
	}
	if sel.match != nil {
		b.and(sel.match)
		narrowed = true
	}
	return b, narrowed
}

// selectCases evaluates a filter: vocabulary values in memory, search words with FTS5 (once for
// the set, and once more for the ranking when the list is ordered by relevance).
func (s *Store) selectCases(ctx context.Context, f Filter, words []QueryWord, sortBy string) (*selection, bool, error) {
	ix, err := s.index(ctx)
	if err != nil {
		return nil, false, err
	}
	sel := &selection{ix: ix, kinds: map[Kind]bitset{}, all: ix.all()}
	for _, kind := range FilterKinds {
		if vals := f.Values[kind]; len(vals) > 0 {
			sel.kinds[kind] = ix.kindSet(kind, vals)
		}
	}
	filtered, _ := sel.setExcept("")
	sel.filter = filtered
	anyWords := false
	if len(words) > 0 {
		// The set is the cases whose own text has the words (TextExpr); the ranking still
		// counts the tags column, so a case tagged with what the words name ranks above one that
		// only mentions them. A catalog small enough for bm25 to order every match is ranked in
		// one query and the set read from it; a large one is matched first, then ranked (rank
		// decides how much of the match to score).
		oneQuery := sortBy == SortRelevance && len(ix.order) <= maxRankAll
		match := func(anyWord bool) ([]int32, bitset, error) {
			set := SetExpr(words, anyWord)
			if oneQuery {
				ranked, err := s.ftsRanked(ctx, MatchExpr(words, anyWord))
				if err != nil {
					return nil, nil, err
				}
				nums, err := s.ftsMatch(ctx, set)
				if err != nil {
					return nil, nil, err
				}
				b := ix.matchSet(nums)
				return keepIn(ix, ranked, b), b, nil
			}
			nums, err := s.ftsMatch(ctx, set)
			return nums, ix.matchSet(nums), err
		}
		expr := MatchExpr(words, false)
		nums, all, err := match(false)
		if err != nil {
			return nil, false, err
		}
		sel.match, sel.every = all, all
		if len(words) > 1 {
			inFilter := all.clone()
			inFilter.and(filtered)
			if inFilter.count() < minAllWords {
				anyWords = true
				expr = MatchExpr(words, true)
				if nums, sel.match, err = match(true); err != nil {
					return nil, false, err
				}
			}
		}
		if sortBy == SortRelevance {
			if oneQuery {
				sel.ranked = nums
			} else if sel.ranked, err = s.rank(ctx, ix, expr, nums); err != nil {
				return nil, false, err
			} else {
				sel.ranked = keepIn(ix, sel.ranked, sel.match)
			}
			if anyWords { // cases with every word first, each group in rank order
				sort.SliceStable(sel.ranked, func(i, j int) bool {
					return all.has(ix.posOf[sel.ranked[i]]) && !all.has(ix.posOf[sel.ranked[j]])
				})
			}
		}
	}
	sel.result, _ = sel.setExcept("")
	return sel, anyWords, nil
}

// keepIn keeps the case numbers that are in set, in their order.
func keepIn(ix *index, nums []int32, set bitset) []int32 {
	out := nums[:0:0]
	for _, n := range nums {
		if p, ok := ix.posOf[n]; ok && set.has(p) {
			out = append(out, n)
		}
	}
	return out
}

// ftsMatch returns the numbers of the cases matching an FTS5 expression.
func (s *Store) ftsMatch(ctx context.Context, expr string) ([]int32, error) {
	return s.queryNums(ctx, `SELECT rowid FROM case_fts WHERE case_fts MATCH ?`, expr)
}

// maxRankAll is the most matches ranked one by one with bm25. Past it (a broad query over a
// large catalog: "database failure" matches half of 100,000 synthetic cases) only the matches in
// the id, title or summary are ranked, and the rest follow newest first: bm25 weighs those
// columns most anyway, and scoring every match would take hundreds of milliseconds.
const maxRankAll = 2000

// rank orders the matches of expr, best first.
func (s *Store) rank(ctx context.Context, ix *index, expr string, matches []int32) ([]int32, error) {
	if len(matches) <= maxRankAll {
		return s.ftsRanked(ctx, expr)
	}
	top, err := s.ftsRanked(ctx, "{id title summary} : ("+expr+")")
	if err != nil {
		return nil, err
	}
	rest := ix.matchSet(matches)
	for _, n := range top {
		if p, ok := ix.posOf[n]; ok {
			rest[p>>6] &^= 1 << (uint(p) & 63)
		}
	}
	rest.each(func(p int32) bool { // positions run newest first
		top = append(top, ix.order[p])
		return true
	})
	return top, nil
}

// ftsRanked returns the numbers of the matching cases, best match first.
func (s *Store) ftsRanked(ctx context.Context, expr string) ([]int32, error) {
	return s.queryNums(ctx, `SELECT rowid FROM case_fts WHERE case_fts MATCH ? ORDER BY `+rankExpr, expr)
}

func (s *Store) queryNums(ctx context.Context, q string, args ...any) ([]int32, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []int32
	for rows.Next() {
		var n int32
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Cases returns one page of the cases the filter selects, in lang, with facet counts.
func (s *Store) Cases(ctx context.Context, lang Lang, f Filter) (Result, error) {
	if f.PageSize <= 0 {
		f.PageSize = DefaultPageSize
	}
	if f.Page <= 0 {
		f.Page = 1
	}
	if utf8.RuneCountInString(f.Q) > MaxQueryLen {
		f.Q = string([]rune(f.Q)[:MaxQueryLen])
	}
	r := Result{Filter: f, Words: ParseQuery(f.Q)}
	r.Filter.Words = r.Words
	if r.Words == nil {
		r.Filter.Words = []QueryWord{}
	}
	if r.Filter.Sort == "" {
		r.Filter.Sort = SortNewest
		if len(r.Words) > 0 {
			r.Filter.Sort = SortRelevance
		}
	}
	if r.Filter.Sort == SortRelevance && len(r.Words) == 0 {
		r.Filter.Sort = SortNewest
	}
	sel, anyWords, err := s.selectCases(ctx, f, r.Words, r.Filter.Sort)
	if err != nil {
		return Result{}, err
	}
	r.AnyWords = anyWords
	r.Total = sel.result.count()
	if anyWords {
		every := sel.every.clone()
		every.and(sel.filter)
		r.AllWords = every.count()
	}
	if r.Filter.Page > r.Pages() { // before the cards, facets and graph are worked out
		return r, &FilterError{Param: "page", Reason: ReasonBadPage, Value: strconv.Itoa(r.Filter.Page), Limit: r.Pages(), PastEnd: true}
	}
	if r.Cards, err = s.cards(ctx, lang, sel.ix, sel.pageNums(r.Filter), r.Words); err != nil {
		return Result{}, err
	}
	r.Facets = s.facets(lang, f, sel)
	r.Spread, r.Links = s.spread(lang, sel.ix, sel.result)
	for _, t := range s.Suggest(lang, f.Q, f) {
		set := sel.ix.kindSet(t.Kind, []string{t.Slug})
		set.and(sel.filter)
		if n := set.count(); n > 0 {
			r.Suggestions = append(r.Suggestions, Facet{Term: t, Count: n})
		}
	}
	return r, nil
}

// pageNums picks the case numbers of one page of the selection in the filter's order.
func (sel *selection) pageNums(f Filter) []int32 {
	skip, take := (f.Page-1)*f.PageSize, f.PageSize
	var out []int32
	add := func(p int32) bool {
		if skip > 0 {
			skip--
			return true
		}
		out = append(out, sel.ix.order[p])
		return len(out) < take
	}
	switch {
	case f.Sort == SortRelevance && sel.ranked != nil:
		for _, n := range sel.ranked {
			if p, ok := sel.ix.posOf[n]; ok && sel.result.has(p) && !add(p) {
				break
			}
		}
	case f.Sort == SortOldest:
		for p := int32(len(sel.ix.order) - 1); p >= 0; p-- {
			if sel.result.has(p) && !add(p) {
				break
			}
		}
	default: // positions run newest first
		sel.result.each(add)
	}
	return out
}

// cards reads the text of the given cases, in that order, with their tags from the index.
func (s *Store) cards(ctx context.Context, lang Lang, ix *index, nums []int32, words []QueryWord) ([]Card, error) {
	if len(nums) == 0 {
		return nil, nil
	}
	args := []any{lang}
	for _, n := range nums {
		args = append(args, n)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.num, c.id, c.org, c.date, c.zone, t.title, t.headline, t.summary, t.text
		FROM cases c JOIN case_text t ON t.num = c.num AND t.lang = ? WHERE c.num IN (`+placeholders(len(nums))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("list cases: %w", err)
	}
	defer rows.Close()
	byNum := map[int32]Card{}
	for rows.Next() {
		var num int32
		var org, text string
		var c Card
		if err := rows.Scan(&num, &c.ID, &org, &c.Date, &c.Zone, &c.Title, &c.Headline, &c.Summary, &text); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(text), &c.Text); err != nil {
			return nil, fmt.Errorf("case %s text: %w", c.ID, err)
		}
		c.Org = s.Term(lang, KindOrg, org)
		c.Lines = cardLines(&c.Text, words)
		if len(words) > 0 {
			for _, text := range []string{c.Summary, c.Text.Symptoms, c.Text.Trigger, c.Title} {
				if c.Snippet = Highlight(text, words, 180); c.Snippet != nil {
					break
				}
			}
		}
		c.Tags = s.valuesOf(lang, ix, ix.posOf[num])
		byNum[num] = c
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]Card, 0, len(nums))
	for _, n := range nums {
		if c, ok := byNum[n]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// facets counts, for every kind, the cases each value would give together with the filters of
// the other kinds. Values with no case are kept (count 0) when they are applied.
func (s *Store) facets(lang Lang, f Filter, sel *selection) map[Kind][]Facet {
	out := map[Kind][]Facet{}
	var shared map[int]int // without any filter value every kind is counted over the same set
	if len(sel.kinds) == 0 && sel.match != nil {
		all := map[Kind]bool{}
		for _, k := range FilterKinds {
			all[k] = true
		}
		shared = sel.ix.count(sel.match, all)
	}
	for _, kind := range FilterKinds {
		counts := map[string]int{}
		switch set, narrowed := sel.setExcept(kind); {
		case shared != nil:
			for _, id := range sel.ix.kindOf[kind] {
				counts[sel.ix.terms[id].slug] = shared[id]
			}
		case !narrowed:
			for _, id := range sel.ix.kindOf[kind] {
				counts[sel.ix.terms[id].slug] = len(sel.ix.byTerm[id])
			}
		default:
			for id, n := range sel.ix.count(set, map[Kind]bool{kind: true}) {
				counts[sel.ix.terms[id].slug] = n
			}
		}
		for _, t := range s.Values(lang, kind) {
			if counts[t.Slug] > 0 || f.Has(kind, t.Slug) {
				out[kind] = append(out[kind], Facet{Term: t, Count: counts[t.Slug]})
			}
		}
	}
	return out
}

var vocabKindSet = func() map[Kind]bool {
	m := map[Kind]bool{}
	for _, k := range VocabKinds {
		m[k] = true
	}
	return m
}()

// spread counts the vocabulary values inside a set of cases, and how often two values occur in
// the same case, for the summary and the small graph of the set.
func (s *Store) spread(lang Lang, ix *index, set bitset) (map[Kind][]Facet, []Link) {
	out := map[Kind][]Facet{}
	for id, n := range ix.count(set, vocabKindSet) {
		k := ix.terms[id]
		out[k.kind] = append(out[k.kind], Facet{Term: s.Term(lang, k.kind, k.slug), Count: n})
	}
	for _, fs := range out {
		sort.SliceStable(fs, func(i, j int) bool {
			if fs[i].Count != fs[j].Count {
				return fs[i].Count > fs[j].Count
			}
			return fs[i].Label < fs[j].Label
		})
	}
	var links []Link
	for pair, n := range ix.pairs(set) {
		a, b := ix.terms[pair[0]], ix.terms[pair[1]]
		links = append(links, Link{A: s.Term(lang, a.kind, a.slug), B: s.Term(lang, b.kind, b.slug), Count: n})
	}
	sort.Slice(links, func(i, j int) bool {
		if links[i].Count != links[j].Count {
			return links[i].Count > links[j].Count
		}
		if links[i].A.Slug != links[j].A.Slug {
			return links[i].A.Slug < links[j].A.Slug
		}
		return links[i].B.Slug < links[j].B.Slug
	})
	if len(links) > maxLinks {
		links = links[:maxLinks]
	}
	return out, links
}

// maxLinks bounds the value pairs returned for a graph, strongest first.
const maxLinks = 400

// Suggest finds vocabulary values and organizations that the search words name by label or
// alias, in either language, leaving out those already applied.
func (s *Store) Suggest(lang Lang, q string, applied Filter) []Term {
	words := ParseQuery(q)
	if len(words) == 0 {
		return nil
	}
	norm := " " + normWords(q) + " "
	var stems []string
	for _, w := range words {
		stems = append(stems, w.Stem)
	}
	stemmed := " " + strings.Join(stems, " ") + " "
	var out []Term
	for _, kind := range TopicKinds {
		for _, slug := range s.order[kind] {
			t := s.terms[termKey{kind, slug}]
			if applied.Has(kind, slug) || !t.hasCases {
				continue
			}
			names := append(nameParts(t.label[0], t.label[1]), slug, strings.ReplaceAll(slug, "-", " "))
			names = append(names, t.aliases...)
			for _, name := range names {
				n := normWords(name)
				if n == "" {
					continue
				}
				if strings.Contains(norm, " "+n+" ") || strings.Contains(stemmed, " "+n+" ") {
					out = append(out, s.Term(lang, kind, slug))
					break
				}
			}
		}
	}
	return out
}

// nameParts is each label whole and, for a label such as "토스(비바리퍼블리카)" or "Dunamu
// (Upbit)", the names inside and outside its parentheses: a reader types either.
func nameParts(labels ...string) []string {
	var out []string
	for _, l := range labels {
		out = append(out, l)
		if outside, inside, ok := strings.Cut(l, "("); ok {
			out = append(out, strings.TrimSpace(outside), strings.TrimSpace(strings.TrimSuffix(inside, ")")))
		}
	}
	return out
}

// normWords lowercases s and keeps its words separated by single spaces.
func normWords(s string) string {
	var parts []string
	for _, r := range runs(s) {
		parts = append(parts, strings.ToLower(r.text))
	}
	return strings.Join(parts, " ")
}

// YearCount is the number of cases in one year.
type YearCount struct {
	Year   int
	Count  int
	Before bool `json:",omitempty"` // the cases of Year and every earlier year, grouped
}

// chartYears is how many single years a topic's chart shows; earlier ones are grouped.
const chartYears = 12

// Topic is one value of a kind with its cases and what occurs with it.
type Topic struct {
	Term
	Definition string
	Count      int
	Related    map[Kind][]Facet // kind -> values co-occurring in the topic's cases, most first
	Years      []YearCount      // cases per year, oldest first, every year in the range
	Cards      []Card           // one page, newest first
	Page       int
	PageSize   int
	Links      []Link
}

// Pages is the number of pages of a topic's cases.
func (t Topic) Pages() int { return max(1, (t.Count+t.PageSize-1)/max(t.PageSize, 1)) }

// MaxTopicCards is how many of a topic's cases its page lists, newest first; the filtered
// listing has the rest.
const MaxTopicCards = 100

// Topic returns a value of a kind (cause, symptom, component, factor, org) with its newest
// MaxTopicCards cases.
func (s *Store) Topic(ctx context.Context, lang Lang, kind Kind, slug string) (Topic, error) {
	return s.TopicPage(ctx, lang, kind, slug, 1, MaxTopicCards)
}

// TopicPage returns a value of a kind with one page of its cases, newest first. A page past
// the end has no cards.
func (s *Store) TopicPage(ctx context.Context, lang Lang, kind Kind, slug string, page, size int) (Topic, error) {
	if kind == KindYear || !s.Known(kind, slug) {
		return Topic{}, fmt.Errorf("%s %q: %w", kind, slug, ErrNotFound)
	}
	ix, err := s.index(ctx)
	if err != nil {
		return Topic{}, err
	}
	t := Topic{Term: s.Term(lang, kind, slug), Definition: s.Definition(lang, kind, slug), Related: map[Kind][]Facet{}, Page: max(page, 1), PageSize: size}
	set := ix.kindSet(kind, []string{slug})
	t.Count = set.count()
	var nums []int32
	years := map[int]int{}
	minY, maxY := 0, 0
	skip := (max(page, 1) - 1) * size
	set.each(func(p int32) bool {
		if skip > 0 {
			skip--
		} else if len(nums) < size {
			nums = append(nums, ix.order[p])
		}
		y := ix.year(p)
		years[y]++
		if minY == 0 || y < minY {
			minY = y
		}
		maxY = max(maxY, y)
		return true
	})
	if t.Cards, err = s.cards(ctx, lang, ix, nums, nil); err != nil {
		return Topic{}, err
	}
	spread, links := s.spread(lang, ix, set)
	t.Links = links
	for k, fs := range spread {
		for _, x := range fs {
			if !(k == kind && x.Slug == slug) {
				t.Related[k] = append(t.Related[k], x)
			}
		}
	}
	if kind != KindOrg {
		for id, n := range ix.count(set, map[Kind]bool{KindOrg: true}) {
			t.Related[KindOrg] = append(t.Related[KindOrg], Facet{Term: s.Term(lang, KindOrg, ix.terms[id].slug), Count: n})
		}
		orgs := t.Related[KindOrg]
		sort.Slice(orgs, func(i, j int) bool {
			if orgs[i].Count != orgs[j].Count {
				return orgs[i].Count > orgs[j].Count
			}
			return orgs[i].Slug < orgs[j].Slug
		})
	}
	if minY > 0 {
		// From the first year with cases; a long tail of early years is one "before" column, so
		// a single case from 1985 does not stretch the chart over decades.
		first := minY
		if maxY-minY >= chartYears {
			first = maxY - chartYears + 1
			n := 0
			for y := minY; y < first; y++ {
				n += years[y]
			}
			if n > 0 {
				t.Years = append(t.Years, YearCount{Year: first - 1, Count: n, Before: true})
			}
		}
		for y := first; y <= maxY; y++ {
			t.Years = append(t.Years, YearCount{Year: y, Count: years[y]})
		}
	}
	return t, nil
}

// Graph returns the values of the cases a filter selects and how often they occur together.
func (s *Store) Graph(ctx context.Context, lang Lang, f Filter) (map[Kind][]Facet, []Link, int, error) {
	sel, _, err := s.selectCases(ctx, f, ParseQuery(f.Q), SortNewest)
	if err != nil {
		return nil, nil, 0, err
	}
	spread, links := s.spread(lang, sel.ix, sel.result)
	return spread, links, sel.result.count(), nil
}

// Closest returns up to n values of kind whose slug or label (in either language) is nearest
// to what was typed, for "did you mean": the nearest first, only those within a few edits.
func (s *Store) Closest(lang Lang, kind Kind, typed string, n int) []Term {
	typed = strings.ToLower(strings.TrimSpace(typed))
	n0 := utf8.RuneCountInString(typed)
	if typed == "" || n0 > maxSuggestRunes {
		return nil // longer than any name could be: nothing is within a few edits
	}
	type scored struct {
		t Term
		d int
	}
	var cands []scored
	consider := func(slug string, names ...string) {
		best := -1
		limit := max(2, n0/3)
		for _, name := range names {
			name = strings.ToLower(name)
			if n := utf8.RuneCountInString(name); n < n0-limit || n > n0+limit && !strings.HasPrefix(name, typed) {
				continue // lengths alone put it further than the limit
			}
			d := editDistance(typed, name)
			if strings.HasPrefix(name, typed) && len([]rune(typed)) >= 3 {
				d = min(d, 1)
			}
			if best < 0 || d < best {
				best = d
			}
		}
		if best >= 0 && best <= limit {
			cands = append(cands, scored{s.Term(lang, kind, slug), best})
		}
	}
	if kind == KindYear {
		for _, y := range s.years {
			consider(y, y)
		}
	} else {
		for _, slug := range s.order[kind] {
			t := s.terms[termKey{kind, slug}]
			if kind == KindOrg && !t.hasCases {
				continue
			}
			consider(slug, append([]string{slug, t.label[0], t.label[1]}, t.aliases...)...)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	var out []Term
	for _, c := range cands {
		if len(out) == n {
			break
		}
		out = append(out, c.t)
	}
	return out
}

// maxSuggestRunes is the longest typed value "did you mean" looks at: longer than any slug,
// label or alias, so a longer one cannot be a few edits from a name, and the edit distance of a
// huge value is never worked out.
const maxSuggestRunes = 80

// editDistance is the Levenshtein distance between two strings, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// cardLineWidth is about how many characters a card line shows.
const cardLineWidth = 150

// cardLines cuts the trigger, the detection and the first remediation step to a line each,
// around the search words when they appear there.
func cardLines(t *Text, words []QueryWord) []Line {
	var out []Line
	for _, key := range []string{"trigger", "detection", "remediation"} {
		var text string
		for _, f := range Fields {
			if f.Key == key {
				if v := f.Values(t); len(v) > 0 {
					text = v[0]
				}
			}
		}
		if text == "" {
			continue
		}
		spans := Highlight(text, words, cardLineWidth)
		if spans == nil {
			spans = []Span{{Text: Clip(text, cardLineWidth)}}
		}
		out = append(out, Line{Key: key, Spans: spans})
	}
	return out
}

// Neighbour is the case before or after another in a listing's order.
type Neighbour struct {
	ID    string
	Title string // the headline, or the title when the case has none
}

// Around returns the cases just before (newer, in the default order) and after a case in the
// order of the listing f selects, so a reader can walk a result list case by case. It reports
// false when the case is not in the listing.
func (s *Store) Around(ctx context.Context, lang Lang, f Filter, id string) (prev, next Neighbour, ok bool, err error) {
	r := Result{Filter: f, Words: ParseQuery(f.Q)}
	sortBy := f.Sort
	if sortBy == "" || sortBy == SortRelevance && len(r.Words) == 0 {
		sortBy = SortNewest
		if len(r.Words) > 0 && f.Sort == "" {
			sortBy = SortRelevance
		}
	}
	sel, _, err := s.selectCases(ctx, f, r.Words, sortBy)
	if err != nil {
		return prev, next, false, err
	}
	all := sel.pageNums(Filter{Sort: sortBy, Page: 1, PageSize: sel.result.count() + 1})
	want := int32(0)
	if n, perr := strconv.Atoi(strings.TrimPrefix(id, "IL-")); perr == nil {
		want = int32(n)
	}
	for i, n := range all {
		if n != want {
			continue
		}
		var nums []int32
		if i > 0 {
			nums = append(nums, all[i-1])
		}
		if i+1 < len(all) {
			nums = append(nums, all[i+1])
		}
		cards, err := s.cards(ctx, lang, sel.ix, nums, nil)
		if err != nil {
			return prev, next, false, err
		}
		byNum := map[string]Neighbour{}
		for _, c := range cards {
			byNum[c.ID] = Neighbour{ID: c.ID, Title: cmp.Or(c.Headline, c.Title)}
		}
		if i > 0 {
			prev = byNum[fmt.Sprintf("IL-%04d", all[i-1])]
		}
		if i+1 < len(all) {
			next = byNum[fmt.Sprintf("IL-%04d", all[i+1])]
		}
		return prev, next, true, nil
	}
	return prev, next, false, nil
}

// MatchVocab finds the values of the given kinds that words name, in vocabulary order: by a
// whole label or alias, as Suggest finds them, or by the beginning of a word of a label, alias
// or slug in either language. Without words it lists every value.
func (s *Store) MatchVocab(lang Lang, words string, kinds []Kind) []VocabEntry {
	other := lang.Other()
	named := map[termKey]bool{}
	for _, v := range s.Suggest(lang, words, Filter{}) {
		named[termKey{v.Kind, v.Slug}] = true
	}
	query := ParseQuery(words)
	vocab := s.Vocab(lang)
	var out []VocabEntry
	for _, kind := range kinds {
		for _, v := range vocab[kind] {
			key := termKey{kind, v.Slug}
			names := append([]string{v.Label, s.terms[key].label[li(other)], strings.ReplaceAll(v.Slug, "-", " ")}, v.Aliases...)
			if words == "" || named[key] || beginsWord(query, names) {
				out = append(out, v)
			}
		}
	}
	return out
}

// beginsWord reports whether a word of the query begins a word of one of the names: "cert" finds
// "certificate", "재시" finds "재시도". Shorter words (one Hangul syllable, two letters) are left
// out: they begin too many.
func beginsWord(query []QueryWord, names []string) bool {
	for _, w := range query {
		if n := utf8.RuneCountInString(w.Stem); n < 2 || (!w.Hangul && n < 3) {
			continue
		}
		for _, name := range names {
			for _, nw := range ParseQuery(name) {
				if strings.HasPrefix(nw.Raw, w.Raw) || strings.HasPrefix(nw.Raw, w.Stem) {
					return true
				}
			}
		}
	}
	return false
}
