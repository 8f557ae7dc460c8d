// Package askmutex is a user's own protocol, for examples/usermain: two
// processes share one token; a process that wants the critical section
// without the token asks the other for it, and the holder hands it over
// when it is not using it (at once, or when it leaves).
package askmutex

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// The phases of a process.
const (
	Idle uint8 = iota
	Wanted
	Held
)

// State is one process: its phase, whether it holds the token, whether
// the other asked for it, and the critical sections it has left to enter.
type State struct {
	Phase        uint8
	Token, Asked bool
	Left         uint8
}

// Msg is ASK or TOKEN.
type Msg struct{ Token bool }

// Protocol is the two processes, each entering Rounds critical sections.
type Protocol struct{ Rounds uint8 }

// Nodes: p0 and p1.
func (p *Protocol) Nodes() int { return 2 }

// Init: p0 starts with the token.
func (p *Protocol) Init(self model.NodeID, _ *model.Out[Msg]) State {
	return State{Token: self == 0, Left: p.Rounds}
}

// Inputs: request while idle with rounds left, enter once wanted with the
// token, exit while in the critical section.
func (p *Protocol) Inputs(_ model.NodeID, s State, dst []model.Input) []model.Input {
	switch {
	case s.Phase == Idle && s.Left > 0:
		return append(dst, "request")
	case s.Phase == Wanted && s.Token:
		return append(dst, "enter")
	case s.Phase == Held:
		return append(dst, "exit")
	}
	return dst
}

// Step is the protocol's rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	other := 1 - self
	switch {
	case ev.Kind == model.Environment && ev.Input == "request":
		s.Phase = Wanted
		if !s.Token {
			out.Send(other, Msg{Token: false})
		}
	case ev.Kind == model.Environment && ev.Input == "enter":
		s.Phase = Held
	case ev.Kind == model.Environment && ev.Input == "exit":
		s.Phase, s.Left = Idle, s.Left-1
		if s.Asked {
			s.Token, s.Asked = false, false
			out.Send(other, Msg{Token: true})
		}
	case ev.Kind == model.Receive && ev.Msg.Token:
		s.Token = true
	case ev.Kind == model.Receive && s.Token && s.Phase == Idle: // ASK, and the token is free
		s.Token = false
		out.Send(other, Msg{Token: true})
	case ev.Kind == model.Receive: // ASK while the token is in use: hand it over on exit
		s.Asked = true
	}
	return s
}

// InCS and Waiting are what the mutual-exclusion properties read.
func (p *Protocol) InCS(_ model.NodeID, s State) bool { return s.Phase == Held }

// Waiting: a process that wants the critical section waits for it.
func (p *Protocol) Waiting(_ model.NodeID, s State) bool { return s.Phase == Wanted }

// Properties: mutual exclusion, no deadlock and starvation freedom.
func Properties(p *Protocol) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, false)
}

func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// AppendState, ReadState, AppendMsg, ReadMsg: the canonical encoding.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	return append(b, s.Phase, bit(s.Token), bit(s.Asked), s.Left)
}

// ReadState inverts AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	return State{Phase: b[0], Token: b[1] == 1, Asked: b[2] == 1, Left: b[3]}, b[4:]
}

// AppendMsg encodes a message in one byte.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte { return append(b, bit(m.Token)) }

// ReadMsg inverts AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) { return Msg{Token: b[0] == 1}, b[1:] }

// FormatState is a process's state in traces.
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	return fmt.Sprintf("%s token=%t asked=%t left=%d", [...]string{"idle", "wanted", "held"}[s.Phase], s.Token, s.Asked, s.Left)
}

// FormatMsg is ASK or TOKEN.
func (p *Protocol) FormatMsg(m Msg) string {
	if m.Token {
		return "TOKEN"
	}
	return "ASK"
}
