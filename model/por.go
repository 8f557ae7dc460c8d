package model

import "fmt"

// Partial-order reduction by persistent sets. Two actions of different
// nodes commute on a reliable FIFO network: each changes its own node's
// state and timers, takes the head of a link into its node and appends to
// links out of it, and an append to a link that is not empty does not
// change its head. So the actions enabled at node i form a persistent set
// (no run that avoids them can do anything that interferes with them)
// when nothing another node does can give i a new action: every node that
// may send to i (Peers) already has a message on its link to i, whose
// head delivery is among i's actions and stays the same whatever is
// appended behind it. A search that expands, in each state, only such a
// set (the smallest, when there are several; all actions when there is
// none) still reaches every terminal state, each at its shortest depth:
// from a state at distance d from a terminal state t, one of the set's
// actions starts a path to t of length d (an action of the set must occur
// on any path to t, or it would still be enabled there, and the first one
// to occur commutes to the front). Deadlocks and the properties judged in
// terminal states only are therefore checked exactly; properties judged
// in every state are not (the intermediate states of the interleavings
// left out are never seen), nor liveness.
//
// What would make a node's actions interfere with others' is refused
// (NewReducer): faults (a crash or a partition touches every link), an
// unordered network (a new message is a new delivery), application
// messages and request vectors (ordering), a history kept in global order
// (Config.History without HistoryByNode: records of two nodes do not
// commute), and perfect timers, whose guards read the whole world.

// Peers is implemented by protocols that know to whom each node may ever
// send: Peers(self) is that set (bit i for node i), for partial-order
// reduction. Without it, any node may send to any node, which leaves
// little to reduce. The Reducer checks the claim on every world it sees.
type Peers interface {
	Peers(self NodeID) uint64
}

// Reducer chooses persistent sets for one System (one goroutine).
type Reducer[S, M any] struct {
	sys   *System[S, M]
	peers []uint64 // peers[i]: the nodes i may send to
	from  []uint64 // from[i]: the nodes that may send to i, i excluded
}

// NewReducer returns the persistent-set chooser of sys, or an error saying
// why sys's configuration admits no partial-order reduction.
func NewReducer[S, M any](sys *System[S, M]) (*Reducer[S, M], error) {
	cfg := sys.Config
	switch {
	case sys.faulty:
		return nil, fmt.Errorf("faults (-faults %s) touch every node's links, so no node's actions are independent of the others'", cfg.Faults)
	case cfg.Network != FIFO:
		return nil, fmt.Errorf("on an unordered network every new message is a new delivery, so a node's actions never form a persistent set")
	case cfg.AppMsgs > 0 || cfg.Ordering:
		return nil, fmt.Errorf("application messages and request vectors (-app-msgs, -ordering) are not reduced")
	case cfg.History && !cfg.HistoryByNode:
		return nil, fmt.Errorf("the history keeps the global order of outputs, in which no two nodes' actions commute")
	case sys.guard != nil:
		return nil, fmt.Errorf("perfect timers fire on guards that read the whole world (-timers free reduces)")
	}
	n := sys.n
	all := uint64(1)<<n - 1
	r := &Reducer[S, M]{sys: sys, peers: make([]uint64, n), from: make([]uint64, n)}
	pp, declared := sys.P.(Peers)
	for i := range n {
		r.peers[i] = all
		if declared {
			r.peers[i] = pp.Peers(NodeID(i)) & all
		}
	}
	for i := range n {
		for j := range n {
			if i != j && r.peers[j]&(1<<i) != 0 {
				r.from[i] |= 1 << j
			}
		}
	}
	return r, nil
}

// Persistent returns a persistent subset of acts, the actions enabled in
// w in Actions' order: the actions of the node with the fewest among the
// nodes whose actions form one (the lowest id among equals), moved to the
// front of acts; acts itself when no node's do. It panics when a message
// in w contradicts the protocol's Peers.
func (r *Reducer[S, M]) Persistent(w *World[S, M], acts []Action) []Action {
	var waiting [MaxNodes]uint64 // waiting[i]: the nodes with a message on their link to i
	for k := range w.Net {
		e := &w.Net[k]
		if r.peers[e.From]&(1<<e.To) == 0 {
			panic(fmt.Sprintf("model: %s sent %s to %s, which its Peers excludes", e.From, r.sys.FormatMsg(e.Msg), e.To))
		}
		waiting[e.To] |= 1 << e.From
	}
	bestLo, bestHi := 0, len(acts)
	found := false
	for lo := 0; lo < len(acts); {
		i := acts[lo].Node
		hi := lo + 1
		for hi < len(acts) && acts[hi].Node == i {
			hi++
		}
		if r.from[i]&^waiting[i] == 0 && (!found || hi-lo < bestHi-bestLo) {
			bestLo, bestHi, found = lo, hi, true
		}
		lo = hi
	}
	if !found {
		return acts
	}
	return acts[:copy(acts, acts[bestLo:bestHi])]
}
