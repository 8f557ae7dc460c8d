package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/long"
	"github.com/coordcheck/coordcheck/model"
)

// Total order by a sequencer (seed 001): it keeps its claims for N=3 with
// three multicasts in flight; the sequencer's crash blocks delivery; and
// on an unordered network it is not even FIFO.
func TestSequencerMulticast(t *testing.T) {
	for _, r := range []mcastRun{
		{protocol: "sequencer", params: map[string]string{"senders": "all", "msgs": "1"}, verdict: checker.Pass, states: 477},
		{protocol: "sequencer", params: map[string]string{"senders": "all", "msgs": "1"}, faults: "crash=1@p0",
			verdict: checker.Violated, states: 954, property: "validity", steps: 3},
		{protocol: "sequencer", params: map[string]string{"msgs": "2", "senders": "2", "props": "fifo-order"},
			network: model.Unordered, verdict: checker.Violated, states: 63, property: "fifo-order", steps: 3},
	} {
		r.check(t)
	}
}

// ISIS (seed 001): the notes' algorithm keeps total order; without the
// proposer's id, or agreeing on the smallest proposal, it does not; on an
// unordered network it is not FIFO.
func TestISISMulticast(t *testing.T) {
	for _, r := range []mcastRun{
		{protocol: "isis", params: map[string]string{"senders": "all", "msgs": "1"}, verdict: checker.Pass, states: 42594},
		{protocol: "isis", params: map[string]string{"senders": "all", "msgs": "1", "tiebreak": "none"},
			verdict: checker.Violated, states: 11728, property: "total-order", steps: 12},
		{protocol: "isis", params: map[string]string{"senders": "all", "msgs": "1", "choose": "smallest"},
			verdict: checker.Violated, states: 11684, property: "total-order", steps: 12},
		{protocol: "isis", params: map[string]string{"msgs": "2", "senders": "1", "props": "fifo-order"},
			network: model.Unordered, verdict: checker.Violated, states: 177, property: "fifo-order", steps: 7},
	} {
		r.check(t)
	}
}

// The hybrids (seed 001): ISIS over a FIFO or a causal layer keeps FIFO,
// causal (the causal layer) and total order, also on an unordered network.
// What the notes do not say: ISIS alone is causal whenever it is FIFO,
// because a process that delivered m proposes above m's agreed number for
// what it multicasts next; so FIFO+total by ISIS is causal+total already.
func TestHybridMulticast(t *testing.T) {
	for _, r := range []mcastRun{
		{protocol: "fifo-total", params: map[string]string{"senders": "all", "msgs": "1"}, verdict: checker.Pass, states: 42594},
		{protocol: "fifo-total", params: map[string]string{"msgs": "2", "senders": "1"}, network: model.Unordered,
			verdict: checker.Pass, states: 173},
		{protocol: "causal-total", params: map[string]string{"senders": "all", "msgs": "1", "workload": "causal"}, network: model.Unordered,
			verdict: checker.Pass, states: 705},
		{protocol: "causal-total", params: map[string]string{"msgs": "2", "senders": "1"}, network: model.Unordered,
			verdict: checker.Pass, states: 173},
		{protocol: "isis", params: map[string]string{"senders": "all", "msgs": "1", "workload": "causal", "props": "causal-order,total-order"},
			network: model.Unordered, verdict: checker.Pass, states: 926},
		{protocol: "fifo-total", params: map[string]string{"senders": "all", "msgs": "1", "workload": "causal", "props": "causal-order"},
			network: model.Unordered, verdict: checker.Pass, states: 926},
		{protocol: "isis", params: map[string]string{"msgs": "2", "senders": "1", "workload": "causal", "props": "causal-order"},
			network: model.Unordered, verdict: checker.Violated, states: 177, property: "causal-order", steps: 7},
	} {
		r.check(t)
	}
}

