// Package testcatalog builds the small fixture catalog in testdata/ for tests of the store and
// the web server.
package testcatalog

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"incidentlib/internal/catalog"
	"incidentlib/internal/catalog/build"
)

// Dir is the fixture data directory (taxonomy.yaml, orgs.yaml, cases/).
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Build writes the fixture catalog into a temporary file and returns its path.
func Build(t testing.TB) string {
	t.Helper()
	d, err := build.Load(Dir())
	if err != nil {
		t.Fatalf("load fixtures: %v", err)
	}
	path := filepath.Join(t.TempDir(), "catalog.db")
	if err := build.Write(context.Background(), d, path); err != nil {
		t.Fatalf("build fixtures: %v", err)
	}
	return path
}

// Open builds the fixture catalog and opens it.
func Open(t testing.TB) *catalog.Store {
	t.Helper()
	s, err := catalog.Open(Build(t))
	if err != nil {
		t.Fatalf("open fixtures: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
