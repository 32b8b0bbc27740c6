package build

import (
	"context"
	"incidentlib/internal/catalog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture copies the real taxonomy and organizations and one valid case into a temp dir, with
// the case text changed by edit.
func fixture(t *testing.T, edit func(string) string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cases"), 0o755)
	for _, f := range []string{"taxonomy.yaml", "orgs.yaml", "checks.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "cases", "IL-0003.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cases", "IL-0003.yaml"), []byte(edit(string(b))), 0o644)
	for name, body := range extra {
		os.WriteFile(filepath.Join(dir, "cases", name), []byte(body), 0o644)
	}
	return dir
}

func replace(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic("fixture does not contain " + old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func keep(s string) string { return s }

// both applies two edits in turn.
func both(a, b func(string) string) func(string) string {
	return func(s string) string { return b(a(s)) }
}

// replaceLine replaces the line that starts with prefix.
func replaceLine(prefix, line string) func(string) string {
	return func(s string) string {
		i := strings.Index(s, "\n"+prefix)
		if i < 0 {
			panic("fixture has no line " + prefix)
		}
		j := strings.IndexByte(s[i+1:], '\n')
		return s[:i+1] + line + s[i+1+j:]
	}
}

// dropKey removes a one-line or folded key from the en or ko text of a case.
func dropKey(lang, key string) func(string) string {
	return func(s string) string {
		i := strings.Index(s, "\n"+lang+":\n")
		j := strings.Index(s[i:], "\n  "+key+":")
		if i < 0 || j < 0 {
			panic("fixture has no " + lang + "." + key)
		}
		start := i + j + 1
		end := start + 1
		for end < len(s) {
			nl := strings.IndexByte(s[end:], '\n')
			if nl < 0 {
				end = len(s)
				break
			}
			end += nl + 1
			if !strings.HasPrefix(s[end:], "    ") {
				break
			}
		}
		return s[:start] + s[end:]
	}
}

// A zoned case is dated on the local day its timeline starts, even when that is the day
// before in UTC.
func TestLoadLocalDate(t *testing.T) {
	dir := fixture(t, replace("sources:", "timeline:\n  - {at: \"2022-10-15T08:19+09:00\", mark: start, en: Fire, ko: 화재}\nsources:"), nil)
	d, err := Load(dir)
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	if c := d.Cases[0]; c.Date != "2022-10-15" || c.Zone != "Asia/Seoul" {
		t.Errorf("date %s zone %s, want 2022-10-15 in Asia/Seoul", c.Date, c.Zone)
	}
}

func TestLoadValid(t *testing.T) {
	d, err := Load(fixture(t, keep, nil))
	if err != nil {
		t.Fatalf("Load(valid) = %v", err)
	}
	if len(d.Cases) != 1 || d.Cases[0].ID != "IL-0003" {
		t.Fatalf("Load(valid) cases = %v", d.Cases)
	}
}

// Every class of bad data is rejected with the file, the line and the field named.
func TestLoadRejectsBadData(t *testing.T) {
	valid, _ := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "cases", "IL-0003.yaml"))
	tests := []struct {
		name  string
		edit  func(string) string
		extra map[string]string
		file  string // file the problem must name
		want  string // substring of the problem
	}{
		{"unknown cause", replace("causes: [power-facility]", "causes: [power-outage]"), nil, "IL-0003.yaml:", `causes[0]: unknown cause "power-outage"`},
		{"unknown org", replace("org: kakao", "org: kakao-corp"), nil, "IL-0003.yaml:2", `org: unknown organization "kakao-corp"`},
		{"missing Korean title", dropKey("ko", "title"), nil, "IL-0003.yaml:", "ko.title: missing; the title of the case in Korean (ko) is required"},
		{"missing Korean summary", dropKey("ko", "summary"), nil, "IL-0003.yaml:", "ko.summary: missing; the summary of the case in Korean (ko) is required"},
		{"headline too long", replaceLine(`  headline: "Kakao`, "  headline: "+strings.Repeat("x", 61)), nil, "IL-0003.yaml:", "en.headline: a headline is one line of at most 60 characters in English (en) (this one has 61)"},
		{"missing Korean headline", dropKey("ko", "headline"), nil, "IL-0003.yaml:", "ko.headline: missing; the headline of the case in Korean (ko) is required"},
		{"timeline disagrees", replace("sources:", "time_to_resolve: 60\ntimeline:\n  - {at: \"2022-10-15T15:19+09:00\", mark: start, en: Fire, ko: 화재}\n  - {at: \"2022-10-15T17:19+09:00\", mark: resolved, en: Back, ko: 복구}\nsources:"), nil, "IL-0003.yaml:", `time_to_resolve: 60 minutes does not match the timeline, where "resolved" comes 120 minutes after "start"`},
		{"timeline bad time", replace("sources:", "timeline:\n  - {at: \"15:19 KST\", en: Fire, ko: 화재}\nsources:"), nil, "IL-0003.yaml:", `timeline[0].at: "15:19 KST" is not a time`},
		{"timeline out of order", replace("sources:", "timeline:\n  - {at: \"2022-10-15T16:00Z\", en: B, ko: 나}\n  - {at: \"2022-10-15T15:00Z\", en: A, ko: 가}\nsources:"), nil, "IL-0003.yaml:", "timeline[1].at: events must be in time order"},
		{"unknown check", replace("checks:\n", "checks:\n  be-careful: [1]\n"), nil, "IL-0003.yaml:", `checks.be-careful: unknown check "be-careful"`},
		{"check item out of range", replace("recovery-playbook: [2]", "recovery-playbook: [9]"), nil, "IL-0003.yaml:", "checks.recovery-playbook: action item 9 does not exist; the case has 4"},
		{"Hangul in English", replace("en:\n  title: ", "en:\n  title: 카카오 "), nil, "IL-0003.yaml:", "en.title: English text contains Hangul"},
		{"no Hangul in Korean", replace("  title: SK C&C 판교 데이터센터 배터리실 화재로 카카오 서비스 대부분이 멈췄고, 전체 정상화까지 5일이 걸렸다", "  title: A fire stopped Kakao"), nil, "IL-0003.yaml:", "ko.title: Korean text"},
		{"detection disagrees", replace("sources:", "time_to_detect: 5\ntimeline:\n  - {at: \"2022-10-15T15:19+09:00\", mark: start, en: Fire, ko: 화재}\n  - {at: \"2022-10-15T15:33+09:00\", mark: detected, en: Alarm, ko: 경보}\nsources:"), nil, "IL-0003.yaml:", `time_to_detect: 5 minutes does not match the timeline, where "detected" comes 14 minutes after "start"`},
		{"local times without a zone", both(replace("zone: Asia/Seoul\n", ""), replace("sources:", "timeline:\n  - {at: \"2022-10-15T15:19+09:00\", mark: start, en: Fire, ko: 화재}\nsources:")), nil, "IL-0003.yaml:", "zone: the timeline starts in local time (+09:00)"},
		{"date not the local day", replace("sources:", "timeline:\n  - {at: \"2022-10-16T01:19+09:00\", mark: start, en: Fire, ko: 화재}\nsources:"), nil, "IL-0003.yaml:", "date: 2022-10-15 is not the day the timeline starts in Asia/Seoul (2022-10-16)"},
		{"date not the UTC day", both(replace("zone: Asia/Seoul\n", ""), replace("sources:", "timeline:\n  - {at: \"2022-10-14T23:00Z\", mark: start, en: Fire, ko: 화재}\nsources:")), nil, "IL-0003.yaml:", "date: 2022-10-15 is not the day the timeline starts in UTC (2022-10-14)"},
		{"unknown zone", replace("zone: Asia/Seoul", "zone: Korea/Pangyo"), nil, "IL-0003.yaml:5", `zone: "Korea/Pangyo" is not a time zone`},
		{"id not the file name", keep, map[string]string{"IL-0004.yaml": string(valid)}, "IL-0004.yaml", "id: IL-0003 does not match the file name; expected IL-0004"},
		{"bad date", replace("date: 2022-10-15", "date: 2022-13-45"), nil, "IL-0003.yaml:3", `date: "2022-13-45" is not a calendar date`},
		{"date words", replace("date: 2022-10-15", "date: October 2022"), nil, "IL-0003.yaml:3", "is not a date"},
		{"bad url", func(s string) string {
			i := strings.Index(s, "- url: ")
			j := strings.Index(s[i:], "\n")
			return s[:i] + "- url: not a url" + s[i+j:]
		}, nil, "IL-0003.yaml:", `sources[0].url: "not a url" is not a URL`},
		{"related missing", replace("sources:", "related: [IL-0999]\nsources:"), nil, "IL-0003.yaml:", "related[0]: related case IL-0999 does not exist"},
		{"malformed yaml", replace("causes: [power-facility]", "causes: [power-facility"), nil, "IL-0003.yaml:", "malformed YAML"},
		{"bad file name", keep, map[string]string{"case-5.yaml": string(valid)}, "case-5.yaml", "IL-NNNN.yaml"},
		{"bad severity", replace("severity: critical", "severity: huge"), nil, "IL-0003.yaml:10", `severity: "huge" is not a severity`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t, tt.edit, tt.extra)
			_, err := Load(dir)
			ps, ok := err.(Problems)
			if !ok {
				t.Fatalf("Load = %v, want Problems", err)
			}
			found := false
			for _, p := range ps {
				s := p.String()
				if strings.Contains(s, tt.file) && strings.Contains(s, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("Load problems = %v, want one naming %q with %q", ps, tt.file, tt.want)
			}
		})
	}
}

// The build reports all problems, not just the first.
func TestLoadReportsAllProblems(t *testing.T) {
	dir := fixture(t, func(s string) string {
		s = strings.Replace(s, "org: kakao", "org: nobody", 1)
		return strings.Replace(s, "date: 2022-10-15", "date: someday", 1)
	}, nil)
	_, err := Load(dir)
	ps, _ := err.(Problems)
	if len(ps) < 2 {
		t.Fatalf("Load problems = %v, want both the org and the date", ps)
	}
}

// A failed build writes nothing and leaves an existing database untouched.
func TestWriteIsAtomic(t *testing.T) {
	d, err := Load(fixture(t, keep, nil))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "catalog.db")
	if err := Write(context.Background(), d, out); err != nil {
		t.Fatalf("Write = %v", err)
	}
	before, _ := os.ReadFile(out)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Write(ctx, d, out); err == nil {
		t.Fatal("Write(cancelled) = nil, want an error")
	}
	after, _ := os.ReadFile(out)
	if string(before) != string(after) {
		t.Error("a failed Write changed the existing database")
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

// Typed links are checked (both ends exist, no cause goes round in a circle) and hold both ways:
// the downstream case names its cause, the provider's case lists what it caused.
func TestTypedLinks(t *testing.T) {
	second, _ := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "cases", "IL-0004.yaml"))
	linked := strings.Replace(string(second), "\nsources:", "\ncaused_by: [IL-0003]\nrecurrence_of: [IL-0003]\nsources:", 1)
	for name, tt := range map[string]struct {
		edit  func(string) string
		extra string
		want  string
	}{
		"unknown cause": {replace("sources:", "caused_by: [IL-0999]\nsources:"), "", "caused_by[0]: case IL-0999 does not exist"},
		"cycle":         {replace("sources:", "caused_by: [IL-0004]\nsources:"), linked, "caused_by goes round in a circle"},
		"itself":        {replace("sources:", "recurrence_of: [IL-0003]\nsources:"), "", "recurrence_of[0]: a case cannot link to itself"},
	} {
		extra := map[string]string{}
		if tt.extra != "" {
			extra["IL-0004.yaml"] = tt.extra
		}
		_, err := Load(fixture(t, tt.edit, extra))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Load = %v, want %q", name, err, tt.want)
		}
	}
	dir := fixture(t, keep, map[string]string{"IL-0004.yaml": linked})
	d, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "catalog.db")
	if err := Write(context.Background(), d, path); err != nil {
		t.Fatal(err)
	}
	s, err := catalog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	kinds := func(id string) map[string]string {
		c, err := s.Case(context.Background(), catalog.English, id)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, l := range c.Links {
			out[l.Kind] = l.ID
		}
		return out
	}
	if k := kinds("IL-0004"); k["caused-by"] != "IL-0003" || k["recurrence-of"] != "IL-0003" {
		t.Errorf("IL-0004 links %v, want caused-by and recurrence-of IL-0003", k)
	}
	if k := kinds("IL-0003"); k["caused"] != "IL-0004" || k["recurred-as"] != "IL-0004" {
		t.Errorf("IL-0003 links %v, want caused and recurred-as IL-0004", k)
	}
}
