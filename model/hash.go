package model

import "encoding/binary"

// The fingerprint of a world is made of the fingerprints of its parts, so
// that a step pays only for the parts it changes. A world's parts are:
// each node (its state's encoding and its armed timers), each link that
// holds messages (their encodings, in the link's canonical order), each
// record of the history (records.go), and the rest (crashes, faults used,
// the partition, the ordering vectors, the application messages sent).
// Each part's fingerprint is mixed with its place (node i, link
// to<-from, record k), the parts are added (mod 2^64), and the sum is
// mixed once more. Two worlds with the same canonical encoding have the
// same parts, hence the same fingerprint; two different worlds share one
// with a chance of about 2^-64, as with a hash of the whole encoding.
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
	sum uint64 // the parts' sum (the fingerprint before the last mix)
	// The parent's parts, computed when a step first needs them: nodes[i]
	// is valid when nodeGen[i] == gen, links[to*n+from] when
	// linkGen[to*n+from] == gen, rest when restGen == gen.
	nodes   []uint64
	nodeGen []uint32
	links   []uint64
	linkH   []uint64 // each link's message hash (see linkState)
	linkK   []int    // and its length
	linkGen []uint32
	// first[l] is where link l's messages start in the parent's Net,
	// valid when firstGen[l] == gen; netGen == gen once they are known.
	first    []int32
	firstGen []uint32
	netGen   uint32
	rest     uint64
	restGen  uint32
	// histN[i] is the number of node i's records in the parent's history,
	// valid when histGen == gen (firstPlace).
	histN   []int
	histGen uint32
	gen     uint32
	buf     []byte
	done    [maxTouched]touched
	sent    []sent // StepHash's scratch
}

// touched is a link a step changes: its part in the parent, and its
// message hash and length as the step leaves them.
type touched struct {
	to, from NodeID
	old, h   uint64
	k        int
}

// maxTouched bounds the links one step's delta is computed for at once;
// a step that sends on more is hashed whole.
const maxTouched = 16

const (
	hashNode = 0x9e3779b97f4a7c15
	hashLink = 0xc2b2ae3d27d4eb4f
	hashTime = 0x165667b19e3779f9
	hashRest = 0xd6e8feb86659fd93
	hashMsg  = 0x8cb92ba72f3d8dd7
)

// slotMul spreads a cache's key over its slots: the slot is the top bits
// of key*slotMul (the golden ratio's, Fibonacci hashing). One multiply,
// where mix64 takes two and three shifts: a cache's slot decides only
// where an entry is looked for, not what it holds.
const slotMul = 0x9e3779b97f4a7c15

// mix64 is a bijective finalizer (splitmix64's).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// unmix64 is mix64's inverse: the sum of a world's parts from its
// fingerprint.
func unmix64(x uint64) uint64 {
	// Each x ^= x >> s undone by x ^ x>>s ^ x>>2s ..., written out: as a
	// loop on s it ran about 80 instructions a state (Load runs it once
	// a state; centralized N=6 R=2: 1.9% of the search's instructions).
	x ^= x>>31 ^ x>>62
	x *= 0x319642b2d24d8ec3 // the inverse of 0x94d049bb133111eb mod 2^64
	x ^= x>>27 ^ x>>54
	x *= 0x96de1b173f119089 // the inverse of 0xbf58476d1ce4e5b9
	return x ^ x>>30 ^ x>>60
}

// partHash hashes a part's encoding b under seed, which names the part.
// A part is a few bytes: a word at a time, one final mix. Inputs of one
// word or less never collide under one seed (each step is a bijection of
// the word).
func partHash(seed uint64, b []byte) uint64 {
	h := seed ^ uint64(len(b))*hashNode
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xbf58476d1ce4e5b9
		h ^= h >> 29
		b = b[8:]
	}
	if len(b) > 0 {
		h = (h ^ tailWord(b)) * 0x94d049bb133111eb
		h ^= h >> 32
	}
	return mix64(h)
}

// tailWord packs the 1 to 7 bytes of b into a word that determines them
// (given their number) with two loads at most: the first and last four
// bytes, overlapping, or the first, middle and last byte.
func tailWord(b []byte) uint64 {
	n := len(b)
	if n >= 4 {
		return uint64(binary.LittleEndian.Uint32(b))<<32 | uint64(binary.LittleEndian.Uint32(b[n-4:]))
	}
	return uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
}

// nodePart is the part of node i with state encoding enc and timers t.
func nodePart(i NodeID, enc []byte, t uint64) uint64 {
	return partHash(uint64(i+1)*hashNode^t*hashTime, enc)
}

// A link's part is made from its k messages' hashes (msgHash): on a FIFO
// network their polynomial sum, h(m1)P^(k-1) + ... + h(mk), so that the
// order counts and a step updates it in O(1) (a delivery takes the head's
// term away, a send multiplies by P and adds its own); on an unordered
// one their plain sum, the link being a multiset.
const hashPoly = 0x9fb21c651e98df25

