package model

// Envelope is a message in flight from one node to another.
type Envelope[M any] struct {
	From, To NodeID
	Msg      M
	// App marks an application message of the workload (Config.AppMsgs):
	// it carries causality between nodes but no protocol message.
	App bool
	// VC is the sender's request vector when the message was sent, kept
	// when Config.Ordering is on (see World.VC).
	VC uint64
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

	// Causality of requests, kept when Config.Ordering is on. VC[k] is
	// node k's request vector: byte i counts the requests of node i that
	// happened before k's present (Lamport's happened-before, carried by
	// every message). ReqVC[k] is VC[k] at k's latest request, so node i's
	// current request (number VC[i] byte i) happened before k's latest
	// request exactly when ReqVC[k] byte i reaches it.
	VC, ReqVC []uint64
	// AppSent counts the application messages sent so far.
	AppSent uint8
	// History is the record of observable outcomes (Out.Output), in the
	// order they happened, kept when Config.History is on: client
	// invocations and returns, for linearizability and ordering properties.
	// Under Config.HistoryByNode, grouped by node, each node's in its order.
	History []Record
}

// Record is one entry of the history: an outcome that node Node output.
type Record struct {
	Node NodeID
	Text string
}

// VCByte returns byte i of a packed request vector.
func VCByte(vc uint64, i NodeID) uint8 { return uint8(vc >> (8 * i)) }

// HappenedBefore reports whether node i's current request happened before
// node k's latest request (Config.Ordering must be on).
func (w *World[S, M]) HappenedBefore(i, k NodeID) bool {
	cur := VCByte(w.VC[i], i)
	return cur > 0 && VCByte(w.ReqVC[k], i) >= cur
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
	w.AppSent = src.AppSent
	// The ordering vectors and the history are empty unless the
	// configuration keeps them: most steps need not touch them.
	if len(src.VC)|len(w.VC) != 0 {
		w.VC = append(w.VC[:0], src.VC...)
		w.ReqVC = append(w.ReqVC[:0], src.ReqVC...)
	}
	if len(src.History)|len(w.History) != 0 {
		w.History = append(w.History[:0], src.History...)
	}
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
