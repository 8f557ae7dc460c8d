package cli

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// The summary prints the actions taken by kind.
func TestSummaryPrintsCoverage(t *testing.T) {
	code, out, _ := runCmd("check", "ricartagrawala", "-n", "3")
	require.Equal(t, 0, code)
	require.Contains(t, out, "coverage (edges by kind): input enter 368, input exit 368, input request 582, deliver REP 2,421,\n"+
		"   deliver REQ 3,806\n")
	require.NotContains(t, out, "warning")
	require.NotContains(t, out, "never fired")
}

// A pass that may be vacuous warns, and -strict makes it inconclusive:
// the bully algorithm without a crash sends nothing, so a duplication
// never fires, and never holds an election, so its liveness has nobody
// to wait for.
func TestVacuousPassWarnsAndStrictExits3(t *testing.T) {
	cases := []struct {
		args    []string
		warning string
	}{
		{[]string{"check", "bully", "-faults", "dup=1", "-liveness=false"},
			"never fired: dup, deliver ELECTION, deliver OK, deliver COORD, fire detect, fire ok-timeout, fire coord-timeout\n" +
				"warning: dup never fired though -faults asks for it: no explored execution exercises it\n"},
		{[]string{"check", "bully"},
			"warning: election-liveness is vacuous here: no explored state has a live process that has not decided\n"},
	}
	for _, c := range cases {
		code, out, _ := runCmd(c.args...)
		require.Equal(t, 0, code, "%v: %s", c.args, out)
		require.Contains(t, out, c.warning, "%v", c.args)
		require.Contains(t, out, "with 1 warning(s) above (-strict makes that inconclusive)", "%v", c.args)

		code, out, _ = runCmd(append(c.args, "-strict")...)
		require.Equal(t, 3, code, "%v -strict: %s", c.args, out)
		require.Contains(t, out, c.warning, "%v", c.args)
		require.Contains(t, out, "verdict: inconclusive (-strict): no violation", "%v", c.args)
	}
	// A pass with nothing to warn of stays a pass under -strict: with a
	// crash, the bully algorithm elects, and the crash fires.
	code, out, _ := runCmd("check", "bully", "-faults", "crash=1", "-strict")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "crash 3\n")
	require.NotContains(t, out, "warning")
}

// -json carries the coverage in a fixed order, the kinds never fired, the
// premises and the warnings.
func TestJSONCoverage(t *testing.T) {
	code, out, _ := runCmd("check", "bully", "-faults", "dup=1", "-liveness=false", "-strict", "-json")
	require.Equal(t, 3, code)
	var v struct {
		Verdict  string `json:"verdict"`
		Coverage []struct {
			Kind  string `json:"kind"`
			Count uint64 `json:"count"`
		} `json:"coverage"`
		NeverFired []string `json:"never_fired"`
		Premises   []struct {
			Property string `json:"property"`
			Seen     bool   `json:"seen"`
		} `json:"premises"`
		Warnings []string `json:"warnings"`
		ExitCode int      `json:"exit_code"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Equal(t, "inconclusive", v.Verdict)
	require.Equal(t, 3, v.ExitCode)
	var kinds []string
	var sum uint64
	for _, c := range v.Coverage {
		kinds = append(kinds, c.Kind)
		sum += c.Count
	}
	require.Empty(t, kinds) // one state, no action
	require.Equal(t, uint64(0), sum)
	require.Equal(t, []string{"dup", "deliver ELECTION", "deliver OK", "deliver COORD", "fire detect", "fire ok-timeout", "fire coord-timeout"}, v.NeverFired)
	require.Equal(t, []string{"dup never fired though -faults asks for it: no explored execution exercises it"}, v.Warnings)
	require.Len(t, v.Premises, 1)
	require.True(t, v.Premises[0].Seen) // election-safety: the initial run has ended

	// Coverage in a fixed order, adding up to the transitions.
	_, out, _ = runCmd("check", "ricartagrawala", "-n", "2", "-json")
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	kinds, sum = nil, 0
	for _, c := range v.Coverage {
		kinds = append(kinds, c.Kind)
		sum += c.Count
	}
	require.Equal(t, []string{"input enter", "input exit", "input request", "deliver REP", "deliver REQ"}, kinds)
	require.Equal(t, uint64(52), sum)

	// Nothing never fired: an empty list, not null.
	_, out, _ = runCmd("check", "ricartagrawala", "-n", "2", "-json")
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	require.Equal(t, []any{}, raw["never_fired"])
	require.NotContains(t, raw, "warnings")
}
