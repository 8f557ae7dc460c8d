package checker

import (
	"sync"
	"sync/atomic"
)

// oFrontier is exploreOrdered's queue: the worker flushing pushes
// entries into buffers of chunkSize bytes and publishes them, in segments
// of at most oClaim entries, for the workers to take in order. A buffer's
// memory is pushed into again once the buffer is sealed (full) and its
// segments are read.
//
// When the frontier (the bytes pushed and not yet flushed as part of a
// batch) outgrows its share of memory, each buffer sealed goes to disk
// (spills): its memory is pushed into again once the segments taken from
// it before are read, and the segments taken after are read back from the
// file. Whether a buffer spills depends on the flushes alone, not on the
// workers' timing: the bytes spilled are the same every run.
type oFrontier struct {
	mu      sync.Mutex
	segs    []oSeg // published, not taken, from head on
	head    int
	states  uint64    // states in them
	taken   uint64    // batches taken
	popped  uint64    // states taken
	free    [][]byte  // buffers' memory, to be pushed into again
	total   uint64    // bytes of the buffers' memory made
	batches []*oBatch // batches flushed, for the workers to take again
	// The flushing worker's own: the buffer being filled, where its part
	// not yet published begins and its entries there, the bytes pushed
	// and those of the batches flushed, the spill file being written and
	// its buffers, and the first spill that failed.
	cur      *oBuf
	curLo    int
	curN     int
	pushed   uint64
	consumed uint64
	opts     *Options
	written  *atomic.Uint64
	file     *spillFile
	inFile   int
	err      error
	mem      region
}

// oBuf is a buffer of the frontier.
type oBuf struct {
	b        []byte       // its memory; nil once it is pushed into again (under mu)
	read     atomic.Int64 // bytes of its segments read and done with
	end      atomic.Int64 // its length once sealed, -1 before
	released atomic.Bool
	// Under mu: the segments taken from memory and not yet read, and
	// whether (and where) it is on disk.
	inMem   int
	spilled bool
	sp      span
}

// oSeg is a run of entries in a buffer, at lo:hi.
type oSeg struct {
	b      []byte // nil when read back from disk
	lo, hi int
	n      int
	buf    *oBuf
}

// push adds an entry and returns the frontier's bytes after it; the
// workers take it once it is published.
func (f *oFrontier) push(depth int, fp uint64, enc []byte) uint64 {
	if f.cur == nil || len(f.cur.b)+len(enc)+24 > cap(f.cur.b) {
		f.seal()
		f.cur = &oBuf{b: f.fresh(len(enc) + 24)}
		f.cur.end.Store(-1)
		f.curLo, f.curN = 0, 0
	}
	n := len(f.cur.b)
	f.cur.b = appendEntry(f.cur.b, depth, fp, enc)
	f.pushed += uint64(len(f.cur.b) - n)
	if f.curN++; f.curN == oClaim { // a batch's worth: the workers take no more at once
		f.publish()
	}
	return f.total
}

// fresh returns empty memory for a buffer of n bytes at least: a read
// buffer's, or new.
func (f *oFrontier) fresh(n int) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if k := len(f.free); k > 0 && cap(f.free[k-1]) >= n {
		b := f.free[k-1]
		f.free[k-1] = nil
		f.free = f.free[:k-1]
		return b[:0]
	}
	var b []byte
	if n <= chunkSize && f.opts != nil {
		f.mem.reserve()
		b = f.mem.take(chunkSize)
	} else {
		b = make([]byte, 0, max(chunkSize, n))
	}
	f.total += uint64(cap(b))
	return b[:0]
}

// seal publishes what the current buffer holds and pushes no more into
// it; it spills it when the frontier outgrows its share of memory.
func (f *oFrontier) seal() {
	c := f.cur
	if c == nil {
		return
	}
	f.publish()
	f.cur = nil
	if f.opts != nil && f.err == nil && spills(f.opts, f.pushed-f.consumed) {
		f.spill(c)
	}
	end := int64(len(c.b))
	c.end.Store(end)
	if c.read.Load() == end {
		f.give(c)
	}
}

