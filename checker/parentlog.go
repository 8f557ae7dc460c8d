package checker

// parentLog is how a breadth-first search that keeps no parents finds the
// path to its counterexample without searching again. States are numbered
// as the one-worker BFS inserts them (the initial state 0), and expanded
// in that order; the log notes, for each state expanded, how many new
// states its successors were (kids), and for each new state the index of
// the action that made it among its parent's (acts). State v's parent is
// then the state p whose new states, counted from 1 after all those of
// the states before p, include v; the path is replayed from the initial
// state by action indices (replayPath). A byte each, with the rare count
// or index of 255 or more kept apart: about 2 bytes a state, written in
// order, in chunks that never move. The level engine writes the same log
// from a level's new states in key order (the order they are inserted).
//
// Without it, the path was found by a second BFS up to the violation
// (discoverers, still the way of a search resumed from a checkpoint): the
// deadlock of Maekawa N=4 grid took 1.94 s to show on two workers, 0.82 s
// with the log (2.45 s and 1.31 s on one). On a search that passes, the
// log costs its memory (about 2 bytes a state) and few instructions
// (callgrind, centralized N=6 R=2 on one worker: 10.05 G with it, 10.24 G
// without, a difference within the runtime's own); paired wall times
// read 0.96-1.07x, within this machine's noise.
type parentLog struct {
	kids, acts logBytes
	total      uint64 // the new states the kids logged count
	// The counts and indices of 255 or more, by position.
	bigKids, bigActs map[uint64]uint32
}

// logBytes is a byte log in chunks of logChunk bytes: its first 256 KB on
// the heap, the rest from a region (region.go), mapped apart and counted
// against the Go memory limit, so that a large log
// (RA N=4 R=2: 108 MB) does not raise the collector's goal. RA N=4 R=2
// on two workers peaked at 1.35 GB RSS so, 1.37 GB with the log all on
// the heap (one run each), about 1.23 GB without a log. The heap's part
// was 4 MB, which took a page fault per 4 KB page: centralized N=6 R=2
// on one worker took 2,876 faults so, 2,242 with 256 KB (a fault costs
// about 12 us on the 2-core VM of the README's table, where a 2 MB huge
// page costs as much as 10 to 30 small ones).
type logBytes struct {
	chunks [][]byte
	n      uint64
	mem    region
	// last is the last chunk, where add writes: one load and no bounds
	// check a byte (through chunks, two of each: the log was 1.4% of
	// centralized N=6 R=2's instructions).
	last *[logChunk]byte
}

const logChunk = 64 << 10

// logOnHeap is the log's bytes taken from the heap before its region:
// a small search maps none.
const logOnHeap = 256 << 10

func (b *logBytes) add(v byte) {
	if b.n&(logChunk-1) == 0 {
		b.grow()
	}
	b.last[b.n&(logChunk-1)] = v
	b.n++
}

func (b *logBytes) grow() {
	var c []byte
	if uint64(len(b.chunks))*logChunk < logOnHeap {
		c = make([]byte, logChunk)
	} else {
		b.mem.reserve()
		c = b.mem.take(logChunk)
	}
	b.chunks = append(b.chunks, c)
	b.last = (*[logChunk]byte)(c)
}

// extend makes room for n more bytes, to be set (by several goroutines,
// each its own bytes), and returns the position of the first.
func (b *logBytes) extend(n uint64) uint64 {
	at := b.n
	for uint64(len(b.chunks))*logChunk < at+n {
		b.grow()
	}
	b.n += n
	return at
}

// logCursor sets a logBytes' bytes one after the other from a position
// extend made room for: a chunk looked up once, not at each byte (set
// per byte, the level engine's log was 2% of centralized N=6 R=2's
// instructions on two workers).
type logCursor struct {
	b     *logBytes
	at    uint64          // the position put sets next
	chunk *[logChunk]byte // the chunk of at, once put needs it
}

