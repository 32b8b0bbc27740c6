package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
	"modernc.org/sqlite/vfs"
)

// Store reads the catalog. It is safe for concurrent use; the database is opened read-only.
type Store struct {
	db     *sql.DB
	close  func() error
	terms  map[termKey]termRow // kind and slug -> labels, loaded once: the vocabulary is small
	order  map[Kind][]string
	years  []string // years with cases, newest first
	total  int
	checks []checkRow    // checks with enough supporting cases, in their defined order
	stats  sync.Map      // lang -> Stats, worked out on first use
	ix     indexOnce     // the tags of every case, loaded on first use
	ixDone chan struct{} // closed once the index is loaded
}

type termRow struct {
	kind          Kind
	slug          string
	label, def    [2]string // en, ko
	aliases       []string
	country       string
	pos           int
	hasCases      bool
	casesForTopic int
}

func li(lang Lang) int {
	if lang == English {
		return 0
	}
	return 1
}

// Open opens a catalog database file read-only.
func Open(path string) (*Store, error) {
	q := url.Values{"mode": {"ro"}, "immutable": {"1"}}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	return newStore(db, db.Close)
}

// OpenFS opens the catalog database named name inside fsys (an embed.FS) read-only, without
// copying it to disk.
func OpenFS(fsys fs.FS, name string) (*Store, error) {
	id, vfsys, err := vfs.New(fsys)
	if err != nil {
		return nil, fmt.Errorf("open embedded catalog: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+name+"?vfs="+id+"&mode=ro&immutable=1")
	if err != nil {
		vfsys.Close()
		return nil, fmt.Errorf("open embedded catalog: %w", err)
	}
	return newStore(db, func() error { db.Close(); return vfsys.Close() })
}

// MaxConns bounds the read connections to the catalog: each holds its own page cache, and
// more connections than cores only queue inside SQLite.
const MaxConns = 4

func newStore(db *sql.DB, closeFn func() error) (*Store, error) {
	db.SetMaxOpenConns(MaxConns)
	db.SetMaxIdleConns(MaxConns) // keep them: a closed connection loses its page cache
	db.SetConnMaxLifetime(0)
	s := &Store{db: db, close: closeFn, terms: map[termKey]termRow{}, order: map[Kind][]string{}, ixDone: make(chan struct{})}
	if err := s.load(context.Background()); err != nil {
		closeFn()
		return nil, fmt.Errorf("open catalog: %w", err)
	}
	return s, nil
}

// Close releases the database.
func (s *Store) Close() error { return s.close() }

// Ping reports whether the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	return s.db.QueryRowContext(ctx, `SELECT count(*) FROM meta`).Scan(&n)
}

// Count is the number of cases in the catalog.
func (s *Store) Count() int { return s.total }

func (s *Store) load(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, slug, pos, label_en, label_ko, definition_en, definition_ko, aliases, country,
		(SELECT count(*) FROM tags g WHERE g.kind = t.kind AND g.slug = t.slug) FROM terms t ORDER BY kind, pos`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t termRow
		var aliases string
		if err := rows.Scan(&t.kind, &t.slug, &t.pos, &t.label[0], &t.label[1], &t.def[0], &t.def[1], &aliases, &t.country, &t.casesForTopic); err != nil {
			return err
		}
		json.Unmarshal([]byte(aliases), &t.aliases)
		t.hasCases = t.casesForTopic > 0
		s.terms[termKey{t.kind, t.slug}] = t
		s.order[t.kind] = append(s.order[t.kind], t.slug)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	yrows, err := s.db.QueryContext(ctx, `SELECT DISTINCT year FROM cases ORDER BY year DESC`)
	if err != nil {
		return err
	}
	defer yrows.Close()
	for yrows.Next() {
		var y int
		if err := yrows.Scan(&y); err != nil {
			return err
		}
		s.years = append(s.years, strconv.Itoa(y))
	}
	if err := s.loadChecks(ctx); err != nil {
		return err
	}
	return s.db.QueryRowContext(ctx, `SELECT count(*) FROM cases`).Scan(&s.total)
}

// Known reports whether slug is a value of kind (a vocabulary value, an organization or a year
// with cases).
func (s *Store) Known(kind Kind, slug string) bool {
	if kind == KindYear {
		for _, y := range s.years {
			if y == slug {
				return true
			}
		}
		return false
	}
	_, ok := s.terms[termKey{kind, slug}]
	return ok
}

// Term returns the label of a value in lang. Unknown values keep their slug as label.
func (s *Store) Term(lang Lang, kind Kind, slug string) Term {
	if t, ok := s.terms[termKey{kind, slug}]; ok {
		return Term{Kind: kind, Slug: slug, Label: t.label[li(lang)]}
	}
	return Term{Kind: kind, Slug: slug, Label: slug}
}

// Country is an organization's ISO 3166 two-letter country code, or "".
func (s *Store) Country(org string) string { return s.terms[termKey{KindOrg, org}].country }

// Values lists the values of a kind in their defined order (years newest first), with labels.
// Organizations without cases are left out.
func (s *Store) Values(lang Lang, kind Kind) []Term {
	var out []Term
	if kind == KindYear {
		for _, y := range s.years {
			out = append(out, Term{Kind: kind, Slug: y, Label: y})
		}
		return out
	}
	for _, slug := range s.order[kind] {
		if kind == KindOrg && !s.terms[termKey{kind, slug}].hasCases {
			continue
		}
		out = append(out, s.Term(lang, kind, slug))
	}
	if kind == KindOrg {
		sort.SliceStable(out, func(i, j int) bool { return strings.ToLower(out[i].Label) < strings.ToLower(out[j].Label) })
	}
	return out
}

// Vocab lists every value of the taxonomy kinds and organizations with definition and count.
func (s *Store) Vocab(lang Lang) map[Kind][]VocabEntry {
	out := map[Kind][]VocabEntry{}
	for _, kind := range TopicKinds {
		for _, t := range s.Values(lang, kind) {
			r := s.terms[termKey{kind, t.Slug}]
			out[kind] = append(out[kind], VocabEntry{Term: t, Definition: r.def[li(lang)], Aliases: r.aliases, Count: r.casesForTopic})
		}
	}
	return out
}

// Definition returns a value's one-line definition in lang.
func (s *Store) Definition(lang Lang, kind Kind, slug string) string {
	return s.terms[termKey{kind, slug}].def[li(lang)]
}

// Case returns one case in lang, with its related cases.
func (s *Store) Case(ctx context.Context, lang Lang, id string) (Case, error) {
	c := Case{ID: id, Lang: lang}
	var num int
	var org string
	var ttd, ttr sql.NullInt64
	var text, timeline string
	err := s.db.QueryRowContext(ctx, `SELECT c.num, c.org, c.date, c.zone, c.severity, c.time_to_detect, c.time_to_resolve, c.timeline, t.text
		FROM cases c JOIN case_text t ON t.num = c.num AND t.lang = ? WHERE c.id = ?`, lang, id).Scan(
		&num, &org, &c.Date, &c.Zone, &c.Severity, &ttd, &ttr, &timeline, &text)
	if err == sql.ErrNoRows {
		return Case{}, fmt.Errorf("case %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Case{}, fmt.Errorf("case %s: %w", id, err)
	}
	c.Org = s.Term(lang, KindOrg, org)
	if ttd.Valid {
		v := int(ttd.Int64)
		c.TimeToDetect = &v
	}
	if ttr.Valid {
		v := int(ttr.Int64)
		c.TimeToResolve = &v
	}
	if err := json.Unmarshal([]byte(text), &c.Text); err != nil {
		return Case{}, fmt.Errorf("case %s text: %w", id, err)
	}
	if c.Timeline, err = readTimeline(timeline, lang); err != nil {
		return Case{}, fmt.Errorf("case %s timeline: %w", id, err)
	}
	if c.Checks, err = s.checksOf(ctx, lang, num); err != nil {
		return Case{}, err
	}
	if c.Links, err = s.linksOf(ctx, lang, num); err != nil {
		return Case{}, err
	}
	ix, err := s.index(ctx)
	if err != nil {
		return Case{}, err
	}
	c.Tags = s.valuesOf(lang, ix, ix.posOf[int32(num)])
	if c.Sources, err = s.sources(ctx, num); err != nil {
		return Case{}, err
	}
	if c.Related, err = s.related(ctx, lang, num); err != nil {
		return Case{}, err
	}
	return c, nil
}

func (s *Store) sources(ctx context.Context, num int) ([]Source, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT url, kind, archive, title FROM sources WHERE num = ? ORDER BY pos`, num)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	defer rows.Close()
	var out []Source
	for rows.Next() {
		var src Source
		if err := rows.Scan(&src.URL, &src.Kind, &src.Archive, &src.Title); err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, rows.Err()
}

func (s *Store) related(ctx context.Context, lang Lang, num int) ([]Related, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.org, c.date, t.title, r.score, r.reasons
		FROM related r JOIN cases c ON c.num = r.other JOIN case_text t ON t.num = r.other AND t.lang = ?
		WHERE r.num = ? ORDER BY r.pos`, lang, num)
	if err != nil {
		return nil, fmt.Errorf("related: %w", err)
	}
	defer rows.Close()
	var out []Related
	for rows.Next() {
		var r Related
		var org, reasons string
		if err := rows.Scan(&r.ID, &org, &r.Date, &r.Title, &r.Score, &reasons); err != nil {
			return nil, err
		}
		r.Org = s.Term(lang, KindOrg, org)
		var rs []struct {
			Kind Kind
			Slug string
		}
		json.Unmarshal([]byte(reasons), &rs)
		for _, x := range rs {
			if x.Kind == KindText {
				r.Reasons = append(r.Reasons, Term{Kind: x.Kind})
				continue
			}
			r.Reasons = append(r.Reasons, s.Term(lang, x.Kind, x.Slug))
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Similar returns the cases most like one case, best first, with reasons.
func (s *Store) Similar(ctx context.Context, lang Lang, id string) ([]Related, error) {
	var num int
	err := s.db.QueryRowContext(ctx, `SELECT num FROM cases WHERE id = ?`, id).Scan(&num)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("case %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("similar %s: %w", id, err)
	}
	return s.related(ctx, lang, num)
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// Entry is a case's id, dates and title in one language, for feeds and sitemaps.
type Entry struct {
	ID, Date, Zone, Title, Summary string
	Added, Revised                 string // when the case entered the catalog, and last changed ("" if never since)
	Org                            Term
}

// Entries lists up to limit cases newest added first, in lang: a case written today about a 2012
// incident is news to a reader of the feed.
func (s *Store) Entries(ctx context.Context, lang Lang, limit int) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.date, c.zone, c.added, c.revised, c.org, t.title, t.summary FROM cases c
		JOIN case_text t ON t.num = c.num AND t.lang = ? ORDER BY c.added DESC, c.num DESC LIMIT ?`, lang, limit)
	if err != nil {
		return nil, fmt.Errorf("entries: %w", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var org string
		if err := rows.Scan(&e.ID, &e.Date, &e.Zone, &e.Added, &e.Revised, &org, &e.Title, &e.Summary); err != nil {
			return nil, err
		}
		e.Org = s.Term(lang, KindOrg, org)
		out = append(out, e)
	}
	return out, rows.Err()
}

// BuiltAt is when the catalog was built (RFC 3339), for feed and sitemap dates.
func (s *Store) BuiltAt(ctx context.Context) string {
	var v string
	s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'built_at'`).Scan(&v)
	return v
}

// linksOf returns a case's links to other cases, same-event first.
func (s *Store) linksOf(ctx context.Context, lang Lang, num int) ([]CaseLink, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT l.kind, c.id, c.org, c.date, c.zone, t.headline, t.title FROM case_links l
		JOIN cases c ON c.num = l.other JOIN case_text t ON t.num = l.other AND t.lang = ?
		WHERE l.num = ? ORDER BY CASE l.kind WHEN 'caused-by' THEN 0 WHEN 'caused' THEN 1 WHEN 'recurrence-of' THEN 2
		WHEN 'recurred-as' THEN 3 WHEN 'same-event' THEN 4 ELSE 5 END, l.pos`, lang, num)
	if err != nil {
		return nil, fmt.Errorf("case links: %w", err)
	}
	defer rows.Close()
	var out []CaseLink
	for rows.Next() {
		var l CaseLink
		var org string
		if err := rows.Scan(&l.Kind, &l.ID, &org, &l.Date, &l.Zone, &l.Headline, &l.Title); err != nil {
			return nil, err
		}
		l.Org = s.Term(lang, KindOrg, org)
		out = append(out, l)
	}
	return out, rows.Err()
}

