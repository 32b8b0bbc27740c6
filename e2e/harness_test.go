// Package e2e drives Debian's chromium against the real server, started in the test process
// over the fixture catalog: user flows checked in the rendered DOM, screenshots of every page
// type, and an axe-core accessibility audit.
//
// The tests need chromium (/usr/bin/chromium or `chromium` on PATH) and, for the audit,
// .ci/node_modules/axe-core/axe.min.js; `make deps` installs both. Without them the tests skip,
// unless the environment variable CI is set: then they fail, because CI must run them.
package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"incidentlib/internal/testcatalog"
	"incidentlib/locales"
	"incidentlib/web"
)

const (
	browserStartTimeout = 45 * time.Second // starting chromium, once per package
	flowTimeout         = 90 * time.Second // one test's tab, all its steps together
	matrixTimeout       = 4 * time.Minute  // a tab that visits every page type at every width
	stepTimeout         = 20 * time.Second // one navigation, click or wait
)

// inCI reports whether the tests run in CI, where a missing dependency is a failure.
func inCI() bool { return os.Getenv("CI") != "" }

// skipOrFail skips the test for a missing dependency, or fails it in CI.
func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if inCI() {
		t.Fatalf("%s (CI is set, so the browser tests must run)", msg)
	}
	t.Skip(msg)
}

// chromiumPath finds Debian's chromium: /usr/bin/chromium, else `chromium` on PATH.
func chromiumPath() string {
	if fi, err := os.Stat("/usr/bin/chromium"); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// browser is the one chromium process that every test of the package shares; each test opens
// its own tab in its own browser context (fresh cookies). TestMain closes it.
var browser struct {
	once    sync.Once
	ctx     context.Context // the browser's chromedp context
	cancel  func()          // stops the allocator, and with it the process
	dataDir string
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopBrowser()
	os.Exit(code)
}

func startBrowser(path string) {
	dir, err := os.MkdirTemp("", "incidentlib-e2e-chromium-")
	if err != nil {
		browser.err = err
		return
	}
	browser.dataDir = dir
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,OptimizationHints,MediaRouter"),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1280, 800),
		chromedp.UserDataDir(dir),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	browser.ctx = bctx
	browser.cancel = func() { bcancel(); acancel() }

	// The first Do starts the process and binds its life to bctx, which has no deadline; the
	// start itself is bounded here.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	select {
	case err = <-started:
	case <-time.After(browserStartTimeout):
		err = fmt.Errorf("chromium did not start within %v", browserStartTimeout)
	}
	if err != nil {
		browser.err = fmt.Errorf("start %s: %w", path, err)
		stopBrowser()
	}
}

func stopBrowser() {
	if browser.cancel == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(browser.ctx, 10*time.Second)
		defer cancel()
		_ = chromedp.Cancel(ctx) // closes the browser gracefully and waits for it
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
	}
	browser.cancel()
	browser.cancel = nil
	// Chromium's helper processes can still write in the profile for a moment after it exits.
	for i := 0; browser.dataDir != "" && i < 20; i++ {
		if err := os.RemoveAll(browser.dataDir); err == nil {
			if _, err := os.Stat(browser.dataDir); os.IsNotExist(err) {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// requireBrowser returns the shared browser's context, starting chromium on first use.
func requireBrowser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		skipOrFail(t, "chromium is not installed (looked for /usr/bin/chromium and `chromium` on PATH); run `make deps`")
	}
	browser.once.Do(func() { startBrowser(path) })
	if browser.err != nil {
		t.Fatalf("browser: %v", browser.err)
	}
	return browser.ctx
}

// newSite starts the real server over the fixture catalog, as cmd/incidentlib does.
func newSite(t testing.TB) string {
	t.Helper()
	bundle, err := locales.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	srv := web.New(web.Config{
		Catalog:        testcatalog.Open(t),
		Bundle:         bundle,
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
		RequestTimeout: 10 * time.Second,
	})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL
}

// tab is one browser tab on a fresh server, with the steps the tests take in it.
type tab struct {
	t        testing.TB
	ctx      context.Context // bounded by the test's timeout
	base     string          // the server's origin
	timedOut *bool           // a step timed out: the tab may be stuck, later steps fail at once
}

// newTab opens a tab in a new browser context (no cookies) at 1280×800 on a new server; the
// tab closes when the test ends or after flowTimeout.
func newTab(t testing.TB) *tab {
	t.Helper()
	return newTabFor(t, flowTimeout)
}

func newTabFor(t testing.TB, timeout time.Duration) *tab {
	t.Helper()
	bctx := requireBrowser(t)
	base := newSite(t)
	tctx, cancelTab := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	// The first Run on tctx creates the tab and binds it to this context, so the tab lives as
	// long as the test's own deadline.
	ctx, cancel := context.WithTimeout(tctx, timeout)
	t.Cleanup(func() { cancel(); cancelTab() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return &tab{t: t, ctx: ctx, base: base, timedOut: new(bool)}
}

// step bounds one action by stepTimeout within the tab's deadline. After a step timed out the
// tab may be stuck, so later steps fail at once rather than each waiting out its timeout.
func (tb *tab) step() (context.Context, context.CancelFunc) {
	tb.t.Helper()
	if *tb.timedOut {
		tb.t.Fatal("an earlier step in this tab timed out")
	}
	return context.WithTimeout(tb.ctx, stepTimeout)
}

// fail reports a failed step, noting a timeout.
func (tb *tab) fail(format string, err error, args ...any) {
	tb.t.Helper()
	if errors.Is(err, context.DeadlineExceeded) {
		*tb.timedOut = true
	}
	tb.t.Fatalf(format+": %v", append(args, err)...)
}

// do runs actions that return nothing, failing the test with what it was doing.
func (tb *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := tb.step()
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.fail("%s", err, what)
	}
}

// open navigates to a site path and returns the document's response, whatever its status.
func (tb *tab) open(path string) *network.Response {
	tb.t.Helper()
	ctx, cancel := tb.step()
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(tb.base+path))
	if err != nil {
		tb.fail("open %s", err, path)
	}
	if resp == nil {
		tb.t.Fatalf("open %s: no response", path)
	}
	return resp
}

// openOK opens a page that must answer 200.
func (tb *tab) openOK(path string) {
	tb.t.Helper()
	if resp := tb.open(path); resp.Status != 200 {
		tb.t.Fatalf("open %s: status %d, want 200", path, resp.Status)
	}
}

// follow runs a step that navigates (a click, a submit) and returns the new document's response.
func (tb *tab) follow(what string, trigger chromedp.Action[chromedp.Void]) *network.Response {
	tb.t.Helper()
	ctx, cancel := tb.step()
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, trigger)
	if err != nil {
		tb.fail("%s", err, what)
	}
	if resp == nil {
		tb.t.Fatalf("%s: no response", what)
	}
	if resp.Status != 200 {
		tb.t.Fatalf("%s: status %d at %s, want 200", what, resp.Status, resp.URL)
	}
	return resp
}

