package model

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// Store holds the parts of the worlds one search meets, each interned once
// (intern.go): node states, messages, links and rests. A world is then
// stored as a vector of ids, its stored form (AppendStored): the n nodes'
// ids, its rest's id, and the ids of the links that hold messages, in the
// canonical order of the network (by receiver, then sender), each a
// little-endian uint32. Loading a world (Cursor.Load) reads its parts from
// the tables, already decoded and hashed; a protocol step (Cursor.Step)
// works on ids alone.
//
// The ids depend on the order in which the parts are met, so a stored
// form means something only with its Store: the workers of one search
// share one, and a checkpoint saves the tables' keys in id order
// (Store.Save), from which Restore gives every part its id again.
type Store[S, M any] struct {
	nodes internTable[nodeRec[S]]
	msgs  internTable[msgRec[M]]
	links internTable[linkRec[M]]
	rests internTable[restRec]
	// recs are the lists of records a step outputs: no stored form names
	// them, only the cursors' memos (so a checkpoint needs none).
	recs internTable[recsRec]

	// digests, when set (SetDigests), is called once on each node state
	// interned, to fill its k digests (nodeRec.digests).
	digests func(self NodeID, s S, d []uint32)
	k       int
	// n is the number of nodes of the systems the store serves, set by
	// the first cursor: a link's place (linkRec.place) depends on it.
	n atomic.Int32
}

// recsRec is the records one step of a node outputs, in order.
type recsRec struct {
	key   []byte // the node, then each text (AppendString)
	node  NodeID
	texts []string
}

// nodeRec is a node's state with its armed timers, at its place.
type nodeRec[S any] struct {
	key    []byte // the node, its timers (uvarint), its state's encoding
	s      S
	timers uint64
	part   uint64  // nodePart: its share of a world's fingerprint
	enc    []byte  // the state's encoding, key's tail
	inputs []Input // the inputs enabled in it (Protocol.Inputs)
	node   NodeID
	// quiet is 1 when the state has no input and no timer armed, timed
	// when it has a timer armed (Cursor.quiet and timed, set without a
	// branch).
	quiet, timed uint64
	// digests are what the store's digest function made of the state
	// (SetDigests), nil without one.
	digests []uint32
}

// msgRec is a message as a link holds it.
type msgRec[M any] struct {
	key []byte // its encoding as a link holds it (appendEnvelope)
	m   M
	app bool
	vc  uint64
	h   uint64 // msgHash
	msg []byte // AppendMsg's bytes, within key
}

// linkRec is a link that holds messages: its place and its messages.
type linkRec[M any] struct {
	key      []byte // to, from, the messages' ids (uint32 each)
	to, from NodeID
	// place is the link's place in a world of the store's nodes
	// (to*n+from), and toBit its receiver's bit: what Load sets for it.
	place int32
	toBit uint64
	msgs  []uint32 // in the link's canonical order
	h     uint64   // the messages' hash (see linkPart)
	part  uint64   // linkPart
	// envs is the link's part of a world's Net, made once: Load copies
	// it whole instead of building an envelope a message from its record
	// (ring N=10: the loop was 6% of a search's instructions).
	envs []Envelope[M]
	// heads are the offsets of the link's distinct messages on an
	// unordered network, one delivery each (Cursor.Actions): equal
	// messages lie side by side there. nil on a FIFO network, where only
	// the head is delivered.
	heads []uint32
}

// restRec is everything in a world but its nodes, timers and network.
type restRec struct {
	key       []byte // encodeRest's bytes from Down to the history
	down, cut uint64
	used      [numFaults]uint8
	vc, reqVC []uint64
	appSent   uint8
	history   []Record
	part      uint64 // restPart
}

// NewStore makes an empty store.
func NewStore[S, M any]() *Store[S, M] {
	st := &Store[S, M]{}
	st.nodes.keys = func(r *nodeRec[S]) []byte { return r.key }
	st.msgs.keys = func(r *msgRec[M]) []byte { return r.key }
	st.links.keys = func(r *linkRec[M]) []byte { return r.key }
	st.rests.keys = func(r *restRec) []byte { return r.key }
	st.recs.keys = func(r *recsRec) []byte { return r.key }
	return st
}

// SetDigests makes the store keep k digests of each node state it
// interns, made once by f(self, s, d), which fills d (of length k) from
// the state s of node self; Cursor.Digests gives them back for the loaded
// world's nodes. A search's invariants that read only the nodes' states
// judge a world from their digests (property.Invariant.Digest), not its
// states. It must be called before any world is stored.
func (st *Store[S, M]) SetDigests(k int, f func(self NodeID, s S, d []uint32)) {
	if st.nodes.len() > 0 {
		panic("model: SetDigests after a node state was stored")
	}
	st.k, st.digests = k, f
}

