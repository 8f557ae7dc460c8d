package model

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/coordcheck/coordcheck/internal/lines"
)

// Cursor is one goroutine's view of a Store: the world it loaded last, by
// its parts' ids, and the caches that let it take most protocol steps
// from there on ids alone (Step). A search makes one per worker.
type Cursor[S, M any] struct {
	_   lines.Pad // no other goroutine's memory on its lines
	st  *Store[S, M]
	sys *System[S, M] // the goroutine's own (its codec's and Step's scratch)

	// The loaded world: its stored form, its nodes' ids and parts, its
	// rest, each place's link (place to*n+from), the places of its links
	// in order, the id of each message in Net, and the sum of its parts
	// (its fingerprint before the last mix).
	// The arrays by node and by place are MaxNodes and MaxNodes² long,
	// indexed through a mask that leaves every index as it is (a system
	// has at most MaxNodes nodes) and spares the bounds checks: with all
	// bounds checks off, centralized N=6 R=2 took 13% fewer instructions.
	vec       []byte
	node      [MaxNodes]uint32
	nodePart  [MaxNodes]uint64
	inputs    [MaxNodes][]Input
	down, cut uint64
	rest      uint32
	restPart  uint64
	at        [maxPlaces]placed
	places    []int32
	// recv[k] is the set of the receivers of the first k+1 links loaded.
	recv   [maxPlaces]uint64
	netMsg []uint32
	sum    uint64
	loaded *World[S, M] // the world the last Load set
	// quiet has bit i set when node i's state has no input and no timer
	// armed; idle, when besides no message is on its way to it: no
	// action of the loaded world is node i's (Actions passes it over).
	quiet, idle uint64
	timed       uint64 // bit i set when node i has a timer armed
	// skipped[i] is the number of steps the last ActionsAwake left out
	// before the first it listed of node i (of a node it listed any
	// of), and skippedAll their number (IndexInAll).
	skipped    [MaxNodes]int32
	skippedAll int
	// part is Step's scratch: the new parts of the links a step changes.
	part [maxTouched]uint64
	// dig holds the loaded nodes' digests (Store.SetDigests): the j-th
	// of node i at dig[j*n+i], so that each digest's are side by side.
	// digEpoch changes whenever dig does (DigestEpoch).
	dig      []uint32
	digEpoch uint64

	memo      []stepMemo // the steps taken, by node state and event
	memoIn    []Input    // beside memo: the input of an ActInput entry
	memoShift uint       // a step's entry is memo[hash>>memoShift]
	memoBits  uint       // the memo's size when made: 2^memoBits (0: cursorMemoBits)
	serial    *uint32    // the steps memoized so far
	linkOps   *linkOps   // the links made by a send or a delivery
	restOps   []restOp   // the rests made by a step's records

	key, buf  []byte // interning's scratch
	ids       []uint32
	restWorld World[S, M]
	_         lines.Pad
}

// NewCursor makes a cursor on st for a goroutine whose system is sys (a
// System serves one goroutine). The cursors of a store must have systems
// of the same number of nodes: it panics otherwise.
func NewCursor[S, M any](st *Store[S, M], sys *System[S, M]) *Cursor[S, M] {
	if !st.n.CompareAndSwap(0, int32(sys.n)) && st.n.Load() != int32(sys.n) {
		panic(fmt.Sprintf("model: a cursor of %d nodes on a store of %d", sys.n, st.n.Load()))
	}
	return &Cursor[S, M]{st: st, sys: sys}
}

// netRoom is the room Load makes for a world's messages in flight.
const netRoom = 256

// maxPlaces is the number of places of links: MaxNodes² (a place is
// to*n+from).
const maxPlaces = MaxNodes * MaxNodes

// nodeMask and placeMask are the cursor's masks of a node's and a
// place's index.
const (
	nodeMask  = MaxNodes - 1
	placeMask = maxPlaces - 1
)

// placed is the link a loaded world has at a place: its id (0 when the
// place is empty), its part, and the slot in Net of its first message.
// One array of them, not one a field, takes one bounds check a place.
type placed struct {
	id    uint32
	start int32
	part  uint64
}

// System is the cursor's system (its goroutine's).
func (c *Cursor[S, M]) System() *System[S, M] { return c.sys }

// Store is the store the cursor reads.
func (c *Cursor[S, M]) Store() *Store[S, M] { return c.st }

