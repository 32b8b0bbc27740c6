package catalog

import (
	"context"
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
	Values   map[string][]string // kind -> slugs, for the kinds in FilterKinds
	Sort     string              // SortNewest, SortOldest, SortRelevance; empty picks the default
	Page     int                 // from 1
	PageSize int
}

// Has reports whether the filter selects slug of kind.
func (f Filter) Has(kind, slug string) bool {
	for _, v := range f.Values[kind] {
		if v == slug {
			return true
		}
	}
	return false
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
	AnyWords    bool // no case had every word; the list holds cases with any of them
	Total       int
	Cards       []Card
	Facets      map[string][]Facet // kind -> values with counts under the other kinds' filters
	Spread      map[string][]Facet // kind -> values with counts in this result set, most first
	Links       []Link             // co-occurrences of values in this result set, for its graph
	Suggestions []Term             // vocabulary values named by the search words, not yet applied
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

// where builds the WHERE clause of a filter over cases c, leaving out one kind (for facets).
func (f Filter) where(skip string, match string) (string, []any) {
	var parts []string
	var args []any
	for _, kind := range FilterKinds {
		vals := f.Values[kind]
		if kind == skip || len(vals) == 0 {
			continue
		}
		parts = append(parts, `c.num IN (SELECT num FROM tags WHERE kind = ? AND slug IN (`+placeholders(len(vals))+`))`)
		args = append(args, kind)
		for _, v := range vals {
			args = append(args, v)
		}
	}
	if match != "" {
		parts = append(parts, `c.num IN (SELECT rowid FROM case_fts WHERE case_fts MATCH ?)`)
		args = append(args, match)
	}
	if len(parts) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(parts, " AND "), args
}

// bm25 weights of the index columns id, title, summary, body, tags: a match in the title counts
// several times one deep in the text.
// The tags column holds vocabulary labels and aliases: it helps recall but weighs least, so a
// case whose text is about the words outranks one that only carries a matching tag.
const rankExpr = `bm25(case_fts, 20.0, 8.0, 3.0, 1.0, 0.5)`

// minAllWords is how many cases having every search word are enough: with fewer, the list
// takes cases having any of the words, ranked so that those with more of them come first.
const minAllWords = 5

// Cases returns one page of the cases the filter selects, in lang, with facet counts.
func (s *Store) Cases(ctx context.Context, lang string, f Filter) (Result, error) {
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
	if r.Filter.Sort == "" {
		r.Filter.Sort = SortNewest
		if len(r.Words) > 0 {
			r.Filter.Sort = SortRelevance
		}
	}
	if r.Filter.Sort == SortRelevance && len(r.Words) == 0 {
		r.Filter.Sort = SortNewest
	}
	match := ""
	if len(r.Words) > 0 {
		match = MatchExpr(r.Words, false)
		n, err := s.count(ctx, f, match)
		if err != nil {
			return Result{}, err
		}
		if n < minAllWords && len(r.Words) > 1 {
			match, r.AnyWords = MatchExpr(r.Words, true), true
		}
	}
	var err error
	if r.Total, err = s.count(ctx, f, match); err != nil {
		return Result{}, err
	}
	allMatch := ""
	if r.AnyWords {
		allMatch = MatchExpr(r.Words, false)
	}
	if r.Cards, err = s.page(ctx, lang, r.Filter, match, allMatch, r.Words); err != nil {
		return Result{}, err
	}
	if r.Facets, err = s.facets(ctx, lang, f, match); err != nil {
		return Result{}, err
	}
	if r.Spread, r.Links, err = s.spread(ctx, lang, f, match); err != nil {
		return Result{}, err
	}
	r.Suggestions = s.Suggest(lang, f.Q, f)
	return r, nil
}

func (s *Store) count(ctx context.Context, f Filter, match string) (int, error) {
	where, args := f.where("", match)
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM cases c`+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count cases: %w", err)
	}
	return n, nil
}

func (s *Store) page(ctx context.Context, lang string, f Filter, match, allMatch string, words []QueryWord) ([]Card, error) {
	where, whereArgs := f.where("", match)
	var args []any
	from := `cases c`
	order := `c.date DESC, c.num DESC`
	switch f.Sort {
	case SortOldest:
		order = `c.date, c.num`
	case SortRelevance:
		from = `cases c JOIN (SELECT rowid, ` + rankExpr + ` AS rank FROM case_fts WHERE case_fts MATCH ?) m ON m.rowid = c.num`
		args = append(args, match)
		order = `m.rank, c.date DESC`
		if allMatch != "" {
			// cases with every word come before cases with only some of them
			order = `c.num IN (SELECT rowid FROM case_fts WHERE case_fts MATCH ?) DESC, ` + order
		}
	}
	q := `SELECT c.num, c.id, c.org, c.date, t.title, t.summary, t.symptoms, t.trigger
		FROM ` + from + ` JOIN case_text t ON t.num = c.num AND t.lang = ?` + where + ` ORDER BY ` + order + ` LIMIT ? OFFSET ?`
	args = append(args, lang)
	args = append(args, whereArgs...)
	if f.Sort == SortRelevance && allMatch != "" {
		args = append(args, allMatch)
	}
	full := append(args, f.PageSize, (f.Page-1)*f.PageSize)
	rows, err := s.db.QueryContext(ctx, q, full...)
	if err != nil {
		return nil, fmt.Errorf("list cases: %w", err)
	}
	defer rows.Close()
	var cards []Card
	var nums []int
	for rows.Next() {
		var num int
		var org, symptoms, trigger string
		var c Card
		if err := rows.Scan(&num, &c.ID, &org, &c.Date, &c.Title, &c.Summary, &symptoms, &trigger); err != nil {
			return nil, err
		}
		c.Org = s.Term(lang, KindOrg, org)
		if len(words) > 0 {
			for _, text := range []string{c.Summary, symptoms, trigger, c.Title} {
				if c.Snippet = Highlight(text, words, 180); c.Snippet != nil {
					break
				}
			}
		}
		cards = append(cards, c)
		nums = append(nums, num)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tags, err := s.tagsOf(ctx, lang, nums)
	if err != nil {
		return nil, err
	}
	for i := range cards {
		cards[i].Tags = tags[nums[i]]
	}
	return cards, nil
}

// facets counts, for every kind, the cases each value would give together with the filters of
// the other kinds. Values with no case are kept (count 0) when they are applied.
func (s *Store) facets(ctx context.Context, lang string, f Filter, match string) (map[string][]Facet, error) {
	out := map[string][]Facet{}
	for _, kind := range FilterKinds {
		where, args := f.where(kind, match)
		q := `SELECT g.slug, count(*) FROM tags g WHERE g.kind = ?`
		a := []any{kind}
		if where != "" {
			q += ` AND g.num IN (SELECT c.num FROM cases c` + where + `)`
			a = append(a, args...)
		}
		rows, err := s.db.QueryContext(ctx, q+` GROUP BY g.slug`, a...)
		if err != nil {
			return nil, fmt.Errorf("facets %s: %w", kind, err)
		}
		counts := map[string]int{}
		for rows.Next() {
			var slug string
			var n int
			if err := rows.Scan(&slug, &n); err != nil {
				rows.Close()
				return nil, err
			}
			counts[slug] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for _, t := range s.Values(lang, kind) {
			if counts[t.Slug] > 0 || f.Has(kind, t.Slug) {
				out[kind] = append(out[kind], Facet{Term: t, Count: counts[t.Slug]})
			}
		}
	}
	return out, nil
}

// spread counts the vocabulary values inside the result set, and how often two values occur in
// the same case, for the summary and the small graph of the set.
func (s *Store) spread(ctx context.Context, lang string, f Filter, match string) (map[string][]Facet, []Link, error) {
	where, args := f.where("", match)
	sub := `SELECT c.num FROM cases c` + where
	rows, err := s.db.QueryContext(ctx, `SELECT kind, slug, count(*) FROM tags WHERE kind IN ('cause','symptom','component','factor')
		AND num IN (`+sub+`) GROUP BY kind, slug`, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("spread: %w", err)
	}
	out := map[string][]Facet{}
	for rows.Next() {
		var kind, slug string
		var n int
		if err := rows.Scan(&kind, &slug, &n); err != nil {
			rows.Close()
			return nil, nil, err
		}
		out[kind] = append(out[kind], Facet{Term: s.Term(lang, kind, slug), Count: n})
	}
	rows.Close()
	for _, fs := range out {
		sort.SliceStable(fs, func(i, j int) bool {
			if fs[i].Count != fs[j].Count {
				return fs[i].Count > fs[j].Count
			}
			return fs[i].Label < fs[j].Label
		})
	}
	links, err := s.links(ctx, lang, sub, args)
	return out, links, err
}

// links counts pairs of values (cause, component, symptom, factor) that occur in the same case
// of a set given as a subquery of case numbers.
func (s *Store) links(ctx context.Context, lang, sub string, args []any) ([]Link, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT a.kind, a.slug, b.kind, b.slug, count(*) AS n
		FROM tags a JOIN tags b ON a.num = b.num AND (a.kind < b.kind OR (a.kind = b.kind AND a.slug < b.slug))
		WHERE a.kind IN ('cause','symptom','component','factor') AND b.kind IN ('cause','symptom','component','factor')
		AND a.num IN (`+sub+`) GROUP BY 1, 2, 3, 4 ORDER BY n DESC LIMIT 400`, args...)
	if err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	defer rows.Close()
	var out []Link
	for rows.Next() {
		var ak, as, bk, bs string
		var l Link
		if err := rows.Scan(&ak, &as, &bk, &bs, &l.Count); err != nil {
			return nil, err
		}
		l.A, l.B = s.Term(lang, ak, as), s.Term(lang, bk, bs)
		out = append(out, l)
	}
	return out, rows.Err()
}

