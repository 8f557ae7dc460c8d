package model

import "bytes"

// A protocol step's effect on the fingerprint depends only on the node
// that steps (its id, its state, its armed timers) and the event it is
// given: Step is pure and a state is known by its canonical encoding.
// The same node state meets the same event in a great many worlds (a
// message delivered to a node whatever the others are doing), so the
// system memoizes, per (node, state, timers, event), the node's part
// after the step and the hashes of the messages it sends. PeekHash then
// computes a successor's fingerprint from the parent's parts and the
// memo alone, without calling Step, copying the world or encoding
// anything; a search that finds the fingerprint new encodes the
// successor from the parent's encoding and the memo's (EncodePeeked),
// and makes it (Apply) only when it needs the world itself.
//
// The memo is a direct-mapped table of 2^memoBits entries, each replaced
// when another key lands on it: its memory is bounded (1.5 MB for the
// table, and the encodings its entries hold, per searching goroutine;
// outside -max-memory's account, like the other scratch buffers) and a
// miss only costs the step it would have saved.

// memoBits sets the number of memo entries, 2^memoBits.
const memoBits = 13

// memoEntry is one memoized step: the key (what the step's result depends
// on) and the result (what the fingerprint needs of it).
type memoEntry struct {
	// The first cache line holds what every lookup reads but the key's
	// bytes, which come in the second (the table is 1.5 MB, beyond a
	// core's L2: each line is likely a miss, and a pointer to bytes
	// elsewhere would be one more).
	hash   uint64 // the key's hash (lookup); 0 when the entry is empty
	part   uint64 // the node's part after the step (nodePart)
	timers uint64 // the node's armed timers before the step
	// tag is the searcher's note on this step (SetMemoTag), 0 when none;
	// a step that takes the entry's place starts with none.
	tag   uint64
	node  NodeID
	kind  ActionKind
	peer  NodeID // a delivery's sender
	timer TimerID
	// The key's bytes are the node's state's encoding before the step
	// (stateN bytes) then the event's (eventN): the delivered message's
	// encoding or the input; in keyIn when they fit, else in keyHeap.
	stateN, eventN uint16
	sends          []sent // the messages sent, in order
	keyIn          [memoKeyInline]byte
	keyHeap        []byte
	// What EncodePeeked needs besides: the node's state's encoding and
	// its armed timers after the step, and the messages sent, their
	// encodings one after the other (sends[k].end is where the k-th ends).
	after  []byte
	tAfter uint64
	out    []byte
	_      [8]byte // 192 bytes: an entry starts on a cache line
}

// memoRecords is what a memoized step outputs, with Config.History: each
// record's text's hash (textHash) and where the text ends in texts, one
// after the other. They are kept beside the memo's entries
// (System.memoRecs), which stay three cache lines, so that only the
// searches that keep the history read them.
type memoRecords struct {
	said  []sent
	texts []byte
}

// memoKeyInline is the room for a key's bytes in the entry itself.
const memoKeyInline = 40

// key is the entry's key bytes: the state's encoding, then the event's.
func (e *memoEntry) key() []byte {
	if n := int(e.stateN) + int(e.eventN); n <= memoKeyInline {
		return e.keyIn[:n]
	}
	return e.keyHeap
}

// setKey makes kb the entry's key bytes, the state's encoding being its
// first stateN; it reports false when they are too long to be told by
// the entry's lengths.
func (e *memoEntry) setKey(kb []byte, stateN int) bool {
	if stateN > 1<<16-1 || len(kb)-stateN > 1<<16-1 {
		return false
	}
	e.stateN, e.eventN = uint16(stateN), uint16(len(kb)-stateN)
	if len(kb) <= memoKeyInline {
		copy(e.keyIn[:], kb)
	} else {
		e.keyHeap = append(e.keyHeap[:0], kb...)
	}
	return true
}

// makeMemo makes an empty memo of 2^bits entries.
func (sys *System[S, M]) makeMemo(bits uint) {
	sys.memo, sys.memoShift = make([]memoEntry, 1<<bits), 64-bits
	if sys.Config.History {
		sys.memoRecs = make([]memoRecords, 1<<bits)
	}
}

