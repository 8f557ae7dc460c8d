// Package nack is the notes' scalable reliable multicasting (seed 001,
// "Scalable reliable multicasting"): sequence numbers as in basic
// reliable multicast, but "only missing messages are reported (NACK)",
// "NACKs are multicast to all group members", "successful delivery is
// never acknowledged", and "each process waits a random delay prior to
// send a NACK": a process about to NACK suppresses its own NACK when
// another's for the same messages arrives first. The sender repairs by
// multicasting the missing message again.
//
// The random delay is a timer that fires at any time (the checker tries
// every delay). A NACK is sent in one step to the whole group.
//
// What the notes leave out and the checker shows: a receiver notices a
// gap only when a later message of the same sender arrives, so the loss
// of a sender's last message goes unnoticed for good. With Session on
// (the default), a sender announces its latest number S_P to the group
// whenever its own traffic has settled (a session message, as SRM has;
// a perfect timer, so that sessions do not pile up); Session off is the
// notes' scheme alone.
//
// The history-buffer question: "sender should keep messages in the
// history buffer forever to guarantee all retransmissions; in practice,
// messages are deleted after some time". History Forever keeps them;
// History Timed deletes them when a timer expires, at any time, which can
// be before a NACK arrives: the message is then lost for good.
package nack

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// History says how long a sender keeps its messages.
type History uint8

// The history policies.
const (
	Forever History = iota // kept for ever (the notes' guarantee)
	Timed                  // deleted after some time (the notes' practice)
)

// Protocol is scalable reliable multicast among N processes.
type Protocol struct {
	multicast.PeerBase[State, Msg]
	History History
	// Suppress: a process about to NACK stays silent when another's
	// NACK for the same messages arrives first (the notes' scheme).
	Suppress bool
	// Session: senders announce their latest number (see the package
	// doc).
	Session bool
}

// New returns the notes' scheme with sessions, suppression and a
// history kept for ever.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{PeerBase: multicast.NewPeerBase[State, Msg](n, wl), Suppress: true, Session: true}
}

// The protocol's timers besides multicast.Transmit.
const (
	NackTimer    model.TimerID = 1 // the random delay before a NACK
	SessionTimer model.TimerID = 2 // the next session message
	PurgeTimer   model.TimerID = 3 // History Timed: the history's deletion
)

// State is one process's state.
type State struct {
	multicast.Peer // S_P, the multicast under way, L_Q(P), the hold-back queue
	// Kept is the history buffer: bit s-1 while message s is kept.
	Kept uint8
	// Want[P] is the set of P's messages this process misses and is
	// about to NACK (bit s-1 for s); its NACK timer runs meanwhile.
	Want [multicast.MaxNodes]uint8
}

// Kind is the kind of a message.
type Kind uint8

// The messages.
const (
	Data    Kind = iota // a multicast message, first sent or repaired
	Nack                // Missing of ID.Sender's messages are missing
	Session             // ID.Sender's latest number is ID.Seq
)

var kindNames = [...]string{Data: "DATA", Nack: "NACK", Session: "SESSION"}

// Msg is a message.
type Msg struct {
	Kind    Kind
	ID      multicast.MsgID
	Missing uint8 // Nack: bit s-1 for each missing number s
}

var (
	_ model.Protocol[State, Msg]   = (*Protocol)(nil)
	_ model.TimerGuard[State, Msg] = (*Protocol)(nil)
)

// Step applies the rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		// "Use sequence numbers"; the sender keeps the message in its
		// history buffer and delivers it at once.
		m := multicast.BeginPeer(self, p.N, &s.Peer, out)
		s.Kept |= 1 << (m.Seq - 1)
		if p.Session {
			out.SetTimer(SessionTimer)
		}
		if p.History == Timed {
			out.SetTimer(PurgeTimer)
		}
	case model.Timeout:
		switch ev.Timer {
		case multicast.Transmit:
			// One more destination (multicast.Transmission).
			multicast.SendNext(self, p.N, &s.Sending, Msg{Kind: Data, ID: multicast.MsgID{Sender: self, Seq: s.Made}}, out)
		case NackTimer:
			// The random delay is over and nobody reported these
			// messages first: "NACKs are multicast to all group
			// members".
			for q := range p.N {
				if s.Want[q] != 0 {
					p.toGroup(self, Msg{Kind: Nack, ID: multicast.MsgID{Sender: model.NodeID(q)}, Missing: s.Want[q]}, out)
					s.Want[q] = 0
				}
			}
		case SessionTimer:
			// The sender's traffic has settled: announce S_P.
			p.toGroup(self, Msg{Kind: Session, ID: multicast.MsgID{Sender: self, Seq: s.Made}}, out)
			out.SetTimer(SessionTimer)
		case PurgeTimer:
			// "In practice, messages are deleted after some time."
			s.Kept = 0
		}
	case model.Receive:
		s = p.receive(self, s, ev.Msg, out)
	}
	return s
}

