package model

import (
	"fmt"
	"unsafe"

	"github.com/coordcheck/coordcheck/internal/lines"
)

// Encode appends the canonical encoding of w to b.
func (sys *System[S, M]) Encode(b []byte, w *World[S, M]) []byte {
	for i := range w.Nodes {
		b = sys.codec.AppendState(b, w.Nodes[i])
	}
	return sys.encodeRest(b, w)
}

// appendRest appends the encoding of w's rest: everything but its nodes,
// timers and network (its crashes, faults used, partition, ordering
// vectors, application messages sent and, with history, its history).
// It is also the key of a rest in a Store, and, without the history,
// what the rest's part hashes (restPart).
func (sys *System[S, M]) appendRest(b []byte, w *World[S, M], history bool) []byte {
	b = AppendUvarint(b, w.Down)
	if sys.faulty {
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
	if history && sys.Config.History {
		b = AppendUvarint(b, uint64(len(w.History)))
		for _, r := range w.History {
			b = AppendString(append(b, byte(r.Node)), r.Text)
		}
	}
	return b
}

// encodeRest appends the encoding of everything in w but its nodes.
func (sys *System[S, M]) encodeRest(b []byte, w *World[S, M]) []byte {
	for _, t := range w.Timers {
		b = AppendUvarint(b, t)
	}
	b = sys.appendRest(b, w, true)
	b = AppendUvarint(b, uint64(len(w.Net)))
	for i := range w.Net {
		e := &w.Net[i]
		b = append(b, byte(e.To), byte(e.From))
		if sys.Config.AppMsgs > 0 {
			b = AppendBool(b, e.App)
		}
		b = sys.codec.AppendMsg(b, e.Msg)
		if sys.Config.Ordering {
			b = AppendUvarint(b, e.VC)
		}
	}
	return b
}

// Decode sets w to the world encoded in b, reusing w's memory.
func (sys *System[S, M]) Decode(b []byte, w *World[S, M]) {
	sys.decode(b, w)
}

// decode is Decode that also returns the bytes after the world's
// encoding.
func (sys *System[S, M]) decode(b []byte, w *World[S, M]) []byte {
	w.Nodes = resize(w.Nodes, sys.n)
	// A derived codec reads each state in place: through ReadState, the
	// state would be written field by field into a temporary and copied
	// twice, wide moves over narrow stores, which stall (perf: a quarter
	// of decode's samples).
	for i := range w.Nodes {
		if sp := sys.statePlan; sp != nil {
			b = sp.read(b, unsafe.Pointer(&w.Nodes[i]))
		} else {
			w.Nodes[i], b = sys.codec.ReadState(b)
		}
	}
	w.Timers = resize(w.Timers, sys.n)
	for i := range w.Timers {
		w.Timers[i], b = ReadUvarint(b)
	}
	b = sys.readRest(b, w)
	var k uint64
	k, b = ReadUvarint(b)
	if k > uint64(len(b))/2 { // each message takes two bytes at least
		panic(fmt.Sprintf("%d messages in flight in %d bytes", k, len(b)))
	}
	w.Net = resize(w.Net, int(k))
	for i := range w.Net {
		e := &w.Net[i]
		e.To, e.From, e.App, e.VC = NodeID(b[0]), NodeID(b[1]), false, 0
		b = b[2:]
		if sys.Config.AppMsgs > 0 {
			e.App, b = ReadBool(b)
		}
		if mp := sys.msgPlan; mp != nil {
			b = mp.read(b, unsafe.Pointer(&e.Msg))
		} else {
			e.Msg, b = sys.codec.ReadMsg(b)
		}
		if sys.Config.Ordering {
			e.VC, b = ReadUvarint(b)
		}
	}
	return b
}

// readRest reads into w the rest appendRest wrote at the start of b, with
// its history, and returns the bytes after it.
func (sys *System[S, M]) readRest(b []byte, w *World[S, M]) []byte {
	w.Down, b = ReadUvarint(b)
	w.Used, w.Cut = [numFaults]uint8{}, 0
	if sys.faulty {
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
	// The records w held, which the search's last state (decoded into w)
	// mostly shares: a text read where w had it is its string already.
	old := w.History[:cap(w.History)]
	w.History = w.History[:0]
	if sys.Config.History {
		var h uint64
		h, b = ReadUvarint(b)
		for k := range int(h) {
			n, rest := ReadUvarint(b[1:])
			text := rest[:n]
			var s string
			if k < len(old) && old[k].Text == string(text) {
				s = old[k].Text
			} else {
				s = sys.text(text)
			}
			w.History = append(w.History, Record{Node: NodeID(b[0]), Text: s})
			b = rest[n:]
		}
	}
	return b
}

// resize returns s with length n, reusing its memory when it can; the
// elements are to be overwritten.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}

// ownResized is resize for an array a goroutine writes at every state (a
// cursor's world's nodes and timers): made anew on cache lines of its
// own (internal/lines).
func ownResized[T any](s []T, n int) []T {
	if cap(s) < n {
		return lines.Own[T](n)
	}
	return s[:n]
}

// maxTexts bounds the record texts a system keeps (text).
const maxTexts = 1 << 12

// text is the string of a record's text b. A search's records are a few
// texts told over and over ("deliver p0#1"), so the system keeps one
// string per text, and decoding a state allocates none of them again
// (slicebytetostring and the collector took 12% of causal-mcast's
// samples); past maxTexts texts, a new one is allocated as decoded.
func (sys *System[S, M]) text(b []byte) string {
	if s, ok := sys.texts[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(sys.texts) < maxTexts {
		if sys.texts == nil {
			sys.texts = make(map[string]string)
		}
		sys.texts[s] = s
	}
	return s
}