// IndexEntry is a value on its kind's index page: label, definition, count and, for an
// organization, its country.
type IndexEntry struct {
	VocabEntry
	Country string
}

// Index lists every value of a kind that has cases, with its count, definition (vocabulary
// kinds) and country (organizations), in the kind's defined order (years newest first). The
// page sorts them for its language.
func (s *Store) Index(ctx context.Context, lang Lang, kind Kind) ([]IndexEntry, error) {
	var out []IndexEntry
	if kind == KindYear {
		rows, err := s.db.QueryContext(ctx, `SELECT year, count(*) FROM cases GROUP BY year ORDER BY year DESC`)
		if err != nil {
			return nil, fmt.Errorf("index of years: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var y, n int
			if err := rows.Scan(&y, &n); err != nil {
				return nil, err
			}
			ys := strconv.Itoa(y)
			out = append(out, IndexEntry{VocabEntry: VocabEntry{Term: Term{Kind: KindYear, Slug: ys, Label: ys}, Count: n}})
		}
		return out, rows.Err()
	}
	for _, v := range s.Vocab(lang)[kind] {
		if v.Count == 0 {
			continue
		}
		out = append(out, IndexEntry{VocabEntry: v, Country: s.terms[termKey{kind, v.Slug}].country})
	}
	return out, nil
}

// Release is the open-data release the catalog holds: its version, its case count and the
// size of each download.
type Release struct {
	Version string
	Cases   int
	Sizes   map[string]int // format (jsonl, csv) -> bytes, gzip-compressed
}

// Release reads the release's version and its files' sizes.
func (s *Store) Release(ctx context.Context) (Release, error) {
	r := Release{Cases: s.total, Sizes: map[string]int{}}
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'release'`).Scan(&r.Version); err != nil {
		return r, fmt.Errorf("release: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT name, length(body) FROM files`)
	if err != nil {
		return r, fmt.Errorf("release files: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return r, err
		}
		r.Sizes[name] = n
	}
	return r, rows.Err()
}

