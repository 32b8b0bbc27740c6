package build

import (
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode"

	"incidentlib/internal/catalog"
)

// Relatedness of two cases:
//
//	score = 3·shared causes + 2·shared components + 2·shared factors + 1·shared symptoms
//	        + 6·cosine(text) + 8·(same start day)
//
// where cosine(text) is the cosine similarity of TF-IDF vectors over the English title, summary
// and trigger (stop words dropped, plural and tense endings cut). Causes weigh most because two
// incidents with the same cause teach the same lesson; a shared component or factor is the next
// most useful link; symptoms are common and weigh least. Text similarity catches links the tags
// miss (two DNS race conditions tagged differently). Starting on the same day is no reason: one
// event seen from two sides is written as same_event by the editors, and two unrelated outages
// on one day teach nothing together. A case keeps its MaxRelated best cases with a score of at least MinRelatedScore, and
// never itself.
const (
	textWeight = 6.0

	MaxRelated      = 10
	MinRelatedScore = 2.0
	minTextReason   = 0.2 // cosine above which "similar wording" is given as a reason
)

// Reason is why two cases are related: a shared value of a kind, or Kind "text" for wording.
type Reason struct {
	Kind catalog.Kind `json:"kind"`
	Slug string       `json:"slug,omitempty"`
}

// Link is one related case.
type Link struct {
	ID      string
	Score   float64
	Reasons []Reason
}

// ExactRelatedMax is the largest catalog for which Related compares every pair of cases. Above
// it Related uses RelatedApprox, which compares each case with a bounded set of candidates.
const ExactRelatedMax = 1000

// Related computes each case's related cases, keyed by case id. Up to ExactRelatedMax cases
// every pair is scored; larger catalogs (synthetic ones, for benchmarks) use RelatedApprox.
func Related(cases []*Case) map[string][]Link {
	if len(cases) > ExactRelatedMax {
		return RelatedApprox(cases)
	}
	return relatedExact(cases)
}

// relatedExact scores every pair of cases: O(n²), about 4 s for 1,000 cases.
func relatedExact(cases []*Case) map[string][]Link {
	vecs := textVectors(cases)
	out := make(map[string][]Link, len(cases))
	for i, a := range cases {
		var links []Link
		for j, b := range cases {
			if i == j {
				continue
			}
			if l, ok := pairScore(a, b, cosine(vecs[i], vecs[j])); ok {
				links = append(links, l)
			}
		}
		sort.SliceStable(links, func(x, y int) bool {
			if links[x].Score != links[y].Score {
				return links[x].Score > links[y].Score
			}
			return links[x].ID > links[y].ID // newer first on ties
		})
		if len(links) > MaxRelated {
			links = links[:MaxRelated]
		}
		out[a.ID] = links
	}
	return out
}

// tagWeights are what a shared value of each kind adds to a score; symptoms are too common to be
// given as a reason.
var tagWeights = [4]struct {
	kind   catalog.Kind
	weight float64
	reason bool
}{{catalog.KindCause, 3, true}, {catalog.KindComponent, 2, true}, {catalog.KindFactor, 2, true}, {catalog.KindSymptom, 1, false}}

// noCause is the cause of cases whose source does not say: sharing it says nothing.
const noCause = "undisclosed"

// pairScore is the one score of how related b is to a, given the cosine of their texts, with
// the reasons to show. Both the exact and the approximate path use it. It reports false below
// MinRelatedScore.
func pairScore(a, b *Case, cos float64) (Link, bool) {
	var reasons []Reason
	score := 0.0
	for _, k := range tagWeights {
		for _, s := range shared(a.Tags[k.kind], b.Tags[k.kind]) {
			if k.kind == catalog.KindCause && s == noCause {
				continue
			}
			score += k.weight
			if k.reason {
				reasons = append(reasons, Reason{Kind: k.kind, Slug: s})
			}
		}
	}
	score += textWeight * cos
	if cos >= minTextReason {
		reasons = append(reasons, Reason{Kind: catalog.KindText})
	}
	if score < MinRelatedScore {
		return Link{}, false
	}
	return Link{ID: b.ID, Score: math.Round(score*100) / 100, Reasons: reasons}, true
}