// linkPart is the part of link to<-from, whose k messages hash to h.
func linkPart(to, from NodeID, h uint64, k int) uint64 {
	if k == 0 {
		return 0
	}
	return mix64(h ^ uint64(k)*hashTime + (uint64(to)<<8|uint64(from)+1)*hashLink)
}

// powPoly is hashPoly^k: from a table for the lengths links have.
func powPoly(k int) uint64 {
	if uint(k) < uint(len(polyPowers)) {
		return polyPowers[k]
	}
	return powPolyLoop(k)
}

// polyPowers[k] is hashPoly^k.
var polyPowers = func() (t [64]uint64) {
	for k := range t {
		t[k] = powPolyLoop(k)
	}
	return t
}()

// powPolyLoop is hashPoly^k, by squaring.
func powPolyLoop(k int) uint64 {
	r, b := uint64(1), uint64(hashPoly)
	for ; k > 0; k >>= 1 {
		if k&1 != 0 {
			r *= b
		}
		b *= b
	}
	return r
}

// msgHash is the hash of a message as a link holds it.
func (sys *System[S, M]) msgHash(h *WorldHash, e *Envelope[M]) uint64 {
	h.buf = sys.appendEnvelope(h.buf[:0], e)
	return partHash(hashMsg, h.buf)
}

// addMsg is a link's hash and length once message hash m is sent on it.
func (sys *System[S, M]) addMsg(h uint64, k int, m uint64) (uint64, int) {
	if sys.Config.Network == FIFO {
		return h*hashPoly + m, k + 1
	}
	return h + m, k + 1
}

// HashWorld returns the fingerprint of w. It is Hash: the same number
// StepHash computes for the same world.
func (sys *System[S, M]) HashWorld(w *World[S, M]) uint64 {
	sys.LoadHash(&sys.whole, w)
	return sys.whole.Fingerprint()
}

// Fingerprint is the fingerprint of the world h was loaded with.
func (h *WorldHash) Fingerprint() uint64 { return mix64(h.sum) }

// LoadHash sets h to the parts of w, the parent of the steps to hash,
// computing them all.
func (sys *System[S, M]) LoadHash(h *WorldHash, w *World[S, M]) {
	n := sys.n
	if len(h.nodes) != n {
		h.nodes, h.nodeGen = make([]uint64, n), make([]uint32, n)
		h.links, h.linkGen = make([]uint64, n*n), make([]uint32, n*n)
		h.linkH, h.linkK = make([]uint64, n*n), make([]int, n*n)
		h.first, h.firstGen = make([]int32, n*n), make([]uint32, n*n)
		h.histN = make([]int, n)
	}
	if h.gen++; h.gen == 0 { // the stamps wrapped: forget them all
		clear(h.nodeGen)
		clear(h.linkGen)
		clear(h.firstGen)
		h.restGen, h.netGen, h.histGen = 0, 0, 0
		h.gen = 1
	}
	h.sum = 0
	for i := range n {
		h.sum += sys.nodePartOf(h, w, NodeID(i))
	}
	h.sum += sys.restPartOf(h, w)
	for k := 0; k < len(w.Net); {
		l := int(w.Net[k].To)*n + int(w.Net[k].From)
		k = sys.linkAt(h, w, k, l)
		h.sum += h.links[l]
	}
}

// nodePartOf is the part of node i of the parent world w.
func (sys *System[S, M]) nodePartOf(h *WorldHash, w *World[S, M], i NodeID) uint64 {
	if h.nodeGen[i] == h.gen {
		return h.nodes[i]
	}
	h.buf = sys.codec.AppendState(h.buf[:0], w.Nodes[i])
	p := nodePart(i, h.buf, w.Timers[i])
	h.nodes[i], h.nodeGen[i] = p, h.gen
	return p
}

// restPartOf is the rest's part of the parent world w.
func (sys *System[S, M]) restPartOf(h *WorldHash, w *World[S, M]) uint64 {
	if h.restGen != h.gen {
		h.rest, h.restGen = sys.restPart(h, w), h.gen
	}
	return h.rest
}

// linkAt memoizes the part of the link whose messages start at w.Net[k],
// number l, and returns the index after them.
func (sys *System[S, M]) linkAt(h *WorldHash, w *World[S, M], k, l int) int {
	to, from := w.Net[k].To, w.Net[k].From
	var lh uint64
	n := 0
	for ; k < len(w.Net) && w.Net[k].To == to && w.Net[k].From == from; k++ {
		lh, n = sys.addMsg(lh, n, sys.msgHash(h, &w.Net[k]))
	}
	h.links[l], h.linkH[l], h.linkK[l], h.linkGen[l] = linkPart(to, from, lh, n), lh, n, h.gen
	return k
}

