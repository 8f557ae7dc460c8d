package protocols

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// mcastRun is one check of a multicast entry and what it must give.
type mcastRun struct {
	protocol string
	params   map[string]string
	network  model.Network
	faults   string
	verdict  checker.Verdict
	states   uint64 // pinned exactly
	property string // violated, for Violated
	steps    int    // the shortest counterexample's length, for Violated
}

func (r mcastRun) String() string {
	return fmt.Sprintf("%s %v %s faults=%s", r.protocol, r.params, r.network, r.faults)
}

// check runs r exhaustively by BFS and compares the outcome.
func (r mcastRun) check(t *testing.T) {
	t.Helper()
	e, ok := Lookup(r.protocol)
	require.True(t, ok, r.protocol)
	f, err := model.ParseFaults(r.faults)
	require.NoError(t, err)
	target, _, err := e.BuildWith(r.params, model.Config{Network: r.network, Faults: f})
	require.NoError(t, err, r.String())
	rep := target.Check(checker.Options{MaxMemory: 1 << 30})
	if rep.Counterexample != nil {
		t.Logf("%s: %v %d states, %s in %d steps", r, rep.Verdict, rep.States, rep.Counterexample.Property, len(rep.Counterexample.Steps))
	} else {
		t.Logf("%s: %v %d states", r, rep.Verdict, rep.States)
	}
	require.Equal(t, r.verdict, rep.Verdict, "%s: %+v", r, rep.Counterexample)
	require.Equal(t, r.states, rep.States, "%s: states", r)
	if r.verdict == checker.Violated {
		require.Equal(t, r.property, rep.Counterexample.Property, r.String())
		require.Len(t, rep.Counterexample.Steps, r.steps, r.String())
	}
}

// Bad parameters of the multicast entries are refused with one line that
// names the problem.
func TestMulticastBadParameters(t *testing.T) {
	e, ok := Lookup("besteffort")
	require.True(t, ok)
	for _, c := range []struct {
		given  map[string]string
		faults string
		err    string
	}{
		{map[string]string{"msgs": "0"}, "", `parameter msgs="0": want an integer from 1 to 8`},
		{map[string]string{"n": "9"}, "", `parameter n="9": want an integer from 2 to 8`},
		{map[string]string{"senders": "4"}, "", `parameter senders="4": want an integer from 1 to 3`},
		{map[string]string{"workload": "bursty"}, "", `parameter workload="bursty": want free or causal`},
		{map[string]string{"props": "view-synchrony"}, "", `parameter props: this protocol does not report "view-synchrony"`},
		{map[string]string{"props": "integrity,order"}, "", `parameter props: this protocol does not report "order"`},
		{nil, "crash=1,restart=1", "multicast processes are crash-stop: -faults restart is not supported"},
	} {
		f, err := model.ParseFaults(c.faults)
		require.NoError(t, err)
		_, _, err = e.BuildWith(c.given, model.Config{Faults: f})
		require.ErrorContains(t, err, c.err, "%v", c.given)
	}
	target, _, err := e.BuildWith(map[string]string{"props": "causal-order,agreement"}, model.Config{})
	require.NoError(t, err)
	require.Equal(t, []string{"causal-order", "agreement"}, target.PropertyNames())
}

// Best-effort multicast keeps its promises only while nothing fails; one
// loss breaks agreement, one duplicate integrity.
func TestBestEffortMulticast(t *testing.T) {
	for _, r := range []mcastRun{
		{protocol: "besteffort", params: map[string]string{"msgs": "1"}, verdict: checker.Pass, states: 2787},
		{protocol: "besteffort", params: map[string]string{"senders": "2"}, verdict: checker.Pass, states: 5195},
		{protocol: "besteffort", params: map[string]string{"msgs": "1", "senders": "1"}, faults: "drop=1",
			verdict: checker.Violated, states: 13, property: "agreement", steps: 5},
		{protocol: "besteffort", params: map[string]string{"msgs": "1", "senders": "1"}, faults: "dup=1",
			verdict: checker.Violated, states: 21, property: "integrity", steps: 5},
	} {
		r.check(t)
	}
}

// The measured costs of every multicast protocol match the formulas
// derived from the notes, for N from 3 to 7: each row is a formula
// evaluated for N and a figure measured by running the protocol.
func TestMulticastCostsMatchTheNotes(t *testing.T) {
	measured := 0
	for _, e := range All() {
		if e.Family != "multicast" || e.Costs == nil {
			continue
		}
		for n := 3; n <= 7; n++ {
			rows, err := e.Costs(n)
			require.NoError(t, err, "%s n=%d", e.Name, n)
			require.NotEmpty(t, rows)
			for _, r := range rows {
				require.True(t, r.Matches, "%s n=%d %s: measured %s, notes %s", e.Name, n, r.Metric, r.Measured, r.Formula)
			}
		}
		measured++
	}
	require.NotZero(t, measured)
}