// Load sets w to the world whose stored form is vec (see Store), and makes
// it the parent of the steps Step takes; fp is its fingerprint (0 when no
// step will be taken). vec must stay unchanged until the next Load.
func (c *Cursor[S, M]) Load(vec []byte, fp uint64, w *World[S, M]) {
	st, n := c.st, c.sys.n
	c.vec = vec
	// A node whose state's id is the one the last Load into w gave it is
	// there already, with its part and inputs: the states of a level one
	// after the other are mostly siblings, which differ in a node or two
	// (ring N=10, one worker: 0.959x the time). Nothing writes the world
	// between loads: the engine only reads it, and the codec self-check
	// fails a protocol whose properties change it (checker/selfcheck.go).
	same := c.loaded == w && len(w.Nodes) == n && len(w.Timers) == n
	if len(c.dig) != st.k*n {
		c.dig, same = lines.Own[uint32](st.k*n), false
		c.digEpoch++
	}
	// (When same, they are so already: stored again at every load, each
	// went through the write barrier's test.)
	if !same {
		c.loaded = w
		w.Nodes, w.Timers = ownResized(w.Nodes, n), ownResized(w.Timers, n)
		// Net, its messages' ids and the places of its links are appended
		// to at every Load: made once, with room to spare, on lines of
		// their own (a world with more messages grows them into arrays
		// of the allocator's again).
		if cap(w.Net) < netRoom {
			w.Net = lines.Own[Envelope[M]](netRoom)[:0]
		}
		if cap(c.netMsg) < netRoom {
			c.netMsg = lines.Own[uint32](netRoom)[:0]
		}
		if cap(c.places) < n*n { // (those of the last load: cleared below)
			c.places = append(lines.Own[int32](n * n)[:0], c.places...)
		}
	}
	// Two nodes' ids at a time, 8 bytes against the two loaded: most of
	// a state's nodes are there already (ring N=10: 24 instructions a
	// node, passed over one at a time).
	// (The loops take the bytes off the front of a slice: indexed, each
	// read was a bounds check.)
	node, ids := &c.node, vec[:4*n]
	i := 0
	for ; len(ids) >= 8; ids, i = ids[8:], i+2 {
		pair := binary.LittleEndian.Uint64(ids)
		if same && pair == uint64(node[i&nodeMask])|uint64(node[(i+1)&nodeMask])<<32 {
			continue
		}
		if id := uint32(pair); !same || node[i&nodeMask] != id {
			c.setNode(w, i, id)
		}
		if id := uint32(pair >> 32); !same || node[(i+1)&nodeMask] != id {
			c.setNode(w, i+1, id)
		}
	}
	if len(ids) >= 4 { // the last of an odd number of nodes
		if id := binary.LittleEndian.Uint32(ids); !same || node[i&nodeMask] != id {
			c.setNode(w, i, id)
		}
	}
	// The rest, likewise, is there already when its id is the last one's
	// (most of a level's states have the rest of their siblings).
	if rest := binary.LittleEndian.Uint32(vec[4*n:]); !same || rest != c.rest {
		c.rest = rest
		rr := st.rests.at(rest)
		c.restPart = rr.part
		w.Down, w.Used, w.Cut, w.AppSent = rr.down, rr.used, rr.cut, rr.appSent
		c.down, c.cut = rr.down, rr.cut
		if len(rr.vc)|len(w.VC) != 0 {
			w.VC = append(w.VC[:0], rr.vc...)
			w.ReqVC = append(w.ReqVC[:0], rr.reqVC...)
		}
		if len(rr.history)|len(w.History) != 0 {
			w.History = append(w.History[:0], rr.history...)
		}
	}
	// The links the last load's begin with are in place, with their
	// messages, at the same slots of Net: the states of a level one after
	// the other are mostly siblings, and a step changes a link or two
	// (Maekawa N=4: half the links loaded were the last load's, by
	// position).
	links, k, start := vec[4*(n+1):], 0, 0
	if same {
		places := c.places
		for k < len(places) && len(links) >= 4 && c.at[places[k]&placeMask].id == binary.LittleEndian.Uint32(links) {
			links, k = links[4:], k+1
		}
		start = len(w.Net)
		if k < len(places) {
			start = int(c.at[places[k]&placeMask].start)
		}
	}
	for _, p := range c.places[k:] {
		c.at[p&placeMask] = placed{}
	}
	c.places = c.places[:k]
	var recv uint64
	if k > 0 {
		recv = c.recv[(k-1)&placeMask]
	}
	// The messages go through locals, stored back once: appended to w's
	// and c's fields, each append wrote the slice's length back to
	// memory. (All the loop's slices as locals spilled registers: bully
	// N=4 took 2.5% more instructions.)
	net, msgIDs := w.Net[:start], c.netMsg[:start]
	pages := st.links.snapshot() // the ids in vec were all interned before it was made
	for ; len(links) >= 4; links = links[4:] {
		id := binary.LittleEndian.Uint32(links)
		lr := recordIn(pages, id)
		p := lr.place
		c.at[p&placeMask] = placed{id: id, start: int32(len(net)), part: lr.part}
		recv |= lr.toBit
		c.recv[len(c.places)&placeMask] = recv
		c.places = append(c.places, p)
		msgs := lr.msgs[:len(lr.envs)]
		for j, e := range lr.envs {
			net = append(net, e)
			msgIDs = append(msgIDs, msgs[j])
		}
	}
	c.idle = c.quiet &^ recv
	w.Net, c.netMsg = net, msgIDs
	c.sum = unmix64(fp)
}

