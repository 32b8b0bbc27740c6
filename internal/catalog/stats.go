package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
)

// Spread is how long detection and resolution took for a group of cases: the minutes of every
// case where the source gives them, sorted.
type Spread struct {
	Term
	Cases   int
	Detect  []int
	Resolve []int
}

// Stats are the spreads of time to detect and to resolve by main cause and by main component,
// and over every case.
type Stats struct {
	All         Spread
	ByCause     []Spread
	ByComponent []Spread
}

// Stats computes the spreads over the whole catalog. Groups are by a case's main value (the
// first it lists), so each case counts once per kind; groups with no known duration are left
// out.
func (s *Store) Stats(ctx context.Context, lang Lang) (Stats, error) {
	if v, ok := s.stats.Load(lang); ok { // the catalog never changes: worked out once per language
		return v.(Stats), nil
	}
	st, err := s.computeStats(ctx, lang)
	if err == nil {
		s.stats.Store(lang, st)
	}
	return st, err
}

func (s *Store) computeStats(ctx context.Context, lang Lang) (Stats, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT t.kind, t.slug, c.time_to_detect, c.time_to_resolve FROM tags t
		JOIN cases c ON c.num = t.num WHERE t.pos = 0 AND t.kind IN (?, ?)`, KindCause, KindComponent)
	if err != nil {
		return Stats{}, fmt.Errorf("stats: %w", err)
	}
	defer rows.Close()
	groups := map[Kind]map[string]*Spread{KindCause: {}, KindComponent: {}}
	st := Stats{All: Spread{Term: Term{Kind: KindAll}}}
	for rows.Next() {
		var kind Kind
		var slug string
		var ttd, ttr sql.NullInt64
		if err := rows.Scan(&kind, &slug, &ttd, &ttr); err != nil {
			return Stats{}, err
		}
		g := groups[kind][slug]
		if g == nil {
			g = &Spread{Term: s.Term(lang, kind, slug)}
			groups[kind][slug] = g
		}
		g.Cases++
		if ttd.Valid {
			g.Detect = append(g.Detect, int(ttd.Int64))
		}
		if ttr.Valid {
			g.Resolve = append(g.Resolve, int(ttr.Int64))
		}
		if kind == KindCause {
			st.All.Cases++
			if ttd.Valid {
				st.All.Detect = append(st.All.Detect, int(ttd.Int64))
			}
			if ttr.Valid {
				st.All.Resolve = append(st.All.Resolve, int(ttr.Int64))
			}
		}
	}
	if err := rows.Err(); err != nil {
		return Stats{}, err
	}
	sortSpread(&st.All)
	for kind, out := range map[Kind]*[]Spread{KindCause: &st.ByCause, KindComponent: &st.ByComponent} {
		for _, slug := range s.order[kind] {
			if g := groups[kind][slug]; g != nil && len(g.Detect)+len(g.Resolve) > 0 {
				sortSpread(g)
				*out = append(*out, *g)
			}
		}
	}
	return st, nil
}

// TopicSpread is the spread of a value's cases (any case carrying it, not only as main value).
func (s *Store) TopicSpread(ctx context.Context, lang Lang, kind Kind, slug string) (Spread, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.time_to_detect, c.time_to_resolve FROM tags t JOIN cases c ON c.num = t.num
		WHERE t.kind = ? AND t.slug = ?`, kind, slug)
	if err != nil {
		return Spread{}, fmt.Errorf("topic spread: %w", err)
	}
	defer rows.Close()
	sp := Spread{Term: s.Term(lang, kind, slug)}
	for rows.Next() {
		var ttd, ttr sql.NullInt64
		if err := rows.Scan(&ttd, &ttr); err != nil {
			return Spread{}, err
		}
		sp.Cases++
		if ttd.Valid {
			sp.Detect = append(sp.Detect, int(ttd.Int64))
		}
		if ttr.Valid {
			sp.Resolve = append(sp.Resolve, int(ttr.Int64))
		}
	}
	sortSpread(&sp)
	return sp, rows.Err()
}

func sortSpread(s *Spread) {
	sort.Ints(s.Detect)
	sort.Ints(s.Resolve)
}

// Quantile is the q-quantile (0 to 1) of sorted minutes, by linear interpolation; -1 when empty.
func Quantile(sorted []int, q float64) float64 {
	if len(sorted) == 0 {
		return -1
	}
	pos := q * float64(len(sorted)-1)
	lo := int(pos)
	if lo+1 >= len(sorted) {
		return float64(sorted[lo])
	}
	return float64(sorted[lo]) + (pos-float64(lo))*float64(sorted[lo+1]-sorted[lo])
}
