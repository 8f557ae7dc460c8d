package checker

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTeamRunsEachShareOncePerPhase runs many phases on teams that spin
// and teams that sleep: every worker runs its share of each phase once,
// run returns only when all shares are done, and stop ends the team's
// goroutines (stop waits for them; counting goroutines would not tell,
// as other tests' goroutines come and go meanwhile).
func TestTeamRunsEachShareOncePerPhase(t *testing.T) {
	for _, spin := range []bool{true, false} {
		for _, n := range []int{0, 1, 3} {
			tm := newTeam(n, spin)
			counts := make([]atomic.Int64, n+1)
			const phases = 500
			for p := 0; p < phases; p++ {
				tm.run(func(i int) { counts[i].Add(1) })
				for i := range counts {
					require.Equal(t, int64(p+1), counts[i].Load(), "spin %v, %d workers, phase %d, worker %d", spin, n+1, p, i)
				}
			}
			// stop returns once every goroutine of the team has left its
			// loop (it waits for them): a team that did not end hangs here.
			tm.stop()
		}
	}
}

// TestRunWorkersOnATeamReturnsTheMainWorkersBound checks that a phase run
// by a team returns what the main worker returned, and that every
// worker ran with main set only for the first.
func TestRunWorkersOnATeamReturnsTheMainWorkersBound(t *testing.T) {
	tm := newTeam(2, canSpin(2))
	defer tm.stop()
	ws := []*levelWorker[struct{}, struct{}]{{idx: 0, team: tm}, {idx: 1, team: tm}, {idx: 2, team: tm}}
	var mains, others atomic.Int64
	stop := runWorkers(ws, func(w *levelWorker[struct{}, struct{}], main bool) string {
		if main {
			mains.Add(1)
			require.Equal(t, uint64(0), w.idx)
			return "bound"
		}
		others.Add(1)
		return "not this one"
	})
	require.Equal(t, "bound", stop)
	require.Equal(t, int64(1), mains.Load())
	require.Equal(t, int64(2), others.Load())
}
