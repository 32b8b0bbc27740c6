package web

import (
	"encoding/json"
	"strings"
	"testing"
)

// A case dated in its local zone shows that day with the zone named wherever a date is shown:
// the case page, the cards, the API, the feed and MCP.
func TestLocalDateEverywhere(t *testing.T) {
	s := newTestServer(t)
	if r := get(t, s, "/ko/cases/IL-0003"); !strings.Contains(r.doc.Find("header time").First().Text(), "2022년 10월 15일 (한국 시간)") {
		t.Errorf("Korean case header date = %q", r.doc.Find("header time").First().Text())
	}
	if r := get(t, s, "/en/cases/IL-0003"); !strings.Contains(r.body, "15 Oct 2022 (KST)") {
		t.Error("the English case page does not say 15 Oct 2022 (KST)")
	}
	if r := get(t, s, "/en/?org=kakao"); !strings.Contains(r.body, "15 Oct 2022 (KST)") {
		t.Error("the card does not say 15 Oct 2022 (KST)")
	}
	var c struct{ Date, Zone string }
	json.Unmarshal([]byte(get(t, s, "/api/v1/cases/IL-0003").body), &c)
	if c.Date != "2022-10-15" || c.Zone != "Asia/Seoul" {
		t.Errorf("API date %q zone %q", c.Date, c.Zone)
	}
	if r := get(t, s, "/ko/feed.xml"); !strings.Contains(r.body, "2022년 10월 15일 (한국 시간)") {
		t.Error("the feed entry does not give the incident's local day")
	}
}
