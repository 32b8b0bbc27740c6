package build

import (
	"context"
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
	for _, f := range []string{"taxonomy.yaml", "orgs.yaml"} {
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
		{"missing Korean title", replace("ko:\n  title:", "ko:\n  titel:"), nil, "IL-0003.yaml:", "field titel not found"},
		{"missing Korean summary", func(s string) string {
			i := strings.Index(s, "ko:\n")
			j := strings.Index(s[i:], "  summary:")
			return s[:i+j] + "  summary_old:" + s[i+j+len("  summary:"):]
		}, nil, "IL-0003.yaml", "summary_old"},
		{"Hangul in English", replace("en:\n  title: ", "en:\n  title: 카카오 "), nil, "IL-0003.yaml:", "en.title: English text contains Hangul"},
		{"duplicate id", keep, map[string]string{"IL-0004.yaml": strings.Replace(string(valid), "id: IL-0003", "id: IL-0003", 1)}, "IL-0004.yaml", "IL-0003 does not match the file name"},
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
		{"bad severity", replace("severity: critical", "severity: huge"), nil, "IL-0003.yaml:8", `severity: "huge" is not a severity`},
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
