package checker

import (
	"math/bits"
	"runtime"
	"unsafe"
)

// fpSet is the set of visited states, stored as 64-bit fingerprints (hash
// compaction). It is split by the fingerprint's top bits into shards,
// open-addressing tables with linear probing, so that the parallel BFS
// can fill the shards side by side with no lock.
//
// A slot is the fingerprint alone, 8 bytes, in the searches whose
// counterexample is rebuilt by searching again (BFS: see pathTo). A table
// grows by half when it is 3/4 full, so it is always between 1/2 and 3/4
// full (after its first growth): 10.7 to 16 bytes a state. In the
// one-worker search, a large set grows flat (flat.go): all its shards at
// once, in place, when the set is 3/4 full. DFS, a BFS with Exhaust until
// its first violation, and the search that keeps the state graph also
// keep the fingerprint of the state each was first reached from
// (parents, logged apart: found.go), and the liveness checks a number
// per state beside its fingerprint (numbering).
type fpSet struct {
	shards [numShards]fpShard
	n      uint64 // states in all shards
	// parents, when on, keeps each state's parent (see parent).
	parents bool
	// numbering, when on, gives states numbers 0, 1, ... in the order
	// they are inserted (see id).
	numbering bool
	// bits, when set, replaces the tables by a bit array, one part per
	// shard (bitstate.go).
	bits []bitShard
	// mem is where the shards' tables are cut from (slabs.go), until the
	// set grows flat: flat then holds them (flat.go); flatOff is set once
	// it cannot.
	mem     *slabs
	flat    *flatTable
	flatOff bool
	// helpers, when set, runs a growth's job on the goroutines free to
	// help (flatten's par): the ordered batches' idle workers.
	helpers func(job func(int))
}

const (
	shardBits = 6
	numShards = 1 << shardBits
	// minShard is a shard's size when the set is made.
	minShard = 256
)

type fpShard struct {
	keys []uint64 // 0: empty
	ids  []uint32 // each slot's state number, when numbering is on
	// found is each key's parent, when the set keeps parents (found.go).
	found *foundLog
	n     uint64
	// mem is the set's slabs, at the shard's index; held, the slabs of
	// keys and ids.
	mem  *slabs
	at   int
	held [2]*slab
	// owner is the set, when it grows flat (growsFlat): the shard grows
	// through it.
	owner *fpSet
}

// noParent marks the initial state.
const noParent = 0

// newFPSet makes an empty set; with parents, it keeps each state's
// parent.
func newFPSet(parents bool) *fpSet {
	s := &fpSet{parents: parents}
	s.init()
	for i := range s.shards {
		s.shards[i].make(minShard, false)
		if parents {
			s.shards[i].found = &foundLog{}
		}
	}
	return s
}

// init gives the set's shards their slabs, which go with the set (or
// before, with release).
func (s *fpSet) init() {
	s.mem = &slabs{}
	for i := range s.shards {
		s.shards[i].mem, s.shards[i].at = s.mem, i
	}
	runtime.AddCleanup(s, (*slabs).free, s.mem)
}

// release lets the tables go at once, when the search is done with the
// set: a large one is mapped apart from the heap (slabs.go), which the
// garbage collector does not count, and it could stay mapped long after.
func (s *fpSet) release() {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.keys, sh.ids, sh.found = nil, nil, nil
		sh.dropTables(sh.held)
		sh.held = [2]*slab{}
	}
	s.releaseFlat()
}

// make gives the shard empty tables of size slots, and lets its old ones
// go.
func (sh *fpShard) make(size uint64, numbering bool) {
	old := sh.held
	sh.keys = takeTable[uint64](sh, slabKeys, size)
	sh.ids = nil
	if numbering {
		sh.ids = takeTable[uint32](sh, slabIDs, size)
	}
	sh.dropTables(old)
}

// takeTable takes the shard a zeroed table of size slots of the kind.
func takeTable[T uint32 | uint64](sh *fpShard, kind uint8, size uint64) []T {
	p, sl := sh.mem.take(kind, size, sh.at)
	sh.held[kind] = sl
	return unsafe.Slice((*T)(p), size)
}

// dropTables lets go of the slabs of the tables held.
func (sh *fpShard) dropTables(held [2]*slab) {
	for _, sl := range held {
		sh.mem.drop(sl, sh.at)
	}
}

// key maps a fingerprint to a non-zero key (zero marks an empty slot).
func key(fp uint64) uint64 {
	if fp == 0 {
		return 1
	}
	return fp
}

// shard is the shard of key k.
func (s *fpSet) shard(k uint64) *fpShard { return &s.shards[k>>(64-shardBits)] }

// home is the slot where key k's probe starts in a table of size slots:
// the key's bits below the shard's, scaled to the size (sizes are not
// powers of two).
func home(k, size uint64) uint64 {
	hi, _ := bits.Mul64(k<<shardBits, size)
	return hi
}

// grown is the size a table of size slots holding n keys must grow to
// before it takes one more, or size when it need not grow.
func grown(n, size uint64) uint64 {
	for (n+1)*4 > size*3 {
		size += size / 2
	}
	return size
}

