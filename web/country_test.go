package web

import (
	"encoding/json"
	"strings"
	"testing"
)

// Korean readers can narrow to Korean incidents: a country filter in pages, the API and MCP,
// with its facet and chip, and a menu entry.
func TestCountryFilter(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/ko/?country=KR")
	if r.status != 200 {
		t.Fatalf("/ko/?country=KR = %d", r.status)
	}
	ids := texts(r.doc.Find(".card .case-id"))
	if len(ids) == 0 {
		t.Fatal("no Korean case listed")
	}
	var out struct {
		Cases []struct {
			ID  string `json:"id"`
			Org struct {
				Slug string `json:"slug"`
			} `json:"org"`
		} `json:"cases"`
		Total int `json:"total"`
	}
	json.Unmarshal([]byte(get(t, s, "/api/v1/cases?country=KR&page_size=100").body), &out)
	if out.Total != len(ids) && out.Total < 20 {
		t.Errorf("API total %d, page lists %d", out.Total, len(ids))
	}
	for _, c := range out.Cases {
		if s.cat.Country(c.Org.Slug) != "KR" {
			t.Errorf("%s (%s) is not a Korean organization's case", c.ID, c.Org.Slug)
		}
	}
	all := get(t, s, "/api/v1/cases?page_size=100")
	var every struct{ Total int }
	json.Unmarshal([]byte(all.body), &every)
	if out.Total == 0 || out.Total >= every.Total {
		t.Errorf("country=KR gives %d of %d cases", out.Total, every.Total)
	}
	if chip := r.doc.Find(".chip").Text(); !strings.Contains(chip, "대한민국") {
		t.Errorf("no chip names 대한민국: %q", chip)
	}
	if nav := r.doc.Find(".site-nav").Text(); !strings.Contains(nav, "국내 사례") {
		t.Error("the Korean menu has no 국내 사례")
	}
	if bad := get(t, s, "/api/v1/cases?country=XX"); bad.status != 400 {
		t.Errorf("country=XX = %d, want 400", bad.status)
	}
}
