package viewsync

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

func initial(p *Protocol, self model.NodeID) State {
	var out model.Out[Msg]
	return p.Init(self, &out)
}

func fire(t model.TimerID) model.Event[Msg] { return model.Event[Msg]{Kind: model.Timeout, Timer: t} }

func id(p model.NodeID, seq uint8) ID { return ID{Sender: p, Seq: seq} }

// mcast is the application's request to multicast.
var mcast = steptest.Input[Msg](multicast.Input)

// Seed 001, atomic mcast: "each message is associated with a group
// view, the one the sender had when transmitting"; the sender delivers its
// own message and transmits it one member per step.
func TestMulticastCarriesTheSendersView(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s := initial(p, 0)
	s.View = 2
	require.Equal(t, []model.Input{multicast.Input}, p.Inputs(0, s, nil))
	s, sends, recs := steptest.Apply(p, 0, s, mcast)
	require.Empty(t, sends)
	require.Equal(t, []string{"mcast p0#1", "deliver p0#1"}, recs)
	require.True(t, s.Tx.Busy())
	require.Empty(t, p.Inputs(0, s, nil), "no second mcast while one is transmitted")
	s, sends, _ = steptest.Apply(p, 0, s, fire(multicast.Transmit))
	require.Equal(t, []string{"p1 MSG(p0#1,v2)"}, sends)
	s, sends, _ = steptest.Apply(p, 0, s, fire(multicast.Transmit))
	require.Equal(t, []string{"p2 MSG(p0#1,v2)"}, sends)
	require.False(t, s.Tx.Busy())
}

// "Multicasts cannot pass across view changes": a message is delivered
// in its view before the process flushed; after, it is dropped; a message
// of the next view waits for that view.
func TestDataDeliveredOnlyInItsView(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s := initial(p, 1)
	s, _, recs := steptest.Apply(p, 1, s, steptest.Receive(0, Msg{Kind: Data, View: 0, ID: id(0, 1)}))
	require.Equal(t, []string{"deliver p0#1"}, recs)
	_, _, recs = steptest.Apply(p, 1, s, steptest.Receive(0, Msg{Kind: Data, View: 0, ID: id(0, 1)}))
	require.Empty(t, recs, "at most once")

	f := initial(p, 1)
	f.Flushing = true
	f, _, recs = steptest.Apply(p, 1, f, steptest.Receive(2, Msg{Kind: Data, View: 0, ID: id(2, 1)}))
	require.Empty(t, recs)
	require.Zero(t, f.Early)
	f, _, recs = steptest.Apply(p, 1, f, steptest.Receive(0, Msg{Kind: Data, View: 1, ID: id(0, 1)}))
	require.Empty(t, recs)
	require.Equal(t, bit(id(0, 1)), f.Early)
	// Installing view 1 delivers the union first, then the view, then
	// the early message.
	_, _, recs = steptest.Apply(p, 1, f, steptest.Receive(0, Msg{Kind: NewView, View: 1, Members: 0b011, Set: bit(id(2, 1))}))
	require.Equal(t, []string{"deliver p2#1", "view 1 {p0,p1}", "deliver p0#1"}, recs)
}

// The membership service: the coordinator (lowest member not known to
// have crashed) starts the view change when it learns of a crash; the
// others only take note.
func TestCoordinatorStartsFlush(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s := initial(p, 1)
	s, sends, _ := steptest.Apply(p, 1, s, fire(Suspect+2))
	require.Empty(t, sends, "p0 coordinates, not p1")
	require.Equal(t, uint8(0b100), s.Suspected)
	// p0 crashes too: p1 is now the lowest survivor and coordinates.
	s, sends, _ = steptest.Apply(p, 1, s, fire(Suspect+0))
	require.Empty(t, sends, "p1 alone survives: it needs nobody's answer")
	require.Equal(t, uint8(1), s.View)
	require.Equal(t, uint8(0b010), s.Members)

	c := initial(p, 0)
	c.Delivered = bit(id(0, 1))
	require.NotEmpty(t, p.Inputs(0, c, nil))
	c, sends, _ = steptest.Apply(p, 0, c, fire(Suspect+2))
	require.Equal(t, []string{"p1 FLUSH-REQ(v0)"}, sends)
	require.True(t, c.Collecting && c.Flushing)
	require.Empty(t, p.Inputs(0, c, nil), "no mcast during a view change")
}

// A member answers FLUSH-REQ with what it delivered, and stops its
// transmission (what it sent is in its answer).
func TestMemberAnswersFlush(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	s := initial(p, 1)
	s, _, _ = steptest.Apply(p, 1, s, mcast)
	require.True(t, s.Tx.Busy())
	var out model.Out[Msg]
	s = p.Step(1, s, steptest.Receive(0, Msg{Kind: FlushReq, View: 0}), &out)
	var sends []string
	out.Sends(func(to model.NodeID, m Msg) { sends = append(sends, to.String()+" "+p.FormatMsg(m)) })
	require.Equal(t, []string{"p0 FLUSH(v0,{p1#1})"}, sends)
	require.True(t, s.Flushing)
	require.False(t, s.Tx.Busy())
	var cancelled []model.TimerID
	out.TimerOps(func(id model.TimerID, set bool) {
		if !set {
			cancelled = append(cancelled, id)
		}
	})
	require.Equal(t, []model.TimerID{multicast.Transmit}, cancelled)
}

// The notes' figure, second case: m reached q before p crashed; q's
// answer carries it, and every survivor delivers first m, then the view.
func TestUnionDeliveredBeforeTheView(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	c := initial(p, 0)
	c, _, _ = steptest.Apply(p, 0, c, fire(Suspect+2))
	c, sends, recs := steptest.Apply(p, 0, c, steptest.Receive(1, Msg{Kind: Flush, View: 0, Set: bit(id(2, 1))}))
	require.Equal(t, []string{"p1 NEWVIEW(v1,{p0,p1},{p2#1})"}, sends)
	require.Equal(t, []string{"deliver p2#1", "view 1 {p0,p1}"}, recs)
	require.False(t, c.Collecting || c.Flushing)
}

// The failure detector of the notes' synchronous system: suspect x fires
// once x is down and none of its messages is in flight.
func TestPerfectFailureDetector(t *testing.T) {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	sys := model.MustNewSystem[State, Msg](p, model.Config{})
	w := sys.Init()
	require.False(t, p.TimerReady(w, 0, Suspect+2), "p2 is up")
	w.Down = 1 << 2
	w.Net = []model.Envelope[Msg]{{From: 2, To: 1, Msg: Msg{Kind: Data, ID: id(2, 1)}}}
	require.False(t, p.TimerReady(w, 0, Suspect+2), "p2's message is still in flight")
	w.Net = nil
	require.True(t, p.TimerReady(w, 0, Suspect+2))
	w.Nodes[0].Suspected = 1 << 2
	require.False(t, p.TimerReady(w, 0, Suspect+2), "already suspected")
}
