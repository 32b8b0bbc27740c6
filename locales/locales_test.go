package locales

import (
	"incidentlib/internal/catalog"
	"testing"

	"github.com/BurntSushi/toml"
)

// Both files define the same message ids, and each message has text.
func TestLocalesHaveSameIDs(t *testing.T) {
	keys := map[catalog.Lang]map[string]bool{}
	for _, lang := range catalog.Langs {
		var m map[string]any
		b, err := files.ReadFile(string(lang) + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s.toml: %v", lang, err)
		}
		keys[lang] = map[string]bool{}
		for k, v := range m {
			keys[lang][k] = true
			switch v := v.(type) {
			case string:
				if v == "" {
					t.Errorf("%s.toml: %s is empty", lang, k)
				}
			case map[string]any:
				if v["other"] == nil {
					t.Errorf("%s.toml: %s has no plural form 'other'", lang, k)
				}
			}
		}
	}
	for k := range keys["en"] {
		if !keys["ko"][k] {
			t.Errorf("%s is in en.toml but not in ko.toml", k)
		}
	}
	for k := range keys["ko"] {
		if !keys["en"][k] {
			t.Errorf("%s is in ko.toml but not in en.toml", k)
		}
	}
	// every kind and prose field is named in the locales: adding one to catalog.Kinds or
	// catalog.Fields asks for its labels here
	for _, d := range catalog.Kinds {
		for _, id := range []string{"kind." + string(d.Kind), "kinds." + string(d.Kind)} {
			if !keys["en"][id] {
				t.Errorf("kind %s has no message %s", d.Kind, id)
			}
		}
	}
	for _, f := range catalog.Fields {
		if !keys["en"]["case."+f.Key] {
			t.Errorf("field %s has no message case.%s", f.Key, f.Key)
		}
	}
	if len(keys["en"]) < 100 {
		t.Errorf("only %d messages", len(keys["en"]))
	}
}

func TestBundleLoads(t *testing.T) {
	if _, err := Bundle(); err != nil {
		t.Fatal(err)
	}
}
