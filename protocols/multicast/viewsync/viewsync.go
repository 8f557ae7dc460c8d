// Package viewsync is view-synchronous (atomic) multicast with a group
// membership service (seed 001, "Atomic multicast"): a message is
// delivered to all the current non-faulty members of the group or to
// none, because the members agree on the current membership.
//
// The rules of the notes, as this package keeps them:
//
//   - "A membership service keeps all members updated on who the current
//     members of the group are": the group starts in view 0 with every
//     process; a crash leads to a new view without the crashed process.
//   - "Send view messages of group membership which must be delivered to
//     members in total order": one coordinator, the lowest-id member of
//     the view not known to have crashed, makes every view after the
//     first, one at a time, so every process installs the same views in
//     the same order.
//   - "Each message is associated with a group view: the one the sender
//     had when transmitting": a message carries its sender's view, and a
//     process delivers it only in that view.
//   - "Multicasts cannot pass across view changes: all multicasts that are
//     in transit while a view change occurs must be completed before the
//     new view comes into effect": the view change is a flush. The
//     coordinator asks every surviving member for the messages it has
//     delivered (FLUSH-REQ); a member answers (FLUSH) and from then on
//     neither multicasts nor delivers a message of the old view; the
//     coordinator sends the union of the answers with the new view
//     (NEWVIEW), and every member delivers what it lacks of the union,
//     then installs the view.
//
// So the two crash cases of the notes' figure come out as drawn: if p
// crashes before m reaches any other process, no survivor has m and none
// delivers it; if m has reached at least one survivor q before the view
// change, m is in q's answer, and every survivor delivers first m and
// then the view.
//
// Failures are detected as in the notes' synchronous system (the bully
// algorithm's timeouts): the timer with which a process suspects member x
// fires only once x has crashed and none of x's messages is still in
// flight (model.TimerGuard), a perfect failure detector. A multicast is
// transmitted one member per step (the multicast.Transmit timer), so that a crash
// can cut it short half-way. Processes are crash-stop; joins are not
// modelled.
package viewsync

import (
	"math/bits"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Protocol is view-synchronous multicast among N processes, each
// multicasting at most K messages, under Workload.
type Protocol struct{ multicast.Base[State, Msg] }

// New returns view-synchronous multicast for n processes under wl.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{multicast.NewBase[State, Msg](n, wl)}
}

// ID names a message: its sender and the sender's own number, from 1.
type ID = multicast.MsgID

// bit is id's place in a message set; idOf is its inverse.
func bit(id ID) uint64 { return 1 << (uint(id.Sender)*multicast.MaxMsgs + uint(id.Seq) - 1) }

func idOf(b int) ID {
	return ID{Sender: model.NodeID(b / multicast.MaxMsgs), Seq: uint8(b%multicast.MaxMsgs) + 1}
}

// State is one process's state. It is a fixed-size value.
type State struct {
	View    uint8 // the installed view's number
	Members uint8 // its members, bit i for process i
	// Suspected are the processes known to have crashed.
	Suspected uint8
	Sent      uint8  // multicasts made
	Delivered uint64 // messages delivered (bit of an ID, see bit)
	Heard     bool   // delivered a message of another process
	// Tx is the multicast being transmitted, TxSeq its number.
	Tx    multicast.Transmission
	TxSeq uint8
	// Flushing: the process has answered a FLUSH-REQ of its view and
	// waits for the next view; it neither multicasts nor delivers.
	Flushing bool
	// Early are messages of the next view that arrived before it.
	Early uint64
	// The coordinator's view change: the members whose FLUSH it has, and
	// the union of what they delivered.
	Collecting bool
	Got        uint8
	Union      uint64
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Data     Kind = iota // MSG(id, view): a multicast message, tied to its sender's view
	FlushReq             // FLUSH-REQ(view): the coordinator starts a view change
	Flush                // FLUSH(view, delivered): a member's answer
	NewView              // NEWVIEW(view, members, union): the next view
)

