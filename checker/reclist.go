package checker

// recList is a worker's records of one shard in one level, in parts taken
// from the worker's region of records (levelWorker.recMem): appended to
// without ever being copied, and, once the region has been written that
// far at an earlier level, without a page fault. Grown by append on the
// Go heap, the 64 shards' arrays took a fault per 4 KB page, and a copy,
// each time a level was wider than the last (bully N=4 on two workers:
// half of its 14,000 faults).
//
// The parts double from recPartMin records up to recPartMax, so that a
// small shard takes little and a large one few parts: at most one part
// per shard is not full.
type recList struct {
	parts [][]rec // the full parts
	// last is the part being filled, kept apart so that an add appends
	// to a field, not to an element of parts (a bounds check, and the
	// slice's three words written back through it: 52 instructions a
	// record on ring N=10's two workers).
	last []rec
	n    int // the records in all
}

const (
	recPartMin = 64
	recPartMax = 4096
)

// add appends r, taking a new part from g when the last is full, and
// returns the bytes taken.
func (l *recList) add(g *region, r rec) (grew uint64) {
	if len(l.last) == cap(l.last) {
		grew = l.grow(g)
	}
	l.last = append(l.last, r)
	l.n++
	return grew
}

// grow puts the full last part (if any) with the others and takes a new
// one from g, twice as large as the last, and returns its bytes.
func (l *recList) grow(g *region) uint64 {
	k := len(l.parts)
	if l.last != nil {
		l.parts = append(l.parts, l.last)
		k++
	}
	size := min(recPartMin<<min(k, 16), recPartMax)
	l.last = g.recs(size)[:0]
	return uint64(size) * recSize
}

// bytes is the memory of the list's parts.
func (l *recList) bytes() uint64 {
	b := uint64(cap(l.last)) * recSize
	for _, p := range l.parts {
		b += uint64(cap(p)) * recSize
	}
	return b
}

// reset empties the list; its parts are the region's again.
func (l *recList) reset() {
	clear(l.parts)
	l.parts, l.last, l.n = l.parts[:0], nil, 0
}

// appendRange appends to lists the records from index from up to to, as
// the slices of the parts that hold them.
func (l *recList) appendRange(lists [][]rec, from, to int) [][]rec {
	at := 0 // the index of part p's first record
	for k := 0; k <= len(l.parts); k++ {
		p := l.last
		if k < len(l.parts) {
			p = l.parts[k]
		}
		if at >= to {
			break
		}
		if end := at + len(p); end > from {
			lists = append(lists, p[max(from-at, 0):min(to-at, len(p))])
		}
		at += len(p)
	}
	return lists
}

// each calls f with each record in order.
func (l *recList) each(f func(rc rec)) {
	for _, p := range l.parts {
		for _, rc := range p {
			f(rc)
		}
	}
	for _, rc := range l.last {
		f(rc)
	}
}
