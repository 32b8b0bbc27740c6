package e2e

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The listing loads in both languages; a facet value narrows it, a value in a closed group (the
// reader opens it first) narrows it more, that value's chip removes only it, and "clear all"
// returns to the full list.
func TestListingFacets(t *testing.T) {
	tb := newTab(t)
	for _, lang := range []string{"ko", "en"} {
		t.Run(lang, func(t *testing.T) { facetFlow(tb.in(t), lang) })
	}
}

// Search works by submitting the form, with Enter or the button: results come back with the
// words highlighted, and the query stays in the box and in a removable chip.
func TestSearch(t *testing.T) {
	tb := newTab(t)
	t.Run("ko", func(t *testing.T) { searchFlow(tb.in(t), "ko", "화재", true) })
	t.Run("en", func(t *testing.T) { searchFlow(tb.in(t), "en", "fire", false) })
}

// The language switch keeps the page, its filters and its search, on a phone and a desktop.
func TestLanguageSwitch(t *testing.T) {
	tb := newTab(t)
	tests := []struct{ from, to string }{
		{"/en/?cause=config-change&q=bgp", "/ko/?cause=config-change&q=bgp"},
		{"/ko/?org=cloudflare&org=google-cloud", "/en/?org=cloudflare&org=google-cloud"},
		{"/ko/cases/IL-0090", "/en/cases/IL-0090"},
		{"/en/orgs/cloudflare", "/ko/orgs/cloudflare"},
		{"/ko/graph?cause=power-facility", "/en/graph?cause=power-facility"},
	}
	for _, vp := range viewports {
		t.Run(vp.name(), func(t *testing.T) {
			tb := tb.in(t)
			tb.setViewport(vp)
			for _, tt := range tests {
				tb.openOK(tt.from)
				before := tb.pageFacts()
				tb.click("a.lang-switch")
				want, _ := url.Parse(tt.to)
				tb.expectAt(want.Path, want.Query())
				wantLang := strings.Split(want.Path, "/")[1]
				if got := tb.attr("html", "lang"); got != wantLang {
					t.Errorf("%s → %s: html lang = %q, want %q", tt.from, tt.to, got, wantLang)
				}
				after := tb.pageFacts()
				if before.cards != after.cards || before.chips != after.chips || before.query != after.query || before.caseID != after.caseID {
					t.Errorf("%s → %s: the page changed: before %+v, after %+v", tt.from, tt.to, before, after)
				}
				if before.h1 == after.h1 && !strings.HasPrefix(want.Path, "/"+wantLang+"/orgs/") {
					t.Errorf("%s → %s: the heading %q was not translated", tt.from, tt.to, after.h1)
				}
				// And back again.
				tb.click("a.lang-switch")
				from, _ := url.Parse(tt.from)
				tb.expectAt(from.Path, from.Query())
			}
		})
	}
}

// A case's permalink loads in its language; a path without a language redirects to the
// reader's language: the browser's (Accept-Language) at first, then the one of the last page
// read (the lang cookie).
func TestPermalinks(t *testing.T) {
	tb := newTab(t)
	titles := map[string]string{"en": "Kakao", "ko": "카카오"}
	for _, lang := range []string{"en", "ko"} {
		tb.openOK("/" + lang + "/cases/IL-0003")
		if h1 := tb.text("h1"); !strings.Contains(h1, titles[lang]) {
			t.Errorf("/%s/cases/IL-0003: h1 = %q, want it to name %q", lang, h1, titles[lang])
		}
		if got := tb.attr("html", "lang"); got != lang {
			t.Errorf("/%s/cases/IL-0003: html lang = %q", lang, got)
		}
		if got := tb.text(".case-header .case-id"); got != "IL-0003" {
			t.Errorf("/%s/cases/IL-0003: case id = %q", lang, got)
		}
		if v := evalJS[string](tb, `document.getElementById("permalink").value`); !strings.HasSuffix(v, "/"+lang+"/cases/IL-0003") {
			t.Errorf("/%s/cases/IL-0003: permalink field = %q", lang, v)
		}
		// site.js shows the copy button; it is hidden for readers without JavaScript.
		if !evalJS[bool](tb, `!document.querySelector("button[data-copy]").hidden`) {
			t.Errorf("/%s/cases/IL-0003: the copy button is hidden although JavaScript runs", lang)
		}
	}

	// An id in lower case is redirected to the permalink.
	if resp := tb.open("/en/cases/il-0003"); resp.Status != 200 {
		t.Errorf("/en/cases/il-0003: status %d", resp.Status)
	}
	tb.expectAt("/en/cases/IL-0003", nil)

	// A new reader (new browser context, no cookie) goes to the language the browser asks for.
	for _, tt := range []struct{ acceptLanguage, lang string }{
		{"en-US,en;q=0.9", "en"},
		{"ko-KR,ko;q=0.9,en;q=0.5", "ko"},
	} {
		fresh := newTab(t)
		fresh.do("set Accept-Language", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
				Headers: network.Headers{"Accept-Language": tt.acceptLanguage},
			})
			return err
		}))
		fresh.openOK("/cases/IL-0003")
		fresh.expectAt("/"+tt.lang+"/cases/IL-0003", nil)
		if h1 := fresh.text("h1"); !strings.Contains(h1, titles[tt.lang]) {
			t.Errorf("/cases/IL-0003 with Accept-Language %s: h1 = %q", tt.acceptLanguage, h1)
		}
		// Then the language the reader switched to wins over the browser's, and the redirect
		// keeps the query (here, the listing to go back to).
		for _, lang := range []string{"ko", "en"} {
			fresh.openOK("/lang/" + lang + "?to=%2F" + lang + "%2F") // the language switch remembers the choice
			fresh.openOK("/cases/IL-0003?from=cause%3Dpower-facility")
			fresh.expectAt("/"+lang+"/cases/IL-0003", url.Values{"from": {"cause=power-facility"}})
			if h1 := fresh.text("h1"); !strings.Contains(h1, titles[lang]) {
				t.Errorf("after reading /%s/, /cases/IL-0003: h1 = %q", lang, h1)
			}
			if back := fresh.attr(".crumbs a", "href"); back != "/"+lang+"/?cause=power-facility" {
				t.Errorf("after the redirect the way back links to %q, want /%s/?cause=power-facility", back, lang)
			}
		}
	}
}