// Bytes is the memory the store's tables hold.
func (st *Store[S, M]) Bytes() uint64 {
	return st.nodes.bytes() + st.msgs.bytes() + st.links.bytes() + st.rests.bytes() + st.recs.bytes()
}

// Parts is the number of parts interned: node states, messages, links,
// rests.
func (st *Store[S, M]) Parts() [4]int {
	return [4]int{int(st.nodes.len()), int(st.msgs.len()), int(st.links.len()), int(st.rests.len())}
}

// nodeID interns node i's state s (encoded as enc) with timers t.
func (c *Cursor[S, M]) nodeID(i NodeID, t uint64, enc []byte, s S) uint32 {
	st := c.st
	k := AppendUvarint(append(c.key[:0], byte(i)), t)
	tail := len(k)
	k = append(k, enc...)
	c.key = k
	id, _ := st.nodes.intern(k, func(r *nodeRec[S], key []byte) {
		r.key, r.s, r.timers, r.node = key, s, t, i
		r.enc = key[tail:]
		r.part = nodePart(i, r.enc, t)
		r.inputs = c.sys.P.Inputs(i, s, nil)
		if len(r.inputs) == 0 && t == 0 {
			r.quiet = 1
		}
		if t != 0 {
			r.timed = 1
		}
		if st.digests != nil {
			r.digests = make([]uint32, st.k)
			st.digests(i, s, r.digests)
		}
	})
	return id
}

// msgID interns the message of e (its sender and receiver aside).
func (c *Cursor[S, M]) msgID(e *Envelope[M]) uint32 {
	sys, st := c.sys, c.st
	k := c.key[:0]
	if sys.Config.AppMsgs > 0 {
		k = AppendBool(k, e.App)
	}
	from := len(k)
	k = sys.codec.AppendMsg(k, e.Msg)
	to := len(k)
	if sys.Config.Ordering {
		k = AppendUvarint(k, e.VC)
	}
	c.key = k
	id, _ := st.msgs.intern(k, func(r *msgRec[M], key []byte) {
		r.key, r.m, r.app, r.vc = key, e.Msg, e.App, e.VC
		r.msg = key[from:to]
		r.h = partHash(hashMsg, key)
	})
	return id
}

// linkID interns link to<-from holding the messages msgs (ids), not
// empty.
func (c *Cursor[S, M]) linkID(to, from NodeID, msgs []uint32) uint32 {
	st, fifo := c.st, c.sys.Config.Network == FIFO
	k := append(c.key[:0], byte(to), byte(from))
	for _, m := range msgs {
		k = binary.LittleEndian.AppendUint32(k, m)
	}
	c.key = k
	id, added := st.links.intern(k, func(r *linkRec[M], key []byte) {
		r.key, r.to, r.from = key, to, from
		r.place, r.toBit = int32(to)*int32(c.sys.n)+int32(from), 1<<(to&nodeMask)
		r.msgs = make([]uint32, len(msgs))
		r.envs = make([]Envelope[M], len(msgs))
		var h uint64
		for j := range msgs {
			r.msgs[j] = binary.LittleEndian.Uint32(key[2+4*j:])
			mr := st.msgs.at(r.msgs[j])
			r.envs[j] = Envelope[M]{From: from, To: to, Msg: mr.m, App: mr.app, VC: mr.vc}
			m := mr.h
			if fifo {
				h = h*hashPoly + m
			} else {
				h += m
			}
		}
		r.h, r.part = h, linkPart(to, from, h, len(msgs))
		if !fifo {
			for j := range r.msgs {
				if j == 0 || r.msgs[j] != r.msgs[j-1] {
					r.heads = append(r.heads, uint32(j))
				}
			}
		}
	})
	if added { // the record's own slices, beside its key
		heads := uint64(len(st.links.at(id).heads))
		st.links.held.Add(uint64(len(msgs))*uint64(4+unsafe.Sizeof(Envelope[M]{})) + 4*heads)
	}
	return id
}

// restID interns the rest of w.
func (c *Cursor[S, M]) restID(w *World[S, M]) uint32 {
	sys, st := c.sys, c.st
	k := sys.appendRest(c.key[:0], w, true)
	c.key = k
	id, _ := st.rests.intern(k, func(r *restRec, key []byte) {
		r.key, r.down, r.cut, r.used, r.appSent = key, w.Down, w.Cut, w.Used, w.AppSent
		r.vc = append([]uint64(nil), w.VC...)
		r.reqVC = append([]uint64(nil), w.ReqVC...)
		r.history = append([]Record(nil), w.History...)
		var h WorldHash
		r.part = sys.restPart(&h, w)
	})
	return id
}

