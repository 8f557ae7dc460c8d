package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/cli"
)

func run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Main(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// The user's main gets coordcheck's commands for askmutex: list shows it,
// check explores it exhaustively and passes (exit 0) with its exact count,
// a bad parameter is one line and exit 2, and a violation found under a
// fault is written as a counterexample file that replay reproduces
// (exit 1 both times).
func TestUserMainChecksItsOwnProtocol(t *testing.T) {
	code, out, _ := run("list")
	require.Equal(t, 0, code)
	require.Contains(t, out, "askmutex\n    two processes, one token, asked for when wanted\n")
	require.Contains(t, out, "properties: mutual-exclusion, no-deadlock, starvation-freedom")

	code, out, errs := run("check", "askmutex", "-rounds", "2")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "states 92  transitions 137  depth 16")
	require.Contains(t, out, "verdict: pass: mutual-exclusion, no-deadlock, starvation-freedom hold in all 92 reachable states")

	code, out, errs = run("check", "askmutex", "-rounds", "0")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Equal(t, "coordcheck: askmutex: parameter rounds=\"0\": want an integer from 1 to 9\n", errs)

	// A duplicated TOKEN whose copy arrives after the token came back is a
	// second token: both processes enter, 13 steps in at the shortest.
	cex := filepath.Join(t.TempDir(), "dup.cex")
	code, out, _ = run("check", "askmutex", "-rounds", "2", "-faults", "dup=1", "-o", cex)
	require.Equal(t, 1, code)
	require.Contains(t, out, "  13  input p1 enter ")
	require.Contains(t, out, "violated: mutual-exclusion: p0 and p1 are in the critical section at once")
	file, err := os.ReadFile(cex)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(file), "# coordcheck counterexample v1\nprotocol  askmutex\n"), string(file))
	code, out, _ = run("replay", cex)
	require.Equal(t, 1, code)
	require.Contains(t, out, "mutual-exclusion")
}
