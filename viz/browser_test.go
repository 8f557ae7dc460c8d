package viz_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
	"github.com/stretchr/testify/require"
)

// chromiumPath is Debian's Chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

// browser starts headless Chromium for one test, or skips the test when
// it is not installed.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("no browser: %s is missing (apt-get install chromium; .ci/run installs it)", chromiumPath)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// A page left by the back button is loaded again, not restored from
		// memory, so that queries see its new document.
		chromedp.Flag("disable-features", "BackForwardCache"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// resources lists what the page fetched besides itself.
func resources(t *testing.T, ctx context.Context) []any {
	return eval[[]any](t, ctx, `performance.getEntriesByType('resource').map(e => e.name)`)
}

// screenshot saves a PNG of the page into $COORDCHECK_SCREENSHOTS, when
// set (the README's pictures: COORDCHECK_SCREENSHOTS=$PWD/docs go test
// ./viz -run Browser).
func screenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("COORDCHECK_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100) /* 100: PNG */)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
}

// text returns the text of the first element matching the CSS selector.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(t, err, sel)
	return strings.TrimSpace(s)
}

// eval evaluates a JavaScript expression on the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	require.NoError(t, err, js)
	return v
}

// The stored Maekawa deadlock's diagram, opened from disk in Chromium:
// three lanes, fifteen steps, twelve arrows, the property stated, no
// request to any network, and a click on a step shows the world after it.
func TestBrowserMaekawaDiagram(t *testing.T) {
	ctx := browser(t)
	page, err := filepath.Abs("../counterexamples/maekawa/deadlock-n3-all.cex.html")
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("svg.seq"))))

	require.Equal(t, []any{"p0", "p1", "p2"}, eval[[]any](t, ctx, `[...document.querySelectorAll('svg .lane')].map(g => g.dataset.node)`))
	require.Equal(t, []any{"p0", "p1", "p2"}, eval[[]any](t, ctx, `[...document.querySelectorAll('svg .lanename')].map(e => e.textContent)`))
	require.Equal(t, 16.0, eval[float64](t, ctx, `document.querySelectorAll('svg .row').length`), "the initial world and 15 steps")
	require.Equal(t, 12.0, eval[float64](t, ctx, `document.querySelectorAll('svg .msg.delivered').length`))
	require.Equal(t, 12.0, eval[float64](t, ctx, `document.querySelectorAll('svg .msg').length`))
	// Each arrow runs from its sender's lane to its receiver's: its path
	// starts and ends at their x.
	bad := eval[[]any](t, ctx, `(() => {
	  const x = {};
	  document.querySelectorAll('svg .lane line').forEach(l => x[l.parentNode.dataset.node] = +l.getAttribute('x1'));
	  const bad = [];
	  document.querySelectorAll('svg .msg').forEach(g => {
	    const p = g.querySelector('path'), len = p.getTotalLength();
	    const a = p.getPointAtLength(0), b = p.getPointAtLength(len);
	    if (Math.abs(a.x - x[g.dataset.from]) > 4 || Math.abs(b.x - x[g.dataset.to]) > 4) bad.push(g.querySelector('title').textContent);
	  });
	  return bad;
	})()`)
	require.Empty(t, bad, "arrows that do not join their lanes")
	require.Contains(t, text(t, ctx, "#verdict"), "violated: no-deadlock: circular wait")
	// The last step is shown at first; a click on step 5 shows the world after it.
	require.Equal(t, "after step 15", text(t, ctx, "section.world:not([hidden]) h2"))
	screenshot(t, ctx, "maekawa-deadlock-diagram.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#row-5 text.act"))))
	require.Equal(t, "after step 5", text(t, ctx, "section.world:not([hidden]) h2"))
	require.Equal(t, "WANTED clock=1 ts=1 grants=1/3 rounds=0 voted=p0 queue=[(1,p1)]",
		text(t, ctx, `section.world:not([hidden]) tr[data-node="p0"] code`))
	require.Equal(t, 1.0, eval[float64](t, ctx, `document.querySelectorAll('section.world:not([hidden])').length`))
	require.Equal(t, "#step-5", eval[string](t, ctx, `location.hash`))
	require.Empty(t, resources(t, ctx), "the diagram fetches nothing")
}

