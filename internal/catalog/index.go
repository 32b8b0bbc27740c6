package catalog

import (
	"context"
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"sync"
)

// The catalog never changes while the server runs, so the tags of every case are held in
// memory as small integers: filters become bitsets, and facet counts, the spread of a result
// set and the pairs for its graph are counted in one pass in Go instead of one SQL query each
// (at 100,000 cases the SQL self-join for the graph alone took seconds). About 2.5 bytes per tag.

// index is the in-memory form of the tags table.
type index struct {
	order   []int32         // case numbers, newest first (date DESC, num DESC)
	posOf   map[int32]int32 // case number -> position in order
	dates   []string        // by position
	resolve []int32         // by position: time to resolve in minutes, -1 when unknown
	tags    [][]uint16      // by position: term ids, in display order
	byTerm  [][]int32       // term id -> positions, ascending
	terms   []termKey       // term id -> kind and slug
	kinds   []uint8         // term id -> kindRank of its kind
	idOf    map[termKey]int // kind and slug -> term id
	kindOf  map[Kind][]int  // kind -> term ids
}

type termKey struct {
	kind Kind
	slug string
}

// bitset is a set of positions.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int32)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) has(i int32) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b bitset) and(o bitset) {
	for i := range b {
		b[i] &= o[i]
	}
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

func (b bitset) clone() bitset { return append(bitset(nil), b...) }

// each calls fn for every position in the set, in ascending order, until fn returns false.
func (b bitset) each(fn func(int32) bool) {
	for wi, w := range b {
		for w != 0 {
			i := int32(wi*64 + bits.TrailingZeros64(w))
			if !fn(i) {
				return
			}
			w &= w - 1
		}
	}
}

// kindRank is a kind's place in Kinds.
var kindRank = func() map[Kind]int {
	m := map[Kind]int{}
	for i, d := range Kinds {
		m[d.Kind] = i
	}
	return m
}()

