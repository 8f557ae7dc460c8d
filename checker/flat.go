package checker

import "unsafe"

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
	tmp     []uint64 // a shard's keys while its new table overlaps them
}

// flatSpan is the address space a flat table reserves: untouched, it
// costs nothing but the mapping.
const flatSpan = 1 << 36

// flatFrom is the size of the set's tables from which it grows flat:
// below it, one huge page holds many shards' tables in a slab.
const flatFrom = 4 << 20

// growsFlat makes the set grow flat (flatTable) once it is large enough,
// while it keeps fingerprints alone: only one goroutine may then insert.
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
// numbering its states, or with no span to be had.
func (s *fpSet) growFlat(sh *fpShard) flatGrowth {
	if s.numbering || s.bits != nil || s.flatOff {
		return flatNo
	}
	var most, cur, slots uint64
	for i := range s.shards {
		n := uint64(len(s.shards[i].keys))
		most, cur, slots = max(most, s.shards[i].n), max(cur, n), slots+n
	}
	size := grown(most, cur)
	bytes := numShards * size * 8
	if s.flat == nil && bytes < flatFrom {
		return flatNo
	}
	if (s.n+1)*4 <= slots*3 && (sh.n+1)*16 <= uint64(len(sh.keys))*13 {
		return flatRoom
	}
	if s.flat == nil {
		raw := mapSpan(flatSpan)
		if raw == nil {
			s.flatOff = true
			return flatNo
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
		off := (hugePage - start%hugePage) % hugePage
		s.flat = &flatTable{raw: raw, slots: unsafe.Slice((*uint64)(unsafe.Pointer(&raw[off])), flatSpan/8)}
	}
	f := s.flat
	if bytes > flatSpan {
		// Beyond the span (64 GB of fingerprints): the shards grow alone
		// from now on, and the flat table stays until the set goes.
		s.flatOff = true
		return flatNo
	}
	if bytes > f.written {
		outsideHeap(int64(bytes - f.written))
		f.written = bytes
	}
	// From the last shard down: shard i's new table lies past the old
	// tables of the shards before it, and over those of the shards after
	// it, which are moved already; it overlaps its own old table only
	// near the start of the span, where that is copied aside first.
	for i := numShards - 1; i >= 0; i-- {
		sh := &s.shards[i]
		src := sh.keys
		dst := f.slots[uint64(i)*size : uint64(i+1)*size : uint64(i+1)*size]
		if overlap(src, dst) {
			f.tmp = append(f.tmp[:0], src...)
			src = f.tmp
		}
		clear(dst)
		for _, k := range src {
			if k != 0 {
				place(dst, k)
			}
		}
		sh.keys = dst
		sh.dropTables(sh.held) // the slabs it came from, if any
		sh.held = [2]*slab{}
	}
	f.size = size
	f.tmp = nil
	return flatGrew
}

// place puts key k, not in table t, into t.
func place(t []uint64, k uint64) {
	size := uint64(len(t))
	i := home(k, size)
	for t[i] != 0 {
		if i++; i == size {
			i = 0
		}
	}
	t[i] = k
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
	outsideHeap(-int64(s.flat.written))
	s.flat = nil
}
