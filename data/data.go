// Package data embeds the built catalog: make data writes embedded/catalog.db from the YAML
// files here. The folder holds a committed README, so a fresh clone compiles and vets before the
// catalog is built; the server then says to run make data.
package data

import (
	"embed"
	"errors"
	"io/fs"
)

// FS holds embedded/catalog.db once make data has run.
//
//go:embed embedded
var FS embed.FS

// DBName is the catalog's file name inside FS.
const DBName = "embedded/catalog.db"

// ErrNotBuilt means the binary was built before the catalog: run make data, then build again.
var ErrNotBuilt = errors.New("this binary holds no catalog: run `make data` (or `make build`) and build it again")

// Check reports ErrNotBuilt when FS holds no catalog.
func Check() error {
	if _, err := fs.Stat(FS, DBName); err != nil {
		return ErrNotBuilt
	}
	return nil
}
