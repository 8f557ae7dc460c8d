package viz_test

import (
	"os"
	"path/filepath"
	"testing"

	bt "github.com/coordcheck/coordcheck/internal/browsertest"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
	"github.com/stretchr/testify/require"
)

// The stored Maekawa deadlock's diagram, opened from disk in Chromium:
// three lanes, fifteen steps, twelve arrows each joining its sender's
// lane to its receiver's, the property stated, nothing fetched, and a
// click on a step shows the world after it.
func TestBrowserMaekawaDiagram(t *testing.T) {
	ctx := bt.Start(t)
	page, err := filepath.Abs("../counterexamples/maekawa/deadlock-n3-all.cex.html")
	require.NoError(t, err)
	bt.Open(t, ctx, "file://"+page, "svg.seq")
	bt.AssertMaekawaDeadlockDiagram(t, ctx)
	bt.Screenshot(t, ctx, "maekawa-deadlock-diagram.png")
	bt.Click(t, ctx, "#row-5 text.act")
	require.Equal(t, "after step 5", bt.Text(t, ctx, "section.world:not([hidden]) h2"))
	require.Equal(t, "WANTED clock=1 ts=1 grants=1/3 rounds=0 voted=p0 queue=[(1,p1)]",
		bt.Text(t, ctx, `section.world:not([hidden]) tr[data-node="p0"] code`))
	require.Equal(t, 1.0, bt.Eval[float64](t, ctx, `document.querySelectorAll('section.world:not([hidden])').length`))
	require.Equal(t, "#step-5", bt.Eval[string](t, ctx, `location.hash`))
	require.Empty(t, bt.Resources(t, ctx), "the diagram fetches nothing")
}

// The mutex costs plotted against N, in Chromium: each chart has a
// measured line with its points and a dashed formula line per algorithm.
func TestBrowserCostsPlot(t *testing.T) {
	ctx := bt.Start(t)
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
	bt.Open(t, ctx, "file://"+page, "svg.chart")
	require.Equal(t, 6.0, bt.Eval[float64](t, ctx, `document.querySelectorAll('svg.chart').length`))
	first := `document.querySelector('svg.chart')`
	require.Equal(t, "messages per entry", bt.Eval[string](t, ctx, first+`.querySelector('.title').textContent`))
	require.Equal(t, []any{"centralized", "lamport", "maekawa", "maekawa-df", "ricartagrawala", "voting"},
		bt.Eval[[]any](t, ctx, `[...`+first+`.querySelectorAll('g.series.measured')].map(g => g.dataset.name)`))
	require.Equal(t, 6.0, bt.Eval[float64](t, ctx, first+`.querySelectorAll('g.series.formula').length`))
	// Six points a line.
	require.Equal(t, 36.0, bt.Eval[float64](t, ctx, first+`.querySelectorAll('g.series.measured circle').length`))
	require.Equal(t, "6px, 4px", bt.Eval[string](t, ctx, `getComputedStyle(`+first+`.querySelector('g.series.formula path')).strokeDasharray`))
	require.Empty(t, bt.Resources(t, ctx), "the plots fetch nothing")
	bt.Screenshot(t, ctx, "costs-mutex.png")
}