// View-synchronous multicast (seed 001): with one or two crashes, during a
// multicast or a view change, every survivor delivers the same messages in
// each view, all or none. The first two runs are the configuration in
// which reliable multicast without views loses all-or-none when its
// sender crashes half-way.
func TestViewSyncMulticast(t *testing.T) {
	for _, r := range []mcastRun{
		{protocol: "viewsync", params: map[string]string{"msgs": "1", "senders": "1"}, faults: "crash=1", verdict: checker.Pass, states: 176},
		{protocol: "viewsync", params: map[string]string{"msgs": "2", "senders": "1"}, faults: "crash=1", verdict: checker.Pass, states: 507},
		{protocol: "viewsync", params: map[string]string{"senders": "all", "msgs": "1"}, faults: "crash=1", verdict: checker.Pass, states: 36583},
		{protocol: "viewsync", params: map[string]string{"msgs": "1", "senders": "2"}, faults: "crash=2",
			verdict: checker.Pass, states: 4150},
	} {
		r.check(t)
	}
	// The membership service rests on the perfect failure detector: with
	// timeouts that may fire early, two processes install two different
	// first views, without any crash.
	e := mustLookup(t, "viewsync")
	target, _, err := e.BuildWith(map[string]string{"msgs": "1", "senders": "1"}, model.Config{Timers: model.TimersFree})
	require.NoError(t, err)
	rep := target.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, "view-synchrony", rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 4)
}

// Larger configurations, exhaustively (COORDCHECK_LONG=1).
func TestTotalOrderMulticastLong(t *testing.T) {
	if !long.Enabled() {
		t.Skip("COORDCHECK_LONG=1 runs it")
	}
	for _, r := range []mcastRun{
		{protocol: "sequencer", params: map[string]string{"senders": "all", "msgs": "2"}, verdict: checker.Pass, states: 308249},
		{protocol: "isis", params: map[string]string{"msgs": "2", "senders": "2"}, verdict: checker.Pass, states: 260586},
		{protocol: "fifo-total", params: map[string]string{"msgs": "2", "senders": "2"}, network: model.Unordered,
			verdict: checker.Pass, states: 4438178},
		{protocol: "causal-total", params: map[string]string{"msgs": "2", "senders": "2"}, network: model.Unordered,
			verdict: checker.Pass, states: 2694885},
		{protocol: "viewsync", params: map[string]string{"senders": "all", "msgs": "1"}, faults: "crash=2", verdict: checker.Pass, states: 81064},
	} {
		r.check(t)
	}
}

// Swarm search for N=5 finds nothing against the correct protocols, and
// finds the broken ISIS at once.
func TestTotalOrderMulticastSwarm(t *testing.T) {
	five := func(kv ...string) map[string]string {
		return p(append([]string{"n", "5", "msgs", "1", "senders", "all"}, kv...)...)
	}
	const in = checker.Inconclusive
	for _, r := range []mcastRun{
		{protocol: "sequencer", params: five(), verdict: in},
		{protocol: "isis", params: five(), verdict: in},
		{protocol: "fifo-total", params: five(), verdict: in},
		{protocol: "causal-total", params: five("workload", "causal"), verdict: in},
		{protocol: "viewsync", params: five(), faults: "crash=2", verdict: in},
		{protocol: "isis", params: five("tiebreak", "none"), verdict: checker.Violated, property: "total-order"},
	} {
		r.swarm(t, checker.Options{Seed: 1, Walks: 64, Workers: 1})
	}
}

// The ISIS variants' parameters are checked, with one line naming the
// problem.
func TestISISBadParameters(t *testing.T) {
	e := mustLookup(t, "isis")
	for given, want := range map[string]string{
		"tiebreak": `parameter tiebreak="foo": want id or none`,
		"choose":   `parameter choose="foo": want largest or smallest`,
	} {
		_, _, err := e.BuildWith(map[string]string{given: "foo"}, model.Config{})
		require.EqualError(t, err, want)
	}
}