// setNode loads node i of w, whose state's id is id.
func (c *Cursor[S, M]) setNode(w *World[S, M], i int, id uint32) {
	r := c.st.nodes.at(id)
	k := i & nodeMask
	c.node[k], c.nodePart[k], c.inputs[k] = id, r.part, r.inputs
	w.Nodes[i], w.Timers[i] = r.s, r.timers
	n := c.sys.n
	for j, d := range r.digests {
		if p := &c.dig[j*n+i]; *p != d {
			*p = d
			c.digEpoch++
		}
	}
	bit := uint(i) & 63
	c.quiet = c.quiet&^(1<<bit) | r.quiet<<bit
	c.timed = c.timed&^(1<<bit) | r.timed<<bit
}

// Digests is the j-th digest (Store.SetDigests) of each node of the
// world Load loaded last, in node order; nil when the store keeps fewer.
// The slice is the cursor's, valid until the next Load.
func (c *Cursor[S, M]) Digests(j int) []uint32 {
	n := c.sys.n
	if j >= c.st.k {
		return nil
	}
	return c.dig[j*n : (j+1)*n : (j+1)*n]
}

// DigestEpoch is a number that changes whenever a Load changes the
// loaded nodes' digests (Digests): two loads that give the same number
// give the same digests, and a judgement made from them (an invariant's
// Verdict, with the same Down) holds for both.
func (c *Cursor[S, M]) DigestEpoch() uint64 { return c.digEpoch }

// Timed is the set of nodes of the loaded world with a timer armed.
func (c *Cursor[S, M]) Timed() uint64 { return c.timed }

// Actions is System.Actions of the loaded world w, each node's inputs
// listed once per node state, when the state was first stored, and its
// deliveries read off the loaded links, one a link on a FIFO network (its
// head), one a distinct message on an unordered one (linkRec.heads), not
// off Net an envelope at a time (bully N=4: a world holds 9.3 messages
// on 5.0 links). The idle nodes (no input, no timer armed, no message to
// them) are passed over: on ring N=10 most of a world's nodes are such,
// and the pass over all of them was 9% of a search's samples. The codec
// self-check holds the two lists equal (checker/selfcheck.go).
func (c *Cursor[S, M]) Actions(w *World[S, M], dst []Action) []Action {
	dst, _ = c.ActionsAwake(w, dst, 0)
	return dst
}

// ActionsAwake is Actions less the steps of the nodes of asleep (bit k
// for node k), which it counts instead: their inputs, their deliveries
// and, unless the system guards its timers (TimerGuard: whether a guard
// holds is worked out all the same), their timers' firings. A search
// with sleep sets takes none of a sleeping node's steps: listing them
// and then passing over them cost RA N=4 R=1 2.1% more instructions and
// Maekawa N=4 2.9% more (60% of RA's actions are asleep).
func (c *Cursor[S, M]) ActionsAwake(w *World[S, M], dst []Action, asleep uint64) ([]Action, int) {
	sys := c.sys
	n := int32(sys.n)
	fifo := sys.Config.Network == FIFO
	places := c.places
	slept := 0
	ready := sys.readyTimers(w) // nil unless the guards are asked once a world
	k := uint(0)                // the next link, in places' order: by receiver, then sender
	for live := (uint64(1)<<sys.n - 1) &^ w.Down &^ c.idle; live != 0; live &= live - 1 {
		i := trailingZeros(live)
		id := NodeID(i)
		lo := int32(i) * n
		for k < uint(len(places)) && places[k] < lo {
			k++
		}
		if asleep&(1<<(i&nodeMask)) != 0 {
			from := k
			for k < uint(len(places)) && places[k] < lo+n {
				k++
			}
			slept += len(c.inputs[i&nodeMask]) + int(k-from)
			if !fifo {
				slept += c.heads(places[from:k]) - int(k-from)
			}
			if c.timed&(1<<(i&nodeMask)) != 0 {
				if sys.guard != nil {
					c.skipped[i&nodeMask] = int32(slept)
					dst = sys.timerActions(w, dst, i, ready)
				} else {
					slept += bits.OnesCount64(w.Timers[i])
				}
			}
			continue
		}
		c.skipped[i&nodeMask] = int32(slept)
		// (Each action appended whole: appended zero and then filled in,
		// an action took twice the stores. The length tested first: a
		// node with no input paid for the loop's spills all the same,
		// about 0.7% of RA N=4 R=1's instructions.)
		if ins := c.inputs[i&nodeMask]; len(ins) > 0 {
			for _, in := range ins {
				dst = append(dst, Action{Kind: ActInput, Node: id, Input: in})
			}
		}
		for ; k < uint(len(places)) && places[k] < lo+n; k++ {
			p := places[k]
			from, pl := NodeID(p-lo), &c.at[p&placeMask]
			if fifo {
				dst = append(dst, Action{Kind: ActDeliver, Node: id, Peer: from, Slot: pl.start})
				continue
			}
			for _, d := range c.st.links.at(pl.id).heads {
				dst = append(dst, Action{Kind: ActDeliver, Node: id, Peer: from, Slot: pl.start + int32(d)})
			}
		}
		// (System.timerActions' loop, here: called, it took 58
		// instructions a node with a timer armed on bully N=4.)
		if c.timed&(1<<(i&nodeMask)) != 0 { // w.Timers[i] != 0
			armed := w.Timers[i]
			if ready != nil {
				armed &= ready[i&nodeMask]
			}
			for t := armed; t != 0; t &= t - 1 {
				if tid := TimerID(trailingZeros(t)); ready != nil || sys.timerReady(w, id, tid) {
					var a *Action
					dst, a = addAction(dst)
					a.Kind, a.Node, a.Timer = ActFire, id, tid
				}
			}
		}
	}
	c.skippedAll = slept
	return sys.otherActions(w, dst), slept
}

