package web

import (
	"bytes"
	"encoding/json"
	"incidentlib/internal/model"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
	"incidentlib/internal/testcatalog"
	"incidentlib/views"
)

// supportOf counts, from the data files, the cases whose action items support each check.
func supportOf(t *testing.T) map[string]int {
	t.Helper()
	d, err := build.Load(testcatalog.Dir())
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range d.Cases {
		for slug := range c.Checks {
			n[slug]++
		}
	}
	return n
}

// The checks page lists every check backed by at least two cases, with that count, and no other.
func TestChecksCountsMatchCases(t *testing.T) {
	s := newTestServer(t)
	want := supportOf(t)
	r := get(t, s, "/en/checks")
	if r.status != 200 {
		t.Fatalf("/en/checks = %d", r.status)
	}
	shown := map[string]bool{}
	r.doc.Find(".check-item").Each(func(_ int, it *goquery.Selection) {
		href, _ := it.Find("a.check-title").Attr("href")
		slug := strings.TrimPrefix(href, "/en/checks/")
		shown[slug] = true
		meta := it.Find(".check-meta").Text()
		if n := want[slug]; !strings.Contains(meta, "backed by "+itoa(n)+" case") {
			t.Errorf("%s says %q, want backed by %d cases", slug, meta, n)
		}
	})
	for slug, n := range want {
		if shown[slug] != (n >= catalog.MinSupport) {
			t.Errorf("check %s backed by %d cases: shown = %v", slug, n, shown[slug])
		}
	}
	if len(shown) == 0 {
		t.Fatal("no check shown")
	}
	// one check: its cases and their action items
	d := get(t, s, "/en/checks/datacenter-loss-drill")
	if got := d.doc.Find(".evidence > li").Length(); got != want["datacenter-loss-drill"] {
		t.Errorf("check page lists %d cases, want %d", got, want["datacenter-loss-drill"])
	}
	if !strings.Contains(d.body, "Repair and re-test the zonal failover automation") {
		t.Error("check page lacks the action item behind it")
	}
	if r := get(t, s, "/en/checks/production-write-guard"); r.status != 404 {
		t.Errorf("a check backed by one case = %d, want 404", r.status)
	}
	if r := get(t, s, "/ko/checks/no-such-check"); r.status != 404 || !strings.Contains(r.body, "점검 항목") {
		t.Errorf("unknown check = %d", r.status)
	} else if a := r.doc.Find("a.error-up"); a.AttrOr("href", "") != "/ko/checks" || strings.TrimSpace(a.Text()) != "점검 목록" {
		t.Errorf("unknown check's page links %q (%q), want /ko/checks (점검 목록)", a.AttrOr("href", ""), a.Text())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A checklist for a stack keeps the checks of the chosen components and factors, on the page,
// as Markdown, in the API and through MCP.
func TestChecklistForStack(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/checks?component=database")
	if r.doc.Find(".check-item").Length() != 0 {
		t.Errorf("database stack shows %d checks; the only database check is backed by one case", r.doc.Find(".check-item").Length())
	}
	r = get(t, s, "/ko/checks?component=backup&factor=runbook-gap")
	if n := r.doc.Find(".check-item").Length(); n != 2 {
		t.Errorf("backup stack shows %d checks, want 2", n)
	}
	if _, ok := r.doc.Find(`input[name=component][value=backup]`).Attr("checked"); !ok {
		t.Error("the chosen component is not ticked in the form")
	}
	if r := get(t, s, "/en/checks?component=gremlins"); r.status != 400 {
		t.Errorf("unknown component = %d, want 400", r.status)
	}
	md := get(t, s, "/en/checks?component=backup&format=md")
	if md.status != 200 || !strings.HasPrefix(md.header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("markdown = %d %q", md.status, md.header.Get("Content-Type"))
	}
	src := []byte(md.body)
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	var items, headings, links int
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			headings++
		case *ast.ListItem:
			items++
			if !bytes.HasPrefix(bytes.TrimSpace(n.FirstChild().(*ast.TextBlock).Lines().Value(src)), []byte("[ ] ")) {
				t.Errorf("list item %q is not a task", n.FirstChild().(*ast.TextBlock).Lines().Value(src))
			}
		case *ast.Link:
			links++
			if !strings.HasPrefix(string(n.Destination), "http://example.com/en/checks/") {
				t.Errorf("link to %s", n.Destination)
			}
		}
		return ast.WalkContinue, nil
	})
	if items != 2 || links != 2 || headings < 2 {
		t.Errorf("markdown has %d items, %d links, %d headings; want 2, 2 and a title with groups:\n%s", items, links, headings, md.body)
	}
	var html bytes.Buffer
	if err := goldmark.Convert(src, &html); err != nil || !strings.Contains(html.String(), "<li>[ ] Rehearse losing a whole data center") {
		t.Errorf("rendered markdown: %v\n%s", err, html.String())
	}
	var api struct {
		Checks []struct {
			Slug  string
			Cases int
		}
	}
	a := get(t, s, "/api/v1/checks?component=backup")
	if err := json.Unmarshal([]byte(a.body), &api); err != nil || len(api.Checks) != 2 {
		t.Errorf("API checklist = %v %s", err, a.body)
	}
}