// waitDepth waits until the explorer's page shows step n (the page
// loads after a click or the browser's back button).
func waitDepth(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	want := fmt.Sprintf("step %d", n)
	got := ""
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		// While the next page loads, the evaluation may fail: try again.
		if s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById('depth') || {}).textContent || ''`)); err == nil {
			if got = s; got == want {
				return
			}
		}
	}
	t.Fatalf("the page shows %q, not %q", got, want)
}

// maekawaExplorer serves the explorer of maekawa -n 3, as `coordcheck
// explore maekawa -n 3` does.
func maekawaExplorer(t *testing.T) (*httptest.Server, checker.Target) {
	e, ok := protocols.Lookup("maekawa")
	require.True(t, ok)
	target, values, err := e.BuildWith(map[string]string{"n": "3"}, model.Config{})
	require.NoError(t, err)
	title := counterexamples.Title(counterexamples.FromTrace("maekawa", values.Map(), model.Config{}, &checker.Trace{}))
	srv := httptest.NewServer((&viz.Explorer{Title: title, Start: target.(checker.Explorable).Explore}).Handler())
	t.Cleanup(srv.Close)
	return srv, target
}

// The explorer, walked by clicks from the initial world to the stored
// Maekawa deadlock: at each step the page shows the world the checker
// reaches by the same actions, the address keeps the path, and at the
// end no action is enabled and no-deadlock is violated.
func TestBrowserExplorerWalksToMaekawaDeadlock(t *testing.T) {
	ctx := browser(t)
	srv, target := maekawaExplorer(t)
	fh, err := os.Open("../counterexamples/maekawa/deadlock-n3-all.cex")
	require.NoError(t, err)
	f, err := counterexamples.Parse(fh)
	fh.Close()
	require.NoError(t, err)
	require.Len(t, f.Actions, 15)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#actions"))))
	require.Equal(t, "step 0", text(t, ctx, "#depth"))
	ref := target.(checker.Explorable).Explore()
	var path []string
	for i, line := range f.Actions {
		// The action is listed; click it.
		idx := eval[float64](t, ctx, fmt.Sprintf(`[...document.querySelectorAll('a.action')].findIndex(a => a.textContent === %q)`, line))
		require.GreaterOrEqual(t, idx, 0.0, "step %d: %s is not listed", i+1, line)
		require.Equal(t, "holds", text(t, ctx, `tr[data-prop="no-deadlock"] .status`), "before step %d", i+1)
		path = append(path, fmt.Sprint(idx))
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`a.action[data-index="%d"]`, int(idx))))))
		waitDepth(t, ctx, i+1)
		require.True(t, ref.TakeLine(line))
		// The page shows the world the checker reaches, and the path.
		want := ref.View()
		for _, n := range want.Nodes {
			require.Equal(t, n.State, text(t, ctx, fmt.Sprintf(`tr[data-node=%q] code`, n.Name)), "step %d, %s", i+1, n.Name)
		}
		require.Equal(t, float64(len(want.Net)), eval[float64](t, ctx, `document.querySelectorAll('#net li').length`), "step %d: messages in flight", i+1)
		require.Equal(t, "?path="+strings.Join(path, "."), eval[string](t, ctx, `location.search`))
		if i == 13 {
			// Back one step by the page's link, and to step 14 again by
			// the browser's back button.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#back"))))
			waitDepth(t, ctx, 13)
			require.Equal(t, "?path="+strings.Join(path[:13], "."), eval[string](t, ctx, `location.search`))
			eval[any](t, ctx, `history.back()`)
			waitDepth(t, ctx, 14)
		}
	}
	want, err := viz.PathOf(target.(checker.Explorable).Explore(), f.Actions)
	require.NoError(t, err)
	require.Equal(t, "?path="+viz.FormatPath(want), eval[string](t, ctx, `location.search`), "explore -cex opens this page")
	require.Equal(t, "violated", text(t, ctx, `tr[data-prop="no-deadlock"] .status`))
	require.Contains(t, text(t, ctx, `tr[data-prop="no-deadlock"] .detail`), "circular wait")
	require.Equal(t, "violated here: no-deadlock", text(t, ctx, "#violated"))
	require.Equal(t, "holds", text(t, ctx, `tr[data-prop="mutual-exclusion"] .status`))
	require.Equal(t, "no action is enabled: the run ends here", text(t, ctx, "#actions"))
	screenshot(t, ctx, "maekawa-explorer-deadlock.png")
	// The path is drawn as a sequence diagram too; a click on its step 5
	// goes back to the world after step 5.
	require.Equal(t, "15", eval[string](t, ctx, `document.querySelector('svg.seq').dataset.steps`))
	require.Equal(t, 12.0, eval[float64](t, ctx, `document.querySelectorAll('svg .msg.delivered').length`))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#row-5 text.act"))))
	waitDepth(t, ctx, 5)
	require.Equal(t, "?path="+strings.Join(path[:5], "."), eval[string](t, ctx, `location.search`))
	require.Equal(t, "holds", text(t, ctx, `tr[data-prop="no-deadlock"] .status`))
	require.Equal(t, []any{srv.URL + "/static/explore.css", srv.URL + "/static/diagram.css", srv.URL + "/static/explore.js"}, resources(t, ctx), "the explorer fetches its assets, from itself")
}