// ExportFile is one download of the release, gzip-compressed: "jsonl" or "csv".
func (s *Store) ExportFile(ctx context.Context, format string) ([]byte, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT body FROM files WHERE name = ?`, format).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("export %q: %w", format, ErrNotFound)
	}
	return b, err
}

// FilteredEntries lists up to limit of the cases a filter selects, newest added first, in lang:
// the feed of a listing.
func (s *Store) FilteredEntries(ctx context.Context, lang Lang, f Filter, limit int) ([]Entry, error) {
	words := ParseQuery(f.Q)
	if f.Count() == 0 && len(words) == 0 {
		return s.Entries(ctx, lang, limit)
	}
	sel, _, err := s.selectCases(ctx, f, words, SortNewest)
	if err != nil {
		return nil, err
	}
	var out []Entry
	var nums []any
	flush := func() error {
		if len(nums) == 0 {
			return nil
		}
		rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.date, c.zone, c.added, c.revised, c.org, t.title, t.summary FROM cases c
			JOIN case_text t ON t.num = c.num AND t.lang = ? WHERE c.num IN (`+placeholders(len(nums))+`)`, append([]any{lang}, nums...)...)
		if err != nil {
			return fmt.Errorf("feed entries: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var e Entry
			var org string
			if err := rows.Scan(&e.ID, &e.Date, &e.Zone, &e.Added, &e.Revised, &org, &e.Title, &e.Summary); err != nil {
				return err
			}
			e.Org = s.Term(lang, KindOrg, org)
			out = append(out, e)
		}
		nums = nums[:0]
		return rows.Err()
	}
	var ferr error
	sel.result.each(func(p int32) bool {
		nums = append(nums, sel.ix.order[p])
		if len(nums) == 500 {
			ferr = flush()
		}
		return ferr == nil
	})
	if ferr == nil {
		ferr = flush()
	}
	if ferr != nil {
		return nil, ferr
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Added != out[j].Added {
			return out[i].Added > out[j].Added
		}
		return caseNumOf(out[i].ID) > caseNumOf(out[j].ID)
	})
	return out[:min(limit, len(out))], nil
}

