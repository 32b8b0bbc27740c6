package build

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"incidentlib/internal/catalog"
)

// Relatedness of two cases:
//
//	score = 3·shared causes + 2·shared components + 2·shared factors + 1·shared symptoms
//	        + 4·cosine(text)
//
// where cosine(text) is the cosine similarity of TF-IDF vectors over the English title, summary
// and trigger (stop words dropped, plural and tense endings cut). Causes weigh most because two
// incidents with the same cause teach the same lesson; a shared component or factor is the next
// most useful link; symptoms are common and weigh least. Text similarity catches links the tags
// miss (two DNS race conditions tagged differently). A case keeps its MaxRelated best cases with a
// score of at least MinRelatedScore, and never itself.
const (
	MaxRelated      = 6
	MinRelatedScore = 2.0
	minTextReason   = 0.2 // cosine above which "similar wording" is given as a reason
)

// Reason is why two cases are related: a shared value of a kind, or Kind "text" for wording.
type Reason struct {
	Kind string `json:"kind"`
	Slug string `json:"slug,omitempty"`
}

// Link is one related case.
type Link struct {
	ID      string
	Score   float64
	Reasons []Reason
}

// Related computes each case's related cases, keyed by case id.
func Related(cases []*Case) map[string][]Link {
	vecs := textVectors(cases)
	out := make(map[string][]Link, len(cases))
	for i, a := range cases {
		var links []Link
		for j, b := range cases {
			if i == j {
				continue
			}
			var reasons []Reason
			score := 0.0
			for _, k := range []struct {
				kind   string
				weight float64
			}{{"cause", 3}, {"component", 2}, {"factor", 2}, {"symptom", 1}} {
				for _, s := range shared(a.Tags(k.kind), b.Tags(k.kind)) {
					score += k.weight
					if k.kind != "symptom" {
						reasons = append(reasons, Reason{Kind: k.kind, Slug: s})
					}
				}
			}
			cos := cosine(vecs[i], vecs[j])
			score += 4 * cos
			if cos >= minTextReason {
				reasons = append(reasons, Reason{Kind: "text"})
			}
			if score >= MinRelatedScore {
				links = append(links, Link{ID: b.ID, Score: math.Round(score*100) / 100, Reasons: reasons})
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
	for i, c := range cases {
		tf := map[string]float64{}
		text := c.EN.Title + " " + c.EN.Summary + " " + c.EN.Trigger
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(w) < 3 || stopWords[w] {
				continue
			}
			tf[catalog.ParseQuery(w)[0].Stem]++
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
