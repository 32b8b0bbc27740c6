package catalog

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// "Incidents like mine": an engineer describes an incident of their own in a few sentences, in
// either language, and gets the cases closest to it, each with why. A long description is not a
// search: OR-ing every word lets the common ones decide. Instead the description is read for
// the vocabulary values it names (Suggest: labels and aliases in both languages) and for its
// distinctive words (those few cases use), and each case is scored as related cases are: shared
// values by kind, plus how much of the description's distinctive wording it shares.

// MaxLikeLen is the longest description read, in characters.
const MaxLikeLen = 2000

// maxLikeWords bounds the distinctive words looked up, one index query each.
const maxLikeWords = 40

// likeWeights are what a value of each kind named by the description and carried by a case adds
// to its score, as in related cases (build/related.go).
var likeWeights = map[Kind]float64{KindCause: 3, KindComponent: 2, KindFactor: 2, KindSymptom: 1}

// likeTextWeight is what sharing all of the description's distinctive wording adds.
const likeTextWeight = 6.0

// maxWordShare is the largest share of the catalog a word may appear in and still count as
// distinctive: "server" or "장애" says nothing about which incident it was.
const maxWordShare = 0.25

// LikeCase is a case close to a description, with what they share.
type LikeCase struct {
	Card
	Score  float64
	Shared []Term   // vocabulary values the description names and the case carries
	Common []string // distinctive words of the description found in the case, most telling first
}

// LikeResult is the answer to a description.
type LikeResult struct {
	Text  string      // the description as read (cleaned, clipped)
	Found []Facet     // vocabulary values the description names, with their cases
	Words []QueryWord // the distinctive words looked up
	Cases []LikeCase
}

// Like returns up to n cases closest to a description.
func (s *Store) Like(ctx context.Context, lang Lang, text string, n int) (LikeResult, error) {
	text = CleanQuery(text)
	if utf8.RuneCountInString(text) > MaxLikeLen {
		text = string([]rune(text)[:MaxLikeLen])
	}
	r := LikeResult{Text: text}
	if text == "" {
		return r, nil
	}
	ix, err := s.index(ctx)
	if err != nil {
		return r, err
	}
	total := len(ix.order)
	score := make([]float64, total)
	shared := map[int32][]Term{}
	for _, t := range s.Suggest(lang, text, Filter{}) {
		set := ix.kindSet(t.Kind, []string{t.Slug})
		r.Found = append(r.Found, Facet{Term: t, Count: set.count()})
		w := likeWeights[t.Kind]
		if w == 0 {
			continue // organizations and years are offered as filters, not scored
		}
		set.each(func(p int32) bool {
			score[p] += w
			shared[p] = append(shared[p], t)
			return true
		})
	}
	// The description's words, each looked up once: its cases and how rare it is.
	type word struct {
		w   QueryWord
		idf float64
		set bitset
	}
	var words []word
	sumIDF := 0.0
	for _, w := range parseWords(text, maxLikeWords) {
		nums, err := s.ftsMatch(ctx, SetExpr([]QueryWord{w}, false))
		if err != nil {
			return r, err
		}
		if len(nums) == 0 || float64(len(nums)) > maxWordShare*float64(total) {
			continue
		}
		idf := math.Log(float64(total) / float64(len(nums)))
		words = append(words, word{w, idf, ix.matchSet(nums)})
		r.Words = append(r.Words, w)
		sumIDF += idf
	}
	common := map[int32][]word{}
	for _, w := range words {
		w.set.each(func(p int32) bool {
			score[p] += likeTextWeight * w.idf / sumIDF
			common[p] = append(common[p], w)
			return true
		})
	}
	var ranked []int32
	for p := range score {
		if score[p] > 0 {
			ranked = append(ranked, int32(p))
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		if score[ranked[i]] != score[ranked[j]] {
			return score[ranked[i]] > score[ranked[j]]
		}
		return ranked[i] < ranked[j] // newer first: positions run newest first
	})
	if len(ranked) > n {
		ranked = ranked[:n]
	}
	nums := make([]int32, len(ranked))
	for i, p := range ranked {
		nums[i] = ix.order[p]
	}
	cards, err := s.cards(ctx, lang, ix, nums, r.Words)
	if err != nil {
		return r, err
	}
	for i, c := range cards {
		p := ranked[i]
		ws := common[p]
		sort.SliceStable(ws, func(a, b int) bool { return ws[a].idf > ws[b].idf })
		var raw []string
		for _, w := range ws[:min(len(ws), 6)] {
			raw = append(raw, w.w.Raw)
		}
		r.Cases = append(r.Cases, LikeCase{Card: c, Score: math.Round(score[p]*100) / 100, Shared: shared[p], Common: raw})
	}
	return r, nil
}

// parseWords splits a description into its distinct words as a search would (stop words and
// particles dropped), keeping up to max of them.
func parseWords(text string, max int) []QueryWord {
	var out []QueryWord
	seen := map[string]bool{}
	for _, chunk := range strings.Fields(text) {
		for _, w := range ParseQuery(chunk) {
			if seen[w.Stem] || stopWord(w) || (!w.Hangul && utf8.RuneCountInString(w.Raw) < 3) {
				continue
			}
			seen[w.Stem] = true
			out = append(out, w)
			if len(out) == max {
				return out
			}
		}
	}
	return out
}