// IndexInAll is the index in Actions' list of a, the action at index i
// of the list the last ActionsAwake made: a node's steps are listed
// after those of the nodes below it (inputs, deliveries, then firings),
// and the actions that are no node's step after every node's.
func (c *Cursor[S, M]) IndexInAll(i int, a *Action) int {
	if a.Kind == ActInput || a.Kind == ActDeliver || a.Kind == ActFire {
		return i + int(c.skipped[a.Node&nodeMask])
	}
	return i + c.skippedAll
}

// heads is the number of distinct messages (deliveries) on the loaded
// links at places, on an unordered network.
func (c *Cursor[S, M]) heads(places []int32) int {
	m := 0
	for _, p := range places {
		m += len(c.st.links.at(c.at[p&placeMask].id).heads)
	}
	return m
}

// Stepped is what Step changed of the loaded world, for AppendStepped:
// the stepping node's new state, and the links the step changed; and,
// for a protocol with a variant, how much the step changed its measure.
type Stepped struct {
	node  NodeID
	next  uint32 // the node's new state's id
	rest  uint32 // the rest's id, 0 when unchanged
	ref   MemoRef
	tag   uint64 // the memo entry's note when the step was taken
	n     int
	place [maxTouched]int32  // the changed links' places,
	link  [maxTouched]uint32 // their new ids (0: now empty)
	rank  uint64             // the change of the measure (mod 2^64)
	woken uint64             // the nodes the step gave a new action (Woken)
}

// RankAfter is System.RankAfter for the step Step noted in r, given
// rank, the measure of the world it was taken from (System.Rank), with
// no successor made: the memo of the step holds the change of the
// measure (when the protocol is Ranked).
func (r *Stepped) RankAfter(rank uint64) uint64 { return rank + r.rank }

// stepMemo is a protocol step taken once on ids: the key (the node's
// state's id, the event) and the result (the new state's id and part,
// the messages sent). ok is false for a step Step leaves to Apply. An
// input step's input is kept beside it (Cursor.memoIn): with no pointer
// in it, the memo is memory the garbage collector does not scan, whose
// untouched pages it does not fault in.
type stepMemo struct {
	node  uint32 // 0 when the entry is empty
	arg   uint32 // the message delivered, or the timer fired
	kind  ActionKind
	from  NodeID
	ok    bool
	sends uint8
	next  uint32
	part  uint64
	// rank is the change of the measure (Ranked), all its sends
	// delivered: the node's new rank less its old and the weight of the
	// message delivered, plus the weights of the messages sent.
	rank uint64
	recs uint32 // the records output (Store.recs), 0 when none
	// serial tells this step from the others the entry held (MemoRef);
	// tag is the searcher's note on it (SetMemoTag), 0 when none.
	serial uint32
	tag    uint64
	to     [memoSends]NodeID
	msg    [memoSends]uint32
}

// memoSends is the most messages a step Step takes may send; a step that
// sends more is left to Apply.
const memoSends = 8

// cursorMemoBits sets the size of a cursor's memo, 2^cursorMemoBits.
const cursorMemoBits = 13

// smallMemoBits is the memo's size for a cursor that takes few steps
// (UseSmallMemo).
const smallMemoBits = 8

// largeMemoBits is the memo's size for a cursor of a search that has
// grown large (UseLargeMemo).
const largeMemoBits = 15

// UseSmallMemo makes the cursor's memo, when its first step makes it,
// 2^smallMemoBits entries (28 KB) instead of a search's 2^cursorMemoBits
// (917 KB with the inputs beside it): for a cursor that takes a few
// thousand steps at most, such as the codec's self-check before each
// search, where zeroing the full memo and faulting its pages in weighed:
// the check took 11-23 ms on ring N=10 with it, 9-12 ms with the small
// one (the 2-core VM of the README's table, where a page fault costs
// about 12 us).
func (c *Cursor[S, M]) UseSmallMemo() { c.memoBits = smallMemoBits }

