package model

// Envelope is a message in flight from one node to another.
type Envelope[M any] struct {
	From, To NodeID
	Msg      M
}

// World is the global state: every node's state, the armed timers, the
// crashed nodes and the messages in flight.
//
// Net is kept in canonical order: sorted by (To, From); within one link the
// order is the sending order (FIFO networks) or the order of the messages'
// encodings (unordered networks, where a link holds a multiset).
type World[S, M any] struct {
	Nodes  []S
	Timers []uint64 // per node, bit t set when timer t is armed
	Down   uint64   // bit i set when node i has crashed
	Net    []Envelope[M]
	// Used counts the faults of each kind that have struck so far.
	Used [numFaults]uint8
	// Cut is the group of a partition (bit i for node i; node 0 is always
	// in it): links between Cut and the other nodes lose every message.
	// Zero when the network is whole.
	Cut uint64
}

// IsDown reports whether node id has crashed and not restarted.
func (w *World[S, M]) IsDown(id NodeID) bool { return w.Down&(1<<id) != 0 }

// CopyFrom makes w a copy of src, reusing w's memory.
func (w *World[S, M]) CopyFrom(src *World[S, M]) {
	w.Nodes = append(w.Nodes[:0], src.Nodes...)
	w.Timers = append(w.Timers[:0], src.Timers...)
	w.Down = src.Down
	w.Net = append(w.Net[:0], src.Net...)
	w.Used = src.Used
	w.Cut = src.Cut
}

// Separated reports whether a partition separates nodes a and b.
func (w *World[S, M]) Separated(a, b NodeID) bool {
	return w.Cut != 0 && (w.Cut>>a)&1 != (w.Cut>>b)&1
}

// InFlight counts the messages in flight for which pred holds.
func (w *World[S, M]) InFlight(pred func(e Envelope[M]) bool) int {
	n := 0
	for _, e := range w.Net {
		if pred(e) {
			n++
		}
	}
	return n
}
