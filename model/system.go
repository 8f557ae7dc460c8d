package model

import "github.com/coordcheck/coordcheck/internal/lines"

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
	// HistoryByNode keeps World.History grouped by node: each node's
	// records in the order that node output them, the nodes in id order.
	// The relative order of two nodes' records is forgotten, which the
	// properties of per-process logs (multicast deliveries) do not need,
	// and which spares the state space the interleavings of records.
	// Only with History.
	HistoryByNode bool
}

// System binds a Protocol to the semantics of a run: it enumerates the
// global actions of a World, applies them, and encodes worlds canonically.
// A System holds scratch buffers, so one System serves one goroutine.
type System[S, M any] struct {
	_      lines.Pad
	P      Protocol[S, M]
	Config Config
	n      int
	codec  Codec[S, M] // CodecOf(P)
	// The derived plans of the states and the messages, when codec
	// derives them: decode reads into the world in place with them.
	statePlan, msgPlan *plan
	waiter             Waiter[S]
	guard              TimerGuard[S, M]  // nil unless timers are perfect
	guardAll           TimersGuard[S, M] // when guard is, and the protocol implements it
	ready              []uint64          // readyTimers' answer
	rest               Restarter[S, M]
	ranked             Ranked[S, M]
	app                AppCarrier[S, M]
	faulty             bool // Config.Faults.Any()

	out    Out[M]
	whole  WorldHash // HashWorld's scratch
	inputs []Input
	ka, kb []byte // scratch encodings of messages, for unordered order

	texts map[string]string // the record texts decoded so far (text)
	// A system serves one goroutine, and its scratch is written at each
	// step: no other goroutine's memory on its lines (internal/lines).
	_ lines.Pad
}

// NewSystem makes the system of protocol p under cfg, or returns an error
// naming what in cfg cannot take effect for p: a node count out of range,
// a fault that targets a node p does not have or can never strike, timers
// that cannot be made perfect, application messages nothing reads (see
// Config.Check); or, when p's state or message type cannot be encoded,
// the error of CodecOf naming the type and field. Use it wherever cfg
// comes from a user; MustNewSystem is for configurations written in the
// code.
func NewSystem[S, M any](p Protocol[S, M], cfg Config) (*System[S, M], error) {
	_, guarded := p.(TimerGuard[S, M])
	_, carries := p.(AppCarrier[S, M])
	if err := cfg.Check(p.Nodes(), guarded, carries); err != nil {
		return nil, err
	}
	if _, err := CodecOf(p); err != nil {
		return nil, err
	}
	return newSystem(p, cfg), nil
}

// MustNewSystem is NewSystem for a configuration fixed in the code (a
// test, a cost measurement): it panics where NewSystem returns an error.
func MustNewSystem[S, M any](p Protocol[S, M], cfg Config) *System[S, M] {
	sys, err := NewSystem(p, cfg)
	if err != nil {
		panic("model: " + err.Error())
	}
	return sys
}

// newSystem makes the system of p under cfg, which Check has accepted,
// and whose codec CodecOf has made.
func newSystem[S, M any](p Protocol[S, M], cfg Config) *System[S, M] {
	n := p.Nodes()
	if cfg.RequestInput == "" {
		cfg.RequestInput = "request"
	}
	sys := &System[S, M]{P: p, Config: cfg, n: n, faulty: cfg.Faults.Any(), codec: mustCodecOf(p)}
	if c, ok := sys.codec.(*codec[S, M]); ok {
		sys.statePlan, sys.msgPlan = c.sp, c.mp
	}
	sys.waiter, _ = p.(Waiter[S])
	sys.rest, _ = p.(Restarter[S, M])
	sys.ranked, _ = p.(Ranked[S, M])
	sys.app, _ = p.(AppCarrier[S, M])
	if g, ok := p.(TimerGuard[S, M]); ok && cfg.Timers != TimersFree {
		sys.guard = g
		sys.Config.Timers = TimersPerfect
		if ga, ok := p.(TimersGuard[S, M]); ok {
			sys.guardAll, sys.ready = ga, make([]uint64, n)
		}
	} else if cfg.Timers == TimersDefault {
		sys.Config.Timers = TimersFree
	}
	return sys
}

