package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// -symmetry reduces the centralized algorithm's clients and says so; it is
// refused with one line where it cannot apply.
func TestSymmetryFlag(t *testing.T) {
	code, out, errs := runCmd("check", "centralized", "-n", "3", "-symmetry", "-liveness=false")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "states 238 ")
	require.Contains(t, out, "symmetry: 3 interchangeable nodes")
	code, out, errs = runCmd("check", "centralized", "-n", "3", "-symmetry", "-liveness=false", "-faults", "dup=1")
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "verdict: violated: release-from-holder")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "centralized", "-symmetry"}, "centralized: -symmetry: liveness properties (starvation-freedom) are not checked"},
		{[]string{"check", "maekawa", "-symmetry", "-liveness=false"}, "maekawa: -symmetry: the protocol declares no interchangeable nodes"},
		{[]string{"check", "centralized", "-symmetry", "-mode", "swarm"}, "-symmetry has no effect under -mode swarm"},
		{[]string{"check", "centralized", "-symmetry", "-liveness=false", "-faults", "crash=1@p1"}, "crashes restricted to {p1} single out some of the interchangeable nodes {p0,p1,p2}"},
	} {
		code, out, errs := runCmd(c.args...)
		require.Equal(t, 2, code, c.args)
		require.Empty(t, out)
		require.Contains(t, errs, c.want)
		require.Equal(t, 1, strings.Count(errs, "\n"))
	}
}

// -por checks Maekawa's deadlock with its other invariants skipped, says
// so, and is refused with one line while they are checked.
func TestPORFlag(t *testing.T) {
	code, out, errs := runCmd("check", "maekawa", "-n", "3", "-por", "-liveness=false", "-skip", "mutual-exclusion,release-from-holder")
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "counterexample: 15 steps to a violation of no-deadlock")
	require.Contains(t, out, "partial-order reduction: one persistent set")
	require.Contains(t, out, "states 28,278 ")
	code, out, errs = runCmd("check", "maekawa", "-n", "3", "-por", "-liveness=false")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errs, "maekawa: -por: property mutual-exclusion is judged in every state")
	require.Equal(t, 1, strings.Count(errs, "\n"))
}
