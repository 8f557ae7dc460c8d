package model

import (
	"bytes"
	"fmt"
	"math/bits"
	"slices"
)

// Symmetry reduction. A protocol whose nodes are interchangeable (the
// clients of a coordinator, say: renaming two clients maps every run to a
// run) says so by implementing Symmetric. A search may then store one
// world per orbit, the world's canonical representative: of the worlds
// obtained by renaming the interchangeable nodes by every permutation, the
// one whose encoding is the smallest. Two worlds that differ only by such
// a renaming get one canonical encoding, so they are one state; with k
// interchangeable nodes a search stores up to k! times fewer states.
//
// Canonicalising renames a node everywhere it appears: the nodes' states
// (through the protocol's PermuteState, for the node ids inside them) and
// their places in Nodes, Timers and Down, the messages in flight (their
// links, and the ids inside them through PermuteMsg), and the partition.
// What it cannot rename is refused (NewSymmetry): request vectors
// (Config.Ordering), whose bytes are per node; histories (Config.History),
// whose records are texts that may name nodes; and a crash budget
// restricted to some of the interchangeable nodes. The properties checked
// must not single out an interchangeable node either; that is the
// checker's to verify.

// Symmetric is implemented by protocols some of whose nodes are
// interchangeable: for every permutation π of those nodes (the others
// fixed), renaming node i to π(i) throughout a run gives a run, and Init,
// Step, Inputs, Waiting and the protocol's other hooks commute with the
// renaming. perm[i] is the new id of node i, for every node.
type Symmetric[S, M any] interface {
	// Interchangeable is the set of interchangeable nodes, bit i for node
	// i.
	Interchangeable() uint64
	// PermuteState returns s, the state of node self, with every node id
	// inside it renamed by perm (it becomes node perm[self]'s state); s
	// must not be changed.
	PermuteState(self NodeID, s S, perm []NodeID) S
	// PermuteMsg returns m with every node id inside it renamed by perm.
	PermuteMsg(m M, perm []NodeID) M
}

// MaxInterchangeable bounds the interchangeable nodes a Symmetry handles:
// canonicalising a world whose interchangeable nodes all look alike tries
// every permutation of them (8! = 40,320).
const MaxInterchangeable = 8

// Symmetry canonicalises the worlds of one System. It holds scratch
// buffers, so one Symmetry serves one goroutine, with its own System.
type Symmetry[S, M any] struct {
	sys  *System[S, M]
	hook Symmetric[S, M]
	set  uint64
	ids  []NodeID // the interchangeable nodes, in id order
	w    World[S, M]
	enc  []byte // a renaming's encoding
	best []byte // the smallest encoding so far

	keys     [][]byte // per interchangeable node (index into ids): its key
	order    []int    // indices into ids, sorted by key
	perm     []NodeID // the renaming being tried
	bestPerm []NodeID // the renaming of the smallest encoding
	swap     []NodeID // scratch: a transposition, for keys
}

// NewSymmetry returns the canonicaliser of sys's worlds, or an error
// saying why sys's protocol or configuration admits no symmetry reduction.
func NewSymmetry[S, M any](sys *System[S, M]) (*Symmetry[S, M], error) {
	hook, ok := sys.P.(Symmetric[S, M])
	if !ok {
		return nil, fmt.Errorf("the protocol declares no interchangeable nodes")
	}
	cfg := sys.Config
	set := hook.Interchangeable() & (uint64(1)<<sys.n - 1)
	k := bits.OnesCount64(set)
	switch {
	case k < 2:
		return nil, fmt.Errorf("the protocol has %d interchangeable nodes here: nothing to reduce", k)
	case k > MaxInterchangeable:
		return nil, fmt.Errorf("%d interchangeable nodes are too many to canonicalise (%d! permutations a state; at most %d)", k, k, MaxInterchangeable)
	case cfg.Ordering:
		return nil, fmt.Errorf("-ordering keeps request vectors per node, which a renaming of nodes does not carry")
	case cfg.History:
		return nil, fmt.Errorf("the history's records are texts that may name nodes, which a renaming of nodes does not carry")
	case cfg.Faults.CrashNodes != 0 && cfg.Faults.CrashNodes&set != 0 && cfg.Faults.CrashNodes&set != set:
		return nil, fmt.Errorf("crashes restricted to %s single out some of the interchangeable nodes %s", formatGroup(cfg.Faults.CrashNodes), formatGroup(set))
	}
	y := &Symmetry[S, M]{sys: sys, hook: hook, set: set}
	for i := range sys.n {
		if set&(1<<i) != 0 {
			y.ids = append(y.ids, NodeID(i))
		}
	}
	y.keys = make([][]byte, k)
	y.order = make([]int, k)
	y.perm, y.bestPerm, y.swap = identity(sys.n), identity(sys.n), identity(sys.n)
	return y, nil
}

