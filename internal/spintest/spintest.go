// Package spintest is the one helper of the tests that pin coordcheck's
// state counts to SPIN's: an exhaustive search of a protocol must reach
// exactly the states, edges and depth of SPIN's NOREDUCE run on the same
// model (bench/spin-compare.sh; SPIN's "transitions" is edges+1), and
// with Exhaust count the violating states as SPIN's -c0 does.
package spintest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/long"
)

// Counts are SPIN's figures for one configuration.
type Counts struct {
	Verdict       checker.Verdict
	States, Edges uint64
	// Depth is the greatest depth (0: not pinned).
	Depth int
	// Violating are the violating states per property, for a search with
	// Exhaust (nil: none expected).
	Violating []checker.PropertyCount
	// Long rows run only with COORDCHECK_LONG=1.
	Long bool
}

// Match runs check, the exhaustive search of the configuration called
// name, and requires SPIN's figures want.
func Match(t *testing.T, name string, want Counts, check func() *checker.Report) {
	t.Helper()
	if want.Long && !long.Enabled() {
		return
	}
	rep := check()
	require.Equal(t, want.Verdict, rep.Verdict, "%s: %v", name, rep.Counterexample)
	require.Equal(t, int64(want.States), int64(rep.States), "%s: states", name)
	require.Equal(t, int64(want.Edges), int64(rep.Transitions), "%s: edges", name)
	if want.Depth != 0 {
		require.Equal(t, want.Depth, rep.Depth, "%s: depth", name)
	}
	if want.Violating != nil {
		require.Equal(t, want.Violating, rep.ViolationCounts, "%s: violating states", name)
	}
	t.Logf("%s: %d states, %.0f states/s", name, rep.States, rep.StatesPerSecond)
}
