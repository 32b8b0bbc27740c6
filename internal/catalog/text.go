package catalog

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Search text is analysed the same way when it is indexed and when it is queried:
// Latin and digit runs stay words (FTS5's porter tokenizer stems the English ones), and Hangul
// runs become overlapping character bigrams, so a two-syllable word such as 장애 matches 장애가
// and 장애를, which a word tokenizer (one token per space-separated word) or a trigram tokenizer
// (three characters minimum) cannot do.

// isHangul reports whether r is a Hangul syllable or letter.
func isHangul(r rune) bool { return unicode.Is(unicode.Hangul, r) }

// HasHangul reports whether s contains a Hangul syllable or letter.
func HasHangul(s string) bool { return strings.ContainsFunc(s, isHangul) }

// Clip cuts s to about n characters at a space, marking the cut with …; runs of white space
// become one space. Cards, previews and MCP lists all clip with it.
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:·") + "…"
}

// isWord reports whether r belongs to a non-Hangul word.
func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// run is a maximal stretch of Hangul or of other word characters.
type run struct {
	text   string
	hangul bool
}

// runs splits s into Hangul and word runs, dropping everything else. Invalid UTF-8 is dropped.
func runs(s string) []run {
	var out []run
	start, cur := -1, false
	for i, r := range s {
		if r == utf8.RuneError {
			if start >= 0 {
				out = append(out, run{s[start:i], cur})
				start = -1
			}
			continue
		}
		h, w := isHangul(r), isWord(r)
		switch {
		case h || w:
			if start >= 0 && h != cur {
				out = append(out, run{s[start:i], cur})
				start = -1
			}
			if start < 0 {
				start, cur = i, h
			}
		case start >= 0:
			out = append(out, run{s[start:i], cur})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, run{s[start:], cur})
	}
	return out
}

