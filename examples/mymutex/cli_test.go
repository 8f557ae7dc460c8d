package mymutex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/cli"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

// A user's own protocol, with its codec and its text derived, goes through
// the command line's files like a shipped one: check writes the
// counterexample of the broken variant, and replay finds the violation
// again from the file's actions.
func TestCounterexampleFileOfAUserProtocol(t *testing.T) {
	protocols.Register(protocols.Entry{Name: "two-tokens", Doc: "the tutorial's mutex, starting two tokens",
		Build: func(_ protocols.Values, cfg model.Config) (checker.Target, error) {
			return checker.NewSpec(twoTokens{}, cfg, spec.Properties())
		}})
	file := filepath.Join(t.TempDir(), "two-tokens.cex")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, cli.Main([]string{"check", "two-tokens", "-o", file}, &stdout, &stderr), stderr.String())
	cex, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Contains(t, string(cex), "deliver   p1->p0 {}")
	stdout.Reset()
	require.Equal(t, 1, cli.Main([]string{"replay", file}, &stdout, &stderr), stderr.String())
	require.Contains(t, stdout.String(), "mutual-exclusion")
}