// Clone returns a System with the same protocol and configuration and its
// own scratch buffers, for use by another goroutine.
func (sys *System[S, M]) Clone() *System[S, M] { return newSystem(sys.P, sys.Config) }

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
// its armed timers; then the application messages and the faults.
// (Cursor.Actions lists the same for a world it loaded.)
func (sys *System[S, M]) Actions(w *World[S, M], dst []Action) []Action {
	j := 0 // scan position in Net, which is sorted by receiver
	ready := sys.readyTimers(w)
	for live := (uint64(1)<<sys.n - 1) &^ w.Down; live != 0; live &= live - 1 {
		i := trailingZeros(live)
		id := NodeID(i)
		for j < len(w.Net) && w.Net[j].To < id {
			j++
		}
		sys.inputs = sys.P.Inputs(id, w.Nodes[i], sys.inputs[:0])
		for _, in := range sys.inputs {
			var a *Action
			dst, a = addAction(dst)
			a.Kind, a.Node, a.Input = ActInput, id, in
		}
		for k := j; k < len(w.Net) && w.Net[k].To == id; k++ {
			e := &w.Net[k]
			if k > j && w.Net[k-1].From == e.From {
				if sys.Config.Network == FIFO || sys.envCompare(&w.Net[k-1], e) == 0 {
					continue // FIFO: only the head; unordered: one per distinct message
				}
			}
			var a *Action
			dst, a = addAction(dst)
			a.Kind, a.Node, a.Peer, a.Slot = ActDeliver, id, e.From, int32(k)
		}
		if w.Timers[i] != 0 {
			dst = sys.timerActions(w, dst, i, ready)
		}
	}
	return sys.otherActions(w, dst)
}

// readyTimers is, for a protocol that guards all its timers at once
// (TimersGuard), the timers of each node of w whose guards hold, by node
// (armed or not: the callers keep those of w.Timers); nil otherwise. The
// slice is the system's, valid until the next call.
func (sys *System[S, M]) readyTimers(w *World[S, M]) []uint64 {
	if sys.guardAll == nil {
		return nil
	}
	sys.guardAll.ReadyTimers(w, sys.ready)
	return sys.ready
}

// timerActions appends to dst the firings of node i's armed timers in w,
// those whose guards hold (TimerGuard); ready is readyTimers' answer for
// w, when not nil.
func (sys *System[S, M]) timerActions(w *World[S, M], dst []Action, i int, ready []uint64) []Action {
	id := NodeID(i)
	armed := w.Timers[i]
	if ready != nil {
		armed &= ready[i]
	}
	for t := armed; t != 0; t &= t - 1 {
		tid := TimerID(trailingZeros(t))
		if ready != nil || sys.timerReady(w, id, tid) {
			var a *Action
			dst, a = addAction(dst)
			a.Kind, a.Node, a.Timer = ActFire, id, tid
		}
	}
	return dst
}

// timerReady reports whether node id's armed timer t may fire in w.
func (sys *System[S, M]) timerReady(w *World[S, M], id NodeID, t TimerID) bool {
	return sys.guard == nil || sys.guard.TimerReady(w, id, t)
}

// otherActions appends to dst the actions of w that are no node's
// protocol step: the application messages still to send, and the faults.
func (sys *System[S, M]) otherActions(w *World[S, M], dst []Action) []Action {
	if int(w.AppSent) < sys.Config.AppMsgs {
		for i := range sys.n {
			for j := range sys.n {
				if i != j && !w.IsDown(NodeID(i)) {
					dst = append(dst, Action{Kind: ActApp, Node: NodeID(i), Peer: NodeID(j)})
				}
			}
		}
	}
	if sys.faulty {
		dst = sys.faultActions(w, dst)
	}
	return dst
}

// addAction appends a zero action to dst and returns it, to be filled in
// field by field. Appended as a composite literal, an action is built on
// the stack with narrow stores, then copied with wide moves that wait for
// those stores to complete (perf: 40% of Actions' samples on RA N=4 R=1).
func addAction(dst []Action) ([]Action, *Action) {
	dst = append(dst, Action{})
	return dst, &dst[len(dst)-1]
}

