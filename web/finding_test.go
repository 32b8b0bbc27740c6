package web

import (
	"encoding/json"
	"github.com/PuerkitoBio/goquery"
	"image/png"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/catalog"
)

// An unknown filter value on a page is left out with a notice naming the closest value, and the
// other filters stay; the API keeps its 400 and lists the closest values.
func TestUnknownFilterValue(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?org=cloudflar&cause=config-change")
	if r.status != 200 {
		t.Fatalf("status %d", r.status)
	}
	notice := r.doc.Find(".notice")
	if !strings.Contains(notice.Text(), "No organization “cloudflar”") || !strings.Contains(strings.Join(strings.Fields(notice.Text()), " "), "Closest values: Cloudflare") {
		t.Errorf("notice = %q", notice.Text())
	}
	if href, _ := notice.Find("a").Attr("href"); href != "/en/?cause=config-change&org=cloudflare" {
		t.Errorf("suggestion links to %q", href)
	}
	if !strings.Contains(r.doc.Find(".applied").Text(), "Configuration change") {
		t.Error("the other filter was lost")
	}
	ko := get(t, s, "/ko/?org=cloudflar")
	if txt := ko.doc.Find(".notice").Text(); !strings.Contains(txt, "조직 “cloudflar”") || strings.Contains(txt, "org “") {
		t.Errorf("Korean notice = %q, want the kind named in Korean", txt)
	}
	a := get(t, s, "/api/v1/cases?org=cloudflar")
	var body struct {
		Code    string   `json:"code"`
		Param   string   `json:"param"`
		Message string   `json:"message"`
		Closest []string `json:"closest"`
	}
	json.Unmarshal([]byte(a.body), &body)
	if a.status != 400 || body.Param != "org" || len(body.Closest) == 0 || body.Closest[0] != "cloudflare" {
		t.Errorf("API = %d %+v", a.status, body)
	}
	ako := get(t, s, "/api/v1/cases?org=cloudflar&lang=ko")
	if !strings.Contains(ako.body, "조직") {
		t.Errorf("API error with lang=ko is not in Korean: %s", ako.body)
	}
}

// A case id typed into search goes straight to the case.
func TestIDSearchJumps(t *testing.T) {
	s := newTestServer(t)
	for _, q := range []string{"IL-0003", "il0003", " il-0003 ", "IL0003"} {
		r := get(t, s, "/en/?q="+strings.ReplaceAll(q, " ", "+"))
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/en/cases/IL-0003" {
			t.Errorf("search %q = %d to %q", q, r.status, r.header.Get("Location"))
		}
	}
	if r := get(t, s, "/en/?q=IL-9999"); r.status != 200 {
		t.Errorf("an id with no case = %d, want the listing", r.status)
	}
}

// A search with no result says which filter to remove and how many cases that gives.
func TestNoResultsSuggestsWidening(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?cause=power-facility&org=cloudflare")
	if r.doc.Find(".cards li").Length() != 0 {
		t.Fatal("expected no result")
	}
	items := r.doc.Find(".widen li")
	if items.Length() != 2 {
		t.Fatalf("widen offers %d choices, want 2: %s", items.Length(), r.doc.Find(".empty").Text())
	}
	text := items.Text()
	if !strings.Contains(text, "Organization: Cloudflare (3 cases)") && !strings.Contains(text, "Cause: Power and facility") {
		t.Errorf("widen = %q", text)
	}
	href, _ := items.First().Find("a").Attr("href")
	if w := get(t, s, href); w.doc.Find(".cards li").Length() == 0 {
		t.Errorf("following %s gives no case", href)
	}
}

// Cards show the headline, then a line each for trigger, detection and fix, search words marked.
func TestCardsSummarise(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?q=battery")
	card := r.doc.Find(".card").First()
	if card.Find(".card-lines dt").Length() < 2 {
		t.Errorf("card lines: %q", card.Find(".card-lines").Text())
	}
	if card.Find(".card-lines mark").Length() == 0 {
		t.Error("search words are not marked in the card lines")
	}
	if r := get(t, s, "/en/?cause=config-change&org=cloudflare"); !strings.Contains(r.doc.Find(`meta[name=description]`).AttrOr("content", ""), "Organization: Cloudflare") {
		t.Errorf("filtered listing description = %q", r.doc.Find(`meta[name=description]`).AttrOr("content", ""))
	}
}