// receive handles a message.
func (p *Protocol) receive(self model.NodeID, s State, msg Msg, out *model.Out[Msg]) State {
	m := msg.ID
	switch msg.Kind {
	case Data:
		switch s.R.Classify(m) {
		case multicast.InOrder:
			// Delivered in order, then what the hold-back queue lets
			// through; "successful delivery is never acknowledged".
			s.Want[m.Sender] &^= multicast.DeliverFrom(&s.R, m, out)
		case multicast.Ahead:
			// A gap: "only missing messages are reported".
			s.R.Hold(m)
			s.Want[m.Sender] &^= 1 << (m.Seq - 1)
			s = p.wantMissing(s, m.Sender, m.Seq, out)
		case multicast.Old:
			// A repair this process did not need: discarded.
		}
	case Session:
		// The sender's latest number reveals a lost last message.
		s = p.wantMissing(s, m.Sender, m.Seq+1, out)
	case Nack:
		if m.Sender == self {
			// The sender repairs what it still keeps, by multicast.
			for seq := uint8(1); seq <= multicast.MaxMsgs; seq++ {
				if msg.Missing&s.Kept&(1<<(seq-1)) != 0 {
					p.toGroup(self, Msg{Kind: Data, ID: multicast.MsgID{Sender: self, Seq: seq}}, out)
				}
			}
		} else if p.Suppress {
			// "If a process is about to NACK, this is suppressed as a
			// result of the first multicast NACK."
			s.Want[m.Sender] &^= msg.Missing
		}
	}
	if s.Want == ([multicast.MaxNodes]uint8{}) {
		out.CancelTimer(NackTimer)
	}
	return s
}

// wantMissing adds P's messages below seq that s misses to those it is
// about to NACK, and starts the random delay.
func (p *Protocol) wantMissing(s State, from model.NodeID, seq uint8, out *model.Out[Msg]) State {
	if miss := s.R.Missing(from, seq); miss&^s.Want[from] != 0 {
		s.Want[from] |= miss
		out.SetTimer(NackTimer)
	}
	return s
}

// toGroup sends msg to every other process in one step.
func (p *Protocol) toGroup(self model.NodeID, msg Msg, out *model.Out[Msg]) {
	for q := range p.N {
		if model.NodeID(q) != self {
			out.Send(model.NodeID(q), msg)
		}
	}
}

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady: the session timer fires once the sender has finished its
// multicast and none of its DATA or SESSION messages, and no NACK of its
// messages, is in flight (sessions do not pile up); the others at any
// time (a random delay; "after some time").
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	if t != SessionTimer {
		return true
	}
	if w.Nodes[self].Sending.Busy() {
		return false
	}
	return w.InFlight(func(e model.Envelope[Msg]) bool {
		return e.From == self && e.Msg.Kind != Nack || e.Msg.Kind == Nack && e.Msg.ID.Sender == self
	}) == 0
}

// FormatState is "made=1 L=(1,0,0) kept={p0#1} want={p1#1}".
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	t := fmt.Sprintf("made=%d%s", s.Made, s.R.Format(p.N))
	if s.Kept != 0 {
		t += " kept=" + formatSeqs(self, s.Kept)
	}
	var want []string
	for q := range p.N {
		if s.Want[q] != 0 {
			want = append(want, strings.Trim(formatSeqs(model.NodeID(q), s.Want[q]), "{}"))
		}
	}
	if len(want) > 0 {
		t += " want={" + strings.Join(want, ",") + "}"
	}
	return t + multicast.FormatSending(s.Sending)
}

// formatSeqs is "{p0#1,p0#3}".
func formatSeqs(sender model.NodeID, set uint8) string {
	var ids []string
	for seq := uint8(1); seq <= multicast.MaxMsgs; seq++ {
		if set&(1<<(seq-1)) != 0 {
			ids = append(ids, multicast.MsgID{Sender: sender, Seq: seq}.String())
		}
	}
	return "{" + strings.Join(ids, ",") + "}"
}

// FormatMsg is "DATA(p0#1)", "NACK(p0#1,p0#2)", "SESSION(p0#2)".
func (p *Protocol) FormatMsg(m Msg) string {
	if m.Kind == Nack {
		return "NACK(" + strings.Trim(formatSeqs(m.ID.Sender, m.Missing), "{}") + ")"
	}
	return kindNames[m.Kind] + "(" + m.ID.String() + ")"
}

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the timers.
func (p *Protocol) TimerName(t model.TimerID) string {
	switch t {
	case NackTimer:
		return "nack-delay"
	case SessionTimer:
		return "session"
	case PurgeTimer:
		return "purge"
	}
	return multicast.TimerName(t)
}

// KindOf is a message's kind in the cost tables.
func KindOf(m Msg) string { return kindNames[m.Kind] }