// Error pages speak the page's language, say what is wrong, and offer a search that works.
func TestErrorPages(t *testing.T) {
	tb := newTab(t)
	tests := []struct {
		path   string
		status int
		title  string
		lede   string
		search string
	}{
		{"/en/cases/IL-9999", 404, "Page not found", "There is no case IL-9999", "Kakao"},
		{"/ko/cases/IL-9999", 404, "페이지를 찾을 수 없습니다", "IL-9999 사례는 없습니다", "카카오"},
		{"/en/?page=abc", 400, "The request was not understood", "The page number “abc” is not valid", "fire"},
		{"/ko/?page=abc", 400, "요청을 이해하지 못했습니다", "페이지 번호 “abc”는 쓸 수 없습니다", "화재"},
	}
	for _, tt := range tests {
		lang := tt.path[1:3]
		resp := tb.open(tt.path)
		if resp.Status != int64(tt.status) {
			t.Errorf("%s: status %d, want %d", tt.path, resp.Status, tt.status)
		}
		if got := tb.attr("html", "lang"); got != lang {
			t.Errorf("%s: html lang = %q, want %q", tt.path, got, lang)
		}
		if got := tb.text(".error-page h1"); got != tt.title {
			t.Errorf("%s: h1 = %q, want %q", tt.path, got, tt.title)
		}
		if got := tb.text(".error-page .lede"); !strings.Contains(got, tt.lede) {
			t.Errorf("%s: message = %q, want it to contain %q", tt.path, got, tt.lede)
		}
		if got := tb.attr(".error-page a[href]", "href"); got != "/"+lang+"/" {
			t.Errorf("%s: the way back links to %q, want /%s/", tt.path, got, lang)
		}
		// The search form on the error page leads to results in the same language.
		tb.do("type a query on "+tt.path, chromedp.SendKeys(chromedp.ID("q"), tt.search))
		tb.follow("search from "+tt.path, chromedp.Click(chromedp.CSS(".error-page form.search button[type=submit]"), chromedp.NodeVisible))
		tb.expectAt("/"+lang+"/", url.Values{"q": {tt.search}})
		if n := tb.count(".cards .card"); n == 0 {
			t.Errorf("searching %q from %s found nothing", tt.search, tt.path)
		}
	}
}

