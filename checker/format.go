package checker

import (
	"fmt"
	"strings"
)

// String renders the trace as a message sequence chart in text: one line
// per step with the action, the acting node's new state, the messages it
// sent and the outcomes it recorded; then the final world and the violation.
func (tr *Trace) String() string {
	var b strings.Builder
	if tr.Property != "" {
		fmt.Fprintf(&b, "counterexample: %d steps to a violation of %s\n", len(tr.Steps), tr.Property)
	} else {
		fmt.Fprintf(&b, "trace: %d steps\n", len(tr.Steps))
	}
	width := 0
	for _, s := range tr.Steps {
		width = max(width, len(s.Action))
	}
	for i, s := range tr.Steps {
		if tr.Loop != nil && *tr.Loop == i {
			b.WriteString("   -- the cycle: the steps below repeat forever --\n")
		}
		fmt.Fprintf(&b, "%4d  %-*s  | %s %s", i+1, width, s.Action, s.Node, s.State)
		if len(s.Sends) > 0 {
			b.WriteString("  sends " + strings.Join(s.Sends, ", "))
		}
		if len(s.Outputs) > 0 {
			b.WriteString("  outputs " + strings.Join(s.Outputs, ", "))
		}
		b.WriteByte('\n')
	}
	if tr.Loop != nil {
		b.WriteString("final state (the same as at the start of the cycle):\n")
	} else {
		b.WriteString("final state:\n")
	}
	for _, l := range tr.Final {
		b.WriteString("  " + l + "\n")
	}
	if tr.Property != "" {
		fmt.Fprintf(&b, "violated: %s: %s\n", tr.Property, tr.Detail)
	}
	return b.String()
}