// cursor is a logCursor that sets the bytes from position i.
func (b *logBytes) cursor(i uint64) logCursor { return logCursor{b: b, at: i} }

// put sets the cursor's byte to v and moves on to the next.
func (c *logCursor) put(v byte) {
	if c.chunk == nil || c.at%logChunk == 0 {
		c.chunk = (*[logChunk]byte)(c.b.chunks[c.at/logChunk])
	}
	c.chunk[c.at%logChunk] = v
	c.at++
}

func (b *logBytes) at(i uint64) byte { return b.chunks[i/logChunk][i%logChunk] }

func newParentLog() *parentLog {
	return &parentLog{bigKids: map[uint64]uint32{}, bigActs: map[uint64]uint32{}}
}

// expanded notes that the next state in BFS order had kids new states.
func (l *parentLog) expanded(kids int) {
	if l == nil {
		return
	}
	l.total += uint64(kids)
	if kids >= 255 {
		l.bigKid(kids)
		kids = 255
	}
	l.kids.add(byte(kids))
}

// found notes that the next new state was made by its parent's action a.
func (l *parentLog) found(a int) {
	if a >= 255 {
		l.bigAct(a)
		a = 255
	}
	l.acts.add(byte(a))
}

func (l *parentLog) bigAct(a int) { l.bigActs[l.acts.n] = uint32(a) }

func (l *parentLog) bigKid(k int) { l.bigKids[l.kids.n] = uint32(k) }

func (l *parentLog) kidsAt(p uint64) uint64 {
	if k := l.kids.at(p); k < 255 {
		return uint64(k)
	}
	return uint64(l.bigKids[p])
}

func (l *parentLog) actAt(v uint64) int {
	if a := l.acts.at(v - 1); a < 255 {
		return int(a)
	}
	return int(l.bigActs[v-1])
}

// release gives the log's mapped memory back; the log is not read again.
func (l *parentLog) release() {
	if l == nil {
		return
	}
	l.kids.mem.free()
	l.acts.mem.free()
	l.kids, l.acts = logBytes{}, logBytes{}
}

// bytes is the log's memory.
func (l *parentLog) bytes() uint64 {
	if l == nil {
		return 0
	}
	return uint64(len(l.kids.chunks)+len(l.acts.chunks))*logChunk + uint64(len(l.bigKids)+len(l.bigActs))*16
}

// path returns the action indices that lead from the initial state to
// state v, and false when the log does not reach v (its parent was not
// logged). One pass over the log, from its end down.
func (l *parentLog) path(v uint64) ([]int, bool) {
	var acts []int
	// end is one past the number of the last new state of the states
	// up to p: new states are numbered from 1. (A search stopped inside
	// an expansion logged new states of a state whose count it did not.)
	end := 1 + l.total
	if v >= end {
		return nil, false
	}
	for p := l.kids.n; p > 0 && v > 0; {
		p--
		start := end - l.kidsAt(p)
		if v >= start {
			acts = append(acts, l.actAt(v))
			v = p
		}
		end = start
	}
	if v != 0 {
		return nil, false
	}
	for i, j := 0, len(acts)-1; i < j; i, j = i+1, j-1 {
		acts[i], acts[j] = acts[j], acts[i]
	}
	return acts, true
}

// replayPath is the path of keys from the initial state along the action
// indices acts, each taken among the actions the search lists (its
// expander's: reduced by persistent sets, successors made canonical
// under symmetry, as the search made them).
func (sp *Spec[S, M]) replayPath(acts []int) []uint64 {
	x := newExpander(sp, sp.newStore())
	fp, enc := x.initial()
	path := make([]uint64, 0, len(acts)+1)
	path = append(path, key(fp))
	for _, a := range acts {
		x.load(fp, enc, true)
		x.makeSuccessors(&prefetcher{}, 0, false)
		sc := x.successor(a)
		fp, enc = sc.fp, x.encodeOf(sc.at)
		path = append(path, key(fp))
	}
	return path
}