// MCP's get_checklist answers what to check in a system that uses a component.
func TestMCPGetChecklist(t *testing.T) {
	cs := mcpConnect(t, "")
	var out model.Checklist
	text := call(t, cs, "get_checklist", map[string]any{"component": []string{"datacenter"}, "lang": "ko"}, &out)
	if len(out.Checks) != 1 || out.Checks[0].Slug != "datacenter-loss-drill" || out.Checks[0].Cases != 2 {
		t.Errorf("checks = %+v", out.Checks)
	}
	if !strings.Contains(text, "- [ ] 운영 도구까지 포함해") {
		t.Errorf("text = %s", text)
	}
	res, msg := callTool(t, cs, "get_checklist", map[string]any{"component": []string{"gremlins"}})
	if !res.IsError || !strings.Contains(msg, "gremlins") {
		t.Errorf("unknown component: %v %s", res.IsError, msg)
	}
}

// The timeline shows the time since the start, and its marks agree with the case's durations.
func TestTimelineMatchesDurations(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/cases/IL-0048")
	events := r.doc.Find("#timeline .tl-event")
	if events.Length() != 5 {
		t.Fatalf("timeline has %d events, want 5", events.Length())
	}
	detect, resolve := 13, 62
	if got := r.doc.Find(".tl-detected .tl-elapsed").Text(); got != "+"+views.FormatMinutes("en", &detect) {
		t.Errorf("detected at %q, want +%s as time_to_detect says", got, views.FormatMinutes("en", &detect))
	}
	if got := r.doc.Find(".tl-resolved .tl-elapsed").Text(); got != "+"+views.FormatMinutes("en", &resolve) {
		t.Errorf("resolved at %q, want +%s as time_to_resolve says", got, views.FormatMinutes("en", &resolve))
	}
	if r.doc.Find(".facts").Text() == "" || !strings.Contains(r.doc.Find(".facts").Text(), views.FormatMinutes("en", &resolve)) {
		t.Error("facts do not show time to resolve")
	}
	if got := r.doc.Find(".tl-start .tl-mark").Text(); got != "Impact starts" {
		t.Errorf("start mark = %q", got)
	}
	ko := get(t, s, "/ko/cases/IL-0048")
	if got := ko.doc.Find(".tl-resolved .tl-elapsed").Text(); got != "+1시간 2분" {
		t.Errorf("Korean elapsed = %q, want +1시간 2분", got)
	}
	var api struct {
		Timeline []struct {
			At, UTC, Mark string
			Text          map[string]string
		}
	}
	a := get(t, s, "/api/v1/cases/IL-0048")
	if err := json.Unmarshal([]byte(a.body), &api); err != nil || len(api.Timeline) != 5 || api.Timeline[1].Mark != "start" ||
		api.Timeline[1].Text["ko"] == "" || api.Timeline[1].Text["en"] == "" {
		t.Errorf("API timeline = %+v %v", api.Timeline, err)
	}
}

// ?view=both shows each section in both languages; the toggle leads there and back.
func TestSideBySide(t *testing.T) {
	s := newTestServer(t)
	one := get(t, s, "/en/cases/IL-0003")
	href, _ := one.doc.Find(".view-toggle a").Attr("href")
	if href != "/en/cases/IL-0003?view=both" {
		t.Fatalf("toggle = %q", href)
	}
	both := get(t, s, href)
	pairs := both.doc.Find("section.both .pair")
	if pairs.Length() != len(catalog.Sections()) {
		t.Errorf("%d paired sections, want %d", pairs.Length(), len(catalog.Sections()))
	}
	trigger := both.doc.Find("#trigger .pair-col")
	if trigger.Length() != 2 || trigger.Eq(1).AttrOr("lang", "") != "ko" || !strings.Contains(trigger.Eq(1).Text(), "배터리") {
		t.Errorf("trigger pair: %d columns, second in %q", trigger.Length(), trigger.Eq(1).AttrOr("lang", ""))
	}
	if r := get(t, s, "/en/cases/IL-0003?view=sideways"); r.status != 400 {
		t.Errorf("bad view = %d, want 400", r.status)
	}
}

