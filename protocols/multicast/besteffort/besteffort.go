// Package besteffort is plain best-effort multicast, the baseline the
// notes' reliable multicast improves on (seed 001, "Multicast
// communication": "what happens if a message is lost?"): the sender
// sends the message to each member of the group and does nothing else; a
// process delivers whatever it receives. One lost message breaks
// agreement, one duplicated message breaks integrity.
package besteffort

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Protocol is best-effort multicast among N processes.
type Protocol struct{ multicast.Base[State, Msg] }

// New returns best-effort multicast for n processes under wl.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{multicast.NewBase[State, Msg](n, wl)}
}

// State is one process's state.
type State struct {
	Made    uint8                  // multicasts made
	Sending multicast.Transmission // the destinations of the latest multicast still to reach
	Heard   bool                   // delivered a message of another process (causal workload)
}

// Msg is a multicast message: its id is all it carries.
type Msg struct {
	ID multicast.MsgID
}

var _ model.Protocol[State, Msg] = (*Protocol)(nil)

// Inputs: the workload's multicasts.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	return p.Workload.Inputs(self, s.Made, s.Sending.Busy(), s.Heard, dst)
}

// Step applies the rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		// The application multicasts its next message; the sender
		// delivers it at once and starts sending it to each member.
		multicast.Begin(self, p.N, &s.Made, &s.Sending, out)
	case model.Timeout:
		// One more destination (multicast.Transmission).
		multicast.SendNext(self, p.N, &s.Sending, Msg{ID: multicast.MsgID{Sender: self, Seq: s.Made}}, out)
	case model.Receive:
		// Whatever arrives is delivered: no numbers checked, no
		// acknowledgement, nothing kept.
		out.Output(invariants.DeliverRecord(ev.Msg.ID))
		s.Heard = true
	}
	return s
}

// FormatState is "made=1 sending={p2}".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	return fmt.Sprintf("made=%d%s", s.Made, multicast.FormatSending(s.Sending))
}

// FormatMsg is "DATA(p0#1)".
func (p *Protocol) FormatMsg(m Msg) string { return "DATA(" + m.ID.String() + ")" }

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the transmit timer.
func (p *Protocol) TimerName(t model.TimerID) string { return multicast.TimerName(t) }
