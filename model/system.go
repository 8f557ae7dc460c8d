package model

import (
	"bytes"
	"fmt"
	"strings"
)

// Network is the semantics of the channels between nodes.
type Network uint8

// The network kinds.
const (
	// FIFO: reliable, and FIFO per ordered pair of nodes (the notes' model).
	FIFO Network = iota
	// Unordered: reliable, but any message in flight may be delivered next.
	Unordered
)

// String is the name used on the command line and in files.
func (n Network) String() string {
	switch n {
	case FIFO:
		return "fifo"
	case Unordered:
		return "unordered"
	}
	return fmt.Sprintf("network(%d)", uint8(n))
}

// ParseNetwork reads a network name.
func ParseNetwork(s string) (Network, error) {
	switch s {
	case "fifo", "":
		return FIFO, nil
	case "unordered":
		return Unordered, nil
	}
	return 0, fmt.Errorf("unknown network %q (valid: fifo, unordered)", s)
}

// Config is the run's choice of system semantics.
type Config struct {
	Network Network
}

// System binds a Protocol to the semantics of a run: it enumerates the
// global actions of a World, applies them, and encodes worlds canonically.
// A System holds scratch buffers, so one System serves one goroutine.
type System[S, M any] struct {
	P      Protocol[S, M]
	Config Config
	n      int
	waiter Waiter[S]

	out    Out[M]
	inputs []Input
	ka, kb []byte // scratch encodings of messages, for unordered order
}

// NewSystem makes the system of protocol p under cfg.
func NewSystem[S, M any](p Protocol[S, M], cfg Config) *System[S, M] {
	n := p.Nodes()
	if n < 1 || n > MaxNodes {
		panic(fmt.Sprintf("model: %d nodes (want 1..%d)", n, MaxNodes))
	}
	sys := &System[S, M]{P: p, Config: cfg, n: n}
	sys.waiter, _ = p.(Waiter[S])
	return sys
}

// Clone returns a System with the same protocol and configuration and its
// own scratch buffers, for use by another goroutine.
func (sys *System[S, M]) Clone() *System[S, M] { return NewSystem(sys.P, sys.Config) }

// N is the number of nodes.
func (sys *System[S, M]) N() int { return sys.n }

// Init returns the initial world: every node initialised, its first
// effects applied.
func (sys *System[S, M]) Init() *World[S, M] {
	w := &World[S, M]{Nodes: make([]S, sys.n), Timers: make([]uint64, sys.n)}
	for i := range sys.n {
		sys.out.Reset()
		w.Nodes[i] = sys.P.Init(NodeID(i), &sys.out)
		sys.effects(w, NodeID(i))
	}
	return w
}

// Actions appends to dst the actions enabled in w, in a fixed order: for
// each live node in id order, its inputs, then the deliveries to it (one per
// incoming link on a FIFO network, one per distinct message otherwise), then
// its armed timers.
func (sys *System[S, M]) Actions(w *World[S, M], dst []Action) []Action {
	j := 0 // scan position in Net, which is sorted by receiver
	for i := range sys.n {
		id := NodeID(i)
		for j < len(w.Net) && w.Net[j].To < id {
			j++
		}
		if w.IsDown(id) {
			continue
		}
		sys.inputs = sys.P.Inputs(id, w.Nodes[i], sys.inputs[:0])
		for _, in := range sys.inputs {
			dst = append(dst, Action{Kind: ActInput, Node: id, Input: in})
		}
		for k := j; k < len(w.Net) && w.Net[k].To == id; k++ {
			e := &w.Net[k]
			if k > j && w.Net[k-1].From == e.From {
				if sys.Config.Network == FIFO || sys.sameMsg(w.Net[k-1].Msg, e.Msg) {
					continue // FIFO: only the head; unordered: one per distinct message
				}
			}
			dst = append(dst, Action{Kind: ActDeliver, Node: id, Peer: e.From, Slot: int32(k)})
		}
		for t := w.Timers[i]; t != 0; t &= t - 1 {
			dst = append(dst, Action{Kind: ActFire, Node: id, Timer: TimerID(trailingZeros(t))})
		}
	}
	return dst
}

// Apply sets next to the world after a in w. next's memory is reused; w is
// not changed.
func (sys *System[S, M]) Apply(w *World[S, M], a Action, next *World[S, M]) {
	next.CopyFrom(w)
	var ev Event[M]
	switch a.Kind {
	case ActInput:
		ev = Event[M]{Kind: Environment, Input: a.Input}
	case ActDeliver:
		e := next.Net[a.Slot]
		next.Net = append(next.Net[:a.Slot], next.Net[a.Slot+1:]...)
		ev = Event[M]{Kind: Receive, From: e.From, Msg: e.Msg}
	case ActFire:
		next.Timers[a.Node] &^= 1 << a.Timer
		ev = Event[M]{Kind: Timeout, Timer: a.Timer}
	default:
		panic(fmt.Sprintf("model: unknown action kind %d", a.Kind))
	}
	sys.out.Reset()
	next.Nodes[a.Node] = sys.P.Step(a.Node, next.Nodes[a.Node], ev, &sys.out)
	sys.effects(next, a.Node)
}