// A case's og:image is a 1200×630 PNG, linked from its page with a large-image card.
func TestCaseCardImage(t *testing.T) {
	s := newTestServer(t)
	page := get(t, s, "/ko/cases/IL-0003")
	src := page.doc.Find(`meta[property="og:image"]`).AttrOr("content", "")
	if src != "http://example.com/ko/cases/IL-0003/card.png" || page.doc.Find(`meta[name="twitter:card"]`).AttrOr("content", "") != "summary_large_image" {
		t.Fatalf("og:image = %q", src)
	}
	if og := page.doc.Find(`meta[property="og:title"]`).AttrOr("content", ""); !strings.HasPrefix(og, "IL-0003 · 카카오 · 2022-10-15 — ") {
		t.Errorf("og:title = %q", og)
	}
	r := get(t, s, "/ko/cases/IL-0003/card.png")
	if r.status != 200 || r.header.Get("Content-Type") != "image/png" {
		t.Fatalf("card = %d %q", r.status, r.header.Get("Content-Type"))
	}
	img, err := png.Decode(strings.NewReader(r.body))
	if err != nil || img.Bounds().Dx() != 1200 || img.Bounds().Dy() != 630 {
		t.Fatalf("card decodes to %v, %v", img.Bounds(), err)
	}
	// the headline is drawn: many dark pixels in the text area
	dark := 0
	for y := 180; y < 480; y += 2 {
		for x := 70; x < 1130; x += 2 {
			if r, g, b, _ := img.At(x, y).RGBA(); r < 0x4000 && g < 0x4000 && b < 0x4000 {
				dark++
			}
		}
	}
	if dark < 2000 {
		t.Errorf("only %d dark pixels where the headline should be", dark)
	}
	if r := get(t, s, "/en/cases/IL-9999/card.png"); r.status != 404 {
		t.Errorf("card of a missing case = %d", r.status)
	}
}

// Every kind has an index page: all values with counts, sorted in the page's language, narrowed
// by typed words without JavaScript.
func TestIndexPages(t *testing.T) {
	s := newTestServer(t)
	for _, p := range []string{"/en/causes", "/ko/symptoms", "/en/components", "/ko/factors", "/en/orgs", "/ko/orgs", "/en/years"} {
		r := get(t, s, p)
		if r.status != 200 || r.doc.Find(".index-list li").Length() == 0 {
			t.Errorf("%s = %d with %d values", p, r.status, r.doc.Find(".index-list li").Length())
		}
	}
	// On Korean pages Hangul names come first, in 가나다 order, then the others.
	ko := texts(get(t, s, "/ko/orgs").doc.Find(".index-label"))
	if len(ko) < 3 || ko[0] != "네이버" || ko[1] != "카카오" || ko[2] != "Atlassian" {
		t.Errorf("Korean org index = %v, want 네이버, 카카오, then Latin names", ko)
	}
	if en := texts(get(t, s, "/en/orgs").doc.Find(".index-label")); en[0] != "Atlassian" {
		t.Errorf("English org index = %v", en)
	}
	n := get(t, s, "/en/orgs?q=cloud")
	got := texts(n.doc.Find(".index-label"))
	if len(got) != 2 || !slices.Contains(got, "Cloudflare") || !slices.Contains(got, "Google Cloud") {
		t.Errorf("orgs narrowed by 'cloud' = %v", got)
	}
	if c := get(t, s, "/en/causes"); !strings.Contains(c.doc.Find(".index-def").First().Text(), "") || c.doc.Find(".index-def").Length() == 0 {
		t.Error("the causes index has no definitions")
	}
	if r := get(t, s, "/en/nonsense"); r.status != 404 {
		t.Errorf("/en/nonsense = %d", r.status)
	}
	// the facet's "all" link leads here
	l := get(t, s, "/en/")
	for _, a := range texts(l.doc.Find(".facet-all")) {
		if a == "" {
			t.Error("empty all link")
		}
	}
}

