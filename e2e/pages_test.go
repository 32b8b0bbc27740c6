package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// viewport is a window width the site must work at: a phone and a desktop.
type viewport struct {
	width, height int64
	mobile        bool
}

func (v viewport) name() string { return fmt.Sprint(v.width) }

var viewports = []viewport{{390, 844, true}, {1280, 800, false}}

func (tb *tab) setViewport(v viewport) {
	tb.t.Helper()
	if v.mobile {
		tb.do("set the viewport to "+v.name(), chromedp.EmulateViewport(v.width, v.height, chromedp.EmulateMobile, chromedp.EmulatePortrait))
	} else {
		tb.do("set the viewport to "+v.name(), chromedp.EmulateViewport(v.width, v.height))
	}
}

// pageType is one kind of page, by its path in a language.
type pageType struct {
	name   string
	path   string
	status int64
}

// pageTypes lists one page of every type in a language.
func pageTypes(lang string) []pageType {
	query := map[string]string{"ko": "화재", "en": "fire"}[lang]
	p := "/" + lang
	return []pageType{
		{"listing", p + "/", 200},
		{"filtered", p + "/?cause=power-facility&org=kakao", 200},
		{"search", p + "/?q=" + url.QueryEscape(query), 200},
		{"case", p + "/cases/IL-0003", 200},
		{"topic-cause", p + "/causes/power-facility", 200},
		{"topic-org", p + "/orgs/google-cloud", 200},
		{"graph", p + "/graph", 200},
		{"no-results", p + "/?cause=power-facility&org=cloudflare", 200},
		{"index-orgs", p + "/orgs", 200},
		{"index-causes", p + "/causes", 200},
		{"checks", p + "/checks", 200},
		{"checklist-stack", p + "/checks?component=backup&factor=runbook-gap", 200},
		{"check", p + "/checks/datacenter-loss-drill", 200},
		{"case-timeline", p + "/cases/IL-0048", 200},
		{"case-both", p + "/cases/IL-0003?view=both", 200},
		{"stats", p + "/stats", 200},
		{"404", p + "/cases/IL-9999", 404},
	}
}

// eachPage opens every page type in both languages at both widths, each in a subtest named
// like "case-en-1280".
func eachPage(t *testing.T, fn func(t *testing.T, tb *tab, name string)) {
	tb := newTabFor(t, matrixTimeout)
	for _, vp := range viewports {
		for _, lang := range []string{"ko", "en"} {
			for _, p := range pageTypes(lang) {
				name := p.name + "-" + lang + "-" + vp.name()
				t.Run(name, func(t *testing.T) {
					tb := tb.in(t)
					tb.setViewport(vp)
					if resp := tb.open(p.path); resp.Status != p.status {
						t.Fatalf("%s: status %d, want %d", p.path, resp.Status, p.status)
					}
					tb.waitVisible("main h1")
					// Wait for the web fonts the page uses (Hangul falls back to NanumGothic).
					evalJS[bool](tb, `document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)
					fn(t, tb, name)
				})
			}
		}
	}
}

// artifactsDir is where screenshots and reports go: $ARTIFACTS, or a fixed directory under
// the system's temporary directory (overwritten by each run, never in the repository).
func artifactsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "incidentlib-e2e")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Full-page screenshots of every page type, in both languages, at both widths, for a person to
// look at (CI keeps them as artifacts). The page must not scroll sideways on a phone.
func TestScreenshots(t *testing.T) {
	dir := artifactsDir(t)
	t.Logf("screenshots go to %s", dir)
	eachPage(t, func(t *testing.T, tb *tab, name string) {
		ctx, cancel := tb.step()
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			tb.fail("screenshot", err)
		}
		if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10_000 {
			t.Fatalf("screenshot: %d bytes, not a full PNG", len(png))
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		// Nothing may make the whole page wider than the window (wide graphs scroll in
		// their own box).
		if over := evalJS[int](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
			wide := evalJS[[]string](tb, `Array.from(document.querySelectorAll("body *"))
				.filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
				.slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : ""))`)
			t.Errorf("the page is %d px wider than the window; too wide: %s", over, strings.Join(wide, ", "))
		}
	})
}

// axePath is axe-core as .ci/install-deps installs it, relative to the repository root (the
// tests run in e2e/).
var axePath = filepath.Join("..", ".ci", "node_modules", "axe-core", "axe.min.js")

type axeNode struct {
	Target  []string `json:"target"`
	HTML    string   `json:"html"`
	Summary string   `json:"summary"`
}

type axeViolation struct {
	ID      string    `json:"id"`
	Impact  string    `json:"impact"`
	Help    string    `json:"help"`
	HelpURL string    `json:"helpUrl"`
	Nodes   []axeNode `json:"nodes"`
}

// runAxe injects axe-core through DevTools (the page's CSP allows no inline script, and
// Runtime.evaluate is not subject to it) and returns its violations of every impact.
func runAxe(tb *tab, source string) []axeViolation {
	tb.t.Helper()
	if !evalJS[bool](tb, `typeof axe === "object"`) {
		evalJS[chromedp.Void](tb, source)
		if !evalJS[bool](tb, `typeof axe === "object" && typeof axe.run === "function"`) {
			tb.t.Fatal("axe-core did not load into the page")
		}
	}
	return evalJS[[]axeViolation](tb, `axe.run(document, {resultTypes: ["violations"]}).then(r =>
		r.violations.map(v => ({
			id: v.id, impact: v.impact || "", help: v.help, helpUrl: v.helpUrl,
			nodes: v.nodes.map(n => ({
				target: n.target.map(String),
				html: n.html.length > 300 ? n.html.slice(0, 300) + "…" : n.html,
				summary: n.failureSummary || "",
			})),
		})))`, chromedp.EvalAwaitPromise)
}

// The accessibility audit: axe-core on every page type in both languages at both widths. Serious
// and critical violations fail the test; every violation is written to axe-report.json.
func TestAccessibility(t *testing.T) {
	source, err := os.ReadFile(axePath)
	if err != nil {
		skipOrFail(t, "axe-core is not installed (%v); run `make deps`", err)
	}
	dir := artifactsDir(t)
	report := map[string][]axeViolation{}
	eachPage(t, func(t *testing.T, tb *tab, name string) {
		vs := runAxe(tb, string(source))
		report[name] = vs
		for _, v := range vs {
			if v.Impact != "serious" && v.Impact != "critical" {
				continue
			}
			var targets []string
			for i, n := range v.Nodes {
				if i == 3 {
					targets = append(targets, fmt.Sprintf("… %d more", len(v.Nodes)-3))
					break
				}
				targets = append(targets, strings.Join(n.Target, " "))
			}
			var detail string
			if len(v.Nodes) > 0 {
				detail = "\n\t\t" + strings.ReplaceAll(v.Nodes[0].Summary, "\n", "\n\t\t")
			}
			t.Errorf("%s [%s] %s (%s)\n\t\ton %d element(s): %s%s", v.ID, v.Impact, v.Help, v.HelpURL, len(v.Nodes), strings.Join(targets, " | "), detail)
		}
	})
	out, _ := json.MarshalIndent(report, "", "  ")
	path := filepath.Join(dir, "axe-report.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("axe report: %s", path)
}
