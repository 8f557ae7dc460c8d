// Package reliable is the notes' basic reliable multicasting (seed 001,
// "Basic reliable multicasting"), for processes that "do not fail and do
// not join/leave the group", over channels that may lose or duplicate
// messages:
//
//   - sender P numbers its messages S_P and keeps a copy of each in a
//     history buffer, which it empties of a message "when everyone has
//     acknowledged receipt";
//   - receiver Q keeps L_Q(P) and, for a message from P: delivers and
//     acknowledges it when S_P = L_Q(P) + 1; keeps it in a hold-back
//     queue and requests the retransmission of the missing ones when
//     S_P > L_Q(P) + 1; discards it when S_P <= L_Q(P).
//
// Two things the notes leave out are needed for a loss of the last
// message, or of an acknowledgement: the sender retransmits what is still
// unacknowledged when its timer expires (a perfect timer: it fires when no
// acknowledgement can still arrive), and a receiver acknowledges a
// duplicate again, or a sender whose ACK was lost would never empty its
// buffer. A retransmission is a DATA message like the first, handled by
// the same rules ("retransmissions are also multicast messages"), sent to
// the processes that have not acknowledged it.
package reliable

import (
	"fmt"

	"github.com/coordcheck/coordcheck/internal/nodeset"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Protocol is basic reliable multicast among N processes.
type Protocol struct{ multicast.PeerBase[State, Msg] }

// New returns basic reliable multicast for n processes under wl.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{multicast.NewPeerBase[State, Msg](n, wl)}
}

// Retransmit is the sender's retransmission timer.
const Retransmit model.TimerID = 1

// State is one process's state.
type State struct {
	multicast.Peer // S_P, the multicast under way, L_Q(P), the hold-back queue
	// Buffer is the history buffer: bit s-1 while its message s is kept.
	Buffer uint8
	// Acked[s-1] is the set of processes that acknowledged message s.
	Acked [multicast.MaxMsgs]uint8
}

// Kind is the kind of a message.
type Kind uint8

// The messages.
const (
	Data    Kind = iota // a multicast message, first sent or retransmitted
	Ack                 // Q acknowledges the receipt of ID to its sender
	Request             // Q requests the retransmission of Missing from ID.Sender
)

var kindNames = [...]string{Data: "DATA", Ack: "ACK", Request: "RETRANS-REQ"}

// Msg is a message.
type Msg struct {
	Kind Kind
	ID   multicast.MsgID
	// Missing, for Request: bit s-1 for each missing number s of
	// ID.Sender.
	Missing uint8
}

var (
	_ model.Protocol[State, Msg]   = (*Protocol)(nil)
	_ model.TimerGuard[State, Msg] = (*Protocol)(nil)
)

// others is the set of processes but self.
func (p *Protocol) others(self model.NodeID) uint8 { return uint8((1<<p.N - 1) &^ (1 << self)) }

// Step applies the rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		// "Sender P assigns a sequence number S_P to each outgoing
		// message" and "stores a copy ... in a history buffer"; it
		// delivers its own message at once.
		m := multicast.BeginPeer(self, p.N, &s.Peer, out)
		s.Buffer |= 1 << (m.Seq - 1)
		s.Acked[m.Seq-1] = 0
		out.SetTimer(Retransmit)
	case model.Timeout:
		switch ev.Timer {
		case multicast.Transmit:
			// One more destination (multicast.Transmission).
			multicast.SendNext(self, p.N, &s.Sending, Msg{Kind: Data, ID: multicast.MsgID{Sender: self, Seq: s.Made}}, out)
		case Retransmit:
			// No acknowledgement can still come: send every buffered
			// message again to whoever has not acknowledged it.
			for seq := uint8(1); seq <= s.Made; seq++ {
				if s.Buffer&(1<<(seq-1)) == 0 {
					continue
				}
				for q := range p.N {
					if p.others(self)&^s.Acked[seq-1]&(1<<q) != 0 {
						out.Send(model.NodeID(q), Msg{Kind: Data, ID: multicast.MsgID{Sender: self, Seq: seq}})
					}
				}
			}
			out.SetTimer(Retransmit)
		}
	case model.Receive:
		s = p.receive(self, s, ev.From, ev.Msg, out)
	}
	return s
}

