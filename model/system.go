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

// TimerMode says when an armed timer may fire.
type TimerMode uint8

// The timer modes.
const (
	// TimersDefault is the protocol's own assumption: TimersPerfect for
	// protocols that implement TimerGuard, TimersFree otherwise.
	TimersDefault TimerMode = iota
	// TimersFree: an armed timer may fire at any time (an asynchronous
	// system, where a timeout may be premature).
	TimersFree
	// TimersPerfect: a timer fires only when the protocol's TimerGuard says
	// no reply can still arrive (a synchronous system).
	TimersPerfect
)

// String is the mode's name on the command line.
func (m TimerMode) String() string {
	switch m {
	case TimersFree:
		return "free"
	case TimersPerfect:
		return "perfect"
	}
	return "default"
}

// ParseTimerMode reads a timer mode name.
func ParseTimerMode(s string) (TimerMode, error) {
	switch s {
	case "", "default":
		return TimersDefault, nil
	case "free":
		return TimersFree, nil
	case "perfect":
		return TimersPerfect, nil
	}
	return 0, fmt.Errorf("unknown timer mode %q (valid: default, free, perfect)", s)
}

// Config is the run's choice of system semantics: the network, the fault
// budget and the timer semantics.
type Config struct {
	Network Network
	Faults  Faults
	Timers  TimerMode
	// Ordering tracks the happened-before relation of requests (World.VC),
	// for ordering properties; at most 8 nodes. A request is the input
	// named RequestInput ("request" when empty).
	Ordering     bool
	RequestInput Input
	// AppMsgs is the number of application messages the workload may send
	// between nodes (ActApp), to relate requests causally.
	AppMsgs int
	// History keeps every Out.Output in World.History (and so in the
	// state: two worlds with different histories are different states).
	History bool
}

// System binds a Protocol to the semantics of a run: it enumerates the
// global actions of a World, applies them, and encodes worlds canonically.
// A System holds scratch buffers, so one System serves one goroutine.
type System[S, M any] struct {
	P      Protocol[S, M]
	Config Config
	n      int
	waiter Waiter[S]
	guard  TimerGuard[S, M] // nil unless timers are perfect
	rest   Restarter[S, M]
	app    AppCarrier[S, M]

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
	if cfg.Ordering && n > 8 {
		panic(fmt.Sprintf("model: happened-before ordering tracks at most 8 nodes, not %d", n))
	}
	if cfg.RequestInput == "" {
		cfg.RequestInput = "request"
	}
	sys := &System[S, M]{P: p, Config: cfg, n: n}
	sys.waiter, _ = p.(Waiter[S])
	sys.rest, _ = p.(Restarter[S, M])
	sys.app, _ = p.(AppCarrier[S, M])
	if g, ok := p.(TimerGuard[S, M]); ok && cfg.Timers != TimersFree {
		sys.guard = g
		sys.Config.Timers = TimersPerfect
	} else if cfg.Timers == TimersDefault {
		sys.Config.Timers = TimersFree
	}
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
	if sys.Config.Ordering {
		w.VC, w.ReqVC = make([]uint64, sys.n), make([]uint64, sys.n)
	}
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
				if sys.Config.Network == FIFO || sys.envCompare(&w.Net[k-1], e) == 0 {
					continue // FIFO: only the head; unordered: one per distinct message
				}
			}
			dst = append(dst, Action{Kind: ActDeliver, Node: id, Peer: e.From, Slot: int32(k)})
		}
		for t := w.Timers[i]; t != 0; t &= t - 1 {
			tid := TimerID(trailingZeros(t))
			if sys.guard == nil || sys.guard.TimerReady(w, id, tid) {
				dst = append(dst, Action{Kind: ActFire, Node: id, Timer: tid})
			}
		}
	}
	if int(w.AppSent) < sys.Config.AppMsgs {
		for i := range sys.n {
			for j := range sys.n {
				if i != j && !w.IsDown(NodeID(i)) {
					dst = append(dst, Action{Kind: ActApp, Node: NodeID(i), Peer: NodeID(j)})
				}
			}
		}
	}
	if sys.Config.Faults.Any() {
		dst = sys.faultActions(w, dst)
	}
	return dst
}

// allowed reports whether the budget admits one more fault of kind k.
func (sys *System[S, M]) allowed(w *World[S, M], k FaultKind) bool {
	b := sys.Config.Faults.Budget[k]
	return b == Unbounded || int(w.Used[k]) < b
}