// recsID interns the records texts that a step of node i outputs.
func (c *Cursor[S, M]) recsID(i NodeID, texts []string) uint32 {
	k := append(c.key[:0], byte(i))
	for _, t := range texts {
		k = AppendString(k, t)
	}
	c.key = k
	id, _ := c.st.recs.intern(k, func(r *recsRec, key []byte) {
		r.key, r.node, r.texts = key, i, append([]string(nil), texts...)
	})
	return id
}

// AppendStored appends the stored form of w (see Store) to b, interning
// its parts, and returns it with w's fingerprint (HashWorld's).
func (c *Cursor[S, M]) AppendStored(b []byte, w *World[S, M]) ([]byte, uint64) {
	sys, st := c.sys, c.st
	var sum uint64
	for i := range w.Nodes {
		c.buf = sys.codec.AppendState(c.buf[:0], w.Nodes[i])
		id := c.nodeID(NodeID(i), w.Timers[i], c.buf, w.Nodes[i])
		sum += st.nodes.at(id).part
		b = binary.LittleEndian.AppendUint32(b, id)
	}
	id := c.restID(w)
	sum += st.rests.at(id).part
	b = binary.LittleEndian.AppendUint32(b, id)
	for k := 0; k < len(w.Net); {
		to, from := w.Net[k].To, w.Net[k].From
		c.ids = c.ids[:0]
		for ; k < len(w.Net) && w.Net[k].To == to && w.Net[k].From == from; k++ {
			c.ids = append(c.ids, c.msgID(&w.Net[k]))
		}
		id := c.linkID(to, from, c.ids)
		sum += st.links.at(id).part
		b = binary.LittleEndian.AppendUint32(b, id)
	}
	return b, mix64(sum)
}

// Keys returns the keys of the store's parts in id order: its messages,
// node states, links and rests. RestoreStore makes the same store from
// them (a checkpoint keeps them beside the stored forms of its frontier).
func (st *Store[S, M]) Keys() [4][][]byte {
	var k [4][][]byte
	k[0] = tableKeys(&st.msgs)
	k[1] = tableKeys(&st.nodes)
	k[2] = tableKeys(&st.links)
	k[3] = tableKeys(&st.rests)
	return k
}

// tableKeys lists t's keys in id order.
func tableKeys[R any](t *internTable[R]) [][]byte {
	n := t.len()
	keys := make([][]byte, n)
	for id := uint32(1); id <= n; id++ {
		keys[id-1] = t.keys(t.at(id))
	}
	return keys
}

// Restore makes c's store, which must be empty, the store whose parts' keys Keys returned, each part
// with the id it had, interning through c's system (the store being
// restored is c's). A key that does not decode is an error.
func (c *Cursor[S, M]) Restore(keys [4][][]byte) (err error) {
	defer decodeGuard("stored part", 0, &err)
	sys := c.sys
	if c.st.nodes.len()|c.st.msgs.len()|c.st.links.len()|c.st.rests.len() != 0 {
		panic("the store is not empty")
	}
	check := func(id uint32, k int) {
		if id != uint32(k+1) {
			panic("a stored part appears twice")
		}
	}
	for k, b := range keys[0] {
		var e Envelope[M]
		if sys.Config.AppMsgs > 0 {
			e.App, b = ReadBool(b)
		}
		e.Msg, b = sys.codec.ReadMsg(b)
		if sys.Config.Ordering {
			e.VC, b = ReadUvarint(b)
		}
		if len(b) != 0 {
			panic("bytes left over after a message")
		}
		check(c.msgID(&e), k)
	}
	for k, b := range keys[1] {
		i := NodeID(b[0])
		t, rest := ReadUvarint(b[1:])
		s, tail := sys.codec.ReadState(rest)
		if len(tail) != 0 || int(i) >= sys.n {
			panic("a node state out of place")
		}
		check(c.nodeID(i, t, rest, s), k)
	}
	for k, b := range keys[2] {
		if (len(b)-2)%4 != 0 || len(b) < 6 {
			panic("a link of no messages")
		}
		ids := make([]uint32, (len(b)-2)/4)
		for j := range ids {
			ids[j] = binary.LittleEndian.Uint32(b[2+4*j:])
			if ids[j] == 0 || ids[j] > uint32(len(keys[0])) {
				panic("a link holds a message not stored")
			}
		}
		check(c.linkID(NodeID(b[0]), NodeID(b[1]), ids), k)
	}
	for k, b := range keys[3] {
		var w World[S, M]
		b = sys.readRest(b, &w)
		if len(b) != 0 {
			panic("bytes left over after a rest")
		}
		check(c.restID(&w), k)
	}
	return nil
}
