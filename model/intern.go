package model

import (
	"bytes"
	"sync"
	"sync/atomic"
	"unsafe"
)

// internTable gives each distinct byte key an id, 1, 2, 3, ... in the
// order the keys are first interned, and holds one record of type R per
// id. It is SPIN's -DCOLLAPSE idea: a search meets a few thousand node
// states, links and rests, each in a great many worlds, so a world is
// stored as the ids of its parts, and a part is decoded and hashed once,
// when it is first met, not every time a world holding it is loaded.
//
// The workers of one search share the table. Looking a key up takes no
// lock: the slots are read with atomic loads, and a record is complete
// before its slot is published. Interning a new key takes the table's
// lock. Records never move: they live in pages of pageSize, and the page
// list is replaced, not changed, when it grows.
type internTable[R any] struct {
	// What every lookup reads, on a cache line of its own: the workers
	// share it, and an intern's writes to the fields below would take
	// it from the other cores.
	_     [64]byte
	slots atomic.Pointer[[]uint64] // (hash's high half) << 32 | id; 0 is empty
	pages atomic.Pointer[[]*[pageSize]R]
	keys  func(r *R) []byte // a record's key
	_     [40]byte
	mu    sync.Mutex
	n     uint32        // the records, under mu
	held  atomic.Uint64 // bytes held: slots, pages and keys
}

const (
	pageBits = 10
	pageSize = 1 << pageBits
)

// at is the record of id, which the table gave.
func (t *internTable[R]) at(id uint32) *R {
	return recordIn(*t.pages.Load(), id)
}

// recordIn is the record of id in pages, the table's page list read once
// (internTable.snapshot) for many lookups; id was given before it was
// read.
func recordIn[R any](pages []*[pageSize]R, id uint32) *R {
	return &pages[id>>pageBits][id&(pageSize-1)]
}

// snapshot is the table's page list as it is now (nil when it has no
// record): the records of every id given so far, for recordIn. Pages
// never move, so it stays valid as the table grows.
func (t *internTable[R]) snapshot() []*[pageSize]R {
	if p := t.pages.Load(); p != nil {
		return *p
	}
	return nil
}

// len is the number of records.
func (t *internTable[R]) len() uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// find returns the id of key, or 0 when the table has none (yet: a key
// interned meanwhile by another goroutine may be missed, which intern
// settles under the lock).
func (t *internTable[R]) find(key []byte) uint32 { return t.findHashed(internHash(key), key) }

// findHashed is find for a key whose hash is h.
func (t *internTable[R]) findHashed(h uint64, key []byte) uint32 {
	sp := t.slots.Load()
	if sp == nil {
		return 0
	}
	s := *sp
	mask := uint64(len(s) - 1)
	tag := h>>32 | 1
	for i := h & mask; ; i = (i + 1) & mask {
		v := atomic.LoadUint64(&s[i])
		if v == 0 {
			return 0
		}
		if v>>32 == tag && bytes.Equal(t.keys(t.at(uint32(v))), key) {
			return uint32(v)
		}
	}
}

// intern returns the id of key, giving it the next id when it is new:
// fill then sets up its record, given the key's own copy (which must
// become the record's key), before any other goroutine can see the id.
// It reports whether the key was new.
func (t *internTable[R]) intern(key []byte, fill func(r *R, key []byte)) (uint32, bool) {
	h := internHash(key)
	if id := t.findHashed(h, key); id != 0 {
		return id, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if id := t.findHashed(h, key); id != 0 {
		return id, false
	}
	id := t.n + 1
	if id == 0 {
		panic("model: more than 2^32 parts interned")
	}
	var pages []*[pageSize]R
	if p := t.pages.Load(); p != nil {
		pages = *p
	}
	if int(id>>pageBits) >= len(pages) {
		grown := append(pages[:len(pages):len(pages)], new([pageSize]R))
		t.pages.Store(&grown)
		var r R
		t.held.Add(uint64(unsafe.Sizeof(r)) * pageSize)
	}
	fill(t.at(id), append([]byte(nil), key...))
	t.held.Add(uint64(len(key)))
	if sp := t.slots.Load(); sp == nil || uint64(id)*4 > uint64(len(*sp))*3 {
		t.grow()
	}
	t.put(*t.slots.Load(), h, id)
	t.n = id
	return id, true
}

// put publishes id, whose key hashes to h, in s (under the lock).
func (t *internTable[R]) put(s []uint64, h uint64, id uint32) {
	mask := uint64(len(s) - 1)
	i := h & mask
	for atomic.LoadUint64(&s[i]) != 0 {
		i = (i + 1) & mask
	}
	atomic.StoreUint64(&s[i], (h>>32|1)<<32|uint64(id))
}

// grow replaces the slots by a table twice as large, holding the ids
// given so far (under the lock).
func (t *internTable[R]) grow() {
	size := 1024
	old := t.slots.Load()
	if old != nil {
		size = 2 * len(*old)
		t.held.Add(^uint64(len(*old)*8 - 1))
	}
	s := make([]uint64, size)
	for id := uint32(1); id <= t.n; id++ {
		t.put(s, internHash(t.keys(t.at(id))), id)
	}
	t.held.Add(uint64(size * 8))
	t.slots.Store(&s)
}

// internHash is the hash of a key in the tables.
func internHash(key []byte) uint64 { return partHash(hashRest^hashLink, key) }

// bytes is the memory the table holds.
func (t *internTable[R]) bytes() uint64 { return t.held.Load() }