// UseLargeMemo gives the cursor a memo of 2^largeMemoBits entries (3.4 MB
// with the inputs beside it) in place of a smaller one, the steps it
// held dropped (and its caches of link and rest operations), to be
// memoized again as they are met: for a search that has grown past a
// few thousand states, whose distinct steps may then overflow the
// 2^cursorMemoBits made at its first step (zeroed, and its pages
// faulted in, by every search: a 2^15 memo from the first step made a
// 10 ms search 12.3 ms). Centralized N=6 R=2 (about 4,400 distinct
// steps) memoized 89,720 of its 5.73 M steps in 2^13 entries, 11,010 in
// 2^15, each a protocol step taken, encoded and interned again: 1.7% of
// its instructions. RA N=4 R=1 12,286 and 5,560, Maekawa N=4 15,069 and
// 6,519, bully N=4 and ring N=10 116 and 161 in either.
func (c *Cursor[S, M]) UseLargeMemo() {
	switch {
	case c.memo == nil:
		c.memoBits = largeMemoBits
	case len(c.memo) < 1<<largeMemoBits:
		serial := c.serial // (its MemoRefs' serials are not given again)
		c.makeCaches(largeMemoBits)
		c.serial = serial
	}
}

// memoSize is log2 of the size of the memo the cursor's first step makes.
func (c *Cursor[S, M]) memoSize() uint {
	if c.memoBits == 0 {
		return cursorMemoBits
	}
	return c.memoBits
}

// makeCaches makes the cursor's memo, of 2^bits entries, and its caches
// of link and rest operations.
func (c *Cursor[S, M]) makeCaches(bits uint) {
	c.memo, c.memoShift, c.serial = make([]stepMemo, 1<<bits), 64-bits, new(uint32)
	c.memoIn = make([]Input, 1<<bits)
	c.linkOps = new(linkOps)
	if c.sys.Config.History {
		c.restOps = make([]restOp, 1<<restOpBits)
	}
	// Written once now, though zero: fresh from the system, a page of
	// them first read by a probe (holds) maps the shared zero page, and
	// the write that memoizes a step there copies it and flushes the TLB
	// of every core the process ran on, an interrupt on each (perf,
	// centralized N=6 R=2 on two workers: 171 of the run's 454 samples
	// under such copies were memoPair's; none after).
	clear(c.memo)
	clear(c.memoIn)
	clear(c.linkOps[:])
	clear(c.restOps)
}

// linkOp is a link made from another by a send (push) or a delivery
// (remove) of one message: the key (the link's id, or its place when it
// is empty, the operation, the message) and the result.
type linkOp struct {
	link, msg uint32
	place     int32
	op        uint8
	next      uint32 // 0: the link is empty after
	part      uint64
}

const (
	opPush   = 1
	opRemove = 2
)

// restOp is a rest made from another by the records a step outputs.
type restOp struct {
	rest, recs uint32
	next       uint32
	part       uint64
}

// restOpBits sets the size of a cursor's cache of rest operations.
const restOpBits = 12

// linkOpBits sets the size of a cursor's cache of link operations.
const linkOpBits = 14

