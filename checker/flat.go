package checker

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// flatTable holds the tables of every shard of a visited set that one
// goroutine fills (the one-worker search: fpSet.growsFlat), side by side
// in one reserved span of address space, each of size slots, shard i's
// at slot i*size. The set grows all its shards at once, in place, into
// tables half as large again: memory is written for the first time only
// past the old end. Grown shard by shard into new slabs, the set wrote
// new memory for every table it ever had (about three times the last)
// and held two sizes at once while its shards moved. On the 2-core VM
// of the spin-compare table, memory written for the first time costs
// about 1.5 ms a megabyte, thirty times what clearing memory already
// written costs; a table made at its final size took 0.947x the time of
// ring N=10 on one worker (8 pairs).
type flatTable struct {
	raw     []byte   // the reservation (mapSpan)
	slots   []uint64 // its huge-page-aligned part, as slots
	size    uint64   // each shard's slots
	written uint64   // bytes of slots written so far (counted outside the heap)
	// When the set numbers its states, their numbers are laid out the
	// same way in a span of their own, a number per slot.
	rawIDs []byte
	ids    []uint32
}

// flatSpan is the address space a flat table reserves: untouched, it
// costs nothing but the mapping.
const flatSpan = 1 << 36

// flatFrom is the size of the set's tables from which the level engine
// grows it flat (growFlatAhead): below it, one huge page holds many
// shards' tables in a slab. flatFromOne is the one-worker search's: its
// shards, grown alone into new slabs up to 4 MB, wrote 8 MB of memory for
// the first time, and cost more than growing flat from the start (10-16
// paired runs, GOMAXPROCS=1, flatFromOne 256 KB against 4 MB: RA N=4 R=1
// 0.967x the time, bully N=4 0.959x, ring N=10 0.949x and 0.969x,
// centralized N=6 R=2 0.990x; peak RSS 3-4 MB lower). The level engine
// kept 4 MB: 256 KB gave ring and RA on two workers 1.011x and 1.029x.
// (Variables for the tests only.)
var flatFrom, flatFromOne uint64 = 4 << 20, 256 << 10

// growsFlat makes the set grow flat (flatTable) once it is large enough:
// only one goroutine may then insert.
func (s *fpSet) growsFlat() {
	for i := range s.shards {
		s.shards[i].owner = s
	}
}

// flatGrowth is what growFlat did.
type flatGrowth uint8

const (
	flatNo   flatGrowth = iota // nothing: the shard grows alone
	flatGrew                   // every shard grew
	flatRoom                   // nothing: the shard takes the key as it is
)

// growFlat is called when shard sh, 3/4 full, is to take one more key.
// Once flat, the set grows when it is 3/4 full as a whole, so that it
// stays at most 16 bytes a state after each growth, and a shard is let
// fill up to 13/16 before that (flatRoom): the shards' fills differ by a
// few hundredths. Else it grows every shard to the size the fullest
// needs, in the set's flat table, made when first needed (flatGrew). It
// does nothing (flatNo) when the set does not grow flat: too small yet,
// a bit array, or with no span to be had.
func (s *fpSet) growFlat(sh *fpShard) flatGrowth {
	if s.bits != nil || s.flatOff {
		return flatNo
	}
	var most, cur, slots uint64
	for i := range s.shards {
		n := uint64(len(s.shards[i].keys))
		most, cur, slots = max(most, s.shards[i].n), max(cur, n), slots+n
	}
	size := grown(most, cur)
	bytes := numShards * size * s.slotBytes()
	if s.flat == nil && bytes < flatFromOne {
		return flatNo
	}
	if (s.n+1)*4 <= slots*3 && (sh.n+1)*16 <= uint64(len(sh.keys))*13 {
		return flatRoom
	}
	if !s.flatten(size, s.helpers) {
		return flatNo
	}
	return flatGrew
}

// flatten grows every shard to size slots (no fewer than it has) in the
// set's flat table, made when first needed, and reports whether it
// could. With par, the goroutines par runs its job on (each with its
// index, par's caller's share 0) share the shards out; without, this
// goroutine moves them all, the same way.
//
// Shard i's new table lies past the old tables of the shards before it
// and may lie over those of shards after it: the shards are taken from
// the last down, and a shard waits until those it lies over are moved
// (with par; alone, they are by then). One that lies over its own old
// table, near the start of the span, copies it aside first.
func (s *fpSet) flatten(size uint64, par func(job func(i int))) bool {
	if s.flat == nil && !s.makeFlat() {
		s.flatOff = true
		return false
	}
	f := s.flat
	if size*numShards*8 > flatSpan {
		// Beyond the span (64 GB of fingerprints): the shards grow alone
		// from now on, and the flat table stays until the set goes.
		s.flatOff = true
		return false
	}
	if bytes := numShards * size * s.slotBytes(); bytes > f.written {
		outsideHeap(int64(bytes - f.written))
		f.written = bytes
	}
	if par == nil {
		par = func(job func(int)) { job(0) }
	}
	var old [numShards][]uint64
	for i := range s.shards {
		old[i] = s.shards[i].keys
	}
	var next atomic.Int64
	next.Store(numShards)
	var moved [numShards]atomic.Bool
	par(func(int) {
		var m flatMover
		for {
			i := int(next.Add(-1))
			if i < 0 {
				return
			}
			lo, hi := uint64(i)*size, uint64(i+1)*size
			dst := f.slots[lo:hi:hi]
			for j := i + 1; j < numShards; j++ {
				for overlap(old[j], dst) && !moved[j].Load() {
					runtime.Gosched()
				}
			}
			m.move(s, i, size)
			moved[i].Store(true)
		}
	})
	f.size = size
	return true
}

