// Command gencatalog builds a synthetic catalog of many cases for benchmarks. It uses the real
// taxonomy and organizations under data/ and recombines the real cases' sentences, in English and
// Korean, so tags, wording and search behave like the real catalog at a larger size.
//
//	go run ./cmd/gencatalog -n 10000 -out /tmp/cat10k.db
//	go run ./cmd/gencatalog -n 2000 -compare   # how many exact related links the fast path keeps
//
// Ids run IL-0001, IL-0002, … IL-9999, IL-10000, … (the server only needs the digits after "IL-"),
// so IL-0001 to IL-0009 exist at every size. The output is the same for the same -n, -seed and
// data/.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
)

func main() {
	n := flag.Int("n", 10000, "number of cases")
	out := flag.String("out", "", "database file to write")
	dataDir := flag.String("data", "data", "directory holding taxonomy.yaml, orgs.yaml and cases/")
	seed := flag.Uint64("seed", 1, "random seed")
	compare := flag.Bool("compare", false, "compare the fast related-case path with the exact one on the generated cases (n at most a few thousand) and write nothing")
	flag.Parse()
	if *n < 1 || *n > 999999 || (*out == "" && !*compare) {
		fmt.Fprintln(os.Stderr, "usage: gencatalog -n N (1..999999) -out FILE | -compare")
		os.Exit(2)
	}
	start := time.Now()
	real, err := load(*dataDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
	d := generate(real, *n, *seed)
	fmt.Fprintf(os.Stderr, "gencatalog: %d cases generated from %d real ones in %s\n", len(d.Cases), len(real.Cases), time.Since(start).Round(time.Millisecond))
	if *compare {
		compareRelated(d.Cases)
		return
	}
	start = time.Now()
	if err := build.Write(context.Background(), d, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "gencatalog: %d cases written to %s in %s\n", len(d.Cases), *out, time.Since(start).Round(time.Millisecond))
}

// load reads data/ with build.Load. When the data does not validate (someone is editing a case),
// it falls back to reading every file that decodes and dropping tags the taxonomy lacks: a
// benchmark needs realistic text, not a valid catalog.
func load(dir string) (*build.Data, error) {
	d, err := build.Load(dir)
	var ps build.Problems
	if err == nil || !errors.As(err, &ps) {
		return d, err
	}
	fmt.Fprintf(os.Stderr, "gencatalog: data/ does not validate (%d problems, first: %s); reading what decodes\n", len(ps), ps[0])
	d = &build.Data{}
	if err := decode(filepath.Join(dir, "taxonomy.yaml"), &d.Taxonomy); err != nil {
		return nil, err
	}
	if err := decode(filepath.Join(dir, "orgs.yaml"), &d.Orgs); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, kind := range catalog.VocabKinds {
		for _, v := range d.Taxonomy.Kind(kind) {
			known[string(kind)+"/"+v.Slug] = true
		}
	}
	for _, o := range d.Orgs {
		known["org/"+o.Slug] = true
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cases", "IL-*.yaml"))
	sort.Strings(files)
	for _, f := range files {
		c := &build.Case{}
		if decode(f, c) != nil || !known["org/"+c.Org] || c.EN.Title == "" || c.KO.Title == "" {
			continue
		}
		c.ReadTags()
		for kind, slugs := range c.Tags {
			c.Tags[kind] = slices.DeleteFunc(slugs, func(s string) bool { return !known[string(kind)+"/"+s] })
		}
		if len(c.Tags[catalog.KindCause]) > 0 && len(c.Tags[catalog.KindComponent]) > 0 {
			d.Cases = append(d.Cases, c)
		}
	}
	if len(d.Cases) == 0 {
		return nil, fmt.Errorf("no usable case under %s", dir)
	}
	return d, nil
}

func decode(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return yaml.Unmarshal(b, v)
}

// pool holds every sentence (or list item) of one text field in one language, over all real cases.
type pool map[string][]string

// get returns a field of a text as pieces: the line of a one-line field, items of lists,
// sentences of prose.
func get(t *build.Text, f catalog.Field) []string {
	v := f.Values(t)
	if f.List || f.Line || len(v) == 0 {
		return v
	}
	return sentences(v[0])
}

// set writes a field from pieces.
func set(t *build.Text, f catalog.Field, parts []string) {
	if f.List {
		f.Set(t, parts)
		return
	}
	f.Set(t, []string{strings.Join(parts, " ")})
}

func nonEmpty(s string) []string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return []string{s}
}

// sentences splits prose after '.', '!' or '?' followed by white space. It works for Korean too,
// whose sentences end in "다." and the like.
func sentences(s string) []string {
	var out []string
	s = strings.Join(strings.Fields(s), " ")
	for s != "" {
		i := strings.IndexAny(s, ".!?")
		for i >= 0 && i+1 < len(s) && s[i+1] != ' ' {
			j := strings.IndexAny(s[i+1:], ".!?")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 || i+1 >= len(s) {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = strings.TrimSpace(s[i+1:])
	}
	return out
}

// generate makes n cases. Each synthetic case starts from a real one (its tags, severity and
// times, mostly its organization and era) and rebuilds every text field from that case's
// sentences, a share of them swapped for sentences of the same field of other cases.
func generate(real *build.Data, n int, seed uint64) *build.Data {
	rng := rand.New(rand.NewPCG(seed, 0x1f2e3d4c))
	pools := map[catalog.Lang]pool{catalog.English: {}, catalog.Korean: {}}
	for _, c := range real.Cases {
		for _, f := range catalog.Fields {
			pools[catalog.English][f.Key] = append(pools[catalog.English][f.Key], get(&c.EN, f)...)
			pools[catalog.Korean][f.Key] = append(pools[catalog.Korean][f.Key], get(&c.KO, f)...)
		}
	}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	vocab := map[catalog.Kind][]string{}
	for _, kind := range catalog.VocabKinds {
		for _, v := range real.Taxonomy.Kind(kind) {
			vocab[kind] = append(vocab[kind], v.Slug)
		}
	}
	// mutate copies a case's tags of one kind and, now and then, swaps one for another value.
	mutate := func(kind catalog.Kind, slugs []string) []string {
		out := append([]string(nil), slugs...)
		if len(vocab[kind]) == 0 || rng.Float64() >= 0.3 {
			return out
		}
		v := pick(vocab[kind])
		if slices.Contains(out, v) {
			return out
		}
		if len(out) == 0 || rng.Float64() < 0.3 {
			return append(out, v)
		}
		out[rng.IntN(len(out))] = v
		return out
	}
	d := &build.Data{Taxonomy: real.Taxonomy, Orgs: real.Orgs}
	for k := 1; k <= n; k++ {
		base := real.Cases[rng.IntN(len(real.Cases))]
		c := &build.Case{
			ID:       fmt.Sprintf("IL-%04d", k),
			Org:      base.Org,
			Tags:     map[catalog.Kind][]string{},
			Severity: base.Severity,
		}
		for _, kind := range catalog.VocabKinds {
			c.Tags[kind] = mutate(kind, base.Tags[kind])
		}
		if rng.Float64() < 0.5 {
			c.Org = real.Orgs[rng.IntN(len(real.Orgs))].Slug
		}
		year := 2010
		if len(base.Date) >= 4 {
			fmt.Sscan(base.Date[:4], &year)
		}
		year = min(2025, max(1980, year+rng.IntN(7)-3))
		c.Date = fmt.Sprintf("%04d-%02d-%02d", year, 1+rng.IntN(12), 1+rng.IntN(28))
		scale := func(p *int) *int {
			if p == nil {
				return nil
			}
			v := max(1, int(float64(*p)*(0.5+1.5*rng.Float64())))
			return &v
		}
		c.TimeToDetect, c.TimeToResolve = scale(base.TimeToDetect), scale(base.TimeToResolve)
		kind := "official-postmortem"
		if len(base.Sources) > 0 {
			kind = base.Sources[0].Kind
		}
		c.Sources = []build.Source{{URL: "https://status.example.com/incidents/" + strings.ToLower(c.ID), Kind: kind, Title: "Synthetic report " + c.ID}}
		for _, lang := range catalog.Langs {
			from, to := base.Lang(lang), c.Lang(lang)
			for _, f := range catalog.Fields {
				parts := append([]string(nil), get(from, f)...)
				swap := 0.4
				if f.Line {
					swap = 0.5
				}
				for i := range parts {
					if rng.Float64() < swap {
						parts[i] = pick(pools[lang][f.Key])
					}
				}
				set(to, f, parts)
			}
		}
		d.Cases = append(d.Cases, c)
	}
	return d
}

// compareRelated reports how many of the exact related links the fast path finds.
func compareRelated(cases []*build.Case) {
	start := time.Now()
	exact := build.Related(cases) // exact up to build.ExactRelatedMax cases
	te := time.Since(start)
	start = time.Now()
	approx := build.RelatedApprox(cases)
	ta := time.Since(start)
	same, total, first, differ := 0, 0, 0, 0
	for id, links := range exact {
		got := map[string]build.Link{}
		for _, l := range approx[id] {
			got[l.ID] = l
		}
		for i, l := range links {
			total++
			a, ok := got[l.ID]
			switch {
			case ok && (a.Score != l.Score || fmt.Sprint(a.Reasons) != fmt.Sprint(l.Reasons)):
				differ++
			case ok:
				same++
			case i == 0:
				first++
			}
		}
	}
	exactNote := ""
	if len(cases) > build.ExactRelatedMax {
		exactNote = " (above ExactRelatedMax: both sides are the fast path)"
	}
	fmt.Printf("%d cases: exact %s%s, fast %s; fast path keeps %d of %d exact links (%.1f%%), misses %d best links, scores or reasons differ on %d\n",
		len(cases), te.Round(time.Millisecond), exactNote, ta.Round(time.Millisecond), same, total, 100*float64(same)/float64(max(total, 1)), first, differ)
}
