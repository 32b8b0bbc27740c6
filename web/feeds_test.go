package web

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestFeedListsCases(t *testing.T) {
	s := newTestServer(t)
	for _, lang := range []string{"ko", "en"} {
		r := get(t, s, "/"+lang+"/feed.xml")
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/atom+xml") {
			t.Fatalf("feed %s = %d %s", lang, r.status, r.header.Get("Content-Type"))
		}
		var f atomFeed
		if err := xml.Unmarshal([]byte(r.body), &f); err != nil {
			t.Fatalf("feed %s is not valid XML: %v", lang, err)
		}
		if len(f.Entries) != 9 || !strings.Contains(r.body, `xml:lang="`+lang+`"`) {
			t.Errorf("feed %s has %d entries, want the 9 fixture cases in xml:lang %s", lang, len(f.Entries), lang)
		}
		// Newest added first: IL-0130 (a 2018 incident) was added after the others.
		if !strings.HasSuffix(f.Entries[0].Link.Href, "/"+lang+"/cases/IL-0130") || !strings.HasPrefix(f.Entries[0].Updated, "2026-11-30") {
			t.Errorf("feed %s starts with %s (updated %s), want IL-0130, the case added last", lang, f.Entries[0].Link.Href, f.Entries[0].Updated)
		}
	}
}

// The feed holds at most feedSize entries.
func TestFeedIsCapped(t *testing.T) {
	if feedSize > 100 {
		t.Errorf("the feed holds up to %d entries; a reader's client fetches it often", feedSize)
	}
}

func TestSitemapListsEveryCaseWithAlternates(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/sitemap.xml")
	var sm struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				Lang string `xml:"hreflang,attr"`
				Href string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(r.body), &sm); err != nil {
		t.Fatalf("sitemap is not valid XML: %v", err)
	}
	locs := map[string]int{}
	for _, u := range sm.URLs {
		locs[u.Loc[strings.Index(u.Loc, "/"+u.Loc[len("http://example.com"):][1:3]):]]++
		if len(u.Links) != 3 {
			t.Errorf("%s has %d alternates, want ko, en and x-default", u.Loc, len(u.Links))
		}
	}
	for _, id := range []string{"IL-0003", "IL-0004", "IL-0048", "IL-0049", "IL-0088", "IL-0090", "IL-0093", "IL-0130", "IL-0136"} {
		for _, lang := range []string{"ko", "en"} {
			if locs["/"+lang+"/cases/"+id] != 1 {
				t.Errorf("sitemap lacks /%s/cases/%s", lang, id)
			}
		}
	}
	if locs["/ko/causes/power-facility"] != 1 || locs["/en/graph"] != 1 {
		t.Error("sitemap lacks topic or graph pages")
	}
}

func TestRobotsAndAPIPage(t *testing.T) {
	s := newTestServer(t)
	if r := get(t, s, "/robots.txt"); !strings.Contains(r.body, "Sitemap: http://example.com/sitemap.xml") {
		t.Errorf("robots.txt = %q", r.body)
	}
	for _, lang := range []string{"ko", "en"} {
		r := get(t, s, "/"+lang+"/api")
		if r.status != 200 {
			t.Fatalf("/%s/api = %d", lang, r.status)
		}
		text := r.doc.Find("main").Text()
		for _, want := range []string{"search_incidents", "get_incident", "list_incidents", "get_topic", "vocab", "http://example.com/mcp", "/api/v1/cases"} {
			if !strings.Contains(text, want) {
				t.Errorf("/%s/api lacks %q", lang, want)
			}
		}
	}
}

// A feed for any listing: the listing's filters and words, only its cases, newest added first,
// linked from the listing.
func TestFilteredFeed(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/en/feed.xml?cause=power-facility")
	var f atomFeed
	if err := xml.Unmarshal([]byte(r.body), &f); err != nil || r.status != 200 {
		t.Fatalf("filtered feed = %d: %v", r.status, err)
	}
	topic := get(t, s, "/api/v1/topics/cause/power-facility")
	if !strings.Contains(topic.body, `"count":3`) || len(f.Entries) != 3 {
		t.Errorf("the power-facility feed has %d entries, want the 3 cases", len(f.Entries))
	}
	for _, e := range f.Entries {
		id := e.Link.Href[strings.LastIndex(e.Link.Href, "/")+1:]
		c := get(t, s, "/api/v1/cases/"+id)
		if !strings.Contains(c.body, `"slug":"power-facility"`) {
			t.Errorf("%s in the feed is not a power-facility case", id)
		}
	}
	if !strings.Contains(f.Title, "Power") {
		t.Errorf("feed title %q does not name its filter", f.Title)
	}
	list := get(t, s, "/en/?cause=power-facility")
	if href, _ := list.doc.Find(`link[rel="alternate"][type="application/atom+xml"]`).Attr("href"); href != "/en/feed.xml?cause=power-facility" {
		t.Errorf("the listing links the feed %q", href)
	}
	if list.doc.Find("a.feed-link").Length() != 1 {
		t.Error("the listing has no visible feed link")
	}
	if bad := get(t, s, "/en/feed.xml?cause=gremlins"); bad.status != 400 {
		t.Errorf("a feed with an unknown value = %d, want 400", bad.status)
	}
}
