package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// counter is a one-node toy whose runs all end: the node counts up to 3
// by the inputs "inc1" and "inc2" (the latter only from 0 or 1), so that
// a count is reached by paths of different lengths; p0 waits until it
// reaches 3. rank, when set, is its variant (model.Ranked), and lying a
// constant one.
type counter struct{ rank, lying bool }

func (counter) Nodes() int                                 { return 1 }
func (counter) Init(model.NodeID, *model.Out[uint8]) uint8 { return 0 }
func (counter) AppendState(b []byte, s uint8) []byte       { return append(b, s) }
func (counter) ReadState(b []byte) (uint8, []byte)         { return b[0], b[1:] }
func (counter) AppendMsg(b []byte, m uint8) []byte         { return append(b, m) }
func (counter) ReadMsg(b []byte) (uint8, []byte)           { return b[0], b[1:] }
func (counter) FormatState(_ model.NodeID, s uint8) string { return string('0' + rune(s)) }
func (counter) FormatMsg(uint8) string                     { return "" }
func (counter) FairInput(model.NodeID, model.Input) bool   { return true }
func (c counter) Inputs(_ model.NodeID, s uint8, dst []model.Input) []model.Input {
	if s < 3 {
		dst = append(dst, "inc1")
	}
	if s < 2 {
		dst = append(dst, "inc2")
	}
	return dst
}
func (counter) Step(_ model.NodeID, s uint8, ev model.Event[uint8], _ *model.Out[uint8]) uint8 {
	if ev.Input == "inc2" {
		return s + 2
	}
	return s + 1
}

// ranked is counter with a variant: the distance to 3, or a constant.
type ranked struct{ counter }

func (r ranked) Rank(_ model.NodeID, s uint8) uint64 {
	if r.lying {
		return 7
	}
	return uint64(3 - s)
}
func (ranked) Weight(uint8) uint64 { return 0 }

func counterSpec(p model.Protocol[uint8, uint8]) *checker.Spec[uint8, uint8] {
	return &checker.Spec[uint8, uint8]{
		System: model.MustNewSystem(p, model.Config{}),
		Liveness: []checker.Liveness[uint8, uint8]{{
			Name:    "reaches-3",
			Pending: func(w *model.World[uint8, uint8], _ model.NodeID) bool { return w.Nodes[0] < 3 },
		}},
	}
}

// The count reaches 2 at depth 1 (inc2) and again at depth 2 (inc1,
// inc1): BFS levels cannot show that this graph has no cycle, a variant
// can. A variant that does not fall is caught at its first step, and the
// graph is kept; the verdict and counts are the same every way.
func TestAcyclicByVariantOrLevels(t *testing.T) {
	for _, c := range []struct {
		p        model.Protocol[uint8, uint8]
		liveness string
	}{
		{counter{}, "graph"},
		{ranked{counter{rank: true}}, "acyclic"},
		{ranked{counter{rank: true, lying: true}}, "graph"},
	} {
		r := counterSpec(c.p).Check(checker.Options{})
		require.Equal(t, checker.Pass, r.Verdict, "%T %v", c.p, r.Counterexample)
		require.Equal(t, uint64(4), r.States)
		require.Equal(t, uint64(5), r.Transitions)
		require.Equal(t, c.liveness, r.Liveness, "%#v", c.p)
	}
}

// Without the graph, a starving terminal state is found as the search
// goes, and its trace is the one the kept graph gives: the same shortest
// path, judged the same way. A cyclic graph is checked on the graph.
func TestTerminalStarvationWithoutTheGraph(t *testing.T) {
	f, err := model.ParseFaults("drop=1")
	require.NoError(t, err)
	sp := &checker.Spec[cstate, uint8]{
		System:   model.MustNewSystem[cstate, uint8](chatter{fairGive: true, quiet: true}, model.Config{Faults: f}),
		Liveness: chatterSpec(true).Liveness,
	}
	r := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, r.Verdict)
	require.Equal(t, "acyclic", r.Liveness)
	g := sp.Check(checker.Options{KeepGraph: true})
	require.Equal(t, "graph", g.Liveness)
	require.Equal(t, g.Counterexample, r.Counterexample)
	require.Equal(t, g.States, r.States)

	r = chatterSpec(false).Check(checker.Options{})
	require.Equal(t, checker.Violated, r.Verdict)
	require.Equal(t, "graph", r.Liveness)
	require.NotNil(t, r.Counterexample.Loop)
}

// A search stopped by a bound or a safety violation has not shown that
// the graph has no cycle, and does not say so.
func TestLivenessModeOnlyWhenExhausted(t *testing.T) {
	r := counterSpec(ranked{counter{rank: true}}).Check(checker.Options{MaxStates: 2})
	require.Equal(t, checker.Inconclusive, r.Verdict)
	require.Equal(t, "", r.Liveness)
}
