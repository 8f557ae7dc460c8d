package cli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Sleep sets are on by default for a BFS safety search and say how many
// transitions they left out; -sleep=false takes them all; an explicit
// -sleep where they cannot apply is bad usage.
func TestSleepFlag(t *testing.T) {
	args := []string{"check", "centralized", "-n", "3", "-workers", "1"}
	code, out, errs := runCmd(append(args, "-liveness=false")...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "states 1,238  transitions 1,657  depth")
	require.Contains(t, out, "sleep sets: 1,091 more transitions left out")
	code, out, errs = runCmd(append(args, "-liveness=false", "-sleep=false")...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "states 1,238  transitions 2,748  depth")
	require.NotContains(t, out, "sleep sets")
	code, out, errs = runCmd(args...) // liveness checked: every transition
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "states 1,238  transitions 2,748  depth")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-sleep", "-mode", "dfs"}, "-sleep has no effect: sleep sets apply to -mode bfs"},
		{[]string{"-sleep"}, "-sleep has no effect: liveness is checked"},
		{[]string{"-sleep", "-liveness=false", "-symmetry"}, "-sleep has no effect: -symmetry renames"},
	} {
		code, _, errs = runCmd(append([]string{"check", "centralized", "-n", "3"}, c.args...)...)
		require.Equal(t, 2, code, c.args)
		require.Contains(t, errs, c.want, c.args)
	}
	code, _, errs = runCmd("check", "centralized", "-n", "3", "-sleep=false", "-mode", "dfs")
	require.Equal(t, 0, code, errs)
}
