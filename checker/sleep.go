package checker

import (
	"errors"
	"math/bits"

	"github.com/coordcheck/coordcheck/model"
)

// Sleep sets (Options.Sleep; Godefroid's sleep sets, kept per node).
//
// Two actions of different nodes commute when neither gives the other's
// node a new action: each changes only its own node's state and timers,
// takes a message off a link into its own node, and appends to links out
// of it; an append behind the message another delivers does not change
// that delivery, on a FIFO link (the head stays) or an unordered one (the
// message stays). An append gives the receiver a new action when the
// link was empty (FIFO), or may (unordered: a message unlike the others).
// So from a state p where action c of node k comes before action b of
// node j in the action order (k < j: Actions lists the nodes in id
// order), c(b(p)) = b(c(p)) when b gives k no new action, and the search
// reaches that state from c(p) before it expands b(p).
//
// The search keeps, with each state t in its frontier, the set Z(t) of
// nodes whose actions it need not take there: for the state's first
// generator, the step b of node j from p that inserted it,
//
//	Z(b(p)) = ({k : k < j} ∪ Z(p)) \ {j} \ {the nodes b gave a new action}
//
// (model.Cursor.Woken), and Z is empty after any other step (a fault,
// which touches every link; a step Apply took) and at the initial state.
// Each state is then expanded without the actions of Z's nodes. That
// leaves out only transitions into states the search had generated
// already, so it finds the same states, in the same order, from the same
// parents, at the same depths as without: the counts of states and
// violations, the shortest counterexamples and the parent log are
// unchanged; the transitions taken (and the coverage counts, which count
// them) are fewer.
//
// Why: let v = b(p) have k ∈ Z(v), and c be an action of k at v. b left
// k's state, timers and actions as they were, so c is an action of p
// too, and b one of c(p), with c(v) = b(c(p)). If k < j and k ∉ Z(p), c
// was taken at p before b, so c(p) was generated before v and expanded
// before it. If k ∈ Z(p), then (by induction on the order in which the
// search inserts states: p came before v) c(p) was generated before p was
// expanded, hence before v. Either way c(p) is expanded before v, and
// taking b there (or, when j ∈ Z(c(p)), by the same argument, some other
// step) generates c(v) before v is expanded. Nothing any BFS worker count
// does changes this: the level engine orders new states by (parent,
// action), the order the one-worker search inserts them in.
//
// Guarded timers (model.TimerGuard) read the whole world, so a step b
// may make the guard of another node's timer true: that firing is an
// action of v that p did not have. The entry of v therefore also keeps,
// for each node of Z(v) with a timer armed, the timers whose guards held
// at p; at v, a firing of such a node whose guard did not hold at p is
// taken, and the node's other actions still sleep (each was an action of
// p, where the argument above applies to it). A node given such a firing
// passes on no sleep to v's successors: its actions taken at v come
// after the steps of lower nodes, too late to stand in for them. A
// guarded firing b empties Z, since another node's step may make b's
// guard false, so that b is no action of c(p).
//
// What breaks the commuting is refused (sleeps): a history kept in
// global order (records of two nodes do not commute), request vectors
// and application messages (steps Apply takes).
// Symmetry and persistent sets reorder or drop actions, the liveness
// checks need every edge, and a bitstate table may miss the states the
// argument relies on: none of those run with sleep sets. A checkpoint
// keeps the sets with its frontier's states, and names Options.Sleep in
// its identity, so that it is resumed only by a search that reads them.

// sleeps reports whether r's search keeps sleep sets.
func (r *run[S, M]) sleeps() bool {
	return r.opts.Sleep && r.mode == noLiveness && r.sp.SleepError(*r.opts) == nil
}

// SleepError says why a search under opts would not keep sleep sets
// (Options.Sleep, which it does not look at), or returns nil when it
// would.
func (sp *Spec[S, M]) SleepError(opts Options) error {
	cfg := sp.System.Config
	switch {
	case opts.Strategy != BFS:
		return errors.New("sleep sets apply to -mode bfs")
	case sp.modeOf(&opts) != noLiveness:
		return errors.New("liveness is checked, which takes every transition (-liveness=false checks safety only)")
	case opts.Symmetry || sp.symmetric:
		return errors.New("-symmetry renames the nodes a sleep set names")
	case opts.POR || sp.por:
		return errors.New("-por expands persistent sets instead")
	case opts.Bitstate > 0:
		return errors.New("-bitstate may miss the states that sleep sets count on")
	case cfg.Ordering || cfg.AppMsgs > 0:
		return errors.New("-ordering and -app-msgs steps are not reduced")
	case cfg.History && !cfg.HistoryByNode:
		return errors.New("the history keeps the global order of outputs, in which no two nodes' actions commute")
	}
	return nil
}

// nodeIndex masks a node's index (below MaxNodes): indexing an array of
// MaxNodes, or shifting a word, with it needs no check.
const nodeIndex = model.MaxNodes - 1

// nodeAction reports whether an action of kind k is a step of its node
// (an input, a delivery or a timer), the kind a sleep set holds.
func nodeAction(k model.ActionKind) bool {
	return k == model.ActInput || k == model.ActDeliver || k == model.ActFire
}

