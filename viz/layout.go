package viz

import (
	"strings"

	"github.com/coordcheck/coordcheck/checker"
)

// Geometry of a sequence diagram, in SVG pixels.
const (
	labelW = 270 // the left column: step numbers and actions
	laneW  = 150 // between two lanes
	headH  = 56  // lane names above the first row
	rowH   = 32  // one step
	tailW  = 150 // right of the last lane: the cycle's bracket
)

// Message kinds, as the CSS classes that draw them.
const (
	msgDelivered = "delivered"
	msgReordered = "reordered" // delivered before a message sent earlier on its link
	msgDup       = "duplicate" // a copy made by a dup fault, delivered
	msgLost      = "lost"      // dropped by a fault, or lost at once (receiver down, partition)
	msgInFlight  = "inflight"  // still in the network at the end
)

// arrow is one message drawn from its send to its fate.
type arrow struct {
	From, To   int // lanes
	Sent, Fate int // rows: the step that sent it, the step that delivered or lost it (len(steps)+1: in flight at the end)
	Text       string
	Kind       string
	Dup        bool // the copy of a dup fault
}

// mark is an event drawn on a lane: an input, a timer, a crash, a restart.
type mark struct {
	Lane, Row int
	Kind      string // input, fire, crash, restart, step
	Text      string
}

// band is a stretch of a lane: a role held, or the node down.
type band struct {
	Lane, From, To int // rows, To exclusive
	Kind           string
}

// layout is what a trace draws: computed once, rendered by the template.
type layout struct {
	Lanes  []string
	Rows   int // steps
	Arrows []arrow
	Marks  []mark
	Bands  []band
	Cuts   []mark // partitions and heals: a line across all lanes (Lane unused)
}

// pending is a message sent and not yet delivered or lost.
type pending struct {
	from, to, sent int
	text           string
	dup            bool
}

// lay places the trace's events. views[i] is the world after step i
// (views[0] the initial world).
func lay(tr *checker.Trace, views []checker.View) layout {
	var l layout
	for _, n := range views[0].Nodes {
		l.Lanes = append(l.Lanes, n.Name)
	}
	l.Rows = len(tr.Steps)
	lane := func(name string) int {
		for i, n := range l.Lanes {
			if n == name {
				return i
			}
		}
		return -1
	}
	var inNet []pending
	// take removes and returns the oldest pending message from->to with
	// text, and whether an older message on the link was overtaken.
	take := func(from, to int, text string) (pending, bool, bool) {
		overtook := false
		for i, p := range inNet {
			if p.from != from || p.to != to {
				continue
			}
			if p.text != text {
				overtook = true
				continue
			}
			inNet = append(inNet[:i:i], inNet[i+1:]...)
			return p, overtook, true
		}
		return pending{}, false, false
	}
	for i, st := range tr.Steps {
		row := i + 1
		word, rest, _ := strings.Cut(st.Action, " ")
		switch word {
		case "dup":
			// The copy travels behind the messages on its link; the
			// original stays where it is.
			from, to, text := splitLink(rest)
			f, t := lane(from), lane(to)
			p := pending{from: f, to: t, text: text}
			for _, q := range inNet {
				if q.from == f && q.to == t && q.text == text {
					p = q
					break
				}
			}
			inNet = append(inNet, pending{from: f, to: t, sent: p.sent, text: text, dup: true})
			l.Marks = append(l.Marks, mark{Lane: t, Row: row, Kind: "dup", Text: "dup " + text})
		case "deliver", "drop":
			from, to, text := splitLink(rest)
			f, t := lane(from), lane(to)
			p, overtook, ok := take(f, t, text)
			if !ok { // sent before the trace began: draw it from the top
				p = pending{from: f, to: t, sent: 0, text: text}
			}
			a := arrow{From: p.from, To: p.to, Sent: p.sent, Fate: row, Text: text, Dup: p.dup}
			switch {
			case word == "drop":
				a.Kind = msgLost
			case p.dup:
				a.Kind = msgDup
			case overtook:
				a.Kind = msgReordered
			default:
				a.Kind = msgDelivered
			}
			l.Arrows = append(l.Arrows, a)
		case "input":
			node, what, _ := strings.Cut(rest, " ")
			l.Marks = append(l.Marks, mark{Lane: lane(node), Row: row, Kind: "input", Text: what})
		case "fire":
			node, what, _ := strings.Cut(rest, " ")
			l.Marks = append(l.Marks, mark{Lane: lane(node), Row: row, Kind: "fire", Text: what})
		case "crash", "restart":
			l.Marks = append(l.Marks, mark{Lane: lane(strings.TrimSpace(rest)), Row: row, Kind: word, Text: word})
		case "partition", "heal":
			l.Cuts = append(l.Cuts, mark{Row: row, Kind: word, Text: st.Action})
		case "send": // an application message of the workload
			from, to, text := splitLink(rest)
			if len(st.Sends) == 0 {
				inNet = append(inNet, pending{from: lane(from), to: lane(to), sent: row, text: text})
			}
		}
		for _, s := range st.Sends {
			link, text, _ := strings.Cut(s, " ")
			text, lost := strings.CutSuffix(text, " (lost)")
			from, to, _ := strings.Cut(link, "->")
			p := pending{from: lane(from), to: lane(to), sent: row, text: text}
			if lost {
				l.Arrows = append(l.Arrows, arrow{From: p.from, To: p.to, Sent: row, Fate: row, Text: text, Kind: msgLost})
				continue
			}
			inNet = append(inNet, p)
		}
	}
	for _, p := range inNet {
		kind := msgInFlight
		l.Arrows = append(l.Arrows, arrow{From: p.from, To: p.to, Sent: p.sent, Fate: l.Rows + 1, Text: p.text, Kind: kind, Dup: p.dup})
	}
	// Bands: a role held or a node down, from the row where it starts to
	// the row where it ends (the world after each step).
	for n := range l.Lanes {
		for _, kind := range []string{"down", "cs", "leader"} {
			start := -1
			for row := 0; row <= l.Rows+1; row++ {
				on := false
				if row <= l.Rows {
					nv := views[row].Nodes[n]
					switch kind {
					case "down":
						on = nv.Down
					case "cs":
						on = nv.Role == checker.RoleCS
					case "leader":
						on = nv.Role == checker.RoleLeader
					}
				}
				switch {
				case on && start < 0:
					start = row
				case !on && start >= 0:
					l.Bands = append(l.Bands, band{Lane: n, From: start, To: row, Kind: kind})
					start = -1
				}
			}
		}
	}
	return l
}

// splitLink splits "p0->p1 REQ(ts=1)" into p0, p1 and REQ(ts=1).
func splitLink(s string) (from, to, text string) {
	link, text, _ := strings.Cut(strings.TrimSpace(s), " ")
	from, to, _ = strings.Cut(link, "->")
	return from, to, strings.TrimSpace(text)
}