// click clicks the first element a CSS selector matches and waits for the page it leads to.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	tb.waitVisible(sel)
	tb.follow("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// clickSearch is click for an XPath query (links found by their text).
func (tb *tab) clickSearch(what, xpath string) {
	tb.t.Helper()
	tb.do("wait for "+what, chromedp.WaitVisible(chromedp.Search(xpath)))
	tb.follow("click "+what, chromedp.Click(chromedp.Search(xpath), chromedp.NodeVisible))
}

// waitVisible waits until an element matching the CSS selector is visible.
func (tb *tab) waitVisible(sel string) {
	tb.t.Helper()
	tb.do("wait for "+sel+" to be visible", chromedp.WaitVisible(chromedp.CSS(sel)))
}

// location is the tab's current address, parsed.
func (tb *tab) location() *url.URL {
	tb.t.Helper()
	loc := evalJS[string](tb, `location.href`)
	u, err := url.Parse(loc)
	if err != nil {
		tb.t.Fatalf("location %q: %v", loc, err)
	}
	return u
}

// texts is the rendered text of every element the selector matches, whitespace collapsed.
// It does not wait: the pages are rendered on the server, so a loaded page is complete.
func (tb *tab) texts(sel string) []string {
	tb.t.Helper()
	return evalJS[[]string](tb, `Array.from(document.querySelectorAll(`+jsString(sel)+`),
		e => (e.innerText || e.textContent || "").replace(/\s+/g, " ").trim())`)
}

// text is the text of the one element the selector must match first.
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	ts := tb.texts(sel)
	if len(ts) == 0 {
		tb.t.Fatalf("%s: no element matches %s", tb.location(), sel)
	}
	return ts[0]
}

// count is the number of elements the selector matches.
func (tb *tab) count(sel string) int {
	tb.t.Helper()
	return evalJS[int](tb, `document.querySelectorAll(`+jsString(sel)+`).length`)
}

// attr is an attribute of the first element the selector matches ("" when absent).
func (tb *tab) attr(sel, name string) string {
	tb.t.Helper()
	return evalJS[string](tb, `(document.querySelector(`+jsString(sel)+`)?.getAttribute(`+jsString(name)+`)) ?? ""`)
}

// evalJS evaluates an expression in the page (through DevTools, so neither the page's CSP nor
// disabled page scripts stop it) and decodes its value.
func evalJS[T any](tb *tab, expr string, opts ...chromedp.EvaluateOption) T {
	tb.t.Helper()
	ctx, cancel := tb.step()
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		tb.fail("evaluate %.80q", err, expr)
	}
	return v
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// xpathString quotes s as an XPath string literal, whatever quotes it holds.
func xpathString(s string) string {
	if !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	if !strings.Contains(s, `'`) {
		return `'` + s + `'`
	}
	parts := strings.Split(s, `"`)
	return `concat("` + strings.Join(parts, `", '"', "`) + `")`
}