// PeekHash returns the fingerprint of the world after action a from w,
// the world h was loaded with (LoadFP or LoadHash), without making that
// world: it is the number Apply then StepHash would give. It reports
// false, and computes nothing, for an action the memo does not serve (a
// fault, an application message; any action when the configuration keeps
// the ordering vectors, which a step changes beyond its node and links; a
// step that sends on too many links): Apply and
// StepHash must make those. It leaves the system's scratch output (LastOut)
// unspecified.
func (sys *System[S, M]) PeekHash(h *WorldHash, w *World[S, M], a *Action) (uint64, bool) {
	// (One function: split in two, the lookup and the sum, it took a
	// sixth more time on RA N=4.)
	if sys.Config.Ordering {
		return 0, false
	}
	var m, ev uint64 // the delivered message's hash; the event's
	switch a.Kind {
	case ActInput:
		ev = partHash(hashMsg, []byte(a.Input))
	case ActFire:
		ev = uint64(a.Timer) + 1
	case ActDeliver:
		e := &w.Net[a.Slot]
		if e.App {
			return 0, false
		}
		m = sys.parentMsgHash(h, w, int(a.Slot))
		ev = m ^ uint64(e.From+1)*hashLink
	default:
		return 0, false
	}
	if sys.memo == nil {
		sys.makeMemo(memoBits)
	}
	// The node part and the event are mixed already: their xor spreads
	// over the index bits.
	key := (sys.nodePartOf(h, w, a.Node) ^ ev*hashRest ^ uint64(a.Kind)) | 1
	e := &sys.memo[key>>sys.memoShift]
	if e.hash != key || !sys.memoHolds(e, h, w, a) {
		if !sys.memoize(e, key, h, w, a) {
			return 0, false
		}
	}
	sys.peeked = key
	sum := sys.stepSum(h, w, a, e.part, m, e.sends)
	if sys.Config.History {
		sum += sys.peekedRecords(h, w, a.Node, key)
	}
	return mix64(sum), true
}

// peekedRecords is the sum of the parts of the records the memoized step
// whose key is key appends, a step of node i from w, the world h was
// loaded with (records.go). (Out of PeekHash, which keeps its registers
// for the searches that keep no history.)
//
//go:noinline
func (sys *System[S, M]) peekedRecords(h *WorldHash, w *World[S, M], i NodeID, key uint64) uint64 {
	r := &sys.memoRecs[key>>sys.memoShift]
	k := sys.firstPlace(h, w, i)
	var sum uint64
	for j := range r.said {
		sum += recordPart(i, k+j, r.said[j].h)
	}
	return sum
}

// Peeked names the memo of the step the last PeekHash served, for
// EncodePeeked.
func (sys *System[S, M]) Peeked() MemoRef { return MemoRef(sys.peeked) }

// MemoRef names a memoized step (Peeked).
type MemoRef uint64

// MemoTag returns the note left on the memoized step ref by SetMemoTag,
// or 0 when there is none or another step has taken its place in the
// memo since. A searcher keeps there what it would otherwise work out
// again from the step's action and message each time the memo serves
// the step (the coverage count's kind of action: checker/coverage.go).
func (sys *System[S, M]) MemoTag(ref MemoRef) uint64 {
	if e := &sys.memo[uint64(ref)>>sys.memoShift]; e.hash == uint64(ref) {
		return e.tag
	}
	return 0
}

// SetMemoTag leaves tag on the memoized step ref (MemoTag), unless
// another step has taken its place in the memo.
func (sys *System[S, M]) SetMemoTag(ref MemoRef, tag uint64) {
	if e := &sys.memo[uint64(ref)>>sys.memoShift]; e.hash == uint64(ref) {
		e.tag = tag
	}
}

// memoAt returns the memo named ref of step a from w, the world h was
// loaded with: memoized again if another step has taken its place since.
func (sys *System[S, M]) memoAt(ref MemoRef, h *WorldHash, w *World[S, M], a *Action) *memoEntry {
	key := uint64(ref)
	e := &sys.memo[key>>sys.memoShift]
	if e.hash != key || !sys.memoHolds(e, h, w, a) {
		sys.memoize(e, key, h, w, a) // it served a before: it does again
	}
	return e
}

