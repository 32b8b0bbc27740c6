package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The whole catalog as open data: a page with the release, its files and sizes, the license and
// how to load and cite it; the files hold every case; the API gives the same bytes.
func TestOpenData(t *testing.T) {
	s := newTestServer(t)
	page := get(t, s, "/en/data")
	if page.status != http.StatusOK {
		t.Fatalf("/en/data = %d", page.status)
	}
	var rel struct {
		Version string         `json:"version"`
		Cases   int            `json:"cases"`
		Sizes   map[string]int `json:"sizes"`
	}
	json.Unmarshal([]byte(get(t, s, "/api/v1/release").body), &rel)
	if rel.Cases != 9 || rel.Version == "" || rel.Sizes["jsonl"] == 0 {
		t.Fatalf("release = %+v", rel)
	}
	for _, want := range []string{rel.Version, "Changes", "added 8 cases", "added 1 case", "CC BY 4.0", "incidentlib.jsonl.gz", "read_json_auto", "jq -s length", "@misc{"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the data page does not say %q", want)
		}
	}
	if ko := get(t, s, "/ko/data"); !strings.Contains(ko.body, "라이선스") {
		t.Error("the Korean data page has no license section")
	}
	jsonl := get(t, s, "/data/incidentlib.jsonl.gz")
	zr, err := gzip.NewReader(strings.NewReader(jsonl.body))
	if err != nil || jsonl.header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("the JSON Lines file is not gzip: %v %q", err, jsonl.header.Get("Content-Type"))
	}
	n := 0
	for sc := bufio.NewScanner(zr); sc.Scan(); n++ {
		var c struct {
			ID   string                    `json:"id"`
			Text map[string]map[string]any `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil || c.Text["ko"]["title"] == nil || c.Text["en"]["title"] == nil {
			t.Fatalf("line %d: %v %s", n+1, err, sc.Text()[:80])
		}
	}
	if n != rel.Cases {
		t.Errorf("the JSON Lines file has %d cases, the release says %d", n, rel.Cases)
	}
	if api := get(t, s, "/api/v1/export?format=jsonl"); api.body != jsonl.body {
		t.Error("the API's export differs from the download")
	}
	csvFile := get(t, s, "/api/v1/export?format=csv")
	zr, _ = gzip.NewReader(bytes.NewReader([]byte(csvFile.body)))
	rows, err := csv.NewReader(zr).ReadAll()
	if err != nil || len(rows) != rel.Cases+1 {
		t.Errorf("the CSV has %d rows (%v), want a header and %d cases", len(rows), err, rel.Cases)
	}
	if bad := get(t, s, "/api/v1/export?format=xml"); bad.status != http.StatusBadRequest || !strings.Contains(bad.body, "jsonl") {
		t.Errorf("format=xml = %d %s", bad.status, bad.body)
	}
	if again := get(t, s, "/data/incidentlib.jsonl.gz", "If-None-Match", jsonl.header.Get("ETag")); again.status != http.StatusNotModified {
		t.Errorf("If-None-Match on the download = %d, want 304", again.status)
	}
}