// With JavaScript disabled the facets, chips, "clear all" and search still work: they are plain
// links and a GET form.
func TestWithoutJavaScript(t *testing.T) {
	tb := newTab(t)
	tb.do("disable JavaScript", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	// Make sure scripts really are off: site.js would show the copy button on a case page.
	scriptsOff := func() {
		t.Helper()
		tb.openOK("/en/cases/IL-0003")
		if !evalJS[bool](tb, `document.querySelector("button[data-copy]").hidden`) {
			t.Fatal("site.js ran: JavaScript is not disabled, so this test would prove nothing")
		}
	}
	scriptsOff()
	for _, lang := range []string{"en", "ko"} {
		t.Run("facets-"+lang, func(t *testing.T) { facetFlow(tb.in(t), lang) })
	}
	t.Run("search", func(t *testing.T) { searchFlow(tb.in(t), "en", "fire", true) })
	scriptsOff()
}

// facet is a facet value link as the reader sees it.
type facet struct {
	Label string `json:"label"`
	Count int    `json:"count"`
	Href  string `json:"href"`
}

// facet reads the first facet value link the selector matches.
func (tb *tab) facet(sel string) facet {
	tb.t.Helper()
	return evalJS[facet](tb, `(() => {
		const a = document.querySelector(`+jsString(sel)+`);
		if (!a) throw new Error("no facet value matches " + `+jsString(sel)+`);
		return {
			label: a.querySelector(".facet-label").innerText.trim(),
			count: parseInt(a.querySelector(".facet-count").innerText, 10),
			href: a.getAttribute("href"),
		};
	})()`)
}

// facetPressed is the aria-pressed value of the facet value link with this label, and "on" when
// it is shown as applied.
func (tb *tab) facetPressed(label string) string {
	tb.t.Helper()
	xpath := `//a[` + hasClass("facet-value") + `][.//*[` + hasClass("facet-label") + `][normalize-space(.) = ` + xpathString(label) + `]]`
	return evalJS[string](tb, `(() => {
		const a = document.evaluate(`+jsString(xpath)+`, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
		if (!a) return "missing";
		return a.getAttribute("aria-pressed") + (a.classList.contains("on") ? " on" : "");
	})()`)
}

// expectCards checks the number of cards and that every card shows each label.
func (tb *tab) expectCards(n int, labels ...string) {
	tb.t.Helper()
	cards := tb.texts(".cards .card")
	if len(cards) != n {
		tb.t.Errorf("%s: %d cards, want %d", tb.location(), len(cards), n)
	}
	for i, c := range cards {
		for _, l := range labels {
			if !strings.Contains(c, l) {
				tb.t.Errorf("%s: card %d does not show %q: %q", tb.location(), i+1, l, c)
			}
		}
	}
}

// expectAt checks the tab's path and query (nil: no query), in any parameter order.
func (tb *tab) expectAt(path string, query url.Values) {
	tb.t.Helper()
	loc := tb.location()
	got := loc.Query()
	if len(got) == 0 {
		got = nil
	}
	if len(query) == 0 {
		query = nil
	}
	if loc.Path != path || !reflect.DeepEqual(got, query) {
		tb.t.Fatalf("at %s, want %s?%s", loc.RequestURI(), path, query.Encode())
	}
}

// hasClass is an XPath test for a class name.
func hasClass(name string) string {
	return `contains(concat(" ", normalize-space(@class), " "), " ` + name + ` ")`
}

func facetFlow(tb *tab, lang string) {
	t := tb.t
	t.Helper()
	home := "/" + lang + "/"
	tb.openOK(home)
	if got := tb.attr("html", "lang"); got != lang {
		t.Fatalf("%s: html lang = %q", home, got)
	}
	tb.waitVisible(".cards .card")
	allCount, allCards := tb.text(".count"), tb.count(".cards .card")
	if allCards < 5 || tb.count(".applied") != 0 {
		t.Fatalf("%s: %d cards and %d applied filters, want the full fixture list", home, allCards, tb.count(".applied"))
	}

	// A cause, in the first group, which is open.
	const causeSel = `a.facet-value[href*="cause=power-facility"]`
	cause := tb.facet(causeSel)
	if cause.Count < 1 || cause.Count >= allCards {
		t.Fatalf("%s: facet %q counts %d of %d cases", home, cause.Label, cause.Count, allCards)
	}
	if got := tb.facetPressed(cause.Label); got != "false" {
		t.Errorf("the facet %q before it is applied: aria-pressed and class = %q, want \"false\"", cause.Label, got)
	}
	tb.click(causeSel)
	tb.expectAt(home, url.Values{"cause": {"power-facility"}})
	causeCount := tb.text(".count")
	if causeCount == allCount {
		t.Errorf("after %q the count still says %q", cause.Label, causeCount)
	}
	tb.expectCards(cause.Count, cause.Label)
	if got := tb.facetPressed(cause.Label); got != "true on" {
		t.Errorf("the applied facet %q: aria-pressed and class = %q, want \"true on\"", cause.Label, got)
	}
	if chips := strings.Join(tb.texts(".applied .chip"), "|"); !strings.Contains(chips, cause.Label) {
		t.Errorf("no chip for %q: %q", cause.Label, chips)
	}

	// An organization: every group is open and shows its most frequent values first.
	orgGroup := `//details[` + hasClass("facet") + `][.//a[contains(@href, "org=")]]`
	if !evalJS[bool](tb, `document.evaluate(`+jsString(orgGroup)+`, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue.open`) {
		t.Errorf("the organization group is closed: its values are out of sight")
	}
	const orgSel = `details.facet[open] a.facet-value[href*="org="]`
	tb.waitVisible(orgSel)
	org := tb.facet(orgSel)
	if org.Count < 1 || org.Count >= cause.Count {
		t.Fatalf("facet %q counts %d of the %d cases of %q; the fixtures changed", org.Label, org.Count, cause.Count, cause.Label)
	}
	tb.click(orgSel)
	orgHref, _ := url.Parse(org.Href)
	orgSlug := orgHref.Query().Get("org")
	tb.expectAt(home, url.Values{"cause": {"power-facility"}, "org": {orgSlug}})
	if got := tb.text(".count"); got == causeCount {
		t.Errorf("after %q the count still says %q", org.Label, got)
	}
	tb.expectCards(org.Count, cause.Label, org.Label)

	// The organization's chip removes only it.
	tb.clickSearch("the chip of "+org.Label, `//*[`+hasClass("applied")+`]//a[`+hasClass("chip")+`][contains(normalize-space(.), `+xpathString(org.Label)+`)]`)
	tb.expectAt(home, url.Values{"cause": {"power-facility"}})
	if got := tb.text(".count"); got != causeCount {
		t.Errorf("after removing %q the count says %q, want %q", org.Label, got, causeCount)
	}
	tb.expectCards(cause.Count, cause.Label)

	// "Clear all" returns to the full list.
	tb.click(".applied a.clear-all")
	tb.expectAt(home, nil)
	if got := tb.text(".count"); got != allCount {
		t.Errorf("after clear all the count says %q, want %q", got, allCount)
	}
	if n := tb.count(".cards .card"); n != allCards || tb.count(".applied") != 0 {
		t.Errorf("after clear all: %d cards, %d applied filters; want %d and none", n, tb.count(".applied"), allCards)
	}
}

func searchFlow(tb *tab, lang, query string, enter bool) {
	t := tb.t
	t.Helper()
	home := "/" + lang + "/"
	tb.openOK(home)
	tb.waitVisible("#q")
	tb.do("type "+query, chromedp.SendKeys(chromedp.ID("q"), query))
	if enter {
		tb.follow("press Enter", chromedp.SendKeys(chromedp.ID("q"), kb.Enter))
	} else {
		tb.follow("click the search button", chromedp.Click(chromedp.CSS("form.search button[type=submit]"), chromedp.NodeVisible))
	}
	tb.expectAt(home, url.Values{"q": {query}})
	if got := evalJS[string](tb, `document.getElementById("q").value`); got != query {
		t.Errorf("the search box holds %q after searching %q", got, query)
	}
	tb.waitVisible(".cards .card")
	if ids := strings.Join(tb.texts(".cards .case-id"), " "); !strings.Contains(ids, "IL-0003") {
		t.Errorf("searching %q did not find IL-0003 (Kakao data center fire): %s", query, ids)
	}
	marks := tb.texts(".cards mark")
	found := false
	for _, m := range marks {
		found = found || strings.Contains(strings.ToLower(m), strings.ToLower(query))
	}
	if !found {
		t.Errorf("searching %q: no highlight shows it; marks = %q", query, marks)
	}
	if chips := strings.Join(tb.texts(".applied .chip"), "|"); !strings.Contains(chips, query) {
		t.Errorf("searching %q: no chip for the query: %q", query, chips)
	}
}

// in is the same tab, failing the given (sub)test.
func (tb *tab) in(t testing.TB) *tab { c := *tb; c.t = t; return &c }

// facts are what must not change when the language switches.
type facts struct {
	h1     string
	cards  int
	chips  int
	query  string
	caseID string
}

func (tb *tab) pageFacts() facts {
	tb.t.Helper()
	f := facts{h1: tb.text("h1"), cards: tb.count(".cards .card"), chips: tb.count(".applied .chip")}
	if tb.count("#q") > 0 {
		f.query = evalJS[string](tb, `document.getElementById("q").value`)
	}
	if ids := tb.texts(".case-header .case-id"); len(ids) > 0 {
		f.caseID = ids[0]
	}
	return f
}

// Every label of the catalog graph fits inside the drawing, in both languages.
func TestGraphLabelsFit(t *testing.T) {
	tb := newTab(t)
	for _, lang := range []string{"en", "ko"} {
		tb.openOK("/" + lang + "/graph")
		cut := evalJS[[]string](tb, `(() => { const svg = document.querySelector("svg.graph"); const w = svg.viewBox.baseVal.width;
			return Array.from(svg.querySelectorAll("text")).filter(t => { const b = t.getBBox(); return b.x + b.width > w + 1; }).map(t => t.textContent); })()`)
		if len(cut) > 0 {
			t.Errorf("/%s/graph: labels past the right edge: %v", lang, cut)
		}
		tb.openOK("/" + lang + "/?cause=power-facility")
		small := evalJS[float64](tb, `parseFloat(getComputedStyle(document.querySelector(".graph-small .graph .nodes text")).fontSize) * document.querySelector(".graph-small svg.graph").getBoundingClientRect().width / document.querySelector(".graph-small svg.graph").viewBox.baseVal.width`)
		if small < 11.9 {
			t.Errorf("/%s/: the listing's small graph draws labels at %.1f px, want at least 12", lang, small)
		}
	}
}

// Finding and reading in a real browser: an id typed into search opens the case; an unknown
// filter value is dropped with its suggestion, which applies the closest value; at phone width
// a filter chosen from the filters comes back to the filters; and previous/next walk the
// listing's results.
func TestFindingFlows(t *testing.T) {
	tb := newTab(t)

	t.Run("id search", func(t *testing.T) {
		tb := tb.in(t)
		tb.openOK("/en/")
		tb.waitVisible("#q")
		tb.do("type an id", chromedp.SendKeys(chromedp.ID("q"), "il0003"))
		tb.follow("press Enter", chromedp.SendKeys(chromedp.ID("q"), kb.Enter))
		tb.expectAt("/en/cases/IL-0003", nil)
	})

	t.Run("unknown filter value", func(t *testing.T) {
		tb := tb.in(t)
		tb.openOK("/ko/?org=cloudflar&cause=config-change")
		if notice := tb.text(".notice"); !strings.Contains(notice, "cloudflar") || !strings.Contains(notice, "혹시 이것인가요") {
			t.Errorf("notice = %q", notice)
		}
		tb.click(".notice a")
		tb.expectAt("/ko/", url.Values{"cause": {"config-change"}, "org": {"cloudflare"}})
		if tb.count(".notice") != 0 {
			t.Error("the notice stays after applying the suggestion")
		}
	})

	t.Run("filters at phone width", func(t *testing.T) {
		tb := tb.in(t)
		tb.setViewport(viewports[0])
		tb.openOK("/en/")
		tb.do("tap Filters", chromedp.Click("a.filters-toggle", chromedp.NodeVisible), chromedp.Sleep(300*time.Millisecond))
		if y := evalJS[float64](tb, `document.getElementById("filters").getBoundingClientRect().top`); y < -2 || y > 200 {
			t.Errorf("after the Filters control, the filters are at %.0f px from the top", y)
		}
		tb.click(`#filters a.facet-value[href*="cause=power-facility"]`)
		tb.expectAt("/en/", url.Values{"cause": {"power-facility"}})
		if y := evalJS[float64](tb, `document.getElementById("filters").getBoundingClientRect().top`); y < -2 || y > 200 {
			t.Errorf("after choosing a filter the reader is not back at the filters (%.0f px)", y)
		}
		tb.setViewport(viewports[1])
	})

	t.Run("previous and next in the results", func(t *testing.T) {
		tb := tb.in(t)
		tb.openOK("/ko/?org=cloudflare&org=google-cloud")
		ids := tb.texts(".cards .case-id")
		if len(ids) < 3 {
			t.Fatalf("listing has %v", ids)
		}
		tb.click(`.cards li:nth-child(2) .card-title a`)
		if got := tb.text(".case-header .case-id"); got != ids[1] {
			t.Fatalf("opened %s, want %s", got, ids[1])
		}
		if label := tb.text(".prevnext a.next .prevnext-label"); !strings.Contains(label, "다음 사례") {
			t.Errorf("next label = %q", label)
		}
		tb.click(".prevnext a.next")
		if got := tb.text(".case-header .case-id"); got != ids[2] {
			t.Errorf("next opened %s, want %s (the listing's third case)", got, ids[2])
		}
		if back := tb.attr(".crumbs a", "href"); back != "/ko/?org=cloudflare&org=google-cloud" {
			t.Errorf("back link after walking = %q", back)
		}
	})
}
