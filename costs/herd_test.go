package costs

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/protocols/coordination"
)

// The herd effect, measured by running the recipes' code for N = 3..7:
// a release wakes N-1 waiters of the simple lock, 1 of the sequential
// recipe; all N releases wake N(N-1)/2 and N-1 (seed 004).
func TestHerd(t *testing.T) {
	for n := 3; n <= 7; n++ {
		simple, err := Herd(coordination.SimpleLockClients, n)
		require.NoError(t, err)
		seq, err := Herd(coordination.LockClients, n)
		require.NoError(t, err)
		require.Equal(t, n-1, simple.First(), "n=%d", n)
		require.Equal(t, 1, seq.First(), "n=%d", n)
		require.Equal(t, n*(n-1)/2, simple.Total(), "n=%d", n)
		require.Equal(t, n-1, seq.Total(), "n=%d", n)
		for k, got := range simple.PerRelease {
			require.Equal(t, n-1-k, got, "n=%d: release %d wakes every waiter left", n, k)
		}
	}
	_, err := Herd(coordination.BarrierClients, 3)
	require.Error(t, err)
	_, err = Herd(coordination.LockClients, 9)
	require.ErrorContains(t, err, "want 2 to 8")
}
