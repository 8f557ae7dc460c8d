package steptest

import "github.com/coordcheck/coordcheck/model"

// Apply takes one step of p: node self in state s on ev. It returns the
// state reached, what the step sends, each written "p1 DATA(p0#1)" (as
// Sends), and the records it outputs, in order (nil for none).
func Apply[S, M any](p model.Protocol[S, M], self model.NodeID, s S, ev model.Event[M]) (S, []string, []string) {
	var out model.Out[M]
	s = p.Step(self, s, ev, &out)
	return s, Sends(p, &out), append([]string(nil), out.Outputs()...)
}