// memoHolds reports whether e is the memo of step a from w.
func (sys *System[S, M]) memoHolds(e *memoEntry, h *WorldHash, w *World[S, M], a *Action) bool {
	st := sys.parentState(h, w, a.Node)
	if e.node != a.Node || e.kind != a.Kind || e.timers != w.Timers[a.Node] || int(e.stateN) != len(st) {
		return false
	}
	k := e.key()
	if !bytes.Equal(k[:len(st)], st) {
		return false
	}
	switch a.Kind {
	case ActInput:
		return string(k[len(st):]) == string(a.Input)
	case ActFire:
		return e.timer == a.Timer
	default:
		return e.peer == w.Net[a.Slot].From && bytes.Equal(k[len(st):], sys.parentMsg(h, w, int(a.Slot)))
	}
}

// memoize makes e, whose key hashes to key, the memo of step a from w, by
// taking the step; it reports false, leaving e empty, when the step sends
// on too many links to be hashed by its parts.
func (sys *System[S, M]) memoize(e *memoEntry, key uint64, h *WorldHash, w *World[S, M], a *Action) bool {
	e.hash, e.tag = 0, 0
	sys.out.Reset()
	s := sys.P.Step(a.Node, w.Nodes[a.Node], sys.event(w, *a), &sys.out)
	if len(sys.out.sends) >= maxTouched {
		return false
	}
	t := armedAtStep(w.Timers[a.Node], *a)
	e.after = sys.codec.AppendState(e.after[:0], s)
	e.tAfter = sys.timersAfter(t)
	e.part = nodePart(a.Node, e.after, e.tAfter)
	e.sends, e.out = e.sends[:0], e.out[:0]
	for _, snd := range sys.out.sends {
		env := Envelope[M]{From: a.Node, To: snd.to, Msg: snd.msg}
		e.out = sys.codec.AppendMsg(e.out, snd.msg)
		e.sends = append(e.sends, sent{to: snd.to, h: sys.msgHash(h, &env), end: uint32(len(e.out))})
	}
	if sys.Config.History {
		r := &sys.memoRecs[key>>sys.memoShift]
		r.said, r.texts = r.said[:0], r.texts[:0]
		for _, o := range sys.out.outputs {
			r.texts = append(r.texts, o...)
			r.said = append(r.said, sent{h: textHash(o), end: uint32(len(r.texts))})
		}
	}
	e.node, e.kind, e.timers = a.Node, a.Kind, w.Timers[a.Node]
	e.peer, e.timer = 0, 0
	// (parentState and parentMsg share h's scratch when the world came
	// without its encoding: each is copied before the other is read.)
	kb := append(sys.memoKey[:0], sys.parentState(h, w, a.Node)...)
	stateN := len(kb)
	switch a.Kind {
	case ActInput:
		kb = append(kb, a.Input...)
	case ActFire:
		e.timer = a.Timer
	default:
		e.peer = w.Net[a.Slot].From
		kb = append(kb, sys.parentMsg(h, w, int(a.Slot))...)
	}
	sys.memoKey = kb
	if !e.setKey(kb, stateN) {
		return false
	}
	e.hash = key
	return true
}

// parentState is the encoding of node i's state in w, the world h was
// loaded with: read off w's encoding when LoadFP was given it, made
// otherwise (in h's scratch, valid until h's next use).
func (sys *System[S, M]) parentState(h *WorldHash, w *World[S, M], i NodeID) []byte {
	if h.spans != nil {
		from := uint32(0)
		if i > 0 {
			from = h.spans[i-1]
		}
		return h.enc[from:h.spans[i]]
	}
	h.buf = sys.codec.AppendState(h.buf[:0], w.Nodes[i])
	return h.buf
}

// parentMsg is the encoding of message k in flight in w, as parentState.
func (sys *System[S, M]) parentMsg(h *WorldHash, w *World[S, M], k int) []byte {
	if j := sys.n + 2*k; j+1 < len(h.spans) {
		return h.enc[h.spans[j]:h.spans[j+1]]
	}
	h.buf = sys.codec.AppendMsg(h.buf[:0], w.Net[k].Msg)
	return h.buf
}
