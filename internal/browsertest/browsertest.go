// Package browsertest drives Debian's headless Chromium for the browser
// tests (package viz's diagrams and plots, the cli's check -html and
// explore), through chromedp. A test skips, naming the missing
// /usr/bin/chromium, where it is not installed.
package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// ChromiumPath is Debian's Chromium, which .ci/run installs.
const ChromiumPath = "/usr/bin/chromium"

// shared is the one browser of a test binary: each test opens a tab in
// it (starting Chromium costs seconds; a tab, milliseconds).
var shared struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	dir    string
	err    error
}

// Start opens a tab in headless Chromium for one test, starting the
// browser first (with the flags this machine's closed network needs), or
// skips the test when Chromium is not installed. The browser lives until
// Close.
func Start(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		t.Skipf("no browser: %s is missing (apt-get install chromium; .ci/run installs it)", ChromiumPath)
	}
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "coordcheck-chromium-"); shared.err != nil {
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(ChromiumPath),
			chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			// A page left by the back button is loaded again, not restored
			// from memory, so that queries see its new document.
			chromedp.Flag("disable-features", "BackForwardCache"),
			chromedp.UserDataDir(shared.dir),
			chromedp.WindowSize(1400, 1000),
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelBrowser := chromedp.NewContext(actx)
		shared.ctx, shared.cancel = bctx, func() { cancelBrowser(); cancelAlloc() }
		shared.err = chromedp.Do(bctx) // starts the browser
	})
	require.NoError(t, shared.err, "starting %s", ChromiumPath)
	tab, cancelTab := chromedp.NewContext(shared.ctx)
	ctx, cancelTimeout := context.WithTimeout(tab, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelTab() })
	return ctx
}

// Main is the TestMain of a package with browser tests: it runs them,
// ends the browser they share (Close) and exits with their code.
func Main(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}

// Close ends the browser, if one was started; Main calls it after the
// tests.
func Close() {
	if shared.cancel != nil {
		shared.cancel()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
}

// Open loads url and waits until an element matches the CSS selector.
func Open(t *testing.T, ctx context.Context, url, sel string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(sel))), url)
}

// Eval evaluates a JavaScript expression on the page.
func Eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	require.NoError(t, err, js)
	return v
}

// Text is the trimmed text of the first element matching the CSS
// selector; the test fails when none does.
func Text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	js := `(() => { const e = document.querySelector(` + quote(sel) + `); return e ? e.textContent.trim() : null; })()`
	v := Eval[*string](t, ctx, js)
	require.NotNil(t, v, "no element matches %s", sel)
	return *v
}

// Click clicks, with the mouse, the first element matching the CSS
// selector. Right after a page loads, the browser may not have told of
// its new document yet: the click is tried again for a few seconds.
func Click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	// A click is a mouse event at the element's place: on a page still
	// loading (its style sheet not yet applied) the place may move
	// under it and the click be lost, as it was under load.
	loaded := false
	for deadline := time.Now().Add(10 * time.Second); !loaded && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState`))
		loaded = err == nil && state == "complete"
	}
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err = chromedp.Do(cctx, chromedp.Click(chromedp.CSS(sel)))
		cancel()
		if err == nil {
			return
		}
	}
	require.NoError(t, err, "clicking %s", sel)
}

// WaitText waits until the first element matching sel reads want (a page
// loading after a click or the back button).
func WaitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	got := ""
	js := `(() => { const e = document.querySelector(` + quote(sel) + `); return e ? e.textContent.trim() : ''; })()`
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		// While the next page loads, the evaluation may fail: try again.
		if s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js)); err == nil {
			if got = s; got == want {
				return
			}
		}
	}
	t.Fatalf("%s reads %q, not %q", sel, got, want)
}

// Resources lists what the page fetched besides itself.
func Resources(t *testing.T, ctx context.Context) []any {
	return Eval[[]any](t, ctx, `performance.getEntriesByType('resource').map(e => e.name)`)
}

// Screenshot saves a PNG of the whole page as name in
// $COORDCHECK_SCREENSHOTS, when set (the README's pictures:
// COORDCHECK_SCREENSHOTS=$PWD/docs go test ./viz ./cli -run Browser).
func Screenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("COORDCHECK_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
}

// quote writes s as a JavaScript string literal.
func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