func shared(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
			}
		}
	}
	return out
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but of to in on at by for from with as is was were
	be been being it its this that these those which who whom into than then there their they them
	he she we our us you your not no after before during while when where so such also had has have
	did do does could would should can may might about over under more most some any all each one two
	three new other up out only its until because caused cause`) {
		stopWords[w] = true
	}
}

// textVectors builds L2-normalized TF-IDF vectors of the cases' English text.
func textVectors(cases []*Case) []map[string]float64 {
	tfs := make([]map[string]float64, len(cases))
	df := map[string]int{}
	stems := map[string]string{} // word -> stem, so each distinct word is stemmed once
	for i, c := range cases {
		tf := map[string]float64{}
		text := c.EN.Title + " " + c.EN.Summary + " " + c.EN.Trigger
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(w) < 3 || stopWords[w] {
				continue
			}
			stem, ok := stems[w]
			if !ok {
				stem = catalog.ParseQuery(w)[0].Stem
				stems[w] = stem
			}
			tf[stem]++
		}
		for w := range tf {
			df[w]++
		}
		tfs[i] = tf
	}
	n := float64(len(cases))
	for _, tf := range tfs {
		var norm float64
		for w, f := range tf {
			v := (1 + math.Log(f)) * math.Log(1+n/float64(df[w]))
			tf[w] = v
			norm += v * v
		}
		norm = math.Sqrt(norm)
		for w := range tf {
			tf[w] /= norm
		}
	}
	return tfs
}

func cosine(a, b map[string]float64) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var s float64
	for w, v := range a {
		s += v * b[w]
	}
	return s
}

// approxPerGroup is how many candidates RelatedApprox takes from each of a case's two groups.
const approxPerGroup = 200

// approxTagsPerKind is how many of a case's causes, and of its components, make groups.
const approxTagsPerKind = 1

// RelatedApprox computes related cases like Related, for catalogs too large to score every pair.
// It compares a case only with candidates that share its main cause or its main component: the
// approxPerGroup cases nearest to it, in the order of cases, within each of those two groups.
// A compared pair gets exactly the score and reasons Related gives it; pairs sharing neither
// main value are never compared, so links made by wording or by lesser tags alone are missed.
// Its work is O(n·approxPerGroup) and is spread over GOMAXPROCS goroutines; the result does not
// depend on their number.
func RelatedApprox(cases []*Case) map[string][]Link {
	n := len(cases)
	vecs, nterms := sparseVectors(cases)

	// Tags as small integers, per kind in approxKinds order.
	ids := map[string]int32{}
	tags := make([][4][]int32, n)
	for i, c := range cases {
		for k, kw := range tagWeights {
			for _, s := range c.Tags[kw.kind] {
				key := string(kw.kind) + "/" + s
				id, ok := ids[key]
				if !ok {
					id = int32(len(ids))
					ids[key] = id
				}
				tags[i][k] = append(tags[i][k], id)
			}
		}
	}
	// Groups of cases by cause (kind 0) and by component (kind 1), and each case's place in the
	// groups it belongs to.
	type member struct{ group, place int32 }
	groups := map[int32][]int32{}
	belongs := make([][]member, n)
	for i := range cases {
		for k := range 2 {
			ts := tags[i][k]
			if len(ts) > approxTagsPerKind {
				ts = ts[:approxTagsPerKind]
			}
			for _, t := range ts {
				belongs[i] = append(belongs[i], member{t, int32(len(groups[t]))})
				groups[t] = append(groups[t], int32(i))
			}
		}
	}

	type cand struct {
		j    int32
		link Link
	}
	// better orders candidates as Related orders links: higher score, then newer id.
	better := func(x, y cand) bool {
		if x.link.Score != y.link.Score {
			return x.link.Score > y.link.Score
		}
		return cases[x.j].ID > cases[y.j].ID
	}
	results := make([][]Link, n)
	workers := max(1, min(runtime.GOMAXPROCS(0), n/1000+1))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			seen := make([]int32, n)
			for i := range seen {
				seen[i] = -1
			}
			dense := make([]float64, nterms) // case i's text vector, spread out for the cosines
			var cands []cand
			for i := w; i < n; i += workers {
				cands = cands[:0]
				seen[i] = int32(i)
				for _, tw := range vecs[i] {
					dense[tw.term] = tw.w
				}
				for _, m := range belongs[i] {
					members, p := groups[m.group], int(m.place)
					lo := max(0, p-approxPerGroup/2)
					hi := min(len(members), lo+approxPerGroup+1)
					lo = max(0, hi-approxPerGroup-1)
					for _, j := range members[lo:hi] {
						if seen[j] == int32(i) {
							continue
						}
						seen[j] = int32(i)
						cos := 0.0
						for _, tw := range vecs[j] {
							cos += dense[tw.term] * tw.w
						}
						l, ok := pairScore(cases[i], cases[j], cos)
						if !ok {
							continue
						}
						// keep the MaxRelated best, best first, by insertion
						c := cand{j: j, link: l}
						if len(cands) == MaxRelated && !better(c, cands[MaxRelated-1]) {
							continue
						}
						if len(cands) < MaxRelated {
							cands = append(cands, c)
						}
						k := len(cands) - 1
						for ; k > 0 && better(c, cands[k-1]); k-- {
							cands[k] = cands[k-1]
						}
						cands[k] = c
					}
				}
				for _, tw := range vecs[i] {
					dense[tw.term] = 0
				}
				var links []Link
				for _, cd := range cands {
					links = append(links, cd.link)
				}
				results[i] = links
			}
		}(w)
	}
	wg.Wait()
	out := make(map[string][]Link, n)
	for i, c := range cases {
		out[c.ID] = results[i]
	}
	return out
}

// termWeight is one entry of a sparse text vector.
type termWeight struct {
	term int32
	w    float64
}

// sparseVectors returns textVectors as slices of numbered terms, and the number of terms.
func sparseVectors(cases []*Case) ([][]termWeight, int) {
	maps := textVectors(cases)
	terms := map[string]int32{}
	out := make([][]termWeight, len(maps))
	for i, m := range maps {
		v := make([]termWeight, 0, len(m))
		for w, x := range m {
			id, ok := terms[w]
			if !ok {
				id = int32(len(terms))
				terms[w] = id
			}
			v = append(v, termWeight{id, x})
		}
		out[i] = v
		maps[i] = nil
	}
	return out, len(terms)
}