// Step returns the fingerprint of the world after action a from w, the
// world Load loaded, and notes in r what the step changed; it reports
// false, computing nothing, for an action it leaves to Apply: a fault, an
// application message, any action when the configuration keeps the
// ordering vectors, a step that sends more than memoSends messages. No world is made and, but for the
// first time a node state meets an event, Step is not called.
func (c *Cursor[S, M]) Step(w *World[S, M], a *Action, r *Stepped) (uint64, bool) {
	sys := c.sys
	if sys.Config.Ordering {
		return 0, false
	}
	var arg uint32
	var from NodeID
	h := uint64(a.Kind)*hashTime ^ uint64(c.node[a.Node&nodeMask])*hashNode
	switch a.Kind {
	case ActInput:
		// The input's length and three of its bytes choose the entry; the
		// entry's key holds the whole input (Cursor.holds). Hashed byte by
		// byte, inputs were 1.3% of centralized N=6 R=2's instructions.
		if k := len(a.Input); k > 0 {
			h = (h ^ uint64(k) ^ uint64(a.Input[0])<<8 ^ uint64(a.Input[k/2])<<16 ^ uint64(a.Input[k-1])<<24) * hashPoly
		}
	case ActFire:
		arg = uint32(a.Timer)
	case ActDeliver:
		// (Only a configuration with application messages has any: the
		// envelope is not read otherwise.)
		if sys.Config.AppMsgs > 0 && w.Net[a.Slot].App {
			return 0, false
		}
		arg, from = c.netMsg[a.Slot], a.Peer
	default:
		return 0, false
	}
	if c.memo == nil {
		c.makeCaches(c.memoSize())
	}
	h = (h ^ uint64(arg)*hashLink ^ uint64(from)*hashRest) * slotMul
	at := h >> c.memoShift
	e := &c.memo[at]
	if !c.holds(at, c.node[a.Node&nodeMask], a, arg, from) {
		e, at = c.memoPair(at, a, arg, from)
	}
	if !e.ok {
		return 0, false
	}
	n := sys.n
	sum := c.sum - c.nodePart[a.Node&nodeMask] + e.part
	r.node, r.next, r.rest, r.n, r.rank = a.Node, e.next, 0, 0, e.rank
	if e.recs != 0 {
		var part uint64
		r.rest, part = c.restOp(e.recs)
		sum += part - c.restPart
	}
	r.ref, r.tag = MemoRef(at<<32|uint64(e.serial)), e.tag
	// The sum takes each changed link's new part in place of its old one
	// as the link changes; part holds the new parts, for a link changed
	// twice (the cursor's, so that no array is cleared at every step).
	part := &c.part
	if a.Kind == ActDeliver {
		p := int32(a.Node)*int32(n) + int32(from)
		r.place[0] = p
		pl := &c.at[p&placeMask]
		lo := c.linkOps.entry(pl.id, p, opRemove, arg)
		if !lo.holds(pl.id, p, opRemove, arg) {
			c.linkOpMiss(lo, pl.id, p, opRemove, arg)
		}
		r.link[0], part[0] = lo.next, lo.part
		sum += part[0] - pl.part
		r.n = 1
	}
	// (The indexes are masked: a step sends at most memoSends messages
	// and changes at most maxTouched links, and the masks spare the
	// bounds checks.)
	var woken uint64
	for j := range int(e.sends) {
		j &= memoSends - 1
		to, msg := e.to[j], e.msg[j]
		if c.down&(1<<(to&nodeMask)) != 0 || c.cut != 0 && (c.cut>>(a.Node&nodeMask))&1 != (c.cut>>(to&nodeMask))&1 {
			if sys.ranked != nil { // and weighs nothing (RankAfter)
				r.rank -= sys.ranked.Weight(c.st.msgs.at(msg).m)
			}
			continue // lost, as effects loses it
		}
		p := int32(to)*int32(n) + int32(a.Node)
		i := 0
		for i < r.n && r.place[i&(maxTouched-1)] != p {
			i++
		}
		i &= maxTouched - 1
		pl := &c.at[p&placeMask]
		cur, old := pl.id, pl.part
		if i == r.n {
			r.place[i] = p
			r.n++
			// A send wakes its receiver (Woken) onto an empty link, or any
			// link of an unordered network.
			if to != a.Node && (cur == 0 || sys.Config.Network != FIFO) {
				woken |= 1 << (to & nodeMask)
			}
		} else {
			cur, old = r.link[i], part[i]
		}
		lo := c.linkOps.entry(cur, p, opPush, msg)
		if !lo.holds(cur, p, opPush, msg) {
			c.linkOpMiss(lo, cur, p, opPush, msg)
		}
		r.link[i], part[i] = lo.next, lo.part
		sum += part[i] - old
	}
	r.woken = woken
	return mix64(sum), true
}

// memoPair is the entry of step a (of the loaded world's node a.Node,
// on event (arg, from)) and its index, when entry at does not hold it:
// the memo has two ways, and the step is in at's pair, or takes the place
// of the one of the two memoized longer ago. (Direct-mapped, the memo
// missed 274,567 of centralized N=6 R=2's 5.73 M steps; with two ways,
// 98,663.) Apart from Step, whose hits take the first entry and run no
// more code than before.
//
//go:noinline
func (c *Cursor[S, M]) memoPair(at uint64, a *Action, arg uint32, from NodeID) (*stepMemo, uint64) {
	if len(c.memo) == 1 { // one entry (the tests' SetCursorMemoBits 0)
		return c.memoize(at, a, arg, from), at
	}
	if c.holds(at^1, c.node[a.Node&nodeMask], a, arg, from) {
		return &c.memo[at^1], at ^ 1
	}
	if c.memo[at^1].serial-c.memo[at].serial >= 1<<31 { // at's is the newer: the other goes
		at ^= 1
	}
	return c.memoize(at, a, arg, from), at
}

// holds reports whether memo entry at is the memo of step a of node
// state id on event (arg, from).
func (c *Cursor[S, M]) holds(at uint64, id uint32, a *Action, arg uint32, from NodeID) bool {
	e := &c.memo[at]
	return e.node == id && e.arg == arg && e.kind == a.Kind && e.from == from && (a.Kind != ActInput || c.memoIn[at] == a.Input)
}

