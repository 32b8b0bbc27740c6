package web

import (
	"bytes"

	"github.com/yuin/goldmark"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
	"incidentlib/internal/testcatalog"
	"incidentlib/locales"
)

const evil = `<script>alert("x")</script><img src=x onerror=alert(1)>`

// serverWithEvilData serves the fixture catalog with markup written into a case's English
// title and summary, as a careless or hostile edit might.
func serverWithEvilData(t *testing.T) *Server {
	t.Helper()
	dir := t.TempDir()
	src := testcatalog.Dir()
	os.MkdirAll(filepath.Join(dir, "cases"), 0o755)
	for _, f := range []string{"taxonomy.yaml", "orgs.yaml", "checks.yaml"} {
		b, _ := os.ReadFile(filepath.Join(src, f))
		if f == "checks.yaml" {
			b = []byte(strings.Replace(string(b), "title: Rehearse", "title: >-\n      "+evil+" Rehearse", 1))
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	entries, _ := os.ReadDir(filepath.Join(src, "cases"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(src, "cases", e.Name()))
		if e.Name() == "IL-0090.yaml" {
			b = []byte(strings.Replace(string(b), "en:\n  title: ", "en:\n  title: >-\n    "+evil+" ", 1))
		}
		os.WriteFile(filepath.Join(dir, "cases", e.Name()), b, 0o644)
	}
	d, err := build.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "catalog.db")
	if err := build.Write(t.Context(), d, path); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	b, _ := locales.Bundle()
	return New(Config{Catalog: cat, Bundle: b, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// Markup in the data is shown as text everywhere, never run.
func TestDataIsEscaped(t *testing.T) {
	s := serverWithEvilData(t)
	for _, p := range []string{"/en/cases/IL-0090", "/en/", "/en/?q=bgp", "/en/causes/config-change", "/en/cases/IL-0048", "/en/feed.xml", "/api/v1/cases/IL-0090", "/en/checks", "/en/checks/datacenter-loss-drill", "/en/cases/IL-0003", "/en/checks?format=md"} {
		r := get(t, s, p)
		if r.status != 200 {
			t.Fatalf("GET %s = %d", p, r.status)
		}
		body := r.body
		if strings.Contains(p, "format=md") { // Markdown is safe when a renderer shows it as text
			var html bytes.Buffer
			goldmark.New(goldmark.WithRendererOptions(gmhtml.WithUnsafe())).Convert([]byte(body), &html)
			body = html.String()
		}
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("GET %s writes the markup from the data unescaped", p)
		}
	}
	r := get(t, s, "/en/cases/IL-0090")
	if !strings.Contains(r.doc.Find("h1").Text(), `<script>alert("x")</script>`) {
		t.Errorf("h1 = %q, want the markup shown as text", r.doc.Find("h1").Text())
	}
}

func TestBodyLimit(t *testing.T) {
	s := newTestServer(t)
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(strings.Repeat("x", 1<<20)))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 1 MiB body = %d, want 413", rec.Code)
	}
}
