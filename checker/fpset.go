package checker

// fpSet is the set of visited states, stored as 64-bit fingerprints (hash
// compaction), each with the fingerprint of the state it was first reached
// from, so that a counterexample path can be rebuilt. It is split by the
// fingerprint's top bits into shards, open-addressing tables with linear
// probing (16 bytes a slot, at most 3/4 full), so that the parallel BFS can
// fill the shards side by side with no lock.
type fpSet struct {
	shards [numShards]fpShard
	n      uint64 // states in all shards
	// numbering, when on, gives states numbers 0, 1, ... in the order
	// they are inserted (see id).
	numbering bool
}

const (
	shardBits = 6
	numShards = 1 << shardBits
)

type fpShard struct {
	slots []fpSlot
	mask  uint64
	n     uint64
	ids   []uint32 // each slot's state number, when numbering is on
}

type fpSlot struct {
	fp, parent uint64
}

// noParent marks the initial state.
const noParent = 0

func newFPSet(hint uint64) *fpSet {
	size := uint64(1 << 8)
	for size*3/4*numShards < hint {
		size <<= 1
	}
	s := &fpSet{}
	for i := range s.shards {
		s.shards[i] = fpShard{slots: make([]fpSlot, size), mask: size - 1}
	}
	return s
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

// slot is where key k sits in a table with the given mask, or starts its
// probe.
func slot(k, mask uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> 7 & mask }

// numbered turns state numbering on; the set must be empty.
func (s *fpSet) numbered() {
	s.numbering = true
	for i := range s.shards {
		s.shards[i].ids = make([]uint32, len(s.shards[i].slots))
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
	id, added := s.shard(k).insert(k, parent, uint32(s.n))
	if added {
		s.n++
	}
	return id, added
}

// insert adds key k with its parent and number id (kept when numbering is
// on) unless present; it returns the number the key has.
func (sh *fpShard) insert(k, parent uint64, id uint32) (uint32, bool) {
	i := slot(k, sh.mask)
	for {
		sl := &sh.slots[i]
		if sl.fp == k {
			if sh.ids != nil {
				return sh.ids[i], false
			}
			return 0, false
		}
		if sl.fp == 0 {
			sl.fp, sl.parent = k, parent
			if sh.ids != nil {
				sh.ids[i] = id
			}
			sh.n++
			if sh.n*4 > uint64(len(sh.slots))*3 {
				sh.grow()
			}
			return id, true
		}
		i = (i + 1) & sh.mask
	}
}

// has reports whether fp is in the set. Any number of goroutines may ask
// at once while nobody inserts.
func (s *fpSet) has(fp uint64) bool {
	_, ok := s.parent(fp)
	return ok
}

// id returns the number of a state in the set (numbering must be on).
func (s *fpSet) id(fp uint64) uint32 {
	k := key(fp)
	sh := s.shard(k)
	i := slot(k, sh.mask)
	for sh.slots[i].fp != k {
		i = (i + 1) & sh.mask
	}
	return sh.ids[i]
}

// parent returns the parent recorded for fp and whether fp is present.
func (s *fpSet) parent(fp uint64) (uint64, bool) {
	k := key(fp)
	sh := s.shard(k)
	for i := slot(k, sh.mask); ; i = (i + 1) & sh.mask {
		sl := &sh.slots[i]
		if sl.fp == k {
			return sl.parent, true
		}
		if sl.fp == 0 {
			return 0, false
		}
	}
}

func (sh *fpShard) grow() {
	old, oldIDs := sh.slots, sh.ids
	sh.slots = make([]fpSlot, 2*len(old))
	if oldIDs != nil {
		sh.ids = make([]uint32, len(sh.slots))
	}
	sh.mask = uint64(len(sh.slots)) - 1
	for j, sl := range old {
		if sl.fp == 0 {
			continue
		}
		i := slot(sl.fp, sh.mask)
		for sh.slots[i].fp != 0 {
			i = (i + 1) & sh.mask
		}
		sh.slots[i] = sl
		if oldIDs != nil {
			sh.ids[i] = oldIDs[j]
		}
	}
}

// bytes is the memory the table holds.
func (s *fpSet) bytes() uint64 {
	var b uint64
	for i := range s.shards {
		b += uint64(len(s.shards[i].slots))*16 + uint64(len(s.shards[i].ids))*4
	}
	return b
}