// sleepAfter is the sleep set of the successor of action i, for when
// that step is the one that inserts it.
func (x *expander[S, M]) sleepAfter(i int) uint64 {
	a := &x.acts[i]
	s := &x.slot[i]
	if !s.lazy || !nodeAction(a.Kind) || a.Kind == model.ActFire && x.guarded {
		return 0
	}
	j := a.Node & nodeIndex // (masked: no shift past 63 to handle)
	return (x.sleep | (uint64(1)<<j - 1)) &^ (1 << j) &^ x.ids.Woken(&s.stepped)
}

// entryOf is the stored form of the successor in slot k, preceded by its
// sleep set z when the search keeps them (the frontier's bytes).
func (x *expander[S, M]) entryOf(k int, z uint64) []byte {
	if !x.sleepOn {
		return x.encodeOf(k)
	}
	x.buf = x.appendEntry(x.buf[:0], k, z)
	return x.buf
}

// appendEntry appends entryOf(k, z) to b.
func (x *expander[S, M]) appendEntry(b []byte, k int, z uint64) []byte {
	s := &x.slot[k]
	if x.sleepOn {
		b = model.AppendUvarint(b, z)
		if x.guarded {
			b = x.appendReady(b, z&x.ids.Timed())
		}
	}
	if s.lazy {
		return x.ids.AppendStepped(b, &s.stepped)
	}
	return append(b, x.stored[k]...)
}

// appendReady appends the set zt (the successor's sleeping nodes with a
// timer armed) and, for each of its nodes, the timers whose guards hold
// in the loaded state: a guard the step made true gives that node a new
// action (awakeGuarded).
func (x *expander[S, M]) appendReady(b []byte, zt uint64) []byte {
	b = model.AppendUvarint(b, zt)
	for m := zt; m != 0; m &= m - 1 {
		b = model.AppendUvarint(b, x.ready[bits.TrailingZeros64(m)&nodeIndex])
	}
	return b
}

// readWas reads what appendReady wrote, into zt and was.
func (x *expander[S, M]) readWas(enc []byte) []byte {
	x.zt, enc = model.ReadUvarint(enc)
	for m := x.zt; m != 0; m &= m - 1 {
		x.was[bits.TrailingZeros64(m)&nodeIndex], enc = model.ReadUvarint(enc)
	}
	return enc
}

// awakeAll lists every action of the loaded state as awake: those of
// the nodes its sleep set holds are not listed (load). The list is a
// prefix of allAwake, 0, 1, 2, ..., grown when needed, never written
// again.
func (x *expander[S, M]) awakeAll() {
	n := len(x.acts)
	if n > len(x.allAwake) {
		x.allAwake = make([]int32, max(n, 2*len(x.allAwake), 16))
		for i := range x.allAwake {
			x.allAwake[i] = int32(i)
		}
	}
	x.awake = x.allAwake[:n:n]
}

// awakeGuarded lists the awake actions of a loaded state whose timers
// fire on guards. A sleeping node's timer is awake if its guard did not
// hold in the parent: the step that inserted the state made it true, so
// the parent had no such action to take first. Such a node then passes
// on no sleep to the state's successors (its other actions may be
// taken after theirs at the parent, too late for the argument). The
// ready timers of the state's nodes with one armed (Cursor.Timed) are
// noted for its successors' entries (appendReady).
func (x *expander[S, M]) awakeGuarded() {
	timed := x.ids.Timed()
	if timed == 0 { // no firing, and no successor keeps a ready set
		x.awakeAll()
		return
	}
	ready, was := x.ready, x.was
	for m := timed; m != 0; m &= m - 1 {
		ready[bits.TrailingZeros64(m)&nodeIndex] = 0
	}
	// (Locals, and indexes and shifts masked: no bounds checks, and no
	// shifts past 63 to handle.)
	// Of a sleeping node, only the firings are listed (ActionsAwake):
	// any other action is awake.
	z, zt, woke, acts, awake := x.sleep, x.zt, uint64(0), x.acts, x.guardedAwake[:0]
	for i := range acts {
		if a := &acts[i]; a.Kind == model.ActFire {
			k, t := a.Node&nodeIndex, a.Timer&63
			ready[k] |= 1 << t
			if z>>k&1 != 0 {
				if zt>>k&1 != 0 && was[k]>>t&1 != 0 {
					continue // ready in the parent too: asleep
				}
				woke |= 1 << k
			}
		}
		awake = append(awake, int32(i))
	}
	x.awake, x.guardedAwake, x.sleep = awake, awake, z&^woke
}

// keepSleep makes the expander read and write sleep sets: its frontier
// entries then begin with one.
func (x *expander[S, M]) keepSleep() {
	x.sleepOn, x.guarded = true, x.sys.Guarded()
	if x.guarded {
		x.ready, x.was = new([model.MaxNodes]uint64), new([model.MaxNodes]uint64)
	}
}

// withSleep is enc, a state's stored form, as a frontier entry with the
// empty sleep set, when x keeps them.
func (x *expander[S, M]) withSleep(enc []byte) []byte {
	if !x.sleepOn {
		return enc
	}
	b := model.AppendUvarint(nil, 0)
	if x.guarded {
		b = model.AppendUvarint(b, 0) // no node sleeps, none with a ready timer
	}
	return append(b, enc...)
}