// faultActions appends the faults the budget still admits in w: drops and
// duplications of each distinct message in flight, crashes of live nodes,
// restarts of crashed ones, a partition, a heal.
func (sys *System[S, M]) faultActions(w *World[S, M], dst []Action) []Action {
	for _, k := range [...]FaultKind{Drop, Dup} {
		if !sys.allowed(w, k) {
			continue
		}
		kind := ActDrop
		if k == Dup {
			kind = ActDup
		}
		for i := range w.Net {
			e := &w.Net[i]
			if i > 0 && w.Net[i-1].To == e.To && w.Net[i-1].From == e.From && sys.envCompare(&w.Net[i-1], e) == 0 {
				continue // the same message again on the same link: the same fault
			}
			dst = append(dst, Action{Kind: kind, Node: e.To, Peer: e.From, Slot: int32(i)})
		}
	}
	if sys.allowed(w, Crash) {
		for i := range sys.n {
			if id := NodeID(i); !w.IsDown(id) && sys.Config.Faults.MayCrash(id) {
				dst = append(dst, Action{Kind: ActCrash, Node: id})
			}
		}
	}
	if sys.allowed(w, Restart) {
		for i := range sys.n {
			if id := NodeID(i); w.IsDown(id) {
				dst = append(dst, Action{Kind: ActRestart, Node: id})
			}
		}
	}
	if w.Cut == 0 && sys.n > 1 && sys.allowed(w, Partition) {
		// Every split into two non-empty groups, named by the group of p0.
		all := uint64(1)<<sys.n - 1
		for g := uint64(1); g < all; g += 2 {
			dst = append(dst, Action{Kind: ActPartition, Group: g})
		}
	}
	if w.Cut != 0 {
		dst = append(dst, Action{Kind: ActHeal})
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
		if sys.Config.Ordering {
			next.VC[a.Node] = vcMax(next.VC[a.Node], e.VC)
		}
		if e.App {
			sys.out.Reset()
			if sys.app != nil {
				next.Nodes[a.Node] = sys.app.ReceiveApp(a.Node, next.Nodes[a.Node], e.Msg)
			}
			return
		}
		ev = Event[M]{Kind: Receive, From: e.From, Msg: e.Msg}
	case ActFire:
		next.Timers[a.Node] &^= 1 << a.Timer
		ev = Event[M]{Kind: Timeout, Timer: a.Timer}
	case ActApp:
		next.AppSent++
		sys.out.Reset()
		e := Envelope[M]{From: a.Node, To: a.Peer, App: true}
		if sys.app != nil {
			next.Nodes[a.Node], e.Msg = sys.app.SendApp(a.Node, next.Nodes[a.Node])
		}
		if !next.IsDown(a.Peer) && !next.Separated(a.Node, a.Peer) {
			if sys.Config.Ordering {
				e.VC = next.VC[a.Node]
			}
			sys.insert(next, e)
		}
		return
	default:
		sys.applyFault(next, a)
		return
	}
	if sys.Config.Ordering && a.Kind == ActInput && a.Input == sys.Config.RequestInput {
		// A request: count it in the node's own vector and remember the
		// vector, which names every request that happened before it.
		next.VC[a.Node] += 1 << (8 * a.Node)
		next.ReqVC[a.Node] = next.VC[a.Node]
	}
	sys.out.Reset()
	next.Nodes[a.Node] = sys.P.Step(a.Node, next.Nodes[a.Node], ev, &sys.out)
	sys.effects(next, a.Node)
}

