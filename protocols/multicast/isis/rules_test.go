package isis

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

func id(p model.NodeID, seq uint8) ID { return ID{Sender: p, Seq: seq} }

// mcast is the application's request to multicast.
var mcast = steptest.Input[Msg](multicast.Input)

// Seed 001, total ordering (b), 1: "the sender multicasts message m"; the
// sender proposes to itself, P = max(A, P) + 1, and queues m.
func TestRule1SenderMulticasts(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s, sends, recs := steptest.Apply(p, 0, State{A: 4, P: 2}, mcast)
	require.Equal(t, []string{"p1 MSG(p0#1)", "p2 MSG(p0#1)"}, sends)
	require.Equal(t, []string{"mcast p0#1"}, recs)
	require.Equal(t, uint16(5), s.P)
	require.Equal(t, []Entry{{ID: id(0, 1), Tag: Tag{5, 0}}}, s.Queue)
	require.Equal(t, []Pending{{Seq: 1, Best: Tag{5, 0}, Got: 1}}, s.Own)
}

// Rule 2: "each receiver j replies with a proposed sequence number for m
// (including its process ID) that is P_j = max(A_j, P_j) + 1 and places m
// in an ordered hold-back queue according to P_j".
func TestRule2ReceiverProposes(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s := State{A: 3, P: 1, Queue: []Entry{{ID: id(1, 1), Tag: Tag{5, 2}, Agreed: true}}}
	s, sends, recs := steptest.Apply(p, 2, s, steptest.Receive(0, Msg{Kind: Message, ID: id(0, 1)}))
	require.Equal(t, []string{"p0 PROPOSE(#1,4/p2)"}, sends)
	require.Empty(t, recs, "p1#1 waits: it is behind p0#1, whose number is not agreed")
	require.Equal(t, uint16(4), s.P)
	require.Equal(t, []Entry{{ID: id(0, 1), Tag: Tag{4, 2}}, {ID: id(1, 1), Tag: Tag{5, 2}, Agreed: true}}, s.Queue)

	// P_j = max(A_j, P_j) + 1 also when P_j is the larger.
	s, sends, _ = steptest.Apply(p, 2, s, steptest.Receive(1, Msg{Kind: Message, ID: id(1, 2)}))
	require.Equal(t, []string{"p1 PROPOSE(#2,5/p2)"}, sends)
}

// Rule 3: "the sender selects the largest of all proposals, N, as the
// agreed number for m and multicasts it" (once all N are in); ties go to
// the larger proposer id.
func TestRule3SenderChoosesLargest(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s, _, _ := steptest.Apply(p, 0, State{}, mcast) // own proposal 1/p0
	s, sends, _ := steptest.Apply(p, 0, s, steptest.Receive(1, Msg{Kind: Propose, ID: ID{Seq: 1}, Tag: Tag{2, 1}}))
	require.Empty(t, sends, "one proposal is still missing")
	s, sends, recs := steptest.Apply(p, 0, s, steptest.Receive(2, Msg{Kind: Propose, ID: ID{Seq: 1}, Tag: Tag{2, 2}}))
	require.Equal(t, []string{"p1 AGREED(p0#1,2/p2)", "p2 AGREED(p0#1,2/p2)"}, sends)
	require.Equal(t, []string{"deliver p0#1"}, recs)
	require.Empty(t, s.Own)
	require.Equal(t, uint16(2), s.A)

	// The broken variant picks the smallest.
	q := &Protocol{Group: multicast.Group{N: 3, Workload: multicast.Workload{Msgs: 1, Senders: 3}}, TieBreak: true, Choose: ChooseSmallest}
	s, _, _ = steptest.Apply(q, 0, State{P: 2}, mcast) // own proposal 3/p0
	s, _, _ = steptest.Apply(q, 0, s, steptest.Receive(1, Msg{Kind: Propose, ID: ID{Seq: 1}, Tag: Tag{1, 1}}))
	_, sends, _ = steptest.Apply(q, 0, s, steptest.Receive(2, Msg{Kind: Propose, ID: ID{Seq: 1}, Tag: Tag{2, 2}}))
	require.Equal(t, []string{"p1 AGREED(p0#1,1/p1)", "p2 AGREED(p0#1,1/p1)"}, sends)
}

// Rules 4 and 5: "each receiver j updates A_j = max(A_j, N), tags m with
// N, and reorders the hold-back queue"; "a message is delivered when it is
// at the front of the hold-back queue and its number is agreed".
func TestRules4And5AgreeReorderDeliver(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s := State{P: 2, Queue: []Entry{{ID: id(0, 1), Tag: Tag{1, 2}}, {ID: id(1, 1), Tag: Tag{2, 2}}}}
	// p0#1 agreed at 3: it moves behind p1#1, which is not agreed.
	s, _, recs := steptest.Apply(p, 2, s, steptest.Receive(0, Msg{Kind: Agreed, ID: id(0, 1), Tag: Tag{3, 1}}))
	require.Empty(t, recs)
	require.Equal(t, uint16(3), s.A)
	require.Equal(t, []Entry{{ID: id(1, 1), Tag: Tag{2, 2}}, {ID: id(0, 1), Tag: Tag{3, 1}, Agreed: true}}, s.Queue)
	// p1#1 agreed at 2: both are delivered, in number order.
	s, _, recs = steptest.Apply(p, 2, s, steptest.Receive(1, Msg{Kind: Agreed, ID: id(1, 1), Tag: Tag{2, 2}}))
	require.Equal(t, []string{"deliver p1#1", "deliver p0#1"}, recs)
	require.Empty(t, s.Queue)
}

