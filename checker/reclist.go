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
	parts [][]rec // each full but the last
	n     int     // the records in all
}

const (
	recPartMin = 64
	recPartMax = 4096
)

// add appends r, taking a new part from g when the last is full, and
// returns the bytes taken.
func (l *recList) add(g *region, r rec) (grew uint64) {
	k := len(l.parts)
	if k == 0 || len(l.parts[k-1]) == cap(l.parts[k-1]) {
		size := min(recPartMin<<min(k, 16), recPartMax)
		l.parts = append(l.parts, g.recs(size)[:0])
		grew = uint64(size) * recSize
		k++
	}
	l.parts[k-1] = append(l.parts[k-1], r)
	l.n++
	return grew
}

// bytes is the memory of the list's parts.
func (l *recList) bytes() uint64 {
	var b uint64
	for _, p := range l.parts {
		b += uint64(cap(p)) * recSize
	}
	return b
}

// reset empties the list; its parts are the region's again.
func (l *recList) reset() {
	clear(l.parts)
	l.parts, l.n = l.parts[:0], 0
}

// appendRange appends to lists the records from index from up to to, as
// the slices of the parts that hold them.
func (l *recList) appendRange(lists [][]rec, from, to int) [][]rec {
	at := 0 // the index of part p's first record
	for _, p := range l.parts {
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
}
