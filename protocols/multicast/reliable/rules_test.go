package reliable

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

func id(p model.NodeID, s uint8) multicast.MsgID { return multicast.MsgID{Sender: p, Seq: s} }

// step runs one event at Q = p1 and returns the new state, what it sent
// and what it output.
func step(pr *Protocol, s State, ev model.Event[Msg]) (State, []string, []string) {
	return steptest.Apply(pr, 1, s, ev)
}

func data(from model.NodeID, seq uint8) model.Event[Msg] {
	return model.Event[Msg]{Kind: model.Receive, From: from, Msg: Msg{Kind: Data, ID: id(from, seq)}}
}

// Seed 001, "Basic reliable multicasting": when process Q receives a
// message from P, the three cases on S_P against L_Q(P).
func TestReceiverRules(t *testing.T) {
	pr := New(3, multicast.Workload{Msgs: 3, Senders: 3})
	var s State

	// S_P > L_Q(P) + 1: hold back, request the missing ones.
	s, sent, outs := step(pr, s, data(0, 3))
	require.Equal(t, []string{"p0 RETRANS-REQ(p0#1,p0#2)"}, sent)
	require.Empty(t, outs)
	require.True(t, s.R.IsHeld(id(0, 3)))

	// S_P = L_Q(P) + 1: deliver, increase L_Q(P), acknowledge.
	s, sent, outs = step(pr, s, data(0, 1))
	require.Equal(t, []string{"p0 ACK(p0#1)"}, sent)
	require.Equal(t, []string{"deliver p0#1"}, outs)
	require.Equal(t, uint8(1), s.R.Last[0])

	// The queued message is delivered (and acknowledged) once its number
	// is the next expected one.
	s, sent, outs = step(pr, s, data(0, 2))
	require.Equal(t, []string{"p0 ACK(p0#2)", "p0 ACK(p0#3)"}, sent)
	require.Equal(t, []string{"deliver p0#2", "deliver p0#3"}, outs)
	require.Equal(t, uint8(3), s.R.Last[0])

	// S_P <= L_Q(P): discarded, acknowledged again.
	_, sent, outs = step(pr, s, data(0, 2))
	require.Equal(t, []string{"p0 ACK(p0#2)"}, sent)
	require.Empty(t, outs)
}

// The sender's history buffer: kept until everyone acknowledged;
// retransmission requests are served from it.
func TestSenderRules(t *testing.T) {
	pr := New(3, multicast.Workload{Msgs: 2, Senders: 3})
	s, _, outs := step(pr, State{}, model.Event[Msg]{Kind: model.Environment, Input: multicast.Input})
	require.Equal(t, []string{"mcast p1#1", "deliver p1#1"}, outs)
	require.Equal(t, uint8(1), s.Buffer)

	ack := func(from model.NodeID) model.Event[Msg] {
		return model.Event[Msg]{Kind: model.Receive, From: from, Msg: Msg{Kind: Ack, ID: id(1, 1)}}
	}
	req := model.Event[Msg]{Kind: model.Receive, From: 2, Msg: Msg{Kind: Request, ID: id(1, 0), Missing: 1}}
	s, _, _ = step(pr, s, ack(0))
	require.Equal(t, uint8(1), s.Buffer, "p2 has not acknowledged")
	_, sent, _ := step(pr, s, req)
	require.Equal(t, []string{"p2 DATA(p1#1)"}, sent)
	s, _, _ = step(pr, s, ack(2))
	require.Zero(t, s.Buffer, "everyone acknowledged")
	_, sent, _ = step(pr, s, req)
	require.Empty(t, sent, "nothing left to retransmit")
}