// flatMover moves shards into the flat table (flatten). tmp holds a
// shard's keys as they move (gather); for a set that numbers its states,
// it holds them, and tmpIDs their numbers, only while the shard's new
// table lies over them.
type flatMover struct {
	tmp    []uint64
	tmpIDs []uint32
}

// move moves shard i into its table of size slots in the flat table, once
// the tables it lies over are moved.
func (m *flatMover) move(s *fpSet, i int, size uint64) {
	f, sh := s.flat, &s.shards[i]
	lo, hi := uint64(i)*size, uint64(i+1)*size
	dst := f.slots[lo:hi:hi]
	if sh.ids == nil {
		keys := m.gather(sh.keys) // a copy: dst may lie over the old table
		clear(dst)
		for _, k := range keys {
			place(dst, k)
		}
	} else {
		src, srcIDs := sh.keys, sh.ids
		if overlap(src, dst) { // (the numbers, laid out as the keys, overlap as they do)
			m.tmp, m.tmpIDs = append(m.tmp[:0], src...), append(m.tmpIDs[:0], srcIDs...)
			src, srcIDs = m.tmp, m.tmpIDs
		}
		clear(dst)
		dstIDs := f.ids[lo:hi:hi]
		for j, k := range src {
			if k != 0 {
				dstIDs[place(dst, k)] = srcIDs[j]
			}
		}
		sh.ids = dstIDs
	}
	sh.keys = dst
	sh.dropTables(sh.held) // the slabs it came from, if any
	sh.held = [2]*slab{}
}

// gather copies the keys of table src (its non-empty slots) into m.tmp,
// in order, and returns them: a store and an add a slot. Tested slot by
// slot, a quarter to a half of them empty at random, the branch missed
// so often that the move took 8.3 ns a slot, 7.0 gathered first (a
// stand-alone copy of the move, 64 shards of 32 K slots 3/4 full), and
// the growth of centralized N=6 R=2's set 58 ms against 48 (bully 91
// against 75, RA 37 against 31-34; clocks in the process, one worker).
func (m *flatMover) gather(src []uint64) []uint64 {
	if cap(m.tmp) < len(src) {
		m.tmp = make([]uint64, len(src))
	}
	t, n := m.tmp[:len(src)], 0
	for _, k := range src {
		t[n] = k
		n += int((k | -k) >> 63) // 1 unless k is 0
	}
	return t[:n]
}

// makeFlat reserves the set's flat table (and the span of its numbers,
// when it numbers its states), and reports whether it could.
func (s *fpSet) makeFlat() bool {
	raw := mapSpan(flatSpan)
	if raw == nil {
		return false
	}
	f := &flatTable{raw: raw, slots: unsafe.Slice((*uint64)(alignedSpan(raw)), flatSpan/8)}
	if s.numbering {
		if f.rawIDs = mapSpan(flatSpan / 2); f.rawIDs == nil {
			unmapSlab(raw)
			return false
		}
		f.ids = unsafe.Slice((*uint32)(alignedSpan(f.rawIDs)), flatSpan/8)
	}
	s.flat = f
	return true
}

// alignedSpan is the first huge page of a span mapSpan made.
func alignedSpan(raw []byte) unsafe.Pointer {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	return unsafe.Pointer(&raw[(hugePage-start%hugePage)%hugePage])
}

// place puts key k, not in table t, into t, and returns its slot.
func place(t []uint64, k uint64) uint64 {
	size := uint64(len(t))
	i := home(k, size)
	for t[i] != 0 {
		if i++; i == size {
			i = 0
		}
	}
	t[i] = k
	return i
}

// overlap reports whether tables a and b share memory.
func overlap(a, b []uint64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return a0 < b0+uintptr(len(b))*8 && b0 < a0+uintptr(len(a))*8
}

// releaseFlat gives the flat table's span back to the system.
func (s *fpSet) releaseFlat() {
	if s.flat == nil {
		return
	}
	unmapSlab(s.flat.raw)
	if s.flat.rawIDs != nil {
		unmapSlab(s.flat.rawIDs)
	}
	outsideHeap(-int64(s.flat.written))
	s.flat = nil
}