// A case can be cited in BibTeX and CSL-JSON, by its permalink with its source.
func TestCite(t *testing.T) {
	s := newTestServer(t)
	b := get(t, s, "/api/v1/cases/IL-0003/cite?format=bibtex")
	for _, want := range []string{"@misc{IL0003,", "url = {http://example.com/en/cases/IL-0003}", "year = {2022}", "month = {oct}"} {
		if !strings.Contains(b.body, want) {
			t.Errorf("BibTeX lacks %q:\n%s", want, b.body)
		}
	}
	if strings.Count(b.body, "{") != strings.Count(b.body, "}") {
		t.Errorf("BibTeX braces do not balance:\n%s", b.body)
	}
	var csl []map[string]any
	c := get(t, s, "/api/v1/cases/IL-0003/cite?format=csl-json&lang=ko")
	if err := json.Unmarshal([]byte(c.body), &csl); err != nil || len(csl) != 1 || csl[0]["id"] != "IL-0003" ||
		csl[0]["URL"] != "http://example.com/ko/cases/IL-0003" || csl[0]["type"] != "webpage" {
		t.Errorf("CSL-JSON = %v %s", err, c.body)
	}
	if r := get(t, s, "/api/v1/cases/IL-0003/cite?format=ris"); r.status != 400 {
		t.Errorf("unknown format = %d", r.status)
	}
}

// A case links to the same event at other organizations (both ways) and to its organization's
// earlier cases.
func TestCaseLinks(t *testing.T) {
	s := newTestServer(t)
	for id, want := range map[string]string{"IL-0003": "IL-0004", "IL-0004": "IL-0003"} {
		r := get(t, s, "/en/cases/"+id)
		sec := r.doc.Find("#links")
		if !strings.Contains(sec.Find("h3").Text(), "The same event elsewhere") || !strings.Contains(sec.Text(), want) {
			t.Errorf("%s links: %q", id, sec.Text())
		}
	}
	r := get(t, s, "/ko/cases/IL-0049")
	if sec := r.doc.Find("#links"); !strings.Contains(sec.Text(), "Google Cloud의 이전 사례") || !strings.Contains(sec.Text(), "IL-0088") {
		t.Errorf("IL-0049 earlier at the same org: %q", sec.Text())
	}
	if r := get(t, s, "/en/cases/IL-0088"); r.doc.Find("#links").Length() != 0 {
		t.Error("the earliest Google Cloud case links to earlier ones")
	}
	var api struct{ Links []model.CaseLink }
	a := get(t, s, "/api/v1/cases/IL-0004")
	if json.Unmarshal([]byte(a.body), &api); len(api.Links) != 1 || api.Links[0].Kind != "same-event" || api.Links[0].ID != "IL-0003" {
		t.Errorf("API links = %+v", api.Links)
	}
}

// The durations page draws a box plot per main cause and component with the median beside it,
// and its medians agree with the cases.
func TestStatsPage(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/stats")
	if r.status != 200 {
		t.Fatalf("/en/stats = %d", r.status)
	}
	d, err := build.Load(testcatalog.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var resolve []int
	for _, c := range d.Cases {
		if c.TimeToResolve != nil {
			resolve = append(resolve, *c.TimeToResolve)
		}
	}
	slices.Sort(resolve)
	m := int(catalog.Quantile(resolve, .5) + .5)
	first := r.doc.Find(".spread-table tbody tr").First()
	if got := first.Find("td.num").Eq(1).Text(); !strings.HasPrefix(got, views.FormatMinutes("en", &m)) {
		t.Errorf("median time to resolve of every case = %q, want %s", got, views.FormatMinutes("en", &m))
	}
	if n := first.Find("svg.boxplot").Eq(1).Find("circle").Length(); n != len(resolve) {
		t.Errorf("the resolve plot has %d dots, want one per case with a time (%d)", n, len(resolve))
	}
	if r.doc.Find(".spread-table").Length() != 3 {
		t.Errorf("%d tables, want every case, by cause and by component", r.doc.Find(".spread-table").Length())
	}
	topic := get(t, s, "/ko/causes/config-change")
	if topic.doc.Find(".spread-section svg.boxplot").Length() == 0 {
		t.Error("the topic page has no durations")
	}
	comp := get(t, s, "/en/components/datacenter")
	if !strings.Contains(comp.doc.Find(".topic-checks").Text(), "Rehearse losing a whole data center") {
		t.Errorf("the datacenter page does not say what to check: %q", comp.doc.Find(".topic-checks").Text())
	}
}
