package model

import "math/bits"

// The fingerprint of a world is made of the fingerprints of its parts, so
// that a step pays only for the parts it changes. A world's parts are:
// each node (its state's encoding and its armed timers), each link that
// holds messages (their encodings, in the link's canonical order), and
// the rest (crashes, faults used, the partition, the ordering vectors, the
// application messages sent, the history). Each part's fingerprint is
// mixed with its place (node i, link to<-from), the parts are added
// (mod 2^64), and the sum is mixed once more. Two worlds with the same
// canonical encoding have the same parts, hence the same fingerprint;
// two different worlds share one with a chance of about 2^-64, as with a
// hash of the whole encoding.
//
// A protocol step (an input, a timer, the delivery of a protocol message)
// changes one node, the link it received on and the links it sent on,
// and, when they are kept, the ordering vectors and the history: StepHash
// computes the successor's fingerprint from the parent's parts and these
// alone. Any other action (a fault, an application message) is hashed
// whole.

// WorldHash holds the fingerprints of the parts of one world, the parent
// of the steps StepHash hashes. One WorldHash serves one goroutine.
type WorldHash struct {
	sum   uint64   // the parts' sum (the fingerprint before the last mix)
	nodes []uint64 // each node's part
	rest  uint64
	// links memoizes the parent's link parts: links[to*n+from] is valid
	// when stamp[to*n+from] == gen.
	links []uint64
	stamp []uint32
	gen   uint32
	buf   []byte
	done  [maxTouched]link
}

// maxTouched bounds the links one step's delta is computed for at once;
// a step that sends on more is hashed whole.
const maxTouched = 16

type link struct{ to, from NodeID }

const (
	hashNode = 0x9e3779b97f4a7c15
	hashLink = 0xc2b2ae3d27d4eb4f
	hashTime = 0x165667b19e3779f9
	hashRest = 0xd6e8feb86659fd93
)

// mix64 is a bijective finalizer (splitmix64's).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// nodePart is the part of node i with state encoding enc and timers t.
func nodePart(i NodeID, enc []byte, t uint64) uint64 {
	hi, lo := bits.Mul64(Fingerprint(enc)^t*hashTime, uint64(i+1)*hashNode)
	return mix64(hi ^ lo ^ t)
}

// linkPart is the part of link to<-from whose messages encode as enc.
func linkPart(to, from NodeID, enc []byte) uint64 {
	return mix64(Fingerprint(enc) + (uint64(to)<<8|uint64(from)+1)*hashLink)
}

// HashWorld returns the fingerprint of w. It is Hash: the same number
// StepHash computes for the same world.
func (sys *System[S, M]) HashWorld(w *World[S, M]) uint64 {
	var h WorldHash
	sys.LoadHash(&h, w, nil, nil)
	return h.Fingerprint()
}

// Fingerprint is the fingerprint of the world h was loaded with.
func (h *WorldHash) Fingerprint() uint64 { return mix64(h.sum) }

// LoadHash sets h to the parts of w, the parent of the steps to hash.
// enc and spans, when given, are w's encoding and its nodes' ends
// (DecodeSpans), which spare encoding the nodes again.
func (sys *System[S, M]) LoadHash(h *WorldHash, w *World[S, M], enc []byte, spans []uint32) {
	n := sys.n
	if len(h.links) != n*n {
		h.links, h.stamp = make([]uint64, n*n), make([]uint32, n*n)
	}
	if h.gen++; h.gen == 0 { // stamps wrapped: forget them all
		clear(h.stamp)
		h.gen = 1
	}
	h.nodes = h.nodes[:0]
	h.sum = 0
	from := uint32(0)
	for i := range n {
		var p uint64
		if spans != nil {
			p = nodePart(NodeID(i), enc[from:spans[i]], w.Timers[i])
			from = spans[i]
		} else {
			h.buf = sys.codec.AppendState(h.buf[:0], w.Nodes[i])
			p = nodePart(NodeID(i), h.buf, w.Timers[i])
		}
		h.nodes = append(h.nodes, p)
		h.sum += p
	}
	h.rest = sys.restPart(h, w)
	h.sum += h.rest
	for k := 0; k < len(w.Net); {
		to, fr := w.Net[k].To, w.Net[k].From
		p, end := sys.linkAt(h, w, k)
		h.links[int(to)*n+int(fr)], h.stamp[int(to)*n+int(fr)] = p, h.gen
		h.sum += p
		k = end
	}
}

