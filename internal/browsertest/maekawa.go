package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// AssertMaekawaDeadlockDiagram checks, in the browser, the page open in
// ctx: the sequence diagram of the 15-step deadlock of maekawa -n 3 (the
// stored one, or what check -html writes). Three lanes p0 to p2, the
// initial world and 15 steps, twelve messages each delivered and each
// drawn from its sender's lane to its receiver's, the last step shown,
// and the property stated. For the browser tests.
func AssertMaekawaDeadlockDiagram(t *testing.T, ctx context.Context) {
	t.Helper()
	require.Equal(t, []any{"p0", "p1", "p2"}, Eval[[]any](t, ctx, `[...document.querySelectorAll('svg.seq .lane')].map(g => g.dataset.node)`))
	require.Equal(t, []any{"p0", "p1", "p2"}, Eval[[]any](t, ctx, `[...document.querySelectorAll('svg.seq .lanename')].map(e => e.textContent)`))
	require.Equal(t, 16.0, Eval[float64](t, ctx, `document.querySelectorAll('svg.seq .row').length`), "the initial world and 15 steps")
	require.Equal(t, "deliver p2->p2 REQ(ts=1)", Text(t, ctx, "svg.seq #row-15 title"))
	require.Equal(t, 12.0, Eval[float64](t, ctx, `document.querySelectorAll('svg.seq .msg.delivered').length`))
	require.Equal(t, 12.0, Eval[float64](t, ctx, `document.querySelectorAll('svg.seq .msg').length`))
	require.Equal(t, 3.0, Eval[float64](t, ctx, `document.querySelectorAll('svg.seq .mark.input').length`))
	bad := Eval[[]any](t, ctx, `(() => {
	  const x = {};
	  document.querySelectorAll('svg.seq .lane line').forEach(l => x[l.parentNode.dataset.node] = +l.getAttribute('x1'));
	  const bad = [];
	  document.querySelectorAll('svg.seq .msg').forEach(g => {
	    const p = g.querySelector('path'), len = p.getTotalLength();
	    const a = p.getPointAtLength(0), b = p.getPointAtLength(len);
	    if (Math.abs(a.x - x[g.dataset.from]) > 4 || Math.abs(b.x - x[g.dataset.to]) > 4) bad.push(g.querySelector('title').textContent);
	  });
	  return bad;
	})()`)
	require.Empty(t, bad, "arrows that do not join their lanes")
	require.Contains(t, Text(t, ctx, "#verdict"), "violated: no-deadlock: circular wait")
	require.Equal(t, "after step 15", Text(t, ctx, "section.world:not([hidden]) h2"))
}
