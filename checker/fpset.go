package checker

// fpSet is the set of visited states, stored as 64-bit fingerprints (hash
// compaction), each with the fingerprint of the state it was first reached
// from, so that a counterexample path can be rebuilt. It is an open-
// addressing table with linear probing: 16 bytes a slot, at most 3/4 full.
type fpSet struct {
	slots []fpSlot
	mask  uint64
	n     uint64
	// ids, when numbering is on, holds each slot's state number: states
	// are numbered 0, 1, ... in the order they are inserted.
	ids []uint32
}

type fpSlot struct {
	fp, parent uint64
}

// noParent marks the initial state.
const noParent = 0

func newFPSet(hint uint64) *fpSet {
	size := uint64(1 << 12)
	for size*3/4 < hint {
		size <<= 1
	}
	return &fpSet{slots: make([]fpSlot, size), mask: size - 1}
}

// key maps a fingerprint to a non-zero key (zero marks an empty slot).
func key(fp uint64) uint64 {
	if fp == 0 {
		return 1
	}
	return fp
}

// numbered turns state numbering on (see ids); the set must be empty.
func (s *fpSet) numbered() { s.ids = make([]uint32, len(s.slots)) }

// insert adds fp with its parent and reports whether it was new.
func (s *fpSet) insert(fp, parent uint64) bool {
	_, added := s.insertID(fp, parent)
	return added
}

// insertID is insert that also returns the state's number (when
// numbering is on).
func (s *fpSet) insertID(fp, parent uint64) (uint32, bool) {
	fp = key(fp)
	i := (fp * 0x9e3779b97f4a7c15) >> 7 & s.mask
	for {
		sl := &s.slots[i]
		if sl.fp == fp {
			if s.ids != nil {
				return s.ids[i], false
			}
			return 0, false
		}
		if sl.fp == 0 {
			sl.fp, sl.parent = fp, parent
			id := uint32(s.n)
			if s.ids != nil {
				s.ids[i] = id
			}
			s.n++
			if s.n*4 > uint64(len(s.slots))*3 {
				s.grow()
			}
			return id, true
		}
		i = (i + 1) & s.mask
	}
}

// id returns the number of a state in the set (numbering must be on).
func (s *fpSet) id(fp uint64) uint32 {
	fp = key(fp)
	i := (fp * 0x9e3779b97f4a7c15) >> 7 & s.mask
	for s.slots[i].fp != fp {
		i = (i + 1) & s.mask
	}
	return s.ids[i]
}

// parent returns the parent recorded for fp and whether fp is present.
func (s *fpSet) parent(fp uint64) (uint64, bool) {
	fp = key(fp)
	i := (fp * 0x9e3779b97f4a7c15) >> 7 & s.mask
	for {
		sl := &s.slots[i]
		if sl.fp == fp {
			return sl.parent, true
		}
		if sl.fp == 0 {
			return 0, false
		}
		i = (i + 1) & s.mask
	}
}

func (s *fpSet) grow() {
	old, oldIDs := s.slots, s.ids
	s.slots = make([]fpSlot, 2*len(old))
	if oldIDs != nil {
		s.ids = make([]uint32, len(s.slots))
	}
	s.mask = uint64(len(s.slots)) - 1
	for j, sl := range old {
		if sl.fp == 0 {
			continue
		}
		i := (sl.fp * 0x9e3779b97f4a7c15) >> 7 & s.mask
		for s.slots[i].fp != 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = sl
		if oldIDs != nil {
			s.ids[i] = oldIDs[j]
		}
	}
}

// bytes is the memory the table holds.
func (s *fpSet) bytes() uint64 { return uint64(len(s.slots))*16 + uint64(len(s.ids))*4 }