// memoize takes step a of the loaded world's node a.Node (its state's id
// is c.node[a.Node]) on event (arg, from), makes memo entry at its memo,
// and returns the entry.
func (c *Cursor[S, M]) memoize(at uint64, a *Action, arg uint32, from NodeID) *stepMemo {
	sys, st := c.sys, c.st
	id := c.node[a.Node&nodeMask]
	e := &c.memo[at]
	c.memoIn[at] = a.Input
	e.node, e.arg, e.kind, e.from, e.ok = id, arg, a.Kind, from, false
	*c.serial++
	e.serial, e.tag = *c.serial, 0
	rec := st.nodes.at(id)
	var ev Event[M]
	switch a.Kind {
	case ActInput:
		ev = Event[M]{Kind: Environment, Input: a.Input}
	case ActDeliver:
		ev = Event[M]{Kind: Receive, From: from, Msg: st.msgs.at(arg).m}
	default:
		ev = Event[M]{Kind: Timeout, Timer: a.Timer}
	}
	sys.out.Reset()
	s := sys.P.Step(a.Node, rec.s, ev, &sys.out)
	// The state given is the store's, shared by every world that holds
	// it: a Step that changes it in place changes them all.
	c.buf = sys.codec.AppendState(c.buf[:0], rec.s)
	if string(c.buf) != string(rec.enc) {
		panic("model: " + a.Kind.String() + " step of " + a.Node.String() + " changed the state it was given; Step must return a changed copy")
	}
	if len(sys.out.sends) > memoSends {
		return e
	}
	e.recs = 0
	if sys.Config.History && len(sys.out.outputs) > 0 {
		e.recs = c.recsID(a.Node, sys.out.outputs)
	}
	t := sys.timersAfter(armedAtStep(rec.timers, *a))
	c.buf = sys.codec.AppendState(c.buf[:0], s)
	e.next = c.nodeID(a.Node, t, c.buf, s)
	e.part = st.nodes.at(e.next).part
	e.sends = uint8(len(sys.out.sends))
	for j, snd := range sys.out.sends {
		env := Envelope[M]{From: a.Node, To: snd.to, Msg: snd.msg}
		e.to[j], e.msg[j] = snd.to, c.msgID(&env)
	}
	e.rank = 0
	if rk := sys.ranked; rk != nil { // as RankAfter measures it
		e.rank = rk.Rank(a.Node, s) - rk.Rank(a.Node, rec.s)
		if a.Kind == ActDeliver {
			e.rank -= rk.Weight(ev.Msg)
		}
		for _, snd := range sys.out.sends {
			e.rank += rk.Weight(snd.msg)
		}
	}
	e.ok = true
	return e
}

// linkOps is a cursor's cache of link operations, 2^linkOpBits entries:
// the link, and its part, that link (at place p; 0 when empty) becomes
// once message msg is pushed on it or removed from it. Step looks an
// operation up (entry, holds) and works it out on a miss (linkOpMiss):
// so written, a hit is inlined in Step, where a call of one method that
// did both cost about 10 instructions more (bully N=4: 12 M link
// operations a search).
type linkOps [1 << linkOpBits]linkOp

// entry is the entry of the cache that holds the operation, if any does.
func (t *linkOps) entry(link uint32, p int32, op uint8, msg uint32) *linkOp {
	h := (uint64(link)*hashLink ^ uint64(msg)*hashNode ^ uint64(p)<<8 ^ uint64(op)) * slotMul
	return &t[h>>(64-linkOpBits)]
}

// holds reports whether e is the operation's entry.
func (e *linkOp) holds(link uint32, p int32, op uint8, msg uint32) bool {
	return e.link == link && e.msg == msg && e.place == p && e.op == op
}

// linkOpMiss works out the link operation, which entry e does not hold,
// and leaves it in e.
//
//go:noinline
func (c *Cursor[S, M]) linkOpMiss(e *linkOp, link uint32, p int32, op uint8, msg uint32) {
	st, n := c.st, int32(c.sys.n)
	to, from := NodeID(p/n), NodeID(p%n)
	var msgs []uint32
	if link != 0 {
		msgs = st.links.at(link).msgs
	}
	ids := c.ids[:0]
	switch {
	case op == opRemove && c.sys.Config.Network == FIFO:
		ids = append(ids, msgs[1:]...) // the head
	case op == opRemove:
		k := 0
		for msgs[k] != msg {
			k++
		}
		ids = append(append(ids, msgs[:k]...), msgs[k+1:]...)
	case c.sys.Config.Network == FIFO:
		ids = append(append(ids, msgs...), msg)
	default: // unordered: in the order insert keeps, after its equals
		k := len(msgs)
		for k > 0 && c.envAfter(msgs[k-1], msg) {
			k--
		}
		ids = append(append(append(ids, msgs[:k]...), msg), msgs[k:]...)
	}
	c.ids = ids
	e.link, e.msg, e.place, e.op, e.next, e.part = link, msg, p, op, 0, 0
	if len(ids) > 0 {
		e.next = c.linkID(to, from, ids)
		e.part = st.links.at(e.next).part
	}
}

