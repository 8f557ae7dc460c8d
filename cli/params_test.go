package cli

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/protocols"
)

// Every command that takes a protocol's parameters as flags defines them
// beside its own: a parameter named like one of the command's flags (as
// nack-mcast's -history once was, beside check's -history FILE) made the
// command panic before it parsed anything. Each protocol's help is asked
// of each such command.
func TestProtocolParamsBesideCommandFlags(t *testing.T) {
	for _, name := range protocols.Names() {
		for _, cmd := range []string{"check", "run", "explore"} {
			var code int
			var out string
			require.NotPanics(t, func() { code, out, _ = runCmd(cmd, name, "-h") }, "%s %s", cmd, name)
			require.Equal(t, 0, code, "%s %s -h", cmd, name)
			require.Contains(t, out, "usage: coordcheck "+cmd, "%s %s -h", cmd, name)
		}
	}
}
