package web

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// The graph holds one node per value with its case count, linked to its topic page.
func TestGraphNodesAndCounts(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/graph")
	counts := map[string]string{}
	r.doc.Find("svg.graph a.node").Each(func(_ int, n *goquery.Selection) {
		href, _ := n.Attr("href")
		counts[href] = strings.TrimSpace(n.Find("tspan.n").Text())
	})
	want := map[string]string{
		"/en/causes/power-facility":    "3", // IL-0003, IL-0004, IL-0088
		"/en/causes/config-change":     "3", // IL-0048, IL-0088, IL-0090
		"/en/causes/operator-error":    "3", // IL-0049, IL-0093, IL-0136
		"/en/components/datacenter":    "4",
		"/en/symptoms/full-outage":     "",
		"/en/factors/manual-operation": "",
	}
	for href, n := range want {
		got, ok := counts[href]
		if !ok {
			t.Errorf("graph has no node linking to %s", href)
			continue
		}
		if n != "" && got != n {
			t.Errorf("node %s shows %q cases, want %s", href, got, n)
		}
	}
	if r.doc.Find("svg.graph .edges path").Length() == 0 {
		t.Error("graph has no edges")
	}
	// The table alternative lists the same counts.
	if row := r.doc.Find(".graph-table th a[href='/en/causes/power-facility']").Closest("tr").Find("td").First().Text(); row != "3" {
		t.Errorf("table row for power-facility = %q, want 3", row)
	}
	// Filters narrow the graph.
	f := get(t, s, "/ko/graph?org=kakao")
	if f.doc.Find("svg.graph a.node[href='/ko/causes/config-change']").Length() != 0 {
		t.Error("the Kakao graph shows a cause Kakao's case does not have")
	}
	if f.doc.Find("svg.graph a.node[href='/ko/causes/power-facility']").Length() != 1 {
		t.Error("the Kakao graph lacks its cause")
	}
}

func TestListingGraphShowsCases(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/?cause=power-facility")
	for _, id := range []string{"IL-0003", "IL-0004", "IL-0088"} {
		if r.doc.Find(".result-graph a.node[href='/en/cases/"+id+"']").Length() != 1 {
			t.Errorf("the result graph lacks case %s", id)
		}
	}
}

func TestTopicCharts(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/causes/power-facility")
	// cases in 2022 (three); one column per year from the first to the last
	rows := r.doc.Find(".chart figcaption tbody tr")
	if rows.Length() != 1 || !strings.Contains(rows.Text(), "2022") || !strings.Contains(rows.Text(), "3") {
		t.Errorf("year table = %q, want one row 2022 with 3", rows.Text())
	}
	if r.doc.Find(".year-chart rect").Length() != rows.Length() {
		t.Error("the chart and its table disagree")
	}
	o := get(t, s, "/en/causes/operator-error")
	if n := o.doc.Find(".year-chart rect").Length(); n != 8 { // 2018 to 2025
		t.Errorf("operator-error chart has %d columns, want 8 (2018–2025)", n)
	}
}