// Msg is a message. It is a fixed-size value.
type Msg struct {
	Kind    Kind
	View    uint8
	ID      ID     // Data
	Set     uint64 // Flush: delivered; NewView: the union
	Members uint8  // NewView
}

// The timers: multicast.Transmit sends the next copy of a multicast; Suspect+x is
// the failure detector's timer for member x.
const Suspect model.TimerID = multicast.Transmit + 1

var (
	_ model.Protocol[State, Msg]   = (*Protocol)(nil)
	_ model.TimerGuard[State, Msg] = (*Protocol)(nil)
	_ model.TimerNamer             = (*Protocol)(nil)
)

// Init: view 0 with every process; a failure detector timer per other
// member.
func (p *Protocol) Init(self model.NodeID, out *model.Out[Msg]) State {
	for x := range p.N {
		if model.NodeID(x) != self {
			out.SetTimer(Suspect + model.TimerID(x))
		}
	}
	return State{Members: uint8(1<<p.N - 1)}
}

// Inputs offers multicast by the workload, except while the process
// transmits a multicast or is in a view change.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	return p.Workload.Inputs(self, s.Sent, s.Tx.Busy() || s.Flushing, s.Heard, dst)
}

// Step is the rule set of seed 001, "Atomic multicast".
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment: // multicast.Input
		// "Each message is associated with a group view: the one the
		// sender had when transmitting." The sender delivers its own
		// message at once and transmits it to the other members.
		s.Sent++
		id := ID{Sender: self, Seq: s.Sent}
		out.Output(invariants.McastRecord(id))
		s = deliver(s, self, id, out)
		s.Tx, s.TxSeq = multicast.To(s.Members&^s.Suspected&^(1<<self)), s.Sent
		if s.Tx.Busy() {
			out.SetTimer(multicast.Transmit)
		}
	case model.Timeout:
		if ev.Timer == multicast.Transmit {
			// One member per step: a crash may cut the multicast short.
			multicast.SendNext(self, p.N, &s.Tx, Msg{Kind: Data, View: s.View, ID: ID{Sender: self, Seq: s.TxSeq}}, out)
			break
		}
		// The membership service notices a crash.
		s.Suspected |= 1 << (ev.Timer - Suspect)
		s = p.coordinate(self, s, out)
	case model.Receive:
		m := ev.Msg
		switch m.Kind {
		case Data:
			// "Multicasts cannot pass across view changes": a message is
			// delivered in its sender's view, before the process has
			// flushed it; one of the next view waits for that view; one of
			// a view flushed or left is dropped (the flush carries it, if
			// any survivor delivered it).
			switch {
			case m.View == s.View && !s.Flushing:
				s = deliver(s, self, m.ID, out)
			case m.View == s.View+1:
				s.Early |= bit(m.ID)
			}
		case FlushReq:
			// A member answers the coordinator with what it delivered in
			// the view, and stops: no multicast crosses the view change.
			if m.View == s.View {
				s = stop(s, out)
				out.Send(ev.From, Msg{Kind: Flush, View: s.View, Set: s.Delivered})
			}
		case Flush:
			if s.Collecting && m.View == s.View {
				s.Got |= 1 << ev.From
				s.Union |= m.Set
				s = p.complete(self, s, out)
			}
		case NewView:
			// "All multicasts that are in transit while a view change
			// occurs must be completed before the new view comes into
			// effect": deliver the union, then install the view.
			if m.View == s.View+1 {
				s = p.install(self, s, m.View, m.Members, m.Set, out)
			}
		}
	}
	return s
}

// coordinator is the lowest member of s's view not known to have crashed.
func coordinator(s State) model.NodeID {
	return model.NodeID(bits.TrailingZeros8(s.Members &^ s.Suspected))
}

