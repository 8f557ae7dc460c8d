package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
	}{
		{[]string{"check", "ricartagrawala", "-n", "3"}, 0, "verdict: pass", ""},
		{[]string{"check", "-rounds", "2", "-clock", "spin", "ricartagrawala"}, 0, "states 29,384", ""},
		{[]string{"check", "nosuch"}, 2, "", `unknown protocol "nosuch" (valid: `},
		{[]string{"check", "ricartagrawala", "-bogus", "1"}, 2, "", "valid flags: "},
		{[]string{"check", "ricartagrawala", "-n", "x"}, 2, "", `parameter n="x": want an integer`},
		{[]string{"check", "ricartagrawala", "-mode", "zigzag"}, 2, "", `unknown mode "zigzag"`},
		{[]string{"check", "ricartagrawala", "-network", "carrier-pigeon"}, 2, "", `unknown network "carrier-pigeon"`},
		{[]string{"check", "ricartagrawala", "-n", "4", "-max-states", "1000"}, 3, "bound reached (max-states 1000)", ""},
		{[]string{"check", "ricartagrawala", "-n", "4", "-max-depth", "5"}, 3, "bound reached (max-depth 5)", ""},
		{[]string{"check"}, 2, "", "check needs a protocol"},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"replay"}, 2, "", "replay needs one counterexample file"},
		{[]string{"replay", "/nonexistent.cex"}, 2, "", "no such file"},
		{[]string{"list"}, 0, "ricartagrawala", ""},
	}
	for _, c := range cases {
		code, out, errs := runCmd(c.args...)
		require.Equal(t, c.code, code, "%v: stdout %s stderr %s", c.args, out, errs)
		require.Contains(t, out, c.inStdout, "%v", c.args)
		require.Contains(t, errs, c.inStderr, "%v", c.args)
		if c.code == 2 {
			require.Empty(t, out, "%v: bad usage writes nothing else", c.args)
			require.Equal(t, 1, strings.Count(errs, "\n"), "%v: one-line error", c.args)
		}
	}
}

func TestJSON(t *testing.T) {
	code, out, _ := runCmd("check", "ricartagrawala", "-n", "3", "-clock", "spin", "-json")
	require.Equal(t, 0, code)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Equal(t, "pass", v["verdict"])
	require.Equal(t, float64(2357), v["states"])
	require.Equal(t, float64(0), v["exit_code"])
}

func TestCosts(t *testing.T) {
	code, out, errs := runCmd("costs", "mutex", "-n", "5", "-protocol", "ricartagrawala")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "messages per entry                             8         2(N-1) = 8")
	code, _, errs = runCmd("costs", "nosuch")
	require.Equal(t, 2, code)
	require.Contains(t, errs, `unknown family "nosuch" (valid: `)
}

// The same seed prints the same counterexample, the same shrinking and the
// same replay command, byte for byte, on two runs (only the line with the
// timing differs).
func TestRandomOutputIsDeterministic(t *testing.T) {
	strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "steps/s") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, mode := range []string{"random", "swarm"} {
		args := []string{"check", "maekawa", "-n", "4", "-sets", "grid", "-mode", mode, "-seed", "7", "-liveness=false"}
		code1, out1, _ := runCmd(args...)
		code2, out2, _ := runCmd(args...)
		require.Equal(t, 1, code1, out1)
		require.Equal(t, code1, code2)
		require.Equal(t, strip(out1), strip(out2))
		require.Contains(t, out1, "counterexample: 20 steps to a violation of no-deadlock")
		require.Regexp(t, "coordcheck check maekawa -n 4 -sets grid -mode "+mode+" -seed 7 -walk [0-9]+ -liveness=false\n", out1)
	}
}

// -skip drops an auxiliary invariant so that the search reaches the
// property behind it, and the file records it for replay.
func TestSkip(t *testing.T) {
	path := t.TempDir() + "/two-tokens.cex"
	code, out, errs := runCmd("check", "tokenring", "-n", "3", "-variant", "timeout", "-timers", "free",
		"-network", "unordered", "-skip", "one-token", "-o", path)
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "counterexample: 9 steps to a violation of mutual-exclusion")
	code, out, errs = runCmd("replay", path)
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "reproduced: mutual-exclusion is violated, final state as recorded")
	code, _, errs = runCmd("check", "tokenring", "-skip", "nonsense")
	require.Equal(t, 2, code)
	require.Contains(t, errs, `-skip: unknown property "nonsense" (valid: mutual-exclusion, one-token, no-deadlock, starvation-freedom)`)
}
