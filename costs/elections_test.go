package costs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/ringelection"
)

// The measured costs: seed 003's crashed-coordinator scenario and seed
// 001's sole election, for N from 3 to 7 (the registry entry lays them
// beside the notes' formulas, with the timing differences explained).
func TestBullyCosts(t *testing.T) {
	for n := 3; n <= 7; n++ {
		c, err := costs.Bully(n)
		require.NoError(t, err)
		h := model.NodeID(n - 1)
		// The second-highest detects the crash: N-2 COORD (its ELECTION
		// to the crashed coordinator is lost).
		require.Equal(t, h-1, c.CrashBest.Initiator)
		require.Equal(t, n-2, c.CrashBest.Sent())
		require.Equal(t, 1, c.CrashBest.Lost())
		require.Equal(t, 3, c.CrashBest.Time())
		// The lowest detects it: N(N-1)/2 ELECTIONs, N-1 of them lost.
		w := c.CrashWorst
		require.Equal(t, model.NodeID(0), w.Initiator)
		require.Equal(t, n*(n-1)/2, w.Sent("ELECTION")+w.Lost("ELECTION"))
		require.Equal(t, n-1, w.Lost("ELECTION"))
		require.Equal(t, (n-1)*(n-2)/2, w.Sent("OK"))
		require.Equal(t, n-2, w.Sent("COORD"))
		require.Equal(t, n*(n-2), w.Sent())
		require.Equal(t, 4, w.Time())
		require.Equal(t, h-1, w.Leader)
		// Sole election: N-1 COORD from the highest; N^2-1 from the lowest.
		require.Equal(t, h, c.SoleBest.Initiator)
		require.Equal(t, n-1, c.SoleBest.Sent("COORD"))
		require.Equal(t, n-1, c.SoleBest.Sent())
		require.Equal(t, model.NodeID(0), c.SoleWorst.Initiator)
		require.Equal(t, n*(n-1)/2, c.SoleWorst.Sent("ELECTION"))
		require.Equal(t, n*(n-1)/2, c.SoleWorst.Sent("OK"))
		require.Equal(t, n-1, c.SoleWorst.Sent("COORD"))
		require.Equal(t, n*n-1, c.SoleWorst.Sent())
		require.Equal(t, h, c.SoleWorst.Leader)
	}
}

// The measured costs for N from 3 to 7 (seed 001, "Comparison"; seed 003,
// "Worst-Case Analysis"): Chang-Roberts 2N when the highest id starts and
// 3N-1 when its successor does, in as many transmission times; the
// enhanced ring 2N always, plus one ACK for each.
func TestRingCosts(t *testing.T) {
	for n := 3; n <= 7; n++ {
		c, err := costs.Ring(n, ringelection.ChangRoberts)
		require.NoError(t, err)
		require.Equal(t, model.NodeID(0), c.Best.Initiator)
		require.Equal(t, n, c.Best.Sent("ELECTION"))
		require.Equal(t, n, c.Best.Sent("COORD"))
		require.Equal(t, 2*n, c.Best.Time())
		require.Equal(t, model.NodeID(1), c.Worst.Initiator)
		require.Equal(t, 2*n-1, c.Worst.Sent("ELECTION"))
		require.Equal(t, n, c.Worst.Sent("COORD"))
		require.Equal(t, 3*n-1, c.Worst.Time())

		c, err = costs.Ring(n, ringelection.Enhanced)
		require.NoError(t, err)
		for _, r := range []struct{ sent, acks, time int }{
			{c.Best.Sent(costs.RingCounted...), c.Best.Sent("ACK"), c.Best.Time(costs.RingCounted...)},
			{c.Worst.Sent(costs.RingCounted...), c.Worst.Sent("ACK"), c.Worst.Time(costs.RingCounted...)},
		} {
			require.Equal(t, 2*n, r.sent)
			require.Equal(t, 2*n, r.acks)
			require.Equal(t, 2*n, r.time)
		}
	}
}
