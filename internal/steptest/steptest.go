// Package steptest checks a protocol's rules one step at a time, as the
// notes' pseudocode states them: a node in a given state, an event, the
// state it goes to and the messages it sends.
package steptest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// Rule is one rule of the pseudocode: node Self in state From, on Ev,
// goes to To and sends Sends, each written "p1 GRANT" (the receiver, then
// the message as the protocol formats it).
type Rule[S, M any] struct {
	Name  string
	Self  model.NodeID
	From  S
	Ev    model.Event[M]
	To    S
	Sends []string
}

// Step is the rule name: node self in state from, on ev, goes to to and
// sends sends.
func Step[S, M any](name string, self model.NodeID, from S, ev model.Event[M], to S, sends ...string) Rule[S, M] {
	return Rule[S, M]{Name: name, Self: self, From: from, Ev: ev, To: to, Sends: sends}
}

// Check takes each rule's step with p and requires its outcome.
func Check[S, M any](t *testing.T, p model.Protocol[S, M], rules []Rule[S, M]) {
	t.Helper()
	for _, r := range rules {
		var out model.Out[M]
		require.Equal(t, r.To, p.Step(r.Self, r.From, r.Ev, &out), r.Name)
		require.Equal(t, r.Sends, Sends(p, &out), r.Name)
	}
}

// Sends lists what out sends as "p1 GRANT", in order (nil for nothing).
func Sends[S, M any](p model.Protocol[S, M], out *model.Out[M]) []string {
	var s []string
	out.Sends(func(to model.NodeID, m M) {
		text := fmt.Sprintf("%+v", m)
		if f, ok := p.(model.MsgFormatter[M]); ok {
			text = f.FormatMsg(m)
		}
		s = append(s, to.String()+" "+text)
	})
	return s
}

// Input is the environment's input in.
func Input[M any](in model.Input) model.Event[M] {
	return model.Event[M]{Kind: model.Environment, Input: in}
}

// Receive is the receipt of m from node from.
func Receive[M any](from model.NodeID, m M) model.Event[M] {
	return model.Event[M]{Kind: model.Receive, From: from, Msg: m}
}
