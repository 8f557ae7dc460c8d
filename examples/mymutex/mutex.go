// Package mymutex is a mutual exclusion of one's own, checked by
// coordcheck: a token goes round two processes, and a process that wants
// the critical section keeps the token until it leaves it.
package mymutex

import "github.com/coordcheck/coordcheck/model"

// Mutex is the protocol, on processes p0 and p1. Its states and messages
// are plain values, so coordcheck derives their encoding and their text.
type Mutex struct{}
type State string // "idle", "waiting" for the critical section, or "in" it
type Msg struct{} // the token

func (Mutex) Nodes() int                           { return 2 }
func (Mutex) InCS(_ model.NodeID, s State) bool    { return s == "in" }
func (Mutex) Waiting(_ model.NodeID, s State) bool { return s == "waiting" }

func (Mutex) Init(self model.NodeID, out *model.Out[Msg]) State {
	if self == 0 {
		out.Send(1, Msg{}) // the token starts on its way to p1
	}
	return "idle"
}

// An idle process may request the critical section, and one in it exit.
var inputs = map[State][]model.Input{"idle": {"request"}, "in": {"exit"}}

func (Mutex) Inputs(_ model.NodeID, s State, dst []model.Input) []model.Input {
	return append(dst, inputs[s]...)
}

func (Mutex) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch {
	case ev.Input == "request":
		return "waiting"
	case ev.Kind == model.Receive && s == "waiting": // the token, wanted: enter
		return "in"
	default: // an exit, or the token unwanted: pass it on
		out.Send(1-self, Msg{})
		return "idle"
	}
}
