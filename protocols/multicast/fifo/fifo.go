// Package fifo is FIFO-ordered multicast (seed 001, "Implementing FIFO
// ordering"): "using sequence numbers per sender; a message delivery is
// delayed (in a hold-back queue) until its sequence number is reached".
// It assumes reliable channels, which need not be FIFO (-network
// unordered): it orders, it does not repair losses (that is the basic
// reliable multicast of package reliable).
package fifo

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Protocol is FIFO multicast among N processes.
type Protocol struct{ multicast.PeerBase[State, Msg] }

// New returns FIFO multicast for n processes under wl.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{multicast.NewPeerBase[State, Msg](n, wl)}
}

// State is one process's state: S_P, the multicast under way, L_Q(P) and
// the hold-back queue (multicast.Peer), nothing more.
type State struct {
	multicast.Peer
}

// Msg is a multicast message, numbered by its sender.
type Msg struct {
	ID multicast.MsgID
}

var _ model.Protocol[State, Msg] = (*Protocol)(nil)

// Step applies the rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		// "Using sequence numbers per sender": the next number; the
		// sender delivers its own message at once.
		multicast.BeginPeer(self, p.N, &s.Peer, out)
	case model.Timeout:
		// One more destination (multicast.Transmission).
		multicast.SendNext(self, p.N, &s.Sending, Msg{ID: multicast.MsgID{Sender: self, Seq: s.Made}}, out)
	case model.Receive:
		m := ev.Msg.ID
		switch s.R.Classify(m) {
		case multicast.InOrder:
			// Its number is reached: deliver it, then whatever of the
			// same sender the hold-back queue now lets through.
			multicast.DeliverFrom(&s.R, m, out)
		case multicast.Ahead:
			// "A message delivery is delayed (in a hold-back queue)
			// until its sequence number is reached."
			s.R.Hold(m)
		case multicast.Old:
			// Delivered already (a duplicate): discarded.
		}
	}
	return s
}

// FormatState is "made=1 L=(1,0,0) held={p1#2}".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	return fmt.Sprintf("made=%d%s%s", s.Made, s.R.Format(p.N), multicast.FormatSending(s.Sending))
}

// FormatMsg is "DATA(p0#1)".
func (p *Protocol) FormatMsg(m Msg) string { return "DATA(" + m.ID.String() + ")" }

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the transmit timer.
func (p *Protocol) TimerName(t model.TimerID) string { return multicast.TimerName(t) }

// Kind is a message's kind in the cost tables.
func Kind(Msg) string { return "DATA" }
