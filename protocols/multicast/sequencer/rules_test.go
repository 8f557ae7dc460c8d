package sequencer

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// mcast is the application's request to multicast.
var mcast = steptest.Input[Msg](multicast.Input)

// Seed 001, total ordering (a): "send messages to a sequencer".
func TestSenderSendsToTheSequencer(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 2, Senders: 3})
	s, sends, recs := steptest.Apply(p, 1, p.Init(1, nil), mcast)
	require.Equal(t, []string{"p0 DATA(p1#1)"}, sends)
	require.Equal(t, []string{"mcast p1#1"}, recs, "the sender does not deliver before the sequencer numbers")
	require.Equal(t, uint8(1), s.Sent)
	require.Equal(t, []model.Input{multicast.Input}, p.Inputs(1, s, nil))
	require.Equal(t, []model.Input(nil), p.Inputs(1, State{Sent: 2}, nil), "K=2 multicasts at most")
}

// Seed 001, total ordering (a): "... which multicasts them with numbering";
// the sequencer is a member and delivers too.
func TestSequencerNumbersAndMulticasts(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 2, Senders: 3})
	s, sends, recs := steptest.Apply(p, Sequencer, p.Init(0, nil), steptest.Receive(1, Msg{Kind: Data, ID: ID{Sender: 1, Seq: 1}}))
	require.Equal(t, []string{"p1 ORDER(1,p1#1)", "p2 ORDER(1,p1#1)"}, sends)
	require.Equal(t, []string{"deliver p1#1"}, recs)
	require.Equal(t, uint16(1), s.Issued)
	require.Equal(t, uint16(2), s.Next)

	// Its own mcast is numbered without a message.
	s, sends, recs = steptest.Apply(p, Sequencer, s, mcast)
	require.Equal(t, []string{"p1 ORDER(2,p0#1)", "p2 ORDER(2,p0#1)"}, sends)
	require.Equal(t, []string{"mcast p0#1", "deliver p0#1"}, recs)
}

// Seed 001, total ordering (a): "a message delivery is delayed (in a
// hold-back queue) until its number is reached".
func TestHoldBackUntilNumberReached(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 2, Senders: 3})
	s := p.Init(2, nil)
	s, _, recs := steptest.Apply(p, 2, s, steptest.Receive(0, Msg{Kind: Order, Num: 2, ID: ID{Sender: 0, Seq: 1}}))
	require.Empty(t, recs)
	require.Equal(t, []Held{{2, ID{Sender: 0, Seq: 1}}}, s.Hold)
	s, _, recs = steptest.Apply(p, 2, s, steptest.Receive(0, Msg{Kind: Order, Num: 1, ID: ID{Sender: 1, Seq: 1}}))
	require.Equal(t, []string{"deliver p1#1", "deliver p0#1"}, recs)
	require.Empty(t, s.Hold)
	require.Equal(t, uint16(3), s.Next)
}

// States and messages survive their encoding.
func TestCodecRoundTrip(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 2, Senders: 3})
	s := State{Sent: 2, Next: 3, Issued: 300, Hold: []Held{{4, ID{Sender: 2, Seq: 1}}, {7, ID{Sender: 0, Seq: 2}}}}
	got, rest := p.ReadState(p.AppendState(nil, s))
	require.Equal(t, s, got)
	require.Empty(t, rest)
	m := Msg{Kind: Order, Num: 200, ID: ID{Sender: 1, Seq: 2}}
	gm, rest := p.ReadMsg(p.AppendMsg(nil, m))
	require.Equal(t, m, gm)
	require.Empty(t, rest)
}
