package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The like-mine page, the API and the MCP tool answer a description with the closest cases,
// each with why; bad input gets a clear 400.
func TestLikeMine(t *testing.T) {
	s := newTestServer(t)
	text := "A fire in the battery room of our data center cut power, and our messaging app and logins were down for days"
	r := get(t, s, "/en/like?text="+url.QueryEscape(text))
	if r.status != http.StatusOK {
		t.Fatalf("like page = %d", r.status)
	}
	first := r.doc.Find(".like-list .case-id").First().Text()
	if first != "IL-0003" {
		t.Errorf("the closest case is %q, want IL-0003 (the Pangyo fire)", first)
	}
	if why := r.doc.Find(".like-list .why").First().Text(); !strings.Contains(why, "Power") && !strings.Contains(why, "fire") {
		t.Errorf("the first case says no reason: %q", why)
	}
	if r.doc.Find(".like-found .chip").Length() == 0 {
		t.Error("the values the description names are not offered as filters")
	}
	if ko := get(t, s, "/ko/like?text="+url.QueryEscape("데이터센터 배터리실에서 불이 나서 전원이 끊기고 메신저가 며칠 멈췄다")); ko.doc.Find(".like-list .case-id").First().Text() != "IL-0003" {
		t.Errorf("the Korean description does not find IL-0003 first")
	}
	if empty := get(t, s, "/en/like"); empty.status != http.StatusOK || empty.doc.Find("textarea[name=text]").Length() != 1 {
		t.Errorf("the empty page = %d without its form", empty.status)
	}
	var out struct {
		Cases []struct {
			ID    string   `json:"id"`
			Words []string `json:"words_in_common"`
		} `json:"cases"`
	}
	api := get(t, s, "/api/v1/similar?text="+url.QueryEscape(text))
	if err := json.Unmarshal([]byte(api.body), &out); err != nil || len(out.Cases) == 0 || out.Cases[0].ID != "IL-0003" {
		t.Errorf("API = %d %s", api.status, api.body)
	}
	for path, want := range map[string]int{
		"/api/v1/similar": http.StatusBadRequest,
		"/api/v1/similar?text=" + strings.Repeat("a", 2001):                         http.StatusBadRequest,
		"/api/v1/similar?text=x&limit=0":                                            http.StatusBadRequest,
		"/en/like?text=" + strings.Repeat("가", 2001):                                http.StatusBadRequest,
		"/api/v1/similar?text=" + url.QueryEscape("database timeouts") + "&limit=3": http.StatusOK,
	} {
		if got := get(t, s, path); got.status != want {
			t.Errorf("GET %s = %d, want %d", path[:min(len(path), 60)], got.status, want)
		}
	}
}