// Suggest finds vocabulary values and organizations that the search words name by label or
// alias, in either language, leaving out those already applied.
func (s *Store) Suggest(lang, q string, applied Filter) []Term {
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
	for _, kind := range append(append([]string{}, VocabKinds...), KindOrg) {
		for _, slug := range s.order[kind] {
			t := s.terms[kind+"/"+slug]
			if applied.Has(kind, slug) || !t.hasCases {
				continue
			}
			names := append([]string{t.label[0], t.label[1], slug, strings.ReplaceAll(slug, "-", " ")}, t.aliases...)
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
	Year  int
	Count int
}

// Topic is one value of a kind with its cases and what occurs with it.
type Topic struct {
	Term
	Definition string
	Count      int
	Related    map[string][]Facet // kind -> values co-occurring in the topic's cases, most first
	Years      []YearCount        // cases per year, oldest first, every year in the range
	Resolve    []Facet            // median time to resolve in minutes per main cause, where known
	Cards      []Card             // newest first
	Links      []Link
}

// Topic returns a value of a kind (cause, symptom, component, factor, org) with its cases.
func (s *Store) Topic(ctx context.Context, lang, kind, slug string) (Topic, error) {
	if kind == KindYear || !s.Known(kind, slug) {
		return Topic{}, fmt.Errorf("%s %q: %w", kind, slug, ErrNotFound)
	}
	t := Topic{Term: s.Term(lang, kind, slug), Definition: s.Definition(lang, kind, slug), Related: map[string][]Facet{}}
	f := Filter{Values: map[string][]string{kind: {slug}}, Sort: SortNewest, Page: 1, PageSize: 1000}
	var err error
	if t.Cards, err = s.page(ctx, lang, f, "", "", nil); err != nil {
		return Topic{}, err
	}
	t.Count = len(t.Cards)
	spread, links, err := s.spread(ctx, lang, f, "")
	if err != nil {
		return Topic{}, err
	}
	t.Links = links
	for k, fs := range spread {
		for _, x := range fs {
			if !(k == kind && x.Slug == slug) {
				t.Related[k] = append(t.Related[k], x)
			}
		}
	}
	if kind != KindOrg {
		rows, err := s.db.QueryContext(ctx, `SELECT c.org, count(*) n FROM cases c JOIN tags g ON g.num = c.num
			WHERE g.kind = ? AND g.slug = ? GROUP BY c.org ORDER BY n DESC, c.org`, kind, slug)
		if err != nil {
			return Topic{}, fmt.Errorf("topic orgs: %w", err)
		}
		for rows.Next() {
			var org string
			var n int
			if err := rows.Scan(&org, &n); err != nil {
				rows.Close()
				return Topic{}, err
			}
			t.Related[KindOrg] = append(t.Related[KindOrg], Facet{Term: s.Term(lang, KindOrg, org), Count: n})
		}
		rows.Close()
	}
	years := map[int]int{}
	minY, maxY := 0, 0
	for _, c := range t.Cards {
		y, _ := strconv.Atoi(c.Date[:4])
		years[y]++
		if minY == 0 || y < minY {
			minY = y
		}
		if y > maxY {
			maxY = y
		}
	}
	if minY > 0 && maxY-minY > 60 { // a very old case would stretch the chart: show years with cases only
		for y := minY; y <= maxY; y++ {
			if years[y] > 0 {
				t.Years = append(t.Years, YearCount{y, years[y]})
			}
		}
	} else if minY > 0 {
		for y := minY; y <= maxY; y++ {
			t.Years = append(t.Years, YearCount{y, years[y]})
		}
	}
	t.Resolve, err = s.resolveByCause(ctx, lang, kind, slug)
	return t, err
}

// resolveByCause returns the median time to resolve, in minutes, of the topic's cases grouped by
// their main cause, for the cases where it is known.
func (s *Store) resolveByCause(ctx context.Context, lang, kind, slug string) ([]Facet, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.slug, c.time_to_resolve FROM cases c
		JOIN tags m ON m.num = c.num AND m.kind = 'cause' AND m.pos = 0
		JOIN tags g ON g.num = c.num AND g.kind = ? AND g.slug = ?
		WHERE c.time_to_resolve IS NOT NULL ORDER BY m.slug, c.time_to_resolve`, kind, slug)
	if err != nil {
		return nil, fmt.Errorf("resolve by cause: %w", err)
	}
	defer rows.Close()
	by := map[string][]int{}
	var order []string
	for rows.Next() {
		var cause string
		var m int
		if err := rows.Scan(&cause, &m); err != nil {
			return nil, err
		}
		if by[cause] == nil {
			order = append(order, cause)
		}
		by[cause] = append(by[cause], m)
	}
	var out []Facet
	for _, cause := range order {
		v := by[cause]
		out = append(out, Facet{Term: s.Term(lang, KindCause, cause), Count: v[len(v)/2]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out, rows.Err()
}

// Graph returns the values of the cases a filter selects and how often they occur together.
func (s *Store) Graph(ctx context.Context, lang string, f Filter) (map[string][]Facet, []Link, int, error) {
	match := ""
	if words := ParseQuery(f.Q); len(words) > 0 {
		match = MatchExpr(words, false)
	}
	n, err := s.count(ctx, f, match)
	if err != nil {
		return nil, nil, 0, err
	}
	spread, links, err := s.spread(ctx, lang, f, match)
	return spread, links, n, err
}