// numbered turns state numbering on; the set must be empty.
func (s *fpSet) numbered() {
	s.numbering = true
	for i := range s.shards {
		sh := &s.shards[i]
		sh.ids = takeTable[uint32](sh, slabIDs, uint64(len(sh.keys)))
	}
}

// prefetch starts bringing the slot where fp's probe begins into the
// cache, for an insert or has a little later.
func (s *fpSet) prefetch(fp uint64) {
	if s.bits != nil {
		return
	}
	k := key(fp)
	s.shard(k).prefetch(k)
}

// prefetch is fpSet.prefetch for key k of the shard: its number's slot
// too, when the set numbers its states (the liveness checks, which read
// the number of every successor found).
func (sh *fpShard) prefetch(k uint64) {
	i := home(k, uint64(len(sh.keys)))
	prefetch(unsafe.Pointer(&sh.keys[i]))
	if sh.ids != nil {
		prefetch(unsafe.Pointer(&sh.ids[i]))
	}
}

// insert adds fp with its parent and reports whether it was new.
func (s *fpSet) insert(fp, parent uint64) bool {
	_, added := s.insertID(fp, parent)
	return added
}

// insertID is insert that also returns the state's number (when
// numbering is on).
func (s *fpSet) insertID(fp, parent uint64) (uint32, bool) {
	k := key(fp)
	if s.bits != nil {
		added := s.bits[k>>(64-shardBits)].insert(k)
		if added {
			s.n++
		}
		return 0, added
	}
	id, added := s.shard(k).insert(k, parent, uint32(s.n))
	if added {
		s.n++
	}
	return id, added
}

// insert adds key k with its parent (logged when the shard keeps parents)
// and number id (kept when numbering is on) unless present; it returns
// the number the key has.
func (sh *fpShard) insert(k, parent uint64, id uint32) (uint32, bool) {
	size := uint64(len(sh.keys))
	i := home(k, size)
	for {
		switch sh.keys[i] {
		case k:
			if sh.ids != nil {
				return sh.ids[i], false
			}
			return 0, false
		case 0:
			if g := grown(sh.n, size); g != size {
				grow := flatNo
				if sh.owner != nil {
					grow = sh.owner.growFlat(sh)
				}
				if grow != flatRoom { // else the key goes here (flat.go)
					if grow == flatNo {
						sh.grow(g)
					}
					return sh.insert(k, parent, id)
				}
			}
			sh.keys[i] = k
			if sh.found != nil {
				sh.found.add(k, parent)
			}
			if sh.ids != nil {
				sh.ids[i] = id
			}
			sh.n++
			return id, true
		}
		if i++; i == size {
			i = 0
		}
	}
}

// find returns the slot of key k, and whether k is present.
func (sh *fpShard) find(k uint64) (uint64, bool) {
	size := uint64(len(sh.keys))
	for i := home(k, size); ; {
		switch sh.keys[i] {
		case k:
			return i, true
		case 0:
			return 0, false
		}
		if i++; i == size {
			i = 0
		}
	}
}

// has reports whether fp is in the set. Any number of goroutines may ask
// at once while nobody inserts.
func (s *fpSet) has(fp uint64) bool {
	k := key(fp)
	if s.bits != nil {
		return s.bits[k>>(64-shardBits)].has(k)
	}
	_, ok := s.shard(k).find(k)
	return ok
}

// id returns the number of a state in the set (numbering must be on).
func (s *fpSet) id(fp uint64) uint32 {
	k := key(fp)
	sh := s.shard(k)
	i, _ := sh.find(k)
	return sh.ids[i]
}

// dropParents lets the parents go: from now on the set keeps
// fingerprints alone.
func (s *fpSet) dropParents() {
	s.parents = false
	for i := range s.shards {
		s.shards[i].found = nil
	}
}

// grow moves the shard's keys into tables of size slots.
func (sh *fpShard) grow(size uint64) {
	keys, ids, old := sh.keys, sh.ids, sh.held
	sh.held = [2]*slab{} // kept until the keys are moved
	sh.make(size, ids != nil)
	defer sh.dropTables(old)
	for j, k := range keys {
		if k == 0 {
			continue
		}
		i := home(k, size)
		for sh.keys[i] != 0 {
			if i++; i == size {
				i = 0
			}
		}
		sh.keys[i] = k
		if ids != nil {
			sh.ids[i] = ids[j]
		}
	}
}

// slotBytes is the memory one slot of the set takes.
func (s *fpSet) slotBytes() uint64 {
	b := uint64(8)
	if s.numbering {
		b += 4
	}
	return b
}

// bytes is the memory the table holds.
func (s *fpSet) bytes() uint64 {
	var b uint64
	if s.bits != nil {
		for i := range s.bits {
			b += uint64(len(s.bits[i].words)) * 8
		}
		return b
	}
	for i := range s.shards {
		b += uint64(len(s.shards[i].keys))
	}
	return b*s.slotBytes() + s.foundBytes()
}

// foundBytes is the memory the shards' logs of parents hold.
func (s *fpSet) foundBytes() uint64 {
	var b uint64
	for i := range s.shards {
		if l := s.shards[i].found; l != nil {
			b += l.bytes()
		}
	}
	return b
}