func formatVC(vc uint64, n int) string {
	parts := make([]string, n)
	for i := range n {
		parts[i] = fmt.Sprint(VCByte(vc, NodeID(i)))
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// vcMax is the bytewise maximum of two packed vectors.
func vcMax(a, b uint64) uint64 {
	var r uint64
	for i := 0; i < 64; i += 8 {
		r |= max(a>>i&0xff, b>>i&0xff) << i
	}
	return r
}

// applyFault carries out the fault action a on w (already a copy).
func (sys *System[S, M]) applyFault(w *World[S, M], a Action) {
	sys.out.Reset()
	switch a.Kind {
	case ActDrop:
		w.Net = append(w.Net[:a.Slot], w.Net[a.Slot+1:]...)
		sys.use(w, Drop)
	case ActDup:
		sys.insert(w, w.Net[a.Slot])
		sys.use(w, Dup)
	case ActCrash:
		// The node stops: its timers go, and what was sent to it is lost.
		w.Down |= 1 << a.Node
		w.Timers[a.Node] = 0
		sys.dropWhere(w, func(e *Envelope[M]) bool { return e.To == a.Node })
		if sys.rest == nil || sys.Config.Faults.Budget[Restart] == 0 {
			// Its state no longer matters: keep one canonical value.
			var discard Out[M]
			w.Nodes[a.Node] = sys.P.Init(a.Node, &discard)
		}
		sys.use(w, Crash)
	case ActRestart:
		w.Down &^= 1 << a.Node
		if sys.rest != nil {
			w.Nodes[a.Node] = sys.rest.Recover(a.Node, w.Nodes[a.Node], &sys.out)
		} else {
			w.Nodes[a.Node] = sys.P.Init(a.Node, &sys.out)
		}
		sys.use(w, Restart)
		sys.effects(w, a.Node)
	case ActPartition:
		w.Cut = a.Group
		sys.dropWhere(w, func(e *Envelope[M]) bool { return w.Separated(e.From, e.To) })
		sys.use(w, Partition)
	case ActHeal:
		w.Cut = 0
	default:
		panic(fmt.Sprintf("model: unknown action kind %d", a.Kind))
	}
}

// use counts one fault of kind k against the budget (unbounded kinds are
// not counted, so that they add no states).
func (sys *System[S, M]) use(w *World[S, M], k FaultKind) {
	if sys.Config.Faults.Budget[k] != Unbounded {
		w.Used[k]++
	}
}

// dropWhere removes the messages in flight for which lost holds.
func (sys *System[S, M]) dropWhere(w *World[S, M], lost func(e *Envelope[M]) bool) {
	kept := w.Net[:0]
	for i := range w.Net {
		if !lost(&w.Net[i]) {
			kept = append(kept, w.Net[i])
		}
	}
	w.Net = kept
}

// LastOut returns the effects of the last Init or Apply step.
func (sys *System[S, M]) LastOut() *Out[M] { return &sys.out }

// effects carries out sys.out for node self in w.
func (sys *System[S, M]) effects(w *World[S, M], self NodeID) {
	for _, s := range sys.out.sends {
		if w.IsDown(s.to) || w.Separated(self, s.to) {
			continue // lost: the receiver has crashed, or a partition is in the way
		}
		e := Envelope[M]{From: self, To: s.to, Msg: s.msg}
		if sys.Config.Ordering {
			e.VC = w.VC[self]
		}
		sys.insert(w, e)
	}
	if sys.Config.History {
		for _, o := range sys.out.outputs {
			w.History = append(w.History, Record{Node: self, Text: o})
		}
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
			(sys.Config.Network == FIFO || sys.envCompare(p, &e) <= 0) {
			break
		}
		i--
	}
	w.Net = append(w.Net, e)
	copy(w.Net[i+1:], w.Net[i:])
	w.Net[i] = e
}

// envCompare orders two envelopes of one link by content: protocol
// messages before application ones, then by encoding, then by vector.
func (sys *System[S, M]) envCompare(a, b *Envelope[M]) int {
	if a.App != b.App {
		if b.App {
			return -1
		}
		return 1
	}
	sys.ka = sys.P.AppendMsg(sys.ka[:0], a.Msg)
	sys.kb = sys.P.AppendMsg(sys.kb[:0], b.Msg)
	if c := bytes.Compare(sys.ka, sys.kb); c != 0 {
		return c
	}
	switch {
	case a.VC < b.VC:
		return -1
	case a.VC > b.VC:
		return 1
	}
	return 0
}

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
	if sys.Config.Faults.Any() {
		b = append(b, w.Used[:]...)
		b = AppendUvarint(b, w.Cut)
	}
	if sys.Config.Ordering {
		for i := range w.VC {
			b = AppendUvarint(AppendUvarint(b, w.VC[i]), w.ReqVC[i])
		}
	}
	if sys.Config.AppMsgs > 0 {
		b = append(b, w.AppSent)
	}
	if sys.Config.History {
		b = AppendUvarint(b, uint64(len(w.History)))
		for _, r := range w.History {
			b = AppendString(append(b, byte(r.Node)), r.Text)
		}
	}
	b = AppendUvarint(b, uint64(len(w.Net)))
	for i := range w.Net {
		e := &w.Net[i]
		b = append(b, byte(e.To), byte(e.From))
		if sys.Config.AppMsgs > 0 {
			b = AppendBool(b, e.App)
		}
		b = sys.P.AppendMsg(b, e.Msg)
		if sys.Config.Ordering {
			b = AppendUvarint(b, e.VC)
		}
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
	w.Used, w.Cut = [numFaults]uint8{}, 0
	if sys.Config.Faults.Any() {
		copy(w.Used[:], b)
		w.Cut, b = ReadUvarint(b[numFaults:])
	}
	w.VC, w.ReqVC = w.VC[:0], w.ReqVC[:0]
	if sys.Config.Ordering {
		for range sys.n {
			var vc, req uint64
			vc, b = ReadUvarint(b)
			req, b = ReadUvarint(b)
			w.VC, w.ReqVC = append(w.VC, vc), append(w.ReqVC, req)
		}
	}
	w.AppSent = 0
	if sys.Config.AppMsgs > 0 {
		w.AppSent, b = b[0], b[1:]
	}
	w.History = w.History[:0]
	if sys.Config.History {
		var h uint64
		h, b = ReadUvarint(b)
		for range h {
			r := Record{Node: NodeID(b[0])}
			r.Text, b = ReadString(b[1:])
			w.History = append(w.History, r)
		}
	}
	var k uint64
	k, b = ReadUvarint(b)
	w.Net = w.Net[:0]
	for range k {
		e := Envelope[M]{To: NodeID(b[0]), From: NodeID(b[1])}
		b = b[2:]
		if sys.Config.AppMsgs > 0 {
			e.App, b = ReadBool(b)
		}
		e.Msg, b = sys.P.ReadMsg(b)
		if sys.Config.Ordering {
			e.VC, b = ReadUvarint(b)
		}
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
	if sys.Config.Faults.Any() {
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
func (sys *System[S, M]) FormatSends(self NodeID) []string {
	var out []string
	for _, s := range sys.out.sends {
		out = append(out, fmt.Sprintf("%s->%s %s", self, s.to, sys.P.FormatMsg(s.msg)))
	}
	return out
}