// caseNumOf is the number of a case id (IL-0042 → 42).
func caseNumOf(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "IL-"))
	return n
}

// ChangeDay is one day of the catalog's changelog: the cases added and the cases revised.
type ChangeDay struct {
	Day            string
	Added, Revised []Entry
}

// Changelog lists the days the catalog changed, newest first, with what each added and
// revised: the release notes of the open data, read from the cases' own added and revised days.
func (s *Store) Changelog(ctx context.Context, lang Lang, days int) ([]ChangeDay, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.date, c.zone, c.added, c.revised, c.org, t.title, t.summary FROM cases c
		JOIN case_text t ON t.num = c.num AND t.lang = ? ORDER BY c.num`, lang)
	if err != nil {
		return nil, fmt.Errorf("changelog: %w", err)
	}
	defer rows.Close()
	byDay := map[string]*ChangeDay{}
	day := func(d string) *ChangeDay {
		if byDay[d] == nil {
			byDay[d] = &ChangeDay{Day: d}
		}
		return byDay[d]
	}
	for rows.Next() {
		var e Entry
		var org string
		if err := rows.Scan(&e.ID, &e.Date, &e.Zone, &e.Added, &e.Revised, &org, &e.Title, &e.Summary); err != nil {
			return nil, err
		}
		e.Org = s.Term(lang, KindOrg, org)
		day(e.Added).Added = append(day(e.Added).Added, e)
		if e.Revised != "" {
			day(e.Revised).Revised = append(day(e.Revised).Revised, e)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []ChangeDay
	for _, d := range byDay {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Day > out[j].Day })
	return out[:min(days, len(out))], nil
}