// restOp returns the rest, and its part, that the loaded world's becomes
// once the records recs (Store.recs) are appended to its history.
func (c *Cursor[S, M]) restOp(recs uint32) (uint32, uint64) {
	e := &c.restOps[mix64(uint64(c.rest)*hashRest^uint64(recs)*hashLink)>>(64-restOpBits)]
	if e.rest == c.rest && e.recs == recs {
		return e.next, e.part
	}
	st := c.st
	rr, rec := st.rests.at(c.rest), st.recs.at(recs)
	w := &c.restWorld
	w.Down, w.Cut, w.Used, w.AppSent = rr.down, rr.cut, rr.used, rr.appSent
	w.VC, w.ReqVC = rr.vc, rr.reqVC
	w.History = append(w.History[:0], rr.history...)
	for _, t := range rec.texts {
		w.History = appendRecord(w.History, Record{Node: rec.node, Text: t}, c.sys.Config.HistoryByNode)
	}
	e.rest, e.recs = c.rest, recs
	e.next = c.restID(w)
	e.part = st.rests.at(e.next).part
	return e.next, e.part
}

// envAfter reports whether message x goes after message y on an unordered
// link (envCompare: protocol messages first, then by encoding, then by
// vector).
func (c *Cursor[S, M]) envAfter(x, y uint32) bool {
	a, b := c.st.msgs.at(x), c.st.msgs.at(y)
	if a.app != b.app {
		return a.app
	}
	if s := string(a.msg); s != string(b.msg) {
		return s > string(b.msg)
	}
	return a.vc > b.vc
}

// MemoRef names a memoized step of a cursor (Stepped.Ref).
type MemoRef uint64

// Ref names the memoized step the step noted in r took (MemoTag).
func (r *Stepped) Ref() MemoRef { return r.ref }

// Tag is the note left by SetMemoTag on the memoized step the step noted
// in r took, as it was when the step was taken (0 when none): MemoTag
// without a second look at the memo, whose entry was at hand then.
func (r *Stepped) Tag() uint64 { return r.tag }

// MemoTag returns the note left on the memoized step ref by SetMemoTag,
// or 0 when there is none or another step has taken its place since. A
// searcher keeps there what it would otherwise work out again from the
// step's action and message each time the memo serves the step (the
// coverage count's kind of action: checker/coverage.go, which reads it
// with the step, Stepped.Tag).
func (c *Cursor[S, M]) MemoTag(ref MemoRef) uint64 {
	if e := &c.memo[ref>>32]; e.serial == uint32(ref) {
		return e.tag
	}
	return 0
}

// SetMemoTag leaves tag on the memoized step ref (MemoTag), unless
// another step has taken its place since.
func (c *Cursor[S, M]) SetMemoTag(ref MemoRef, tag uint64) {
	if e := &c.memo[ref>>32]; e.serial == uint32(ref) {
		e.tag = tag
	}
}

// MsgAt is the encoding (AppendMsg's bytes) of message k in flight in the
// loaded world.
func (c *Cursor[S, M]) MsgAt(k int) []byte { return c.st.msgs.at(c.netMsg[k]).msg }

// AppendStepped appends to b the stored form of the world after the step
// Step noted in r from the loaded world.
func (c *Cursor[S, M]) AppendStepped(b []byte, r *Stepped) []byte {
	n := c.sys.n
	start := len(b)
	b = append(b, c.vec[:4*(n+1)]...)
	binary.LittleEndian.PutUint32(b[start+4*int(r.node):], r.next)
	if r.rest != 0 {
		binary.LittleEndian.PutUint32(b[start+4*n:], r.rest)
	}
	// The changed places in order (insertion sort: a step changes few).
	// (Indexes masked, as in Step.)
	const mask = maxTouched - 1
	var order [maxTouched]uint8 // (not ints: zeroed at every call)
	for i := range r.n {
		j := i & mask
		for ; j > 0 && r.place[order[(j-1)&mask]&mask] > r.place[i&mask]; j-- {
			order[j] = order[(j-1)&mask]
		}
		order[j&mask] = uint8(i)
	}
	// The parent's links and the changed ones, merged by place.
	links, places := c.vec[4*(n+1):], c.places
	k := uint(0)
	for _, i := range order[:r.n&(maxTouched*2-1)] {
		i &= mask
		p := r.place[i]
		for ; k < uint(len(places)) && places[k] < p; k++ {
			b = append(b, links[4*k:4*k+4]...)
		}
		if k < uint(len(places)) && places[k] == p {
			k++ // replaced
		}
		if r.link[i] != 0 {
			b = binary.LittleEndian.AppendUint32(b, r.link[i])
		}
	}
	return append(b, links[4*k:]...)
}

// Woken is the set of nodes (bit k for node k) to which the step noted
// in r, from the loaded world, gave an action they did not have: on a
// FIFO network, those onto whose empty link from the stepping node it
// appended a message (behind a message already there, an append leaves
// the link's head, and so its delivery, as it was); on an unordered one,
// every node it appended a message for (which may be a new delivery).
// A message lost to a crash or a partition is on no link: it gives no
// action. Step notes the set as it appends each message (worked out
// afterwards from the changed places, it took a division a place and
// about 1% of centralized N=6 R=2's and RA N=4 R=1's instructions).
func (c *Cursor[S, M]) Woken(r *Stepped) uint64 { return r.woken }
