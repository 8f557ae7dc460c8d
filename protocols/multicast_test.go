package protocols

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/long"
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
	target, _ := buildTargetOn(t, r.protocol, r.params, r.faults, r.network)
	rep := target.Check(checker.Options{MaxMemory: 1 << 30})
	require.Equal(t, r.verdict, rep.Verdict, "%s: %+v", r, rep.Counterexample)
	require.Equal(t, r.states, rep.States, "%s: states", r)
	if r.verdict == checker.Violated {
		require.Equal(t, r.property, rep.Counterexample.Property, r.String())
		require.Len(t, rep.Counterexample.Steps, r.steps, r.String())
	}
}

// swarm runs r by swarm search with opts: a walk's verdict is
// inconclusive, with no counterexample, unless it finds r.property
// violated (states and steps are not compared).
func (r mcastRun) swarm(t *testing.T, opts checker.Options) {
	t.Helper()
	target, _ := buildTargetOn(t, r.protocol, r.params, r.faults, r.network)
	opts.Strategy = checker.Swarm
	rep := target.Check(opts)
	t.Logf("%s: %v, %d states", r, rep.Verdict, rep.States)
	require.Equal(t, r.verdict, rep.Verdict, "%s: %v", r, rep.Counterexample)
	if r.verdict == checker.Inconclusive {
		require.Nil(t, rep.Counterexample, r.String())
	} else if r.property != "" {
		require.Equal(t, r.property, rep.Counterexample.Property, r.String())
	}
}

// Bad parameters of the multicast entries are refused with one line that
// names the problem.
func TestMulticastBadParameters(t *testing.T) {
	e := mustLookup(t, "besteffort")
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
		{protocol: "besteffort", params: map[string]string{"msgs": "1", "senders": "all"}, verdict: checker.Pass, states: 2787},
		{protocol: "besteffort", params: nil, verdict: checker.Pass, states: 5195}, // the defaults: two senders, two multicasts each
		{protocol: "besteffort", params: map[string]string{"msgs": "1", "senders": "1"}, faults: "drop=1",
			verdict: checker.Violated, states: 13, property: "agreement", steps: 5},
		{protocol: "besteffort", params: map[string]string{"msgs": "1", "senders": "1"}, faults: "dup=1",
			verdict: checker.Violated, states: 21, property: "integrity", steps: 5},
	} {
		r.check(t)
	}
}

