// Package data embeds the built catalog (make data writes catalog.db from the YAML files here).
package data

import "embed"

// FS holds catalog.db.
//
//go:embed catalog.db
var FS embed.FS

// DBName is the catalog's file name inside FS.
const DBName = "catalog.db"
