// Package sequencer is totally ordered multicast by a sequencer (seed 001,
// "Implementing total ordering", a): every message goes to the sequencer,
// which numbers it with the next sequence number of the group and
// multicasts it with that number; a process holds a numbered message back
// until every lower number has been delivered, then delivers it.
//
// The sequencer is p0, itself a member of the group: it numbers its own
// multicasts without a message. The notes warn that the sequencer "is a
// single point of failure and a performance bottleneck"; with crash=1@p0
// the checker shows the first: a correct process's multicast is never
// delivered (validity fails), and nobody takes over.
package sequencer

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Sequencer is the process that numbers the group's messages.
const Sequencer model.NodeID = 0

// Protocol is sequencer-based total order among N processes under a
// workload.
type Protocol struct {
	multicast.Group
}

// New returns the sequencer protocol for n processes under wl.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{Group: multicast.Group{N: n, Workload: wl}}
}

// ID names a message: its sender and the sender's own number, from 1.
type ID = multicast.MsgID

// Held is a numbered message waiting in the hold-back queue.
type Held struct {
	Num uint16 // the group sequence number the sequencer gave it
	ID  ID
}

// State is one process's state.
type State struct {
	Sent  uint8  // messages this process has multicast
	Heard bool   // delivered a message of another process (causal workload)
	Next  uint16 // the group number it delivers next (from 1)
	// Hold is the hold-back queue, sorted by number: numbered messages
	// that arrived before a lower number was delivered.
	Hold []Held
	// Issued is the last group number the sequencer gave (p0 only).
	Issued uint16
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Data  Kind = iota // DATA(id): a sender's message, to the sequencer
	Order             // ORDER(n, id): the message with its group number, to all
)

// Msg is a message.
type Msg struct {
	Kind Kind
	Num  uint16 // for Order
	ID   ID
}

var _ model.Protocol[State, Msg] = (*Protocol)(nil)

// Init: nothing sent, group number 1 expected next.
func (p *Protocol) Init(model.NodeID, *model.Out[Msg]) State { return State{Next: 1} }

// Inputs: the workload's multicasts.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	return p.Workload.Inputs(self, s.Sent, false, s.Heard, dst)
}

// Step is the rule set of seed 001, "Implementing total ordering" (a).
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	s.Hold = append([]Held(nil), s.Hold...) // never share the input's queue
	switch ev.Kind {
	case model.Environment: // multicast.Input
		// "Send messages to a sequencer": the sender numbers its message
		// with its own count and sends it to the sequencer (the sequencer
		// numbers its own at once).
		s.Sent++
		id := ID{Sender: self, Seq: s.Sent}
		out.Output(invariants.McastRecord(id))
		if self == Sequencer {
			s = p.number(self, s, id, out)
		} else {
			out.Send(Sequencer, Msg{Kind: Data, ID: id})
		}
	case model.Receive:
		switch ev.Msg.Kind {
		case Data:
			// "... which multicasts them with numbering": the sequencer
			// gives the next group number.
			s = p.number(self, s, ev.Msg.ID, out)
		case Order:
			// "A message delivery is delayed (in a hold-back queue) until
			// its number is reached."
			s = hold(s, Held{ev.Msg.Num, ev.Msg.ID})
			s = deliver(self, s, out)
		}
	}
	return s
}

// number is the sequencer's rule: the next group number for id, multicast
// to every other process, and queued at the sequencer itself.
func (p *Protocol) number(self model.NodeID, s State, id ID, out *model.Out[Msg]) State {
	s.Issued++
	for j := range p.N {
		if model.NodeID(j) != self {
			out.Send(model.NodeID(j), Msg{Kind: Order, Num: s.Issued, ID: id})
		}
	}
	s = hold(s, Held{s.Issued, id})
	return deliver(self, s, out)
}

// hold puts h into the hold-back queue, in number order.
func hold(s State, h Held) State {
	i := len(s.Hold)
	for i > 0 && s.Hold[i-1].Num > h.Num {
		i--
	}
	s.Hold = append(s.Hold, Held{})
	copy(s.Hold[i+1:], s.Hold[i:])
	s.Hold[i] = h
	return s
}

// deliver delivers the front of the hold-back queue while its number is
// the next expected one.
func deliver(self model.NodeID, s State, out *model.Out[Msg]) State {
	for len(s.Hold) > 0 && s.Hold[0].Num == s.Next {
		out.Output(invariants.DeliverRecord(s.Hold[0].ID))
		s.Heard = s.Heard || s.Hold[0].ID.Sender != self
		s.Hold = s.Hold[1:]
		s.Next++
	}
	if len(s.Hold) == 0 {
		s.Hold = nil
	}
	return s
}

// KindName names m's type in cost counts: "DATA" or "ORDER".
func KindName(m Msg) string {
	if m.Kind == Data {
		return "DATA"
	}
	return "ORDER"
}
