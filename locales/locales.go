// Package locales holds the UI text in Korean and English and builds the go-i18n bundle.
package locales

import (
	"embed"
	"fmt"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"incidentlib/internal/catalog"
)

//go:embed *.toml
var files embed.FS

// Bundle loads every message file.
func Bundle() (*i18n.Bundle, error) {
	b := i18n.NewBundle(language.Korean)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, lang := range catalog.Langs {
		if _, err := b.LoadMessageFileFS(files, string(lang)+".toml"); err != nil {
			return nil, fmt.Errorf("load locale %s: %w", lang, err)
		}
	}
	return b, nil
}

// Files returns the raw message files, for the tests that compare them.
func Files() embed.FS { return files }
