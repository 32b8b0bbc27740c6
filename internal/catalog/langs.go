package catalog

// Lang is a language every case is written in and the site speaks.
type Lang string

// The languages.
const (
	Korean  Lang = "ko"
	English Lang = "en"
)

// Langs are the languages, the first the default of the site. This list is the only one: the
// build, the locales, the web server and the views all range over it.
var Langs = []Lang{Korean, English}

// ParseLang returns the language s names ("ko", "en"); only languages in Langs parse.
func ParseLang(s string) (Lang, bool) {
	for _, l := range Langs {
		if string(l) == s {
			return l, true
		}
	}
	return "", false
}

// Other is the language that is not l (there are two).
func (l Lang) Other() Lang {
	if l == Langs[0] {
		return Langs[1]
	}
	return Langs[0]
}