func identity(n int) []NodeID {
	p := make([]NodeID, n)
	for i := range p {
		p[i] = NodeID(i)
	}
	return p
}

// Interchangeable is the number of interchangeable nodes.
func (y *Symmetry[S, M]) Interchangeable() int { return bits.OnesCount64(y.set) }

// Canonical returns enc, the encoding of w, replaced by the encoding of
// w's representative: the smallest encoding of the renamings that sort
// the interchangeable nodes by their keys (see key). It reuses enc's
// memory; Perm then gives the renaming that made it.
//
// Trying only the renamings that sort by key, rather than all k!, is what
// makes canonicalising cheap: only nodes of equal keys are permuted among
// themselves. The representative is the same for every world of an orbit
// when a node's key does not change under renaming, which holds when the
// interchangeable nodes' states and their messages to and from the other
// nodes name no interchangeable node but themselves (the clients of a
// coordinator). Otherwise two worlds of one orbit may get two
// representatives: the search then stores both, which costs reduction,
// never soundness (every representative is a renaming of its world, and
// the checker rebuilds traces through Perm).
func (y *Symmetry[S, M]) Canonical(enc []byte, w *World[S, M]) []byte {
	for j, v := range y.ids {
		y.keys[j] = y.key(y.keys[j][:0], w, v)
		y.order[j] = j
	}
	slices.SortStableFunc(y.order, func(a, b int) int { return bytes.Compare(y.keys[a], y.keys[b]) })
	y.best = y.best[:0]
	y.tryGroups(w, 0)
	return append(enc[:0], y.best...)
}

// tryGroups tries every renaming that sends the nodes of order[from:],
// group of equal keys by group, onto ids[from:] in order.
func (y *Symmetry[S, M]) tryGroups(w *World[S, M], from int) {
	if from == len(y.order) {
		for t, j := range y.order {
			y.perm[y.ids[j]] = y.ids[t]
		}
		y.Rename(w, y.perm, &y.w)
		y.enc = y.sys.Encode(y.enc[:0], &y.w)
		if len(y.best) == 0 || bytes.Compare(y.enc, y.best) < 0 {
			y.best, y.enc = y.enc, y.best
			copy(y.bestPerm, y.perm)
		}
		return
	}
	to := from + 1
	for to < len(y.order) && bytes.Equal(y.keys[y.order[to]], y.keys[y.order[from]]) {
		to++
	}
	y.permuteGroup(w, from, to)
}

// permuteGroup tries every order of order[i:to], the rest of a group of
// equal keys, and then the groups after it.
func (y *Symmetry[S, M]) permuteGroup(w *World[S, M], i, to int) {
	if i == to {
		y.tryGroups(w, to)
		return
	}
	for j := i; j < to; j++ {
		y.order[i], y.order[j] = y.order[j], y.order[i]
		y.permuteGroup(w, i+1, to)
		y.order[i], y.order[j] = y.order[j], y.order[i]
	}
}

// Perm is the renaming by which the last Canonical made its result:
// Perm()[i] is the new id of node i. The next call overwrites it.
func (y *Symmetry[S, M]) Perm() []NodeID { return y.bestPerm }

