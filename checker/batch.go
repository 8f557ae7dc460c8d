package checker

import (
	"math"
	"unsafe"
)

// lookups holds the successors a batch of states made (exploreOrdered),
// with the encodings of their entries, in the order they were made; flush
// looks them up in the visited set together and queues the new ones in
// that order.
//
// Looked up one at a time, each between two states' work, a successor's
// slot cost about 65 ns on centralized N=6 R=2 (insert, prefetch and the
// set's growth, 21% of its time under perf), though the slot had been
// prefetched a state before: on a table of tens of megabytes the probe
// walks the page tables, and the prefetch's walk held up the work after
// it. The same inserts back to back, in a loop with nothing else,
// overlap their walks and misses (random inserts into a 30 MB table on
// the same machine: about 18 ns each). The order of discovery, and so
// the search's counts, the numbers of its states and its parent log, are
// those of looking each up at once: the set dedupes a batch in order, the
// first discovery of a fingerprint taking it, and the new states are
// queued in the order they were made.
type lookups struct {
	recs    []lookup
	parents []lookupParent
	arena   []byte // the records' entries, one after the other
}

// lookup is a successor made: its fingerprint, the end of its entry in
// the arena, its parent (an index in parents), the index of its action in
// the parent's list of all (the parent log's), and whether flush found it
// new.
type lookup struct {
	fp     uint64
	end    uint32
	parent uint32
	act    int32
	added  bool
}

// lookupParent is a state whose successors were made: its fingerprint and
// depth, and the end of its records (a state is expanded whole, or not
// begun).
type lookupParent struct {
	fp    uint64
	depth int
	end   uint32
}

// lookupAhead is how many records ahead of its insert flush asks for a
// record's slot.
const lookupAhead = 16

// begin notes the state whose successors are recorded next.
func (b *lookups) begin(fp uint64, depth int) {
	b.parents = append(b.parents, lookupParent{fp: fp, depth: depth, end: uint32(len(b.recs))})
}

// add records a successor of the state begun last, whose entry was just
// appended to the arena.
func (b *lookups) add(fp uint64, act int) {
	b.recs = append(b.recs, lookup{fp: fp, end: uint32(len(b.arena)), parent: uint32(len(b.parents) - 1), act: int32(act)})
}

// end notes that the state begun last has all its successors recorded.
func (b *lookups) end() {
	if len(b.arena) > math.MaxUint32 {
		panic("checker: a batch's successors' encodings outgrew 4 GB")
	}
	b.parents[len(b.parents)-1].end = uint32(len(b.recs))
}

// bytes is the memory of the records and their entries.
func (b *lookups) bytes() uint64 {
	if b == nil {
		return 0
	}
	return uint64(cap(b.recs))*uint64(unsafe.Sizeof(lookup{})) + uint64(cap(b.parents))*uint64(unsafe.Sizeof(lookupParent{})) + uint64(cap(b.arena))
}

// flush looks the records up in the visited set, in order, and then, in
// order again, queues each new one, counts it in its level and in its
// parent's log: what the search that looks each up at once does as it
// goes. It polls the bounds as the frontier grows past mark (other is
// the search's memory besides the frontier, the parent log and the
// batch), and returns the bound a poll reached (the records are all
// queued first).
func (r *run[S, M]) flush(b *lookups, fr *oFrontier, mark *uint64, other uint64) string {
	seen, plog, rep := r.seen, r.plog, r.rep
	keep := seen.parents
	for j := range b.recs {
		if j+lookupAhead < len(b.recs) {
			seen.prefetch(b.recs[j+lookupAhead].fp)
		}
		l := &b.recs[j]
		parent := uint64(noParent)
		if keep {
			parent = key(b.parents[l.parent].fp)
		}
		_, l.added = seen.insertID(l.fp, parent)
	}
	var stop string
	start, j := uint32(0), 0
	for pi := range b.parents {
		p := &b.parents[pi]
		kids := 0
		for ; j < int(p.end); j++ {
			l := &b.recs[j]
			if l.added {
				if plog != nil {
					plog.found(int(l.act))
					kids++
				}
				n := fr.push(p.depth+1, l.fp, b.arena[start:l.end])
				r.countLevel(p.depth+1, 1)
				rep.FrontierBytes = max(rep.FrontierBytes, n)
				if n >= *mark {
					if s := r.poll(fr.size(), fr.bytes()+other+r.plog.bytes()+b.bytes(), chunkSize); s != "" && stop == "" {
						stop = s
					}
					*mark = fr.bytes() + pollBytes
				}
			}
			start = l.end
		}
		if plog != nil {
			plog.expanded(kids)
		}
	}
	b.recs, b.parents, b.arena = b.recs[:0], b.parents[:0], b.arena[:0]
	return stop
}
