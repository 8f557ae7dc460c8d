package nack

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Seed 001, "Scalable reliable multicasting": a gap is reported by a NACK
// multicast to the group after a random delay; another's NACK for the
// same message suppresses it; the sender repairs from its history, and
// cannot once it has deleted it.
func TestNackRules(t *testing.T) {
	p := New(4, multicast.Workload{Msgs: 2, Senders: 1})
	// p2 receives p0#2 without p0#1: held, p0#1 wanted, no feedback yet.
	s, sent, _ := steptest.Apply(p, 2, State{}, steptest.Receive(0, Msg{Kind: Data, ID: multicast.MsgID{Sender: 0, Seq: 2}}))
	require.Empty(t, sent, "successful delivery is never acknowledged; a NACK waits for its delay")
	require.Equal(t, "made=0 L=(0,0,0,0) held={p0#2} want={p0#1}", p.FormatState(2, s))

	// The delay expires: the NACK goes to the whole group.
	_, sent, _ = steptest.Apply(p, 2, s, model.Event[Msg]{Kind: model.Timeout, Timer: NackTimer})
	require.Equal(t, []string{"p0 NACK(p0#1)", "p1 NACK(p0#1)", "p3 NACK(p0#1)"}, sent)

	// Or p1's NACK for it arrives first: p2 stays silent.
	nack := Msg{Kind: Nack, ID: multicast.MsgID{Sender: 0}, Missing: 1}
	s2, _, _ := steptest.Apply(p, 2, s, steptest.Receive(1, nack))
	require.Equal(t, "made=0 L=(0,0,0,0) held={p0#2}", p.FormatState(2, s2))
	p.Suppress = false
	s3, _, _ := steptest.Apply(p, 2, s, steptest.Receive(1, nack))
	require.Equal(t, s, s3, "without suppression the NACK still goes")

	// The sender repairs by multicast while it keeps the message.
	sender := State{Peer: multicast.Peer{Made: 2}, Kept: 0b11}
	_, sent, _ = steptest.Apply(p, 0, sender, steptest.Receive(1, nack))
	require.Equal(t, []string{"p1 DATA(p0#1)", "p2 DATA(p0#1)", "p3 DATA(p0#1)"}, sent)
	sender.Kept = 0 // deleted after some time
	_, sent, _ = steptest.Apply(p, 0, sender, steptest.Receive(1, nack))
	require.Empty(t, sent, "a message deleted from the history cannot be repaired")
}
