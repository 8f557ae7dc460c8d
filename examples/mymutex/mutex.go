// Package mymutex is a mutual exclusion of one's own, checked by
// coordcheck: a token goes round two processes, and a process that wants
// the critical section keeps the token until it leaves it.
package mymutex

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// State and Msg are plain values: coordcheck derives their encoding.
type State struct{ Token, Wants bool }
type Msg struct{} // the token

// Mutex is the protocol; its processes are p0 and p1.
type Mutex struct{}

func (Mutex) Nodes() int                           { return 2 }
func (Mutex) InCS(_ model.NodeID, s State) bool    { return s.Token }
func (Mutex) Waiting(_ model.NodeID, s State) bool { return s.Wants && !s.Token }

func (Mutex) Init(self model.NodeID, out *model.Out[Msg]) State {
	if self == 0 {
		out.Send(1, Msg{}) // the token starts on its way to p1
	}
	return State{}
}

func (Mutex) Inputs(_ model.NodeID, s State, dst []model.Input) []model.Input {
	if !s.Wants {
		return append(dst, "request")
	}
	if s.Token {
		return append(dst, "exit")
	}
	return dst
}

func (Mutex) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if ev.Kind == model.Receive {
		s.Token = true
	} else { // an input: request, or exit
		s.Wants = ev.Input == "request"
	}
	if s.Token && !s.Wants { // pass the token on
		s.Token = false
		out.Send(1-self, Msg{})
	}
	return s
}

// Properties is what to check: mutual exclusion, no deadlock, no starvation.
func Properties() property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](Mutex{}, false)
}
