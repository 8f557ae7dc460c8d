// Package tokenring is the token ring algorithm for mutual exclusion (seed
// 000, "Token ring algorithm"; seed 001, "Token ring algorithm"; seed 002,
// "Ring-based mutual exclusion"): the N processes form a unidirectional
// logical ring, p_i's successor is p_(i+1) mod N, and exactly one token
// circulates on it. Only the process that holds the token may enter the
// critical section.
//
// Seed 000's pseudocode for process P_i:
//
//	receive token from P_(n+i-1) mod n
//	<critical section>          (not necessarily: if P_i does not want it,
//	send token to P_(i+1) mod n  it just forwards the token)
//
// and seed 002's enter() and exit(): "enter(): wait until you get token;
// exit(): pass on token to ring successor; if receive token, and not
// currently in enter(), just pass on token to ring successor".
//
// The token is an ordinary message, so it circulates for ever, also when
// nobody wants the critical section (seed 001: bandwidth "1 (all enter) to
// ∞ (none enter)"). Forwarding is part of receiving the token, so it is a
// message delivery: under weak fairness of delivery the token keeps moving,
// which is what starvation freedom ("every request is granted") relies on.
// The state space stays finite because each process enters at most Rounds
// times; once every process is done, the token's tour repeats states.
//
// Node p0 starts with the token. It does not want the critical section at
// the start, so Init applies the receive rule to it at once: the initial
// world has the token in flight from p0 to p1.
//
// Only the reliable ring (the notes' system model: no loss, FIFO) is
// modelled. The token-loss variants of seed 000's extra slides (timeout-
// based regeneration with a token value v in 0..k-1, Misra's ping-pong
// with two tokens) extend Msg with a value and State with what each
// process records of the token (its "state" variable, or nbping/nbpong);
// Kind leaves room for their other messages.
package tokenring

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol is the token ring among N processes, each entering the critical
// section at most Rounds times.
type Protocol struct {
	N      int
	Rounds int
}

// New returns the token ring for n processes and the given rounds.
func New(n, rounds int) *Protocol { return &Protocol{N: n, Rounds: rounds} }

// Successor is p_i's successor on the ring, p_(i+1) mod N: the only node
// p_i sends to.
func (p *Protocol) Successor(i model.NodeID) model.NodeID {
	return model.NodeID((int(i) + 1) % p.N)
}

// State is one process's state.
type State struct {
	Phase  mutex.Phase
	Rounds uint8 // critical sections completed
	// Token: the process holds the token. It keeps it only while WANTED
	// (waiting to enter) or HELD; a process that does not want the
	// critical section passes the token on as it receives it.
	Token bool
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Token Kind = iota // TOKEN: the privilege, sent to the ring successor
)

// Msg is a message.
type Msg struct {
	Kind Kind
}

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: every process is RELEASED. p0 starts with the token and, not
// wanting the critical section, passes it to its successor (seed 002: "if
// receive token, and not currently in enter(), just pass on token").
func (p *Protocol) Init(self model.NodeID, out *model.Out[Msg]) State {
	if self == 0 {
		out.Send(p.Successor(self), Msg{Token})
	}
	return State{}
}

// Inputs offers request when released with rounds left, enter when
// WANTED and holding the token, and exit when in the critical section.
func (p *Protocol) Inputs(_ model.NodeID, s State, dst []model.Input) []model.Input {
	switch {
	case s.Phase == mutex.Released && int(s.Rounds) < p.Rounds:
		dst = append(dst, mutex.Request)
	case s.Phase == mutex.Wanted && s.Token:
		dst = append(dst, mutex.Enter)
	case s.Phase == mutex.Held:
		dst = append(dst, mutex.Exit)
	}
	return dst
}

// Step is the pseudocode of seeds 000 and 002.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// enter(): wait until you get the token.
			s.Phase = mutex.Wanted
		case mutex.Enter:
			// Holding the token: <critical section>.
			s.Phase = mutex.Held
		case mutex.Exit:
			// exit(): send token to P_(i+1) mod n.
			s.Phase = mutex.Released
			s.Rounds++
			s.Token = false
			out.Send(p.Successor(self), Msg{Token})
		}
	case model.Receive:
		if ev.Msg.Kind != Token {
			break
		}
		// receive token from P_(n+i-1) mod n: keep it to enter the
		// critical section if currently in enter(); otherwise just pass
		// it on to the ring successor.
		if s.Phase == mutex.Wanted {
			s.Token = true
		} else {
			out.Send(p.Successor(self), Msg{Token})
		}
	}
	return s
}

// FairInput: a process that may enter eventually does, and one in the
// critical section eventually leaves; requesting is up to the environment.
func (p *Protocol) FairInput(_ model.NodeID, in model.Input) bool {
	return in == mutex.Enter || in == mutex.Exit
}

// InCS: the process holds the critical section.
func (p *Protocol) InCS(_ model.NodeID, s State) bool { return s.Phase == mutex.Held }

// Waiting: the process wants the critical section.
func (p *Protocol) Waiting(_ model.NodeID, s State) bool { return s.Phase == mutex.Wanted }

// OneTokenName is the name of the OneToken property.
const OneTokenName = "one-token"

// OneToken is seed 000's safety argument made an invariant of the world:
// "only one token", held by a process or in flight. It has the signature of
// an invariant's Holds function (package checker). Token loss (a dropped
// message) breaks it, which is what the regeneration variants repair.
func (p *Protocol) OneToken(w *model.World[State, Msg]) (bool, string) {
	holders := 0
	for i := range w.Nodes {
		if w.Nodes[i].Token {
			holders++
		}
	}
	flying := w.InFlight(func(e model.Envelope[Msg]) bool { return !e.App && e.Msg.Kind == Token })
	if holders+flying == 1 {
		return true, ""
	}
	return false, fmt.Sprintf("%d tokens: %d held, %d in flight", holders+flying, holders, flying)
}

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Rounds)
	return model.AppendBool(b, s.Token)
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Rounds: b[1]}
	s.Token, b = model.ReadBool(b[2:])
	return s, b
}

// AppendMsg encodes m canonically.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte { return append(b, byte(m.Kind)) }

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) { return Msg{Kind(b[0])}, b[1:] }

// FormatMsg: "TOKEN".
func (p *Protocol) FormatMsg(m Msg) string {
	if m.Kind == Token {
		return "TOKEN"
	}
	return fmt.Sprintf("MSG(%d)", m.Kind)
}

// FormatState: "WANTED token rounds=0" or "RELEASED rounds=1".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	str := s.Phase.String()
	if s.Token {
		str += " token"
	}
	return str + fmt.Sprintf(" rounds=%d", s.Rounds)
}
