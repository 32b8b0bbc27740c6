package views

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"incidentlib/internal/catalog"
	"incidentlib/locales"
)

// The committed *_templ.go files match their .templ sources: the sources are generated again
// in a temporary copy and compared.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, _ := filepath.Glob("*.templ")
	if len(files) == 0 {
		t.Fatal("no templ files")
	}
	tmp := t.TempDir()
	os.Mkdir(filepath.Join(tmp, "views"), 0o755)
	for _, f := range files {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(tmp, "views", f), b, 0o644)
	}
	cmd := exec.Command("go", "tool", "templ", "generate", "-path", tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("templ generate: %v\n%s", err, out)
	}
	for _, f := range files {
		name := f[:len(f)-len(".templ")] + "_templ.go"
		want, _ := os.ReadFile(filepath.Join(tmp, "views", name))
		have, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s has no generated file: run make generate", f)
		}
		if !bytes.Equal(want, have) {
			t.Errorf("%s is out of date: run make generate", name)
		}
	}
}

func TestFormat(t *testing.T) {
	m := 373
	day := 2*24*60 + 5
	for _, tt := range []struct{ got, want string }{
		{FormatDate("ko", "2026-08-24"), "2026년 8월 24일"},
		{FormatDate("en", "2026-08-24"), "24 Aug 2026"},
		{FormatDate("en", "2019-12"), "Dec 2019"},
		{FormatDate("ko", "2019"), "2019년"},
		{FormatMinutes("ko", &m), "6시간 13분"},
		{FormatMinutes("en", &m), "6h 13m"},
		{FormatMinutes("en", &day), "2d 5m"},
		{FormatMinutes("ko", nil), "–"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestCodeSpans(t *testing.T) {
	if got := codeSpans("ran `rm -rf` on the primary"); len(got) != 3 || got[1] != "rm -rf" {
		t.Errorf("codeSpans = %q", got)
	}
	if got := codeSpans("an odd ` backtick"); len(got) != 1 {
		t.Errorf("codeSpans(unpaired) = %q, want the text whole", got)
	}
}

func TestFormatCaseDateNamesTheZone(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{FormatCaseDate("ko", "2018-02-02", "Asia/Seoul"), "2018년 2월 2일 (한국 시간)"},
		{FormatCaseDate("en", "2018-02-02", "Asia/Seoul"), "2 Feb 2018 (KST)"},
		{FormatCaseDate("en", "2016-07-25", "America/Los_Angeles"), "25 Jul 2016 (PDT)"},
		{FormatCaseDate("en", "2015-12-07", "America/Los_Angeles"), "7 Dec 2015 (PST)"},
		{FormatCaseDate("en", "2024-03-05", ""), "5 Mar 2024"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestReasonsNameEachKindOnce(t *testing.T) {
	ctx := testLocale(t, "en")
	got := Reasons(ctx, []catalog.Term{{Kind: catalog.KindCause, Label: "Capacity limit"}, {Kind: catalog.KindCause, Label: "Software bug"}, {Kind: catalog.KindComponent, Label: "Database"}})
	if want := "same kind of cause: Capacity limit, Software bug · same component: Database"; got != want {
		t.Errorf("Reasons = %q, want %q", got, want)
	}
}

// testLocale is a context with the real messages of lang.
func testLocale(t *testing.T, lang catalog.Lang) context.Context {
	t.Helper()
	b, err := locales.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	return WithLocale(context.Background(), &Locale{Lang: lang, Localizer: i18n.NewLocalizer(b, string(lang))})
}