// bigrams returns the overlapping two-character pieces of a Hangul run; a one-character run is
// returned whole.
func bigrams(s string) []string {
	rs := []rune(s)
	if len(rs) < 2 {
		return []string{s}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}

// wordStartMark ends the token that repeats the first two syllables of each Hangul word in the
// index (토스뱅크 is indexed as 토스0 토스 스뱅 뱅크), so that a two-syllable query can ask for a
// word that begins with it: 토스 finds 토스, 토스뱅크 and 토스증권 but not 오토스케일러, whose
// bigrams also hold 토스. One token keeps the lookup as cheap as any other word's; a query's
// Hangul words never end in a digit, so no search asks for it by accident.
const wordStartMark = "0"

// IndexText turns text into the token string stored in the full-text index.
func IndexText(s string) string {
	var b strings.Builder
	for _, r := range runs(s) {
		if r.hangul {
			b.WriteString(bigrams(r.text)[0] + wordStartMark)
			b.WriteByte(' ')
			for _, g := range bigrams(r.text) {
				b.WriteString(g)
				b.WriteByte(' ')
			}
			continue
		}
		b.WriteString(strings.ToLower(r.text))
		b.WriteByte(' ')
	}
	return b.String()
}

// Korean particles and endings stripped from the end of a query word, longest first, so that
// 데이터베이스에서 searches for 데이터베이스 and 느려졌다 for 느려. A stripped word still matches
// the full word (its bigrams are a prefix), so stripping only risks matching other words that
// share the stem: 도, 만, 한 and 된 also end many nouns (재시도, 한도), so they are stripped only
// when three or more characters remain.
var koSuffixes = []string{
	"에서는", "으로는", "이라는", "했는데", "됐는데",
	"에서", "에게", "으로", "까지", "부터", "처럼", "보다", "이라", "라는", "에는", "하고", "이나",
	"했다", "됐다", "졌다", "었다", "였다", "하다", "되다", "했고", "됐고", "하는", "되는", "해서", "돼서",
	"은", "는", "이", "가", "을", "를", "에", "의", "와", "과", "로", "다", "고",
}

// koWeakSuffixes are one-syllable endings that are also common last syllables of nouns.
var koWeakSuffixes = []string{"도", "만", "한", "된"}

// stemKo strips one particle or ending from a Hangul word.
func stemKo(w string) string {
	n := utf8.RuneCountInString(w)
	for _, suf := range koSuffixes {
		if strings.HasSuffix(w, suf) && n-utf8.RuneCountInString(suf) >= 2 {
			return strings.TrimSuffix(w, suf)
		}
	}
	for _, suf := range koWeakSuffixes {
		if strings.HasSuffix(w, suf) && n-1 >= 3 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// QueryWord is one word of a search, as typed and as it is matched.
type QueryWord struct {
	Raw    string // as typed, lowercased
	Stem   string // matched form: Hangul without particle, English without plural or tense ending
	Hangul bool
}

// MaxQueryWords bounds how many words of a query are searched; the rest are ignored.
const MaxQueryWords = 12

// ParseQuery splits a search string into words. Everything but letters and digits is dropped,
// so no input can form FTS5 syntax. Stop words are dropped (unless nothing else is left), and so
// is a Korean particle glued to a Latin word (DB를, Redis가).
func ParseQuery(q string) []QueryWord {
	var out, stops []QueryWord
	seen := map[string]bool{}
	for _, token := range strings.Fields(q) {
		rs := runs(token)
		for i, r := range rs {
			raw := strings.ToLower(r.text)
			w := QueryWord{Raw: raw, Hangul: r.hangul}
			if r.hangul {
				if i > 0 && !rs[i-1].hangul && isParticle(raw) {
					continue
				}
				w.Stem = stemKo(raw)
			} else {
				w.Stem = stemEn(raw)
			}
			if seen[w.Raw] {
				continue
			}
			seen[w.Raw] = true
			if stopWord(w) {
				stops = append(stops, w)
				continue
			}
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		out = stops
	}
	if len(out) > MaxQueryWords {
		out = out[:MaxQueryWords]
	}
	return out
}

// isParticle reports whether a Hangul piece is only a particle or ending.
func isParticle(h string) bool {
	for _, suf := range koSuffixes {
		if h == suf {
			return true
		}
	}
	for _, suf := range koWeakSuffixes {
		if h == suf {
			return true
		}
	}
	return false
}

// Stop words carry no topic: "requests timed out after a failover" searches for requests,
// timed and failover. Korean one-syllable words such as 후 and 때 are dropped the same way.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but of to in on at by for from with as is was were be been
	it its this that these those into than then there their they after before during while when where so
	not no out up our we us you your has have had did do does can could would should about over under
	what which who how why all any some more most very also just
	후 때 중 및 등 더 수 것 건 안 못 또 왜 좀 잘 전 뒤 간`) {
		stopWords[w] = true
	}
}

func stopWord(w QueryWord) bool { return stopWords[w.Raw] }

// stemEn removes a common English ending for highlighting; the index itself uses porter.
func stemEn(w string) string {
	for _, suf := range []string{"ies", "es", "s", "ed", "ing"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			if suf == "ies" {
				return strings.TrimSuffix(w, suf) + "y"
			}
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// synonyms joins words that name the same thing but share no letters, in either language.
// Each group is searched as alternatives of one another.
var synonyms = [][]string{
	{"디도스", "ddos"},
	{"역추적", "백트래킹", "backtracking"},
	{"락", "잠금", "lock", "locks", "locked", "locking"},
	{"oom", "메모리부족"},
	{"철회", "withdraw", "withdrew", "withdrawn", "withdrawal"},
	{"페일오버", "failover"},
	{"레디스", "redis"},
	{"쿠버네티스", "kubernetes", "k8s"},
	{"인증서", "certificate", "cert"},
	{"윤초", "leap"},
	{"로드밸런서", "load"},
	{"레플리카", "복제본", "replica"},
	{"마이그레이션", "migration"},
	{"캐시", "cache"},
	{"데이터베이스", "database", "db"},
	{"postgres", "postgresql", "포스트그레스"},
	{"롤백", "rollback"},
	{"정규식", "regex", "regular"},
	{"오버플로", "overflow"},
	{"배달앱", "배민", "배달의민족", "요기요", "delivery"},
	{"119", "911", "긴급전화", "emergency"},
	{"정부24", "gov24"},
	{"자격증명", "credential", "credentials"},
}

var synonymOf = map[string][]string{}

func init() {
	for _, g := range synonyms {
		for _, w := range g {
			synonymOf[w] = g
		}
	}
}

// ftsPhrase is the FTS5 expression for one word: a quoted phrase of its index tokens, or its
// synonyms as alternatives. Tokens hold only letters and digits, so quoting them is always safe.
func ftsPhrase(w QueryWord) string {
	alts := synonymOf[w.Raw]
	if alts == nil {
		alts = synonymOf[w.Stem]
	}
	if alts == nil {
		return phraseOf(w)
	}
	parts := []string{phraseOf(w)}
	for _, a := range alts {
		if a != w.Raw && a != w.Stem {
			parts = append(parts, phraseOf(ParseQuery(a)[0]))
		}
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

func phraseOf(w QueryWord) string {
	if !w.Hangul {
		return `"` + w.Raw + `"`
	}
	switch utf8.RuneCountInString(w.Stem) {
	case 1:
		return `"` + w.Stem + `"*`
	case 2: // a word of two syllables is read as the start of a word, as a reader means it
		return `"` + w.Stem + wordStartMark + `"`
	}
	return `"` + strings.Join(bigrams(w.Stem), " ") + `"`
}

// SetExpr is the FTS5 expression of the cases a search selects: every word (or, anyWord, any
// of them) anywhere in the case, and at least one of them in the case's own text (id, title
// with the organization's name, summary, body). A word that is only a vocabulary label or alias
// of a case's tags cannot make the case match alone: "BGP" selects the cases that name BGP,
// not every case tagged network failure (that value is offered as a filter instead, by
// Store.Suggest). With another word in the text, a tag may stand for the word it names: "S3
// outage" selects the S3 case tagged as an outage even when its text says "disruption".
func SetExpr(words []QueryWord, anyWord bool) string {
	text := "{id title summary body} : (" + MatchExpr(words, true) + ")"
	if anyWord {
		return text
	}
	return "(" + MatchExpr(words, false) + ") AND " + text
}

// MatchExpr joins the words into an FTS5 MATCH expression, all words (AND) or any (OR).
func MatchExpr(words []QueryWord, anyWord bool) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = ftsPhrase(w)
	}
	op := " AND "
	if anyWord {
		op = " OR "
	}
	return strings.Join(parts, op)
}

// Highlight cuts a window of about width characters from text around the first match of the
// words and marks every match in it. It returns nil when nothing matches.
func Highlight(text string, words []QueryWord, width int) []Span {
	lower := strings.ToLower(text)
	type hit struct{ start, end int }
	var hits []hit
	for _, w := range words {
		needle := w.Stem
		if needle == "" {
			continue
		}
		for off := 0; off < len(lower); {
			i := strings.Index(lower[off:], needle)
			if i < 0 {
				break
			}
			s := off + i
			e := s + len(needle)
			if !w.Hangul {
				// Latin words match at a word start and run to the word's end.
				if s > 0 {
					if r, _ := utf8.DecodeLastRuneInString(lower[:s]); isWord(r) && !isHangul(r) {
						off = e
						continue
					}
				}
				for e < len(lower) {
					r, n := utf8.DecodeRuneInString(lower[e:])
					if !isWord(r) || isHangul(r) {
						break
					}
					e += n
				}
			}
			hits = append(hits, hit{s, e})
			off = e
		}
	}
	if len(hits) == 0 || len(lower) != len(text) {
		return nil
	}
	first := hits[0]
	for _, h := range hits {
		if h.start < first.start {
			first = h
		}
	}
	from := backRunes(text, first.start, width/3)
	to := forwardRunes(text, from, width)
	var out []Span
	if from > 0 {
		out = append(out, Span{Text: "…"})
	}
	pos := from
	for pos < to {
		next, end := -1, -1
		for _, h := range hits {
			if h.start >= pos && h.start < to && (next < 0 || h.start < next) {
				next, end = h.start, h.end
			}
		}
		if next < 0 {
			out = append(out, Span{Text: text[pos:to]})
			break
		}
		if next > pos {
			out = append(out, Span{Text: text[pos:next]})
		}
		if end > to {
			end = to
		}
		out = append(out, Span{Text: text[next:end], Hit: true})
		pos = end
	}
	if to < len(text) {
		out = append(out, Span{Text: "…"})
	}
	return out
}

// backRunes moves back n runes from byte offset i, stopping early at a space near the end.
func backRunes(s string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	if i > 0 {
		if j := strings.IndexByte(s[i:], ' '); j >= 0 && j < 12 {
			i += j + 1
		}
	}
	return i
}

// forwardRunes moves forward n runes from byte offset i.
func forwardRunes(s string, i, n int) int {
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}