// spill writes sealed buffer c to a file; its memory goes back once the
// segments taken from it are read. A write that fails leaves it in
// memory, and stops the search after the flush.
func (f *oFrontier) spill(c *oBuf) {
	if f.file == nil || f.inFile == spillSegment {
		file, err := newSpillFile(f.opts.SpillDir, f.written)
		if err != nil {
			f.err = spillError("create", err)
			return
		}
		f.mu.Lock() // (give reads f.file)
		if f.file != nil && f.file.pending == 0 {
			f.file.close()
		}
		f.file, f.inFile = file, 0
		f.mu.Unlock()
	}
	sp, err := f.file.write(c.b)
	if err != nil {
		f.err = err
		return
	}
	f.inFile++
	f.mu.Lock()
	defer f.mu.Unlock()
	f.file.pending++
	c.spilled, c.sp = true, sp
	f.reuse(c)
}

// reuse puts c's memory back for the pushes to come, once it is on disk
// and no segment taken from memory is being read (under mu).
func (f *oFrontier) reuse(c *oBuf) {
	if c.b != nil && c.inMem == 0 {
		f.free = append(f.free, c.b)
		c.b = nil
	}
}

// publish lets the workers take the entries pushed since the last call.
func (f *oFrontier) publish() {
	if f.cur == nil || f.curN == 0 {
		return
	}
	hi := len(f.cur.b)
	s := oSeg{b: f.cur.b[f.curLo:hi:hi], lo: f.curLo, hi: hi, n: f.curN, buf: f.cur}
	f.curLo, f.curN = hi, 0
	f.mu.Lock()
	f.segs = append(f.segs, s)
	f.states += uint64(s.n)
	f.mu.Unlock()
}

// take moves segments from the head of the queue into b (under mu),
// until it holds oClaim states or the queue is empty.
func (f *oFrontier) take(b *oBatch) {
	for f.head < len(f.segs) && b.n < uint64(oClaim) {
		s := f.segs[f.head]
		f.segs[f.head] = oSeg{}
		f.head++
		if s.buf.spilled {
			s.b = nil
		} else {
			s.buf.inMem++
		}
		b.segs = append(b.segs, s)
		b.n += uint64(s.n)
	}
	if f.head == len(f.segs) {
		f.segs, f.head = f.segs[:0], 0
	}
	f.states -= b.n
	f.taken++
	f.popped += b.n
}

// entries is segment s's entries, read back into buf when on disk.
func (s *oSeg) entries(buf *[]byte) ([]byte, error) {
	if s.b != nil {
		return s.b, nil
	}
	return span{s.buf.sp.file, s.buf.sp.off + int64(s.lo), s.hi - s.lo}.read(buf)
}

// segBytes is the bytes of segs.
func segBytes(segs []oSeg) uint64 {
	var n uint64
	for _, s := range segs {
		n += uint64(s.hi - s.lo)
	}
	return n
}

// release notes the segments read and done with.
func (f *oFrontier) release(segs []oSeg) {
	for _, s := range segs {
		c := s.buf
		if s.b != nil {
			f.mu.Lock()
			if c.inMem--; c.spilled {
				f.reuse(c)
			}
			f.mu.Unlock()
		}
		if d := c.read.Add(int64(s.hi - s.lo)); d == c.end.Load() {
			f.give(c)
		}
	}
}

// give lets go of a buffer read whole: its memory, or its place in its
// file, which goes once every buffer in it is read.
func (f *oFrontier) give(c *oBuf) {
	if !c.released.CompareAndSwap(false, true) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.b != nil {
		f.free = append(f.free, c.b)
		c.b = nil
	}
	if c.spilled {
		file := c.sp.file
		if file.pending--; file.pending == 0 && file != f.file {
			file.close()
		}
	}
}

// close lets go of the frontier's memory and files.
func (f *oFrontier) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.segs[f.head:] {
		if s.buf.spilled {
			s.buf.sp.file.close()
		}
	}
	f.file.close()
	f.free, f.segs, f.cur = nil, nil, nil
	f.mem.free()
}

// size is the states published and not taken, and those pushed since.
func (f *oFrontier) size() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return int(f.states) + f.curN
}

// bytes is the memory of the frontier's buffers.
func (f *oFrontier) bytes() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.total
}