// key appends to b what tells interchangeable node v of w apart, whatever
// the names: its state as if v were the first interchangeable node, its
// timers, whether it is down, and the messages on its links with the nodes
// that are not interchangeable (outgoing, then incoming, then to itself;
// each in Net's order, which is by the other end's id).
func (y *Symmetry[S, M]) key(b []byte, w *World[S, M], v NodeID) []byte {
	m := y.ids[0]
	y.swap[v], y.swap[m] = m, v
	b = y.sys.codec.AppendState(b, y.hook.PermuteState(v, w.Nodes[v], y.swap))
	b = AppendUvarint(b, w.Timers[v])
	b = AppendBool(b, w.IsDown(v))
	fixed := func(id NodeID) bool { return y.set&(1<<id) == 0 }
	for pass := range 3 {
		b = append(b, 0xff)
		for i := range w.Net {
			e := &w.Net[i]
			var other NodeID
			switch {
			case pass == 0 && e.From == v && fixed(e.To):
				other = e.To
			case pass == 1 && e.To == v && fixed(e.From):
				other = e.From
			case pass == 2 && e.From == v && e.To == v:
				other = m // itself, named as in its state
			default:
				continue
			}
			b = append(b, byte(other))
			b = AppendBool(b, e.App)
			if !e.App || y.sys.app != nil {
				b = y.sys.codec.AppendMsg(b, y.hook.PermuteMsg(e.Msg, y.swap))
			}
		}
	}
	y.swap[v], y.swap[m] = v, m
	return b
}

// Rename sets out to w with every node i renamed perm[i].
func (y *Symmetry[S, M]) Rename(w *World[S, M], perm []NodeID, out *World[S, M]) {
	n := y.sys.n
	out.Nodes = slices.Grow(out.Nodes[:0], n)[:n]
	out.Timers = slices.Grow(out.Timers[:0], n)[:n]
	out.Down = 0
	for i := range n {
		j := perm[i]
		out.Nodes[j] = y.hook.PermuteState(NodeID(i), w.Nodes[i], perm)
		out.Timers[j] = w.Timers[i]
		if w.Down&(1<<i) != 0 {
			out.Down |= 1 << j
		}
	}
	out.Used, out.AppSent = w.Used, w.AppSent
	out.Cut = 0
	if w.Cut != 0 {
		for i := range n {
			if w.Cut&(1<<i) != 0 {
				out.Cut |= 1 << perm[i]
			}
		}
		if out.Cut&1 == 0 { // node 0 names the group it is in
			out.Cut = (uint64(1)<<n - 1) &^ out.Cut
		}
	}
	out.VC, out.ReqVC, out.History = out.VC[:0], out.ReqVC[:0], out.History[:0]
	out.Net = out.Net[:0]
	for _, e := range w.Net {
		e.From, e.To = perm[e.From], perm[e.To]
		if !e.App || y.sys.app != nil {
			e.Msg = y.hook.PermuteMsg(e.Msg, perm)
		}
		out.Net = append(out.Net, e)
	}
	// Back to the canonical order of Net: by link, and within a link in
	// sending order (FIFO: kept, the sort being stable) or by content.
	slices.SortStableFunc(out.Net, func(a, b Envelope[M]) int {
		if a.To != b.To {
			return int(a.To) - int(b.To)
		}
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		if y.sys.Config.Network == FIFO {
			return 0
		}
		return y.sys.envCompare(&a, &b)
	})
}

// Generators returns the transpositions of neighbouring interchangeable
// nodes (in id order), which generate every permutation of them: a
// property preserved by each is preserved by all.
func (y *Symmetry[S, M]) Generators() [][]NodeID {
	var ids []NodeID
	for i := range y.sys.n {
		if y.set&(1<<i) != 0 {
			ids = append(ids, NodeID(i))
		}
	}
	var gens [][]NodeID
	for j := 1; j < len(ids); j++ {
		p := make([]NodeID, y.sys.n)
		for i := range p {
			p[i] = NodeID(i)
		}
		p[ids[j-1]], p[ids[j]] = ids[j], ids[j-1]
		gens = append(gens, p)
	}
	return gens
}