// A case opened from a listing walks that listing's results, with titles, keeping the listing;
// one opened from a topic page leads back to it.
func TestReadingInOrder(t *testing.T) {
	s := newTestServer(t)
	list := get(t, s, "/en/?org=cloudflare&org=google-cloud")
	var ids []string
	list.doc.Find(".card .case-id").Each(func(_ int, sel *goquery.Selection) { ids = append(ids, sel.Text()) })
	if len(ids) < 3 {
		t.Fatalf("listing has %v", ids)
	}
	from := "org=cloudflare&org=google-cloud"
	c := get(t, s, "/en/cases/"+ids[1]+"?from="+url.QueryEscape(from))
	prev, _ := c.doc.Find(".prevnext a.prev").Attr("href")
	next, _ := c.doc.Find(".prevnext a.next").Attr("href")
	if prev != "/en/cases/"+ids[0]+"?from="+url.QueryEscape(from) || next != "/en/cases/"+ids[2]+"?from="+url.QueryEscape(from) {
		t.Errorf("walking %v from %s: prev %q, next %q", ids, ids[1], prev, next)
	}
	if title := c.doc.Find(".prevnext a.next .prevnext-title").Text(); title == "" || strings.HasPrefix(title, "IL-") {
		t.Errorf("next shows %q, want a title", title)
	}
	related, _ := c.doc.Find("#related a").First().Attr("href")
	if !strings.Contains(related, "from=") {
		t.Errorf("related link %q loses the listing", related)
	}
	ko := get(t, s, "/ko/cases/"+ids[1]+"?from="+url.QueryEscape(from))
	if got := ko.doc.Find(".prevnext .prevnext-label").Text(); !strings.Contains(got, "이전 사례") || !strings.Contains(got, "다음 사례") {
		t.Errorf("Korean labels = %q", got)
	}
	topic := get(t, s, "/en/causes/power-facility")
	href, _ := topic.doc.Find(".card-title a").First().Attr("href")
	tc := get(t, s, href)
	if back, _ := tc.doc.Find(".crumbs a").Attr("href"); back != "/en/causes/power-facility" {
		t.Errorf("a case from a topic page leads back to %q (from %s)", back, href)
	}
}

// A topic page lists its cases 20 at a time with a pager, and its year chart starts at the
// first year with cases, grouping a long tail of early years.
func TestTopicPagingAndYears(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/causes/power-facility")
	if n := r.doc.Find(".cards .card").Length(); n == 0 || n > catalog.DefaultPageSize {
		t.Errorf("topic lists %d cards", n)
	}
	if r := get(t, s, "/en/causes/power-facility?page=9"); r.status != 400 {
		t.Errorf("a page past the end = %d, want 400", r.status)
	}
	years := texts(r.doc.Find(".year-chart text.y"))
	if len(years) == 0 || len(years) > 13 {
		t.Errorf("year chart columns %v", years)
	}
}

// The site has a PNG icon and /favicon.ico.
func TestFavicon(t *testing.T) {
	s := newTestServer(t)
	for path, ctype := range map[string]string{"/favicon.ico": "image/x-icon", "/favicon.png": "image/png", "/apple-touch-icon.png": "image/png"} {
		r := get(t, s, path)
		if r.status != 200 || r.header.Get("Content-Type") != ctype || len(r.body) < 100 {
			t.Errorf("%s = %d %q %d bytes", path, r.status, r.header.Get("Content-Type"), len(r.body))
		}
	}
	ico := get(t, s, "/favicon.ico").body
	if !strings.HasPrefix(ico, "\x00\x00\x01\x00\x03\x00") || !strings.Contains(ico, "\x89PNG") {
		t.Error("/favicon.ico is not an ICO holding PNGs")
	}
	img, err := png.Decode(strings.NewReader(get(t, s, "/apple-touch-icon.png").body))
	if err != nil || img.Bounds().Dx() != 180 {
		t.Errorf("apple-touch-icon: %v %v", err, img)
	}
}

// The listing can show its page grouped by main cause, and keeps the grouping when paging.
func TestGroupByCause(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?group=cause")
	heads := texts(r.doc.Find("h2.card-group"))
	if len(heads) < 2 || r.doc.Find(".cards .card").Length() == 0 {
		t.Fatalf("grouped listing: heads %v", heads)
	}
	if href, _ := r.doc.Find(".group-toggle a").Attr("href"); href != "/en/" {
		t.Errorf("ungroup link = %q", href)
	}
	if r := get(t, s, "/en/?group=org"); r.status != 400 {
		t.Errorf("unknown grouping = %d", r.status)
	}
}

// An organization's page names its country in the page's language.
func TestOrgCountry(t *testing.T) {
	s := newTestServer(t)
	if r := get(t, s, "/ko/orgs/kakao"); !strings.Contains(r.doc.Find(".topic-header .kind").Text(), "대한민국") {
		t.Errorf("Kakao's page: %q", r.doc.Find(".topic-header .kind").Text())
	}
	if r := get(t, s, "/en/orgs/kakao"); !strings.Contains(r.doc.Find(".topic-header .kind").Text(), "South Korea") {
		t.Errorf("Kakao's page: %q", r.doc.Find(".topic-header .kind").Text())
	}
}

// On a Korean page the did-you-mean values are named in Korean.
func TestDidYouMeanInThePagesLanguage(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/ko/?cause=power-facilty")
	if txt := r.doc.Find(".did-you-mean").Text(); !strings.Contains(txt, "전력·시설") {
		t.Errorf("Korean did-you-mean = %q, want the Korean label", txt)
	}
}