// coordinate starts or advances a view change when self coordinates and
// a member of its view has crashed.
func (p *Protocol) coordinate(self model.NodeID, s State, out *model.Out[Msg]) State {
	if s.Members&s.Suspected == 0 || coordinator(s) != self {
		return s
	}
	if !s.Collecting {
		s = stop(s, out)
		s.Collecting, s.Got, s.Union = true, 1<<self, s.Delivered
		for j := range p.N {
			if id := model.NodeID(j); id != self && survivors(s)&(1<<id) != 0 {
				out.Send(id, Msg{Kind: FlushReq, View: s.View})
			}
		}
	}
	return p.complete(self, s, out)
}

// survivors are the members of s's view not known to have crashed.
func survivors(s State) uint8 { return s.Members &^ s.Suspected }

// complete ends the view change once every survivor has answered: the
// coordinator sends the next view with the union and installs it.
func (p *Protocol) complete(self model.NodeID, s State, out *model.Out[Msg]) State {
	next := survivors(s)
	if next&^s.Got != 0 {
		return s
	}
	v := s.View + 1
	for j := range p.N {
		if id := model.NodeID(j); id != self && next&(1<<id) != 0 {
			out.Send(id, Msg{Kind: NewView, View: v, Members: next, Set: s.Union})
		}
	}
	return p.install(self, s, v, next, s.Union, out)
}

// install delivers what self lacks of union, then view v with members,
// then the messages of view v that came early; a crash self already knows
// of in the new view starts the next change.
func (p *Protocol) install(self model.NodeID, s State, v, members uint8, union uint64, out *model.Out[Msg]) State {
	s = deliverAll(s, self, union&^s.Delivered, out)
	out.Output(invariants.ViewRecord(v, uint64(members)))
	for x := range p.N {
		if members&(1<<x) == 0 && s.Members&(1<<x) != 0 {
			out.CancelTimer(Suspect + model.TimerID(x))
		}
	}
	s.View, s.Members = v, members
	s.Flushing, s.Collecting, s.Got, s.Union = false, false, 0, 0
	early := s.Early
	s.Early = 0
	s = deliverAll(s, self, early, out)
	return p.coordinate(self, s, out)
}

// stop ends the process's part in its view: it answers (or collects)
// a flush, and transmits no more (what it sent is in its answer).
func stop(s State, out *model.Out[Msg]) State {
	s.Flushing = true
	if s.Tx.Busy() {
		s.Tx = multicast.Transmission{}
		out.CancelTimer(multicast.Transmit)
	}
	return s
}

// deliver delivers id unless it was delivered before.
func deliver(s State, self model.NodeID, id ID, out *model.Out[Msg]) State {
	if s.Delivered&bit(id) != 0 {
		return s
	}
	s.Delivered |= bit(id)
	s.Heard = s.Heard || id.Sender != self
	out.Output(invariants.DeliverRecord(id))
	return s
}

// deliverAll delivers the messages of set in ID order.
func deliverAll(s State, self model.NodeID, set uint64, out *model.Out[Msg]) State {
	for ; set != 0; set &= set - 1 {
		s = deliver(s, self, idOf(bits.TrailingZeros64(set)), out)
	}
	return s
}

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady is the perfect failure detector: Suspect+x fires only when x
// is a member not yet suspected, has crashed, and none of its messages is
// still in flight. multicast.Transmit is always ready.
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	if t == multicast.Transmit {
		return true
	}
	x := model.NodeID(t - Suspect)
	s := w.Nodes[self]
	if !w.IsDown(x) || s.Members&^s.Suspected&(1<<x) == 0 {
		return false
	}
	for _, e := range w.Net {
		if e.From == x {
			return false
		}
	}
	return true
}

// KindName names m's type in cost counts: "MSG", "FLUSH-REQ", "FLUSH" or
// "NEWVIEW".
func KindName(m Msg) string { return [...]string{"MSG", "FLUSH-REQ", "FLUSH", "NEWVIEW"}[m.Kind] }