// The mutex costs plotted against N, in Chromium: each chart has a
// measured line with its points and a dashed formula line per algorithm.
func TestBrowserCostsPlot(t *testing.T) {
	ctx := browser(t)
	var samples []viz.CostSample
	for _, e := range protocols.All() {
		if e.Family != "mutex" || e.Costs == nil {
			continue
		}
		for n := 3; n <= 8; n++ {
			rows, err := e.Costs(n)
			require.NoError(t, err)
			sm := viz.CostSample{Protocol: e.Name, N: n}
			for _, r := range rows {
				if m, f, ok := viz.ParseCost(r.Measured, r.Formula); ok {
					sm.Rows = append(sm.Rows, viz.CostRow{Metric: r.Metric, Measured: m, Formula: f})
				}
			}
			samples = append(samples, sm)
		}
	}
	page := filepath.Join(t.TempDir(), "costs.html")
	fh, err := os.Create(page)
	require.NoError(t, err)
	require.NoError(t, viz.WriteCostsHTML(fh, "mutex", samples))
	require.NoError(t, fh.Close())
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("svg.chart"))))
	require.Equal(t, 6.0, eval[float64](t, ctx, `document.querySelectorAll('svg.chart').length`))
	first := `document.querySelector('svg.chart')`
	require.Equal(t, "messages per entry", eval[string](t, ctx, first+`.querySelector('.title').textContent`))
	require.Equal(t, []any{"centralized", "lamport", "maekawa", "maekawa-df", "ricartagrawala", "voting"},
		eval[[]any](t, ctx, `[...`+first+`.querySelectorAll('g.series.measured')].map(g => g.dataset.name)`))
	require.Equal(t, 6.0, eval[float64](t, ctx, first+`.querySelectorAll('g.series.formula').length`))
	// Six points a line, drawn inside the plot.
	require.Equal(t, 36.0, eval[float64](t, ctx, first+`.querySelectorAll('g.series.measured circle').length`))
	require.Equal(t, "6 4", eval[string](t, ctx, `getComputedStyle(`+first+`.querySelector('g.series.formula path')).strokeDasharray.replace(/px/g, '').replace(',', '')`))
	require.Empty(t, resources(t, ctx), "the plots fetch nothing")
	screenshot(t, ctx, "costs-mutex.png")
}
