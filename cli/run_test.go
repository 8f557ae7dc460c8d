package cli

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// coordcheck run: Ricart-Agrawala over TCP passes, at 2(N-1) = 4 messages
// per entry for n=3 (a little more: the requests pending at the end), next
// to the costs table's figure.
func TestRunRicartAgrawala(t *testing.T) {
	code, out, errOut := runCmd("run", "ricartagrawala", "-n", "3", "-duration", "400ms")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "run ricartagrawala n=3 clock=notes: 3 nodes, transport tcp, faults none, 400ms")
	require.Regexp(t, `mutual-exclusion: holds on [1-9][0-9]* observed critical sections`, out)
	require.Contains(t, out, "messages per entry: 2(N-1) = 4 (measured 4)")
	m := regexp.MustCompile(`(\d+\.\d+) per critical-section entry`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	per, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	require.GreaterOrEqual(t, per, 4.0)
	require.Less(t, per, 4.5)
}

// What a live run cannot do is refused, with exit code 2.
func TestRunRefuses(t *testing.T) {
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"run"}, "run needs a protocol (valid: centralized, lamport, maekawa, maekawa-df, ricartagrawala, tokenring, voting)"},
		{[]string{"run", "bully"}, "run bully: this protocol does not run live yet"},
		{[]string{"run", "ricartagrawala", "-rounds", "2"}, "-rounds bounds the checker's state space"},
		{[]string{"run", "ricartagrawala", "-transport", "udp"}, `-transport "udp" (valid: tcp, mem)`},
		{[]string{"run", "ricartagrawala", "-faults", "partition=1"}, "live runs do not inject partitions yet"},
		{[]string{"run", "ricartagrawala", "-faults", "crash=1@p7"}, "no node p7 in this configuration"},
		{[]string{"run", "ricartagrawala", "-faults", "delay=x"}, `fault delay="x": want a duration`},
		{[]string{"run", "ricartagrawala", "-duration", "0s"}, "-duration 0s: want a duration"},
		{[]string{"run", "ricartagrawala", "-faults", "dup=1", "-fault-rate", "0"}, "drop and dup would never strike"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(c.args...)
		require.Equal(t, 2, code, "%v", c.args)
		require.Contains(t, errOut, c.err, "%v", c.args)
	}
}