// Without the proposer's id, equal numbers stay in the order they were
// queued: two processes that queued them in different orders deliver them
// in different orders.
func TestNoTieBreakKeepsArrivalOrder(t *testing.T) {
	p := &Protocol{Group: multicast.Group{N: 3, Workload: multicast.Workload{Msgs: 1, Senders: 3}}}
	s := State{Queue: []Entry{{ID: id(0, 1), Tag: Tag{Num: 1}}, {ID: id(1, 1), Tag: Tag{Num: 2}}}}
	s, _, _ = steptest.Apply(p, 2, s, steptest.Receive(1, Msg{Kind: Agreed, ID: id(1, 1), Tag: Tag{Num: 2}}))
	_, _, recs := steptest.Apply(p, 2, s, steptest.Receive(0, Msg{Kind: Agreed, ID: id(0, 1), Tag: Tag{Num: 2}}))
	require.Equal(t, []string{"deliver p1#1", "deliver p0#1"}, recs)
	_, sends, _ := steptest.Apply(p, 1, State{}, steptest.Receive(0, Msg{Kind: Message, ID: id(0, 1)}))
	require.Equal(t, []string{"p0 PROPOSE(#1,1)"}, sends, "a proposal carries no id")
}

// FIFO+total: a receiver proposes for a sender's messages in their order
// (S_P = L_Q(P) + 1), holding back the early ones.
func TestFIFOLayerHoldsBack(t *testing.T) {
	p := &Protocol{Group: multicast.Group{N: 3, Workload: multicast.Workload{Msgs: 2, Senders: 3}}, TieBreak: true, Order: FIFOTotal}
	s, sends, _ := steptest.Apply(p, 2, State{}, steptest.Receive(0, Msg{Kind: Message, ID: id(0, 2)}))
	require.Empty(t, sends)
	require.Equal(t, []Early{{ID: id(0, 2)}}, s.Early)
	s, sends, _ = steptest.Apply(p, 2, s, steptest.Receive(0, Msg{Kind: Message, ID: id(0, 1)}))
	require.Equal(t, []string{"p0 PROPOSE(#1,1/p2)", "p0 PROPOSE(#2,2/p2)"}, sends)
	require.Empty(t, s.Early)
	require.Equal(t, uint8(2), s.VC[0])
}

// Causal+total: conditions a. VC(m)[i] = VC_j[i]+1 and b. VC(m)[k] <=
// VC_j[k] for k != i; the sender increases VC[i] only when sending.
func TestCausalLayerConditions(t *testing.T) {
	p := &Protocol{Group: multicast.Group{N: 3, Workload: multicast.Workload{Msgs: 1, Senders: 3}}, TieBreak: true, Order: CausalTotal}
	s, sends, _ := steptest.Apply(p, 1, State{VC: VC{1, 0, 0}}, mcast)
	require.Equal(t, []string{"p0 MSG(p1#1,[1,1,0])", "p2 MSG(p1#1,[1,1,0])"}, sends)
	require.Equal(t, VC{1, 1, 0}, s.VC)

	// p2 has not seen p0#1, which p1 had seen: b. fails, m waits.
	r, sends, _ := steptest.Apply(p, 2, State{}, steptest.Receive(1, Msg{Kind: Message, ID: id(1, 1), VC: VC{1, 1, 0}}))
	require.Empty(t, sends)
	r, sends, _ = steptest.Apply(p, 2, r, steptest.Receive(0, Msg{Kind: Message, ID: id(0, 1), VC: VC{1, 0, 0}}))
	require.Equal(t, []string{"p0 PROPOSE(#1,1/p2)", "p1 PROPOSE(#1,2/p2)"}, sends)
	require.Equal(t, VC{1, 1, 0}, r.VC)
}

// States and messages survive their encoding, in every layer.
func TestCodecRoundTrip(t *testing.T) {
	for _, o := range []Order{Total, FIFOTotal, CausalTotal} {
		p := &Protocol{Group: multicast.Group{N: 3, Workload: multicast.Workload{Msgs: 2, Senders: 3}}, TieBreak: true, Order: o}
		s := State{A: 3, P: 400, Sent: 1, Queue: []Entry{{ID: id(1, 2), Tag: Tag{3, 2}, Agreed: true}},
			Own: []Pending{{Seq: 1, Best: Tag{2, 1}, Got: 2}}}
		m := Msg{Kind: Agreed, ID: id(2, 1), Tag: Tag{300, 1}}
		if o != Total {
			s.VC = VC{1, 2, 0}
			s.Early = []Early{{ID: id(0, 2)}}
		}
		if o == CausalTotal {
			s.Early[0].VC = VC{2, 1, 1}
			m.VC = VC{0, 1, 2}
		}
		got, rest := p.ReadState(p.AppendState(nil, s))
		require.Equal(t, s, got)
		require.Empty(t, rest)
		gm, rest := p.ReadMsg(p.AppendMsg(nil, m))
		require.Equal(t, m, gm)
		require.Empty(t, rest)
	}
}