// receive handles a message from `from`.
func (p *Protocol) receive(self model.NodeID, s State, from model.NodeID, msg Msg, out *model.Out[Msg]) State {
	m := msg.ID
	switch msg.Kind {
	case Data:
		switch s.R.Classify(m) {
		case multicast.InOrder:
			// "If S_P = L_Q(P) + 1: Q delivers the message, increases
			// L_Q(P) and acknowledges the receipt to P"; then "queued
			// message will be delivered (and acknowledged) when its
			// sequence number is the next expected number".
			done := multicast.DeliverFrom(&s.R, m, out)
			for seq := m.Seq; done&(1<<(seq-1)) != 0; seq++ {
				out.Send(m.Sender, Msg{Kind: Ack, ID: multicast.MsgID{Sender: m.Sender, Seq: seq}})
			}
		case multicast.Ahead:
			// "If S_P > L_Q(P) + 1: Q keeps the message in a hold-back
			// queue and requests the retransmission of missing
			// messages."
			if !s.R.IsHeld(m) {
				missing := s.R.Missing(m.Sender, m.Seq)
				s.R.Hold(m)
				if missing != 0 {
					out.Send(m.Sender, Msg{Kind: Request, ID: multicast.MsgID{Sender: m.Sender}, Missing: missing})
				}
			}
		case multicast.Old:
			// "If S_P <= L_Q(P): Q has already delivered the message
			// before and thus it discards it", acknowledging it again
			// (its first ACK may have been lost).
			out.Send(m.Sender, Msg{Kind: Ack, ID: m})
		}
	case Ack:
		// "P removes a message from the history buffer when everyone
		// has acknowledged receipt."
		s.Acked[m.Seq-1] |= 1 << from
		if s.Acked[m.Seq-1] == p.others(self) {
			s.Buffer &^= 1 << (m.Seq - 1)
		}
		if s.Buffer == 0 {
			out.CancelTimer(Retransmit)
		}
	case Request:
		// Retransmit the missing messages still in the history buffer.
		for seq := uint8(1); seq <= multicast.MaxMsgs; seq++ {
			if msg.Missing&s.Buffer&(1<<(seq-1)) != 0 {
				out.Send(from, Msg{Kind: Data, ID: multicast.MsgID{Sender: self, Seq: seq}})
			}
		}
	}
	return s
}

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady: the transmit timer is always ready; the retransmission
// timer once the multicast is sent and no DATA of self's, and no ACK or
// request for self, is still in flight (a perfect timeout).
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	if t != Retransmit {
		return true
	}
	if w.Nodes[self].Sending.Busy() {
		return false
	}
	return w.InFlight(func(e model.Envelope[Msg]) bool {
		return e.From == self && e.Msg.Kind == Data || e.To == self && e.Msg.Kind != Data
	}) == 0
}

// FormatState is "made=1 L=(1,0,0) buffer={p0#1 acked by p1}".
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	t := fmt.Sprintf("made=%d%s", s.Made, s.R.Format(p.N))
	if s.Buffer != 0 {
		t += " buffer={"
		first := true
		for seq := uint8(1); seq <= s.Made; seq++ {
			if s.Buffer&(1<<(seq-1)) == 0 {
				continue
			}
			if !first {
				t += " "
			}
			first = false
			t += multicast.MsgID{Sender: self, Seq: seq}.String() + " acked=" + nodeset.Format(uint64(s.Acked[seq-1]))
		}
		t += "}"
	}
	return t + multicast.FormatSending(s.Sending)
}

// FormatMsg is "DATA(p0#1)", "ACK(p0#1)", "RETRANS-REQ(p0#2,p0#3)".
func (p *Protocol) FormatMsg(m Msg) string {
	if m.Kind != Request {
		return kindNames[m.Kind] + "(" + m.ID.String() + ")"
	}
	t := kindNames[m.Kind] + "("
	for seq := uint8(1); seq <= multicast.MaxMsgs; seq++ {
		if m.Missing&(1<<(seq-1)) != 0 {
			if t[len(t)-1] != '(' {
				t += ","
			}
			t += multicast.MsgID{Sender: m.ID.Sender, Seq: seq}.String()
		}
	}
	return t + ")"
}

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the timers.
func (p *Protocol) TimerName(t model.TimerID) string {
	if t == Retransmit {
		return "retransmit"
	}
	return multicast.TimerName(t)
}

// KindOf is a message's kind in the cost tables.
func KindOf(m Msg) string { return kindNames[m.Kind] }