// parentLink memoizes the part, hash and length of link to<-from of the
// parent world w, and returns its number.
func (sys *System[S, M]) parentLink(h *WorldHash, w *World[S, M], to, from NodeID) int {
	l := int(to)*sys.n + int(from)
	if h.linkGen[l] == h.gen {
		return l
	}
	if h.netGen != h.gen {
		// Where each link starts, in one pass over the messages.
		for k := 0; k < len(w.Net); k++ {
			if k == 0 || w.Net[k].To != w.Net[k-1].To || w.Net[k].From != w.Net[k-1].From {
				m := int(w.Net[k].To)*sys.n + int(w.Net[k].From)
				h.first[m], h.firstGen[m] = int32(k), h.gen
			}
		}
		h.netGen = h.gen
	}
	if h.firstGen[l] != h.gen {
		h.links[l], h.linkH[l], h.linkK[l], h.linkGen[l] = 0, 0, 0, h.gen
		return l
	}
	sys.linkAt(h, w, int(h.first[l]), l)
	return l
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
	b := sys.appendRest(h.buf[:0], w, false)
	h.buf = b
	p := partHash(hashRest, b)
	if sys.Config.History {
		p += sys.historyPart(w)
	}
	return p
}

// StepHash returns the fingerprint of next, the world after action a from
// the world h was loaded with (w). It must follow Apply(w, a, next) at
// once, since it reads the messages the step sent from the system's
// scratch output.
func (sys *System[S, M]) StepHash(h *WorldHash, w *World[S, M], a Action, next *World[S, M]) uint64 {
	protocolStep := a.Kind == ActInput || a.Kind == ActFire || a.Kind == ActDeliver && !w.Net[a.Slot].App
	if !protocolStep || len(sys.out.sends) >= maxTouched {
		return sys.HashWorld(next)
	}
	h.buf = sys.codec.AppendState(h.buf[:0], next.Nodes[a.Node])
	part := nodePart(a.Node, h.buf, next.Timers[a.Node])
	h.sent = h.sent[:0]
	for _, snd := range sys.out.sends {
		e := Envelope[M]{From: a.Node, To: snd.to, Msg: snd.msg}
		if sys.Config.Ordering {
			e.VC = next.VC[a.Node]
		}
		h.sent = append(h.sent, sent{to: snd.to, h: sys.msgHash(h, &e)})
	}
	var m uint64 // the delivered message's hash
	if a.Kind == ActDeliver {
		m = sys.msgHash(h, &w.Net[a.Slot])
	}
	sum := sys.stepSum(h, w, &a, part, m, h.sent)
	if sys.Config.Ordering {
		sum += sys.restPart(h, next) - sys.restPartOf(h, w)
	} else if sys.Config.History {
		// The records the step appended (records.go).
		k := sys.firstPlace(h, w, a.Node)
		for j, o := range sys.out.outputs {
			sum += recordPart(a.Node, k+j, textHash(o))
		}
	}
	return mix64(sum)
}

// sent is a message a step sends: its receiver and its hash (msgHash).
type sent struct {
	h  uint64
	to NodeID
}

// stepSum is the sum of the parts (the fingerprint before its last mix)
// of the world after protocol step a from the world h was loaded with
// (w), but for the rest's part, which is w's: the step leaves node
// a.Node's part at part, takes the delivered message (hash m) off its
// link, and sends the messages sent, in their order, those to a crashed
// node or across the partition being lost (a protocol step changes
// neither).
func (sys *System[S, M]) stepSum(h *WorldHash, w *World[S, M], a *Action, part, m uint64, sends []sent) uint64 {
	sum := h.sum - sys.nodePartOf(h, w, a.Node) + part
	// The links the step changed, done[:n]: the one it received on loses
	// the delivered message, the ones it sent on gain theirs, in the
	// order Apply takes them. A step sends fewer than maxTouched messages
	// (or is hashed whole), so they fit.
	done := &h.done
	n := 0
	if a.Kind == ActDeliver {
		from := w.Net[a.Slot].From
		l := sys.parentLink(h, w, a.Node, from)
		k := h.linkK[l]
		if sys.Config.Network == FIFO {
			m *= powPoly(k - 1) // the head
		}
		// (Field by field: a composite literal is built on the stack and
		// copied in 16-byte moves that cannot forward from its narrower
		// stores, a stall on every delivery.)
		t := &done[0]
		t.to, t.from, t.old, t.h, t.k = a.Node, from, h.links[l], h.linkH[l]-m, k-1
		n = 1
	}
	for _, snd := range sends {
		if w.IsDown(snd.to) || w.Separated(a.Node, snd.to) {
			continue // lost, as effects loses it
		}
		i := 0
		for i < n && (done[i].to != snd.to || done[i].from != a.Node) {
			i++
		}
		if i == n {
			l := sys.parentLink(h, w, snd.to, a.Node)
			t := &done[i]
			t.to, t.from, t.old, t.h, t.k = snd.to, a.Node, h.links[l], h.linkH[l], h.linkK[l]
			n++
		}
		t := &done[i]
		t.h, t.k = sys.addMsg(t.h, t.k, snd.h)
	}
	for i := range done[:n] {
		t := &done[i]
		sum += linkPart(t.to, t.from, t.h, t.k) - t.old
	}
	return sum
}
