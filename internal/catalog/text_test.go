package catalog

import (
	"strings"
	"testing"
)

func TestStemKo(t *testing.T) {
	for in, want := range map[string]string{
		"장애가": "장애", "캐시를": "캐시", "재시도가": "재시도", "재시도": "재시도", "데이터베이스에서": "데이터베이스",
		"인증이": "인증", "느려졌다": "느려", "한도": "한도", "데이터도": "데이터", "장애": "장애", "불": "불",
	} {
		if got := stemKo(in); got != want {
			t.Errorf("stemKo(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIndexTextBigrams(t *testing.T) {
	got := IndexText("DNS 장애가 났다, retries!")
	for _, want := range []string{"dns", "장애", "애가", "났다", "retries"} {
		if !strings.Contains(" "+got, " "+want+" ") {
			t.Errorf("IndexText = %q, want token %q", got, want)
		}
	}
}

func TestMatchExprIsQuoted(t *testing.T) {
	got := MatchExpr(ParseQuery(`x" OR b* NEAR(c) 장애 DB를`), false)
	want := `"x" AND "b" AND "near" AND "c" AND "장애0" AND ("db" OR "데이 이터 터베 베이 이스" OR "database")`
	if got != want {
		t.Errorf("MatchExpr = %s, want %s", got, want)
	}
}

// A two-syllable Korean word is matched at the start of a word: the index marks where each
// Hangul word begins, and the query asks for the mark before the word.
func TestTwoSyllablesMatchAWordStart(t *testing.T) {
	idx := " " + IndexText("토스뱅크 오토스케일러") + " "
	phrase := strings.Trim(ftsPhrase(ParseQuery("토스")[0]), `"`)
	if !strings.Contains(idx, " "+phrase+" ") {
		t.Errorf("%q does not find 토스뱅크 in %q", phrase, idx)
	}
	if strings.Count(idx, " "+phrase+" ") != 1 {
		t.Errorf("%q matches inside 오토스케일러 too: %q", phrase, idx)
	}
	if got := ParseQuery("카카오의")[0].Stem; got != "카카오" {
		t.Errorf("카카오의 is searched as %q, want 카카오", got)
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "장애가 났다", `"quoted" AND (x)`, "\xff\xfe", "a-b_c*d", "IL-0561", "재시도 폭주로 인증이 느려졌다"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, w := range ParseQuery(q) {
			if strings.ContainsAny(w.Raw, `"*()^:{}-+`) || w.Raw == "" {
				t.Fatalf("ParseQuery(%q) gave unsafe word %q", q, w.Raw)
			}
		}
		expr := MatchExpr(ParseQuery(q), true)
		if strings.Count(expr, `"`)%2 != 0 {
			t.Fatalf("MatchExpr(%q) = %s has unbalanced quotes", q, expr)
		}
		Highlight(q, ParseQuery(q), 50)
	})
}
