package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/counterexamples"
	bt "github.com/coordcheck/coordcheck/internal/browsertest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
	"github.com/stretchr/testify/require"
)

// check maekawa -n 3 -html FILE writes a file that opens offline in
// Chromium and shows the 15 steps of the deadlock as a diagram, with the
// search's states per level.
func TestBrowserCheckHTML(t *testing.T) {
	ctx := bt.Start(t)
	page := filepath.Join(t.TempDir(), "deadlock.html")
	code, out, errs := runCmd("check", "maekawa", "-n", "3", "-html", page, "-workers", "2")
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "sequence diagram written to "+page)
	bt.Open(t, ctx, "file://"+page, "svg.seq")
	bt.AssertMaekawaDeadlockDiagram(t, ctx)
	require.Equal(t, "states 43,243  transitions 170,275  depth 15", bt.Text(t, ctx, "#summary"))
	require.Equal(t, 17.0, bt.Eval[float64](t, ctx, `document.querySelectorAll('svg.chart.bars rect.bar').length`), "levels 0 to 16")
	require.Empty(t, bt.Resources(t, ctx), "the diagram fetches nothing")
}

// coordcheck explore maekawa -n 3, walked by clicks from the initial
// world to the stored deadlock: at each step the page shows the world the
// checker reaches by the same actions and keeps the path in its address;
// at the end no action is enabled and no-deadlock is violated; explore
// -cex opens at that very page.
func TestBrowserExploreToMaekawaDeadlock(t *testing.T) {
	ctx := bt.Start(t)
	fh, err := os.Open("../counterexamples/maekawa/deadlock-n3-all.cex")
	require.NoError(t, err)
	f, err := counterexamples.Parse(fh)
	fh.Close()
	require.NoError(t, err)
	require.Len(t, f.Actions, 15)
	e, _ := protocols.Lookup("maekawa")
	target, _, err := e.BuildWith(map[string]string{"n": "3"}, model.Config{})
	require.NoError(t, err)
	ref := target.(checker.Explorable).Explore() // the checker's own steps, to compare

	var final string
	code, out, errs := explore(t, func(url string) {
		bt.Open(t, ctx, url, "#actions")
		require.Equal(t, "step 0", bt.Text(t, ctx, "#depth"))
		// On the first load (a page the back button brings back may come
		// from the browser's cache, and list no resource).
		base := strings.TrimSuffix(url, "/")
		res := bt.Resources(t, ctx)
		require.Subset(t, res, []any{base + "/static/explore.css", base + "/static/diagram.css", base + "/static/explore.js"}, "the explorer fetches its assets")
		for _, r := range res {
			require.True(t, strings.HasPrefix(r.(string), base+"/"), "%s: the explorer fetches from itself alone", r)
		}
		var path []string
		for i, line := range f.Actions {
			idx := bt.Eval[float64](t, ctx, fmt.Sprintf(`[...document.querySelectorAll('a.action')].findIndex(a => a.textContent === %q)`, line))
			require.GreaterOrEqual(t, idx, 0.0, "step %d: %s is not listed", i+1, line)
			require.Equal(t, "holds", bt.Text(t, ctx, `tr[data-prop="no-deadlock"] .status`), "before step %d", i+1)
			path = append(path, fmt.Sprint(idx))
			bt.Click(t, ctx, fmt.Sprintf(`a.action[data-index="%d"]`, int(idx)))
			bt.WaitText(t, ctx, "#depth", fmt.Sprintf("step %d", i+1))
			require.True(t, ref.TakeLine(line))
			want := ref.View()
			for _, n := range want.Nodes {
				require.Equal(t, n.State, bt.Text(t, ctx, fmt.Sprintf(`#nodes tr[data-node=%q] code`, n.Name)), "step %d, %s", i+1, n.Name)
			}
			require.Equal(t, float64(len(want.Net)), bt.Eval[float64](t, ctx, `document.querySelectorAll('#net li').length`), "step %d: messages in flight", i+1)
			require.Equal(t, "?path="+strings.Join(path, "."), bt.Eval[string](t, ctx, `location.search`))
			if i == 13 {
				// Back one step by the page's link, and to step 14 again
				// by the browser's back button.
				bt.Click(t, ctx, "#back")
				bt.WaitText(t, ctx, "#depth", "step 13")
				require.Equal(t, "?path="+strings.Join(path[:13], "."), bt.Eval[string](t, ctx, `location.search`))
				// Later, not inside the evaluation: a navigation while
				// the evaluation runs makes it fail ("Inspected target
				// navigated or closed").
				bt.Eval[any](t, ctx, `setTimeout(() => history.back(), 0)`)
				bt.WaitText(t, ctx, "#depth", "step 14")
			}
		}
		require.Equal(t, "violated", bt.Text(t, ctx, `tr[data-prop="no-deadlock"] .status`))
		require.Contains(t, bt.Text(t, ctx, `tr[data-prop="no-deadlock"] .detail`), "circular wait")
		require.Equal(t, "violated here: no-deadlock", bt.Text(t, ctx, "#violated"))
		require.Equal(t, "holds", bt.Text(t, ctx, `tr[data-prop="mutual-exclusion"] .status`))
		require.Equal(t, "no action is enabled: the run ends here", bt.Text(t, ctx, "#actions"))
		bt.Screenshot(t, ctx, "maekawa-explorer-deadlock.png")
		final = bt.Eval[string](t, ctx, `location.search`)
		// The path drawn as a sequence diagram; a click on its step 5
		// goes back to the world after step 5.
		require.Equal(t, "15", bt.Eval[string](t, ctx, `document.querySelector('svg.seq').dataset.steps`))
		require.Equal(t, 12.0, bt.Eval[float64](t, ctx, `document.querySelectorAll('svg.seq .msg.delivered').length`))
		bt.Click(t, ctx, "#row-5 text.act")
		bt.WaitText(t, ctx, "#depth", "step 5")
		require.Equal(t, "?path="+strings.Join(path[:5], "."), bt.Eval[string](t, ctx, `location.search`))
	}, "maekawa", "-n", "3")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "exploring maekawa n=3")

	want, err := viz.PathOf(target.(checker.Explorable).Explore(), f.Actions)
	require.NoError(t, err)
	require.Equal(t, "?path="+viz.FormatPath(want), final)
	code, _, errs = explore(t, func(url string) {
		require.True(t, strings.HasSuffix(url, "/"+final), url)
		bt.Open(t, ctx, url, "#violated")
		require.Equal(t, "step 15", bt.Text(t, ctx, "#depth"))
	}, "-cex", "../counterexamples/maekawa/deadlock-n3-all.cex")
	require.Equal(t, 0, code, errs)
}