// loadIndex reads the tags of every case.
func loadIndex(ctx context.Context, s *Store) (*index, error) {
	ix := &index{posOf: map[int32]int32{}, idOf: map[termKey]int{}, kindOf: map[Kind][]int{}}
	rows, err := s.db.QueryContext(ctx, `SELECT num, date, coalesce(time_to_resolve, -1) FROM cases ORDER BY date DESC, num DESC`)
	if err != nil {
		return nil, fmt.Errorf("index cases: %w", err)
	}
	for rows.Next() {
		var num, ttr int32
		var date string
		if err := rows.Scan(&num, &date, &ttr); err != nil {
			rows.Close()
			return nil, err
		}
		ix.posOf[num] = int32(len(ix.order))
		ix.order = append(ix.order, num)
		ix.dates = append(ix.dates, date)
		ix.resolve = append(ix.resolve, ttr)
	}
	rows.Close()
	ix.tags = make([][]uint16, len(ix.order))
	rows, err = s.db.QueryContext(ctx, `SELECT num, kind, slug, pos FROM tags`)
	if err != nil {
		return nil, fmt.Errorf("index tags: %w", err)
	}
	defer rows.Close()
	type tagRow struct {
		pos  int32
		term int
	}
	var all []tagRow
	var kind Kind
	var slug string
	var num int32
	var tagPos int
	order := map[[2]int32]int{} // display order of a case's tags within a kind
	for rows.Next() {
		if err := rows.Scan(&num, &kind, &slug, &tagPos); err != nil {
			return nil, err
		}
		k := termKey{kind, slug}
		id, ok := ix.idOf[k]
		if !ok {
			id = len(ix.terms)
			ix.idOf[k] = id
			ix.terms = append(ix.terms, k)
			ix.kinds = append(ix.kinds, uint8(kindRank[kind]))
			ix.kindOf[kind] = append(ix.kindOf[kind], id)
		}
		all = append(all, tagRow{ix.posOf[num], id})
		order[[2]int32{ix.posOf[num], int32(id)}] = tagPos
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ix.byTerm = make([][]int32, len(ix.terms))
	for _, t := range all {
		ix.tags[t.pos] = append(ix.tags[t.pos], uint16(t.term))
		ix.byTerm[t.term] = append(ix.byTerm[t.term], t.pos)
	}
	for _, l := range ix.byTerm {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	}
	// display order of a case's tags: cause, symptom, component, factor, each in the author's order
	for ci, ts := range ix.tags {
		sort.Slice(ts, func(i, j int) bool {
			a, b := ix.terms[ts[i]], ix.terms[ts[j]]
			if kindRank[a.kind] != kindRank[b.kind] {
				return kindRank[a.kind] < kindRank[b.kind]
			}
			return order[[2]int32{int32(ci), int32(ts[i])}] < order[[2]int32{int32(ci), int32(ts[j])}]
		})
	}
	return ix, nil
}

// indexOnce loads the index on first use, so that opening a large catalog stays fast.
type indexOnce struct {
	once sync.Once
	ix   *index
	err  error
}

func (s *Store) index(ctx context.Context) (*index, error) {
	s.ix.once.Do(func() {
		s.ix.ix, s.ix.err = loadIndex(context.WithoutCancel(ctx), s)
		close(s.ixDone)
	})
	return s.ix.ix, s.ix.err
}

// all returns the set of every case.
func (ix *index) all() bitset {
	b := newBitset(len(ix.order))
	for i := range ix.order {
		b.set(int32(i))
	}
	return b
}

// valuesOf are the taxonomy values of the case at position pos, in display order (by kind in
// the order of Kinds, each kind in the author's order), labelled in lang.
func (s *Store) valuesOf(lang Lang, ix *index, pos int32) []Term {
	var out []Term
	for _, t := range ix.tags[pos] {
		if k := ix.terms[t]; vocabKindSet[k.kind] {
			out = append(out, s.Term(lang, k.kind, k.slug))
		}
	}
	return out
}

// kindSet is the set of cases carrying any of the values of one kind.
func (ix *index) kindSet(kind Kind, slugs []string) bitset {
	b := newBitset(len(ix.order))
	for _, slug := range slugs {
		if id, ok := ix.idOf[termKey{kind, slug}]; ok {
			for _, p := range ix.byTerm[id] {
				b.set(p)
			}
		}
	}
	return b
}

// matchSet turns full-text matches (case numbers) into a set.
func (ix *index) matchSet(nums []int32) bitset {
	b := newBitset(len(ix.order))
	for _, n := range nums {
		if p, ok := ix.posOf[n]; ok {
			b.set(p)
		}
	}
	return b
}

// count tallies the terms of the given kinds over a set of cases.
func (ix *index) count(set bitset, kinds map[Kind]bool) map[int]int {
	var want [256]bool // by kindRank, which ix.kinds holds as a uint8
	for k := range kinds {
		want[kindRank[k]] = true
	}
	counts := make([]int32, len(ix.terms))
	set.each(func(p int32) bool {
		for _, t := range ix.tags[p] {
			if want[ix.kinds[t]] {
				counts[t]++
			}
		}
		return true
	})
	out := map[int]int{}
	for id, n := range counts {
		if n > 0 {
			out[id] = int(n)
		}
	}
	return out
}

// maxPairCases bounds the cases whose value pairs are counted for a graph: past it the pairs
// are counted over the newest maxPairCases cases of the set, which keeps a 100,000-case graph
// fast while its line widths stay proportional.
const maxPairCases = 5000

// pairs counts how often two vocabulary values occur in the same case of a set.
func (ix *index) pairs(set bitset) map[[2]uint16]int {
	out := map[[2]uint16]int{}
	n := 0
	set.each(func(p int32) bool {
		ts := ix.tags[p]
		for i := 0; i < len(ts); i++ {
			if ix.kinds[ts[i]] > 3 { // organizations and years are not in graphs
				continue
			}
			for j := i + 1; j < len(ts); j++ {
				if ix.kinds[ts[j]] > 3 {
					continue
				}
				a, b := ts[i], ts[j]
				if a > b {
					a, b = b, a
				}
				out[[2]uint16{a, b}]++
			}
		}
		n++
		return n < maxPairCases
	})
	return out
}

// year returns the year of a case position.
func (ix *index) year(p int32) int {
	y, _ := strconv.Atoi(ix.dates[p][:4])
	return y
}

// Warm loads the in-memory index now rather than on the first listing. The server calls it in
// the background at startup.
func (s *Store) Warm(ctx context.Context) error {
	_, err := s.index(ctx)
	return err
}

// Ready reports whether the in-memory index loaded, so listings answer at full speed. After a
// failed load it stays false: the replica cannot serve listings.
func (s *Store) Ready() bool {
	select {
	case <-s.ixDone:
		return s.ix.err == nil
	default:
		return false
	}
}