// p is shorthand for a parameter map.
func p(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// Each protocol keeps, exhaustively for N=3 with at least two multicasts
// in flight, the properties the notes claim for it (pinned state counts),
// and the known counterexamples are found at their shortest.
func TestMulticastClaims(t *testing.T) {
	const u = model.Unordered
	for _, r := range []mcastRun{
		// FIFO and causal over reliable channels, FIFO or not; two
		// senders of two multicasts each, related or not.
		{protocol: "fifo-mcast", params: p("senders", "2"), verdict: checker.Pass, states: 5195},
		{protocol: "fifo-mcast", params: p("senders", "2"), network: u, verdict: checker.Pass, states: 7716},
		{protocol: "fifo-mcast", params: p("senders", "2", "workload", "causal"), network: u, verdict: checker.Pass, states: 1976},
		{protocol: "causal-mcast", params: p("senders", "2"), verdict: checker.Pass, states: 4141},
		{protocol: "causal-mcast", params: p("senders", "2"), network: u, verdict: checker.Pass, states: 6529},
		{protocol: "causal-mcast", params: p("senders", "2", "workload", "causal"), network: u, verdict: checker.Pass, states: 1439},
		// Basic reliable multicast: two multicasts of p0 in flight, under
		// a loss, a duplicate, reordering; two senders under a loss.
		{protocol: "reliable-mcast", params: p("senders", "1"), verdict: checker.Pass, states: 77},
		{protocol: "reliable-mcast", params: p("senders", "1"), faults: "drop=1", verdict: checker.Pass, states: 356},
		{protocol: "reliable-mcast", params: p("senders", "1"), faults: "dup=1", verdict: checker.Pass, states: 597},
		{protocol: "reliable-mcast", params: p("senders", "1"), faults: "drop=1", network: u, verdict: checker.Pass, states: 1782},
		{protocol: "reliable-mcast", params: p("senders", "2", "msgs", "1"), faults: "drop=1", verdict: checker.Pass, states: 1933},
		// Scalable reliable multicast, likewise.
		{protocol: "nack-mcast", params: p("senders", "1"), verdict: checker.Pass, states: 45},
		{protocol: "nack-mcast", params: p("senders", "1"), faults: "drop=1", verdict: checker.Pass, states: 3067},
		{protocol: "nack-mcast", params: p("senders", "1"), faults: "dup=1", verdict: checker.Pass, states: 232},
		{protocol: "nack-mcast", params: p("senders", "1"), faults: "drop=1", network: u, verdict: checker.Pass, states: 4712},
		// The counterexamples of the corpus, at their shortest.
		{protocol: "reliable-mcast", params: p("msgs", "1", "senders", "1", "props", "agreement"), faults: "crash=1@p0",
			verdict: checker.Violated, states: 22, property: "agreement", steps: 4},
		{protocol: "reliable-mcast", params: p("msgs", "1", "senders", "1", "props", "all-or-none"), faults: "crash=1@p0",
			verdict: checker.Violated, states: 18, property: "all-or-none", steps: 4},
		{protocol: "fifo-mcast", params: p("msgs", "1", "senders", "2", "workload", "causal", "props", "causal-order"),
			verdict: checker.Violated, states: 20, property: "causal-order", steps: 6},
		{protocol: "causal-mcast", params: p("msgs", "1", "senders", "2", "props", "total-order"),
			verdict: checker.Violated, states: 83, property: "total-order", steps: 7},
		{protocol: "nack-mcast", params: p("msgs", "1", "senders", "1", "retain", "timed"), faults: "drop=1",
			verdict: checker.Violated, states: 451, property: "agreement", steps: 12},
		{protocol: "nack-mcast", params: p("msgs", "1", "senders", "1", "session", "off"), faults: "drop=1",
			verdict: checker.Violated, states: 13, property: "agreement", steps: 5},
	} {
		r.check(t)
	}
}

// Larger pinned configurations: every process multicasts, or two losses.
func TestMulticastClaimsLong(t *testing.T) {
	long.Skip(t)
	for _, r := range []mcastRun{
		{protocol: "reliable-mcast", params: p("msgs", "1", "senders", "all"), verdict: checker.Pass, states: 27348},
		{protocol: "reliable-mcast", params: p("senders", "2"), verdict: checker.Pass, states: 82457},
		{protocol: "nack-mcast", params: p("msgs", "1", "senders", "all"), verdict: checker.Pass, states: 20787},
		{protocol: "nack-mcast", params: p("senders", "1"), faults: "drop=2", verdict: checker.Pass, states: 67919},
		{protocol: "nack-mcast", params: p("senders", "1", "suppression", "off"), faults: "drop=2", verdict: checker.Pass, states: 68297},
	} {
		r.check(t)
	}
}

// For N=5, swarm search finds no violation of what the notes claim (the
// verdict of a walk is never a pass: inconclusive), and finds best-effort
// multicast's lost message.
func TestMulticastSwarm(t *testing.T) {
	const u, in = model.Unordered, checker.Inconclusive
	for _, r := range []mcastRun{
		{protocol: "fifo-mcast", params: p("n", "5", "senders", "all", "workload", "causal"), network: u, verdict: in},
		{protocol: "causal-mcast", params: p("n", "5", "senders", "all", "workload", "causal"), network: u, verdict: in},
		{protocol: "reliable-mcast", params: p("n", "5", "senders", "all"), faults: "drop=2,dup=1", network: u, verdict: in},
		{protocol: "nack-mcast", params: p("n", "5", "senders", "all"), faults: "drop=2,dup=1", network: u, verdict: in},
		{protocol: "besteffort", params: p("n", "5", "senders", "all"), faults: "drop=1", network: model.FIFO, verdict: checker.Violated},
	} {
		r.swarm(t, checker.Options{Seed: 1, Walks: 40, MaxDepth: 100})
	}
}
