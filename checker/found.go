package checker

// foundLog is a shard's record of parents, when its set keeps them: the
// pairs (key, parent) in the order the shard took the keys, appended in
// chunks that double from foundFirst pairs to foundMost.
//
// Kept in the table beside each key (as it was), a parent cost 8 bytes a
// slot, 10.7 to 16 a state, written at a random place, one more cache
// miss per new state, and copied whenever the shard grew: the table
// could not grow flat (flat.go). Maekawa N=4 grid, which keeps parents
// until its first violation at depth 20 of 48 (parentsUntilFound), spent
// 14% of a one-worker search growing such tables. A log costs 16 bytes a
// state, written in order, and a path is found in one pass over it from
// the newest end (parentFinder).
type foundLog struct {
	chunks [][]uint64 // pair j of a chunk: key at 2j, parent at 2j+1
	n      uint64     // pairs
	held   uint64     // bytes of the chunks
}

const (
	foundFirst = 32   // pairs in a log's first chunk
	foundMost  = 4096 // pairs in its largest chunks (64 KB)
)

// add appends key k's parent.
func (l *foundLog) add(k, parent uint64) {
	last := len(l.chunks) - 1
	if last < 0 || len(l.chunks[last]) == cap(l.chunks[last]) {
		pairs := foundFirst
		if last >= 0 {
			pairs = min(cap(l.chunks[last]), foundMost) // twice the last's
		}
		l.chunks = append(l.chunks, make([]uint64, 0, 2*pairs))
		l.held += uint64(pairs) * 16
		last++
	}
	l.chunks[last] = append(l.chunks[last], k, parent)
	l.n++
}

// bytes is the memory the log holds.
func (l *foundLog) bytes() uint64 { return l.held }

// each calls f with every pair, oldest first.
func (l *foundLog) each(f func(k, parent uint64)) {
	for _, c := range l.chunks {
		for j := 0; j < len(c); j += 2 {
			f(c[j], c[j+1])
		}
	}
}

// parentFinder finds the parents along one path of the set's logs, child
// to parent, in one pass over them from the newest end: a parent was
// inserted before its child (it was in the set when the child was made
// from it), so in its shard's log it lies before every key of the path
// found there already, and each shard's scan only moves back.
type parentFinder struct {
	s  *fpSet
	at [numShards]struct{ chunk, pos int } // where each shard's scan resumes
}

// newParentFinder starts the scans at the logs' newest ends.
func newParentFinder(s *fpSet) *parentFinder {
	f := &parentFinder{s: s}
	for i := range s.shards {
		l := s.shards[i].found
		f.at[i].chunk = -1
		if l == nil {
			continue
		}
		f.at[i].chunk = len(l.chunks) - 1
		if f.at[i].chunk >= 0 {
			f.at[i].pos = len(l.chunks[f.at[i].chunk])
		}
	}
	return f
}

// parent returns key k's parent, and whether the log not yet scanned
// holds k.
func (f *parentFinder) parent(k uint64) (uint64, bool) {
	i := k >> (64 - shardBits)
	l, at := f.s.shards[i].found, &f.at[i]
	for at.chunk >= 0 {
		c := l.chunks[at.chunk]
		for at.pos >= 2 {
			at.pos -= 2
			if c[at.pos] == k {
				return c[at.pos+1], true
			}
		}
		if at.chunk--; at.chunk >= 0 { // on to the whole of the chunk before
			at.pos = len(l.chunks[at.chunk])
		}
	}
	return 0, false
}
