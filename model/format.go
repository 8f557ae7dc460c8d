package model

import (
	"fmt"
	"strings"
)

// FormatWorld renders w as lines: one per node, then the messages in
// flight grouped by link.
func (sys *System[S, M]) FormatWorld(w *World[S, M]) []string {
	var lines []string
	for i := range w.Nodes {
		id := NodeID(i)
		line := id.String() + "  " + sys.FormatState(id, w.Nodes[i])
		if w.IsDown(id) {
			line += "  (down)"
		}
		if w.Timers[i] != 0 {
			var ts []string
			for t := w.Timers[i]; t != 0; t &= t - 1 {
				ts = append(ts, sys.timerName(id, TimerID(trailingZeros(t))))
			}
			line += "  timers={" + strings.Join(ts, ",") + "}"
		}
		lines = append(lines, line)
	}
	if len(w.History) > 0 {
		var hs []string
		for _, r := range w.History {
			hs = append(hs, r.Node.String()+":"+r.Text)
		}
		lines = append(lines, "history  "+strings.Join(hs, "; "))
	}
	if sys.Config.Ordering {
		var vs []string
		for i := range w.VC {
			vs = append(vs, fmt.Sprintf("%s=%s req=%s", NodeID(i), formatVC(w.VC[i], sys.n), formatVC(w.ReqVC[i], sys.n)))
		}
		lines = append(lines, "requests known  "+strings.Join(vs, "  "))
	}
	if w.Cut != 0 {
		all := uint64(1)<<sys.n - 1
		lines = append(lines, "partition  "+formatGroup(w.Cut)+"|"+formatGroup(all&^w.Cut))
	}
	if sys.faulty {
		var used []string
		for k, u := range w.Used {
			if u > 0 {
				used = append(used, fmt.Sprintf("%s=%d", FaultKind(k), u))
			}
		}
		if len(used) > 0 {
			lines = append(lines, "faults used  "+strings.Join(used, ","))
		}
	}
	if len(w.Net) == 0 {
		return append(lines, "net  (empty)")
	}
	for i := 0; i < len(w.Net); {
		e := w.Net[i]
		var ms []string
		for ; i < len(w.Net) && w.Net[i].To == e.To && w.Net[i].From == e.From; i++ {
			ms = append(ms, sys.formatEnvelope(&w.Net[i]))
		}
		lines = append(lines, fmt.Sprintf("net  %s->%s  %s", e.From, e.To, strings.Join(ms, " ")))
	}
	return lines
}

// FormatSends renders the messages the last step sent, as "p0->p1 REQ(ts=1)".
// A message that was lost at once, because its receiver is down or a
// partition separates the two, is marked "(lost)". w is the world after
// the step.
func (sys *System[S, M]) FormatSends(w *World[S, M], self NodeID) []string {
	var out []string
	for _, s := range sys.out.sends {
		line := fmt.Sprintf("%s->%s %s", self, s.to, sys.FormatMsg(s.msg))
		if w.IsDown(s.to) || w.Separated(self, s.to) {
			line += " (lost)"
		}
		out = append(out, line)
	}
	return out
}

func formatVC(vc uint64, n int) string {
	parts := make([]string, n)
	for i := range n {
		parts[i] = fmt.Sprint(VCByte(vc, NodeID(i)))
	}
	return "(" + strings.Join(parts, ",") + ")"
}
