package live_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// A partition cuts the links between its two sides both ways, as the
// model's does: what either side sends across is lost at once, what
// stays on one side arrives, and the cluster's world (a snapshot) holds
// no message across the cut; the trace says partition and heal in the
// checker's words.
func TestPartitionCutsLinksBothWays(t *testing.T) {
	c := live.MustStart[ra.State, ra.Msg](ra.New(3, mutex.Endless), live.Options{MaxTrace: 100})
	defer c.Stop()
	c.Partition(1) // {p0} | {p1,p2}
	require.NoError(t, c.Input(1, mutex.Request, time.Second))
	require.NoError(t, c.Input(0, mutex.Request, time.Second))
	// p1's REQUEST reaches p2, which replies: wait for p1 to see it.
	deadline := time.Now().Add(2 * time.Second)
	for c.State(1).Replies < 1 && time.Now().Before(deadline) {
		require.NoError(t, c.WaitChange(1, deadline))
	}
	require.Equal(t, uint8(1), c.State(1).Replies, "p2's reply to p1 arrived: same side")
	require.Equal(t, uint8(0), c.State(0).Replies, "nothing reached p0 across the cut")
	require.Equal(t, int64(3), c.Faults().Cut, "p1->p0, p0->p1, p0->p2")
	w, _ := c.Snapshot(false)
	require.Equal(t, uint64(1), w.Cut)
	for _, e := range w.Net {
		require.False(t, w.Separated(e.From, e.To), "%s->%s crosses the cut", e.From, e.To)
	}
	c.Heal()
	lines, complete := c.Trace()
	require.True(t, complete)
	require.Equal(t, "partition {p0}|{p1,p2}", lines[0])
	require.Equal(t, "heal", lines[len(lines)-1])
	require.Contains(t, lines, "input p1 request")
	require.Contains(t, lines, "deliver p1->p2 REQ(ts=1)")
}

// A crash loses what is in flight to the node, as model.Crash does, and
// the restarted node starts afresh (Ricart-Agrawala has no Recover): the
// world after the restart has the node in its initial state and nothing
// on its way to it from before.
func TestCrashLosesInFlight(t *testing.T) {
	c := live.MustStart[ra.State, ra.Msg](ra.New(3, mutex.Endless), live.Options{MaxTrace: 100})
	defer c.Stop()
	require.NoError(t, c.Input(0, mutex.Request, time.Second))
	c.Crash(0)
	w, _ := c.Snapshot(false)
	require.True(t, w.IsDown(0))
	for _, e := range w.Net {
		require.NotEqual(t, model.NodeID(0), e.To, "a message to the crashed node is still in flight")
	}
	require.NoError(t, c.Restart(0))
	require.Equal(t, mutex.Released, c.State(0).Phase)
	lines, _ := c.Trace()
	require.Equal(t, "input p0 request", lines[0])
	crash, restart := slices.Index(lines, "crash p0"), slices.Index(lines, "restart p0")
	require.Positive(t, crash)
	require.Greater(t, restart, crash)
}
