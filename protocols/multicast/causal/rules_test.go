package causal

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Seed 001, "Implementing causal ordering", the notes' example: P_j =
// p2 with VC=(0,0,0) receives m from p1 stamped (1,1,0): condition a.
// holds (the next from p1) but b. does not (p1 had seen p0's first
// message, p2 has not): held back. p0's (1,0,0) then arrives and lets
// both through, p0's first.
func TestConditionsAB(t *testing.T) {
	p, err := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	require.NoError(t, err)
	recv := func(s State, from model.NodeID, vc VC) (State, []string) {
		var out model.Out[Msg]
		s = p.Step(2, s, model.Event[Msg]{Kind: model.Receive, From: from,
			Msg: Msg{ID: multicast.MsgID{Sender: from, Seq: vc[from]}, VC: vc}}, &out)
		return s, append([]string(nil), out.Outputs()...)
	}
	s, outs := recv(State{}, 1, VC{1, 1, 0})
	require.Empty(t, outs)
	require.Equal(t, "VC=(0,0,0) held={p1#1}", p.FormatState(2, s))
	s, outs = recv(s, 0, VC{1, 0, 0})
	require.Equal(t, []string{"deliver p0#1", "deliver p1#1"}, outs)
	require.Equal(t, "VC=(1,1,0)", p.FormatState(2, s))
	// A duplicate is discarded.
	_, outs = recv(s, 0, VC{1, 0, 0})
	require.Empty(t, outs)
}
