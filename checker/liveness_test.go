package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
)

// chatter is a toy for liveness: p0 may chat with itself forever (each
// "chat" input sends it a message, delivered back); p1 waits until p0
// gives it the turn with the "give" input. Whether p1 starves depends on
// whether "give" is fair.
type chatter struct{ fairGive, quiet bool } // quiet: p0 never chats

type cstate struct{ gave, busy bool }

func (c chatter) Nodes() int { return 2 }
func (c chatter) Init(model.NodeID, *model.Out[uint8]) cstate {
	return cstate{}
}
func (c chatter) Inputs(self model.NodeID, s cstate, dst []model.Input) []model.Input {
	if self == 0 && !s.busy && !c.quiet {
		dst = append(dst, "chat")
	}
	if self == 0 && !s.gave {
		dst = append(dst, "give")
	}
	return dst
}
func (c chatter) Step(self model.NodeID, s cstate, ev model.Event[uint8], out *model.Out[uint8]) cstate {
	switch {
	case ev.Kind == model.Environment && ev.Input == "chat":
		s.busy = true
		out.Send(0, 1)
	case ev.Kind == model.Environment && ev.Input == "give":
		s.gave = true
		out.Send(1, 2)
	case ev.Kind == model.Receive && ev.Msg == 1:
		s.busy = false
	case ev.Kind == model.Receive && ev.Msg == 2:
		s.gave = true // p1 got its turn
	}
	return s
}
func (c chatter) FairInput(self model.NodeID, in model.Input) bool { return in == "give" && c.fairGive }
func (c chatter) AppendState(b []byte, s cstate) []byte {
	return model.AppendBool(model.AppendBool(b, s.gave), s.busy)
}
func (c chatter) ReadState(b []byte) (cstate, []byte) { return cstate{b[0] == 1, b[1] == 1}, b[2:] }
func (c chatter) AppendMsg(b []byte, m uint8) []byte  { return append(b, m) }
func (c chatter) ReadMsg(b []byte) (uint8, []byte)    { return b[0], b[1:] }
func (c chatter) FormatState(_ model.NodeID, s cstate) string {
	if s.gave {
		return "served"
	}
	return "waiting"
}
func (c chatter) FormatMsg(m uint8) string { return map[uint8]string{1: "CHAT", 2: "TURN"}[m] }

func chatterSpec(fair bool) *checker.Spec[cstate, uint8] {
	return &checker.Spec[cstate, uint8]{
		System: model.MustNewSystem[cstate, uint8](chatter{fairGive: fair}, model.Config{}),
		Liveness: []checker.Liveness[cstate, uint8]{{
			Name:    "p1-served",
			Pending: func(w *model.World[cstate, uint8], i model.NodeID) bool { return i == 1 && !w.Nodes[1].gave },
		}},
	}
}

// When "give" is not fair, p0 may chat forever while p1 waits: a lasso.
func TestLivenessFindsAFairLasso(t *testing.T) {
	sp := chatterSpec(false)
	r := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, r.Verdict)
	tr := r.Counterexample
	require.Equal(t, "p1-served", tr.Property)
	require.NotNil(t, tr.Loop)
	lines := steptest.Actions(tr)
	require.Equal(t, []string{"input p0 chat", "deliver p0->p0 CHAT"}, lines[*tr.Loop:])
	require.Equal(t, 0, *tr.Loop)
	require.Contains(t, tr.Detail, "p1 waits forever")

	// The lasso replays, closes, and is judged the same way.
	rp, err := sp.ReplayLoop(lines, *tr.Loop)
	require.NoError(t, err)
	require.Equal(t, tr, rp.Trace)
	// A cycle that does not close shows nothing.
	rp, err = sp.ReplayLoop(lines[:1], 0)
	require.NoError(t, err)
	require.Equal(t, "", rp.Trace.Property)
}

// When "give" is weakly fair, the chatting cycle is unfair (give stays
// enabled and is never taken), and the message to p1 is delivered under
// weak fairness: p1 is always served.
func TestLivenessRespectsWeakFairness(t *testing.T) {
	r := chatterSpec(true).Check(checker.Options{})
	require.Equal(t, checker.Pass, r.Verdict, "%v", r.Counterexample)
	require.Equal(t, uint64(6), r.States)
}

// Random walks find the same starvation as a lasso, by revisiting a state.
func TestWalksFindLassos(t *testing.T) {
	r := chatterSpec(false).Check(checker.Options{Strategy: checker.Random, Seed: 1})
	require.Equal(t, checker.Violated, r.Verdict)
	require.Equal(t, "p1-served", r.Counterexample.Property)
	require.NotNil(t, r.Counterexample.Loop)
	r = chatterSpec(true).Check(checker.Options{Strategy: checker.Random, Seed: 1, Walks: 200})
	require.Equal(t, checker.Inconclusive, r.Verdict, "%v", r.Counterexample)
}

// A run that ends with a node pending is a liveness violation that a
// replay of the finite trace reproduces.
func TestReplayJudgesPendingAtTheEnd(t *testing.T) {
	sp := chatterSpec(true)
	// p0 gives p1 its turn, but the TURN message is lost... here simply
	// never delivered: stop before it is, at a world that is not terminal,
	// and nothing is judged; a terminal world with p1 pending would be.
	rp, err := sp.Replay([]string{"input p0 chat"})
	require.NoError(t, err)
	require.Equal(t, "", rp.Trace.Property)
	f, _ := model.ParseFaults("drop=1")
	sp = &checker.Spec[cstate, uint8]{
		System:   model.MustNewSystem[cstate, uint8](chatter{fairGive: true, quiet: true}, model.Config{Faults: f}),
		Liveness: chatterSpec(true).Liveness,
	}
	r := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, r.Verdict)
	lines := steptest.Actions(r.Counterexample)
	require.Equal(t, []string{"input p0 give", "drop p0->p1 TURN"}, lines)
	require.Nil(t, r.Counterexample.Loop)
	rp, err = sp.Replay(lines)
	require.NoError(t, err)
	require.Equal(t, r.Counterexample, rp.Trace)
}
