package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// -spill always writes the frontier to files in -spill-dir, says how much,
// and finds what the search in memory finds; a bad mode or directory is
// bad usage.
func TestSpillFlags(t *testing.T) {
	args := []string{"check", "ricartagrawala", "-rounds", "2", "-clock", "spin", "-liveness=false", "-workers", "2"}
	code, mem, errs := runCmd(append(args, "-spill", "never")...)
	require.Equal(t, 0, code, errs)
	require.NotContains(t, mem, "spilled")
	code, disk, errs := runCmd(append(args, "-spill", "always", "-spill-dir", t.TempDir())...)
	require.Equal(t, 0, code, errs)
	// 81,347 transitions in all, 33,752 of them left to sleep sets.
	for _, out := range []string{disk, mem} {
		require.Contains(t, out, "states 29,384  transitions 47,595  depth 42")
		require.Contains(t, out, "sleep sets: 33,752 more transitions left out")
	}
	require.Contains(t, disk, "frontier spilled to disk: 1.0 MB written and read back (-spill)")
	code, all, errs := runCmd(append(args, "-spill", "always", "-spill-dir", t.TempDir(), "-sleep=false")...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, all, "states 29,384  transitions 81,347  depth 42")
	require.NotContains(t, all, "sleep sets")

	code, _, errs = runCmd(append(args, "-spill", "sometimes")...)
	require.Equal(t, 2, code)
	require.Contains(t, errs, `-spill: unknown spill mode "sometimes" (valid: auto, never, always)`)
	missing := filepath.Join(t.TempDir(), "gone")
	code, _, errs = runCmd(append(args, "-spill-dir", missing)...)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "-spill-dir "+missing+": not a directory")
	code, _, errs = runCmd("check", "ricartagrawala", "-mode", "dfs", "-spill", "always")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "-spill always has no effect under -mode dfs (it applies to -mode bfs)")
	code, _, errs = runCmd(append(args, "-spill", "never", "-spill-dir", t.TempDir())...)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "has no effect: with -spill never nothing is written")
}