// LastOut returns the effects of the last Init or Apply step.
func (sys *System[S, M]) LastOut() *Out[M] { return &sys.out }

// effects carries out sys.out for node self in w.
func (sys *System[S, M]) effects(w *World[S, M], self NodeID) {
	for _, s := range sys.out.sends {
		sys.insert(w, Envelope[M]{From: self, To: s.to, Msg: s.msg})
	}
	for _, t := range sys.out.timers {
		if t.set {
			w.Timers[self] |= 1 << t.id
		} else {
			w.Timers[self] &^= 1 << t.id
		}
	}
}

// insert puts e into w.Net at its canonical place.
func (sys *System[S, M]) insert(w *World[S, M], e Envelope[M]) {
	i := len(w.Net)
	for i > 0 {
		p := &w.Net[i-1]
		if p.To < e.To || (p.To == e.To && p.From < e.From) {
			break
		}
		if p.To == e.To && p.From == e.From &&
			(sys.Config.Network == FIFO || sys.msgCompare(p.Msg, e.Msg) <= 0) {
			break
		}
		i--
	}
	w.Net = append(w.Net, e)
	copy(w.Net[i+1:], w.Net[i:])
	w.Net[i] = e
}

func (sys *System[S, M]) msgCompare(a, b M) int {
	sys.ka = sys.P.AppendMsg(sys.ka[:0], a)
	sys.kb = sys.P.AppendMsg(sys.kb[:0], b)
	return bytes.Compare(sys.ka, sys.kb)
}

func (sys *System[S, M]) sameMsg(a, b M) bool { return sys.msgCompare(a, b) == 0 }

// Waiting reports whether node id of w waits (see Waiter); false when the
// protocol has no notion of waiting or the node is down.
func (sys *System[S, M]) Waiting(w *World[S, M], id NodeID) bool {
	return sys.waiter != nil && !w.IsDown(id) && sys.waiter.Waiting(id, w.Nodes[id])
}

// Encode appends the canonical encoding of w to b.
func (sys *System[S, M]) Encode(b []byte, w *World[S, M]) []byte {
	for i := range w.Nodes {
		b = sys.P.AppendState(b, w.Nodes[i])
	}
	for _, t := range w.Timers {
		b = AppendUvarint(b, t)
	}
	b = AppendUvarint(b, w.Down)
	b = AppendUvarint(b, uint64(len(w.Net)))
	for i := range w.Net {
		e := &w.Net[i]
		b = append(b, byte(e.To), byte(e.From))
		b = sys.P.AppendMsg(b, e.Msg)
	}
	return b
}

// Decode sets w to the world encoded in b, reusing w's memory.
func (sys *System[S, M]) Decode(b []byte, w *World[S, M]) {
	w.Nodes = w.Nodes[:0]
	for range sys.n {
		var s S
		s, b = sys.P.ReadState(b)
		w.Nodes = append(w.Nodes, s)
	}
	w.Timers = w.Timers[:0]
	for range sys.n {
		var t uint64
		t, b = ReadUvarint(b)
		w.Timers = append(w.Timers, t)
	}
	w.Down, b = ReadUvarint(b)
	var k uint64
	k, b = ReadUvarint(b)
	w.Net = w.Net[:0]
	for range k {
		e := Envelope[M]{To: NodeID(b[0]), From: NodeID(b[1])}
		e.Msg, b = sys.P.ReadMsg(b[2:])
		w.Net = append(w.Net, e)
	}
}

// FormatWorld renders w as lines: one per node, then the messages in
// flight grouped by link.
func (sys *System[S, M]) FormatWorld(w *World[S, M]) []string {
	var lines []string
	for i := range w.Nodes {
		id := NodeID(i)
		line := id.String() + "  " + sys.P.FormatState(id, w.Nodes[i])
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
	if len(w.Net) == 0 {
		return append(lines, "net  (empty)")
	}
	for i := 0; i < len(w.Net); {
		e := w.Net[i]
		var ms []string
		for ; i < len(w.Net) && w.Net[i].To == e.To && w.Net[i].From == e.From; i++ {
			ms = append(ms, sys.P.FormatMsg(w.Net[i].Msg))
		}
		lines = append(lines, fmt.Sprintf("net  %s->%s  %s", e.From, e.To, strings.Join(ms, " ")))
	}
	return lines
}

// FormatSends renders the messages the last step sent, as "p0->p1 REQ(ts=1)".
func (sys *System[S, M]) FormatSends(self NodeID) []string {
	var out []string
	for _, s := range sys.out.sends {
		out = append(out, fmt.Sprintf("%s->%s %s", self, s.to, sys.P.FormatMsg(s.msg)))
	}
	return out
}