// linkAt is the part of the link whose messages start at w.Net[k], and
// the index after them.
func (sys *System[S, M]) linkAt(h *WorldHash, w *World[S, M], k int) (uint64, int) {
	to, from := w.Net[k].To, w.Net[k].From
	h.buf = h.buf[:0]
	for ; k < len(w.Net) && w.Net[k].To == to && w.Net[k].From == from; k++ {
		h.buf = sys.appendEnvelope(h.buf, &w.Net[k])
	}
	return linkPart(to, from, h.buf), k
}

// linkPartOf is the part of link to<-from in w (0 when it is empty).
func (sys *System[S, M]) linkPartOf(h *WorldHash, w *World[S, M], to, from NodeID) uint64 {
	k := 0
	for k < len(w.Net) && (w.Net[k].To < to || w.Net[k].To == to && w.Net[k].From < from) {
		k++
	}
	if k == len(w.Net) || w.Net[k].To != to || w.Net[k].From != from {
		return 0
	}
	p, _ := sys.linkAt(h, w, k)
	return p
}

// appendEnvelope appends a message's encoding as a link holds it.
func (sys *System[S, M]) appendEnvelope(b []byte, e *Envelope[M]) []byte {
	if sys.Config.AppMsgs > 0 {
		b = AppendBool(b, e.App)
	}
	b = sys.codec.AppendMsg(b, e.Msg)
	if sys.Config.Ordering {
		b = AppendUvarint(b, e.VC)
	}
	return b
}

// restPart is the part of everything in w but its nodes, timers and links.
func (sys *System[S, M]) restPart(h *WorldHash, w *World[S, M]) uint64 {
	b := AppendUvarint(h.buf[:0], w.Down)
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
	if sys.Config.History {
		b = AppendUvarint(b, uint64(len(w.History)))
		for _, r := range w.History {
			b = AppendString(append(b, byte(r.Node)), r.Text)
		}
	}
	h.buf = b
	return mix64(Fingerprint(b) + hashRest)
}

// StepHash returns the fingerprint of next, the world after action a from
// the world h was loaded with (w). It must follow Apply(w, a, next) at
// once, since it reads the messages the step sent from the system's
// scratch output.
func (sys *System[S, M]) StepHash(h *WorldHash, w *World[S, M], a Action, next *World[S, M]) uint64 {
	protocolStep := a.Kind == ActInput || a.Kind == ActFire || a.Kind == ActDeliver && !w.Net[a.Slot].App
	if !protocolStep || len(sys.out.sends) >= maxTouched {
		var whole WorldHash
		whole.buf = h.buf
		sys.LoadHash(&whole, next, nil, nil)
		h.buf = whole.buf
		return whole.Fingerprint()
	}
	n := sys.n
	h.buf = sys.codec.AppendState(h.buf[:0], next.Nodes[a.Node])
	sum := h.sum - h.nodes[a.Node] + nodePart(a.Node, h.buf, next.Timers[a.Node])
	if sys.Config.Ordering || sys.Config.History {
		sum += sys.restPart(h, next) - h.rest
	}
	done := h.done[:0]
	touch := func(to, from NodeID) {
		for _, l := range done {
			if l.to == to && l.from == from {
				return
			}
		}
		done = append(done, link{to, from})
		i := int(to)*n + int(from)
		if h.stamp[i] != h.gen {
			h.links[i], h.stamp[i] = sys.linkPartOf(h, w, to, from), h.gen
		}
		sum += sys.linkPartOf(h, next, to, from) - h.links[i]
	}
	if a.Kind == ActDeliver {
		touch(a.Node, w.Net[a.Slot].From)
	}
	for _, s := range sys.out.sends {
		touch(s.to, a.Node)
	}
	return mix64(sum)
}