// Apply sets next to the world after a in w. next's memory is reused; w is
// not changed.
func (sys *System[S, M]) Apply(w *World[S, M], a Action, next *World[S, M]) {
	next.CopyFrom(w)
	var ev Event[M]
	switch a.Kind {
	case ActInput:
		ev = sys.event(w, a)
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
		ev = sys.event(w, a)
	case ActFire:
		next.Timers[a.Node] = armedAtStep(next.Timers[a.Node], a)
		ev = sys.event(w, a)
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

// event is the event that protocol step a (an input, the delivery of a
// protocol message, a timer firing) gives its node in w.
func (sys *System[S, M]) event(w *World[S, M], a Action) Event[M] {
	switch a.Kind {
	case ActInput:
		return Event[M]{Kind: Environment, Input: a.Input}
	case ActDeliver:
		e := &w.Net[a.Slot]
		return Event[M]{Kind: Receive, From: e.From, Msg: e.Msg}
	default:
		return Event[M]{Kind: Timeout, Timer: a.Timer}
	}
}

// vcMax is the bytewise maximum of two packed vectors.
func vcMax(a, b uint64) uint64 {
	var r uint64
	for i := 0; i < 64; i += 8 {
		r |= max(a>>i&0xff, b>>i&0xff) << i
	}
	return r
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
			w.History = appendRecord(w.History, Record{Node: self, Text: o}, sys.Config.HistoryByNode)
		}
	}
	w.Timers[self] = sys.timersAfter(w.Timers[self])
}

// armedAtStep is a node's armed-timer word t as protocol step a starts:
// the timer that fires is disarmed first (Step may arm it again).
func armedAtStep(t uint64, a Action) uint64 {
	if a.Kind == ActFire {
		t &^= 1 << a.Timer
	}
	return t
}

// timersAfter is the armed-timer word t once sys.out's timer operations
// are carried out, in their order.
func (sys *System[S, M]) timersAfter(t uint64) uint64 {
	for _, op := range sys.out.timers {
		if op.set {
			t |= 1 << op.id
		} else {
			t &^= 1 << op.id
		}
	}
	return t
}

// appendRecord adds r to h: at the end, or, byNode, after the last record
// of a node not above r's (see Config.HistoryByNode).
func appendRecord(h []Record, r Record, byNode bool) []Record {
	i := len(h)
	for byNode && i > 0 && h[i-1].Node > r.Node {
		i--
	}
	h = append(h, Record{})
	copy(h[i+1:], h[i:])
	h[i] = r
	return h
}

// Waiting reports whether node id of w waits (see Waiter); false when the
// protocol has no notion of waiting or the node is down.
func (sys *System[S, M]) Waiting(w *World[S, M], id NodeID) bool {
	return sys.waiter != nil && !w.IsDown(id) && sys.waiter.Waiting(id, w.Nodes[id])
}

// Guarded reports whether the system's timers fire on guards
// (TimerGuard, perfect timers), which read the whole world.
func (sys *System[S, M]) Guarded() bool { return sys.guard != nil }

// Ranked reports whether the protocol has a variant (see Ranked).
func (sys *System[S, M]) Ranked() bool { return sys.ranked != nil }

// Rank is the measure of w under the protocol's variant (see Ranked), and
// whether the protocol has one. Application messages weigh nothing: a step
// that sends one does not lower the measure.
func (sys *System[S, M]) Rank(w *World[S, M]) (uint64, bool) {
	if sys.ranked == nil {
		return 0, false
	}
	var r uint64
	for i, s := range w.Nodes {
		r += sys.ranked.Rank(NodeID(i), s)
	}
	for _, e := range w.Net {
		if !e.App {
			r += sys.ranked.Weight(e.Msg)
		}
	}
	return r, true
}

// RankAfter is Rank(next) for next = Apply(w, a), given rank = Rank(w),
// computed from what the step changed when it can be: the acting node,
// the message delivered and the messages sent, which Apply leaves in the
// system's scratch output. It must be called right after that Apply.
func (sys *System[S, M]) RankAfter(w *World[S, M], a Action, next *World[S, M], rank uint64) uint64 {
	protocolStep := a.Kind == ActInput || a.Kind == ActFire || a.Kind == ActDeliver && !w.Net[a.Slot].App
	if !protocolStep { // a fault or an application message: measure it all
		r, _ := sys.Rank(next)
		return r
	}
	r := rank - sys.ranked.Rank(a.Node, w.Nodes[a.Node]) + sys.ranked.Rank(a.Node, next.Nodes[a.Node])
	if a.Kind == ActDeliver {
		r -= sys.ranked.Weight(w.Net[a.Slot].Msg)
	}
	for _, s := range sys.out.sends {
		if !next.IsDown(s.to) && !next.Separated(a.Node, s.to) {
			r += sys.ranked.Weight(s.msg)
		}
	}
	return r
}
