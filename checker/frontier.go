package checker

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"

	"github.com/coordcheck/coordcheck/model"
)

// frontier holds the encoded states still to expand, with their depth and
// fingerprint, as packed bytes (no pointers, so the garbage collector never
// scans it). The search order is the only thing that differs between BFS
// (a queue) and DFS (a stack): everything else is the same engine.
type frontier interface {
	// push adds an entry and returns the frontier's bytes after it (the
	// search's account of its memory: bytes).
	push(depth int, fp uint64, enc []byte) uint64
	// pop returns the next entry; enc is valid until the next pop (a
	// push leaves it as it is).
	pop() (depth int, fp uint64, enc []byte, ok bool)
	size() int
	bytes() uint64
	// failed is the error that ended the frontier early (a spill that
	// failed), nil when none.
	failed() error
}

func appendEntry(b []byte, depth int, fp uint64, enc []byte) []byte {
	b = model.AppendUvarint(b, uint64(len(enc)))
	b = model.AppendUvarint(b, uint64(depth))
	b = binary.LittleEndian.AppendUint64(b, fp) // one store, not eight appends
	return append(b, enc...)
}

// prefetchAhead asks for the cache line readAhead bytes into b, the
// entries still to read: a level is written long before it is read and
// is out of the cache by then, and the hardware's own prefetcher did not
// cover it (the first read of each state's encoding missed: 6% of RA N=4
// R=2's time on two workers). The one-worker queue does not use it: it
// gained nothing there (1.01x the time, 10 paired runs).
func prefetchAhead(b []byte) {
	if len(b) > readAhead {
		prefetch(unsafe.Pointer(&b[readAhead]))
	}
}

// readAhead is how far ahead of the entry being read prefetchAhead asks:
// a few states' encodings.
const readAhead = 256

func readEntry(b []byte) (depth int, fp uint64, enc, rest []byte) {
	n, b := model.ReadUvarint(b)
	d, b := model.ReadUvarint(b)
	fp = binary.LittleEndian.Uint64(b)
	b = b[8:]
	return int(d), fp, b[:n], b[n:]
}

// queue is the BFS frontier: a FIFO of entries in chunks of chunkSize
// bytes; a chunk is released as soon as it has been read. Once the queue
// outgrows its share of memory (spills), the full chunks behind the one
// being read wait on disk (spill.go): chunks[i] is then nil and spans[i]
// says where it is.
type queue struct {
	chunks [][]byte
	spans  []span // beside chunks, once the queue spills
	head   int    // read offset in chunks[0]
	n      int
	total  uint64
	// opts and written, when set, let the queue spill: when, where, and
	// the run's count of bytes spilled. file is the file being written,
	// segment the chunks written to it; err the first failed spill.
	opts    *Options
	written *atomic.Uint64
	file    *spillFile
	segment int
	err     error
	// free holds the chunks read and released, kept for the next pushes:
	// memory the process has touched already, where a new chunk would
	// take a page fault on each of its pages (3.4% of RA N=4 R=1's
	// samples, in the kernel, when none was kept). They stay counted in
	// total. Kept one at a time, as they were, a queue that had shrunk
	// from a wide level took new chunks again at the next one.
	free [][]byte
	// mem is where the chunks come from, for the search's queue (opts
	// set): a region (region.go), then on huge pages, a fault per 2 MB
	// where the heap's chunks took one per 4 KB, and again after the
	// collector had let one go. One worker, page faults: Maekawa grid 6,703
	// against 9,233, RA N=4 R=1 4,214 against 6,445, centralized N=6
	// 4,355 against 5,024. The first chunk came from the heap too, which
	// zeroes a chunk it reuses, all 256 pages of it: centralized N=6 R=2
	// took 2,269 faults so, 1,893 from the region; ring N=3 (31 states)
	// 1,357 and 1,317, its peak RSS 16.5 MB then and 18.4 MB now (a
	// huge page is resident whole). release gives it back.
	mem region
}

const chunkSize = 1 << 20

// spillSegment is how many chunks go to one spill file: a file is let go
// of once all of its chunks are read back.
const spillSegment = 64

func (q *queue) push(depth int, fp uint64, enc []byte) uint64 {
	if len(q.chunks) == 0 || len(q.chunks[len(q.chunks)-1])+len(enc)+24 > chunkSize {
		var reuse []byte
		// A chunk kept first, even when the queue spills: it is counted,
		// and spilling the last chunk for its memory would hold no less.
		if len(q.free) > 0 {
			reuse = q.free[len(q.free)-1] // counted in total already
			q.free[len(q.free)-1] = nil
			q.free = q.free[:len(q.free)-1]
		} else if len(q.chunks) >= 2 && q.spills() { // the last chunk is full and not being read
			reuse = q.spillLast()
		}
		if cap(reuse) < max(chunkSize, len(enc)+24) {
			if len(enc)+24 <= chunkSize && q.opts != nil {
				q.mem.reserve()
				reuse = q.mem.take(chunkSize)[:0]
			} else {
				reuse = make([]byte, 0, max(chunkSize, len(enc)+24))
			}
			q.total += uint64(cap(reuse))
		}
		q.chunks = append(q.chunks, reuse[:0])
		if q.spans != nil {
			q.spans = append(q.spans, span{})
		}
	}
	last := &q.chunks[len(q.chunks)-1]
	*last = appendEntry(*last, depth, fp, enc)
	q.n++
	return q.total
}

// spills reports whether the queue spills its full chunks, turning
// spilling on once the queue outgrows its share of memory.
func (q *queue) spills() bool {
	if q.spans == nil {
		if q.opts == nil || q.err != nil || !spills(q.opts, q.total) {
			return false
		}
		q.spans = make([]span, len(q.chunks))
	}
	return q.err == nil
}

// spillLast writes the last chunk to disk and returns its memory, now
// free; nil when the write failed (the chunk stays, and the search stops
// at the next pop).
func (q *queue) spillLast() []byte {
	if q.file == nil || q.segment == spillSegment {
		f, err := newSpillFile(q.opts.SpillDir, q.written)
		if err != nil {
			q.err = spillError("create", err)
			return nil
		}
		if q.file != nil && q.file.pending == 0 { // read back already
			q.file.close()
		}
		q.file, q.segment = f, 0
	}
	i := len(q.chunks) - 1
	sp, err := q.file.write(q.chunks[i])
	if err != nil {
		q.err = err
		return nil
	}
	q.segment++
	q.file.pending++
	q.spans[i] = sp
	b := q.chunks[i]
	q.chunks[i] = nil
	return b
}

func (q *queue) pop() (int, uint64, []byte, bool) {
	if q.n == 0 || q.err != nil {
		return 0, 0, nil, false
	}
	for q.head == len(q.chunks[0]) { // chunk fully read: release it
		if !q.next() {
			return 0, 0, nil, false
		}
	}
	d, fp, enc, rest := readEntry(q.chunks[0][q.head:])
	q.head = len(q.chunks[0]) - len(rest)
	q.n--
	return d, fp, enc, true
}

// next releases the chunk read and makes the next one the head, reading
// it back into the released memory when it is on disk.
func (q *queue) next() bool {
	done := q.chunks[0]
	q.chunks[0] = nil
	q.chunks, q.head = q.chunks[1:], 0
	if q.spans == nil {
		if cap(done) == chunkSize {
			q.free = append(q.free, done[:0])
		} else {
			q.total -= uint64(cap(done))
		}
		return true
	}
	q.spans = q.spans[1:]
	sp := q.spans[0]
	if q.chunks[0] != nil {
		if cap(done) == chunkSize {
			q.free = append(q.free, done[:0])
		} else {
			q.total -= uint64(cap(done))
		}
		return true
	}
	held := uint64(cap(done))
	b, err := sp.read(&done)
	if err != nil {
		q.err = err
		return false
	}
	q.total += uint64(cap(b)) - held
	q.chunks[0] = b
	if sp.file.pending--; sp.file.pending == 0 && sp.file != q.file {
		sp.file.close()
	}
	return true
}

// chunk is chunk i's bytes, read into buf when it is on disk.
func (q *queue) chunk(i int, buf *[]byte) ([]byte, error) {
	if q.chunks[i] != nil || q.spans == nil {
		return q.chunks[i], nil
	}
	return q.spans[i].read(buf)
}

// release lets go of the queue's spill files and of its region: its
// chunks are not read again.
func (q *queue) release() {
	for _, sp := range q.spans {
		if sp.file != nil {
			sp.file.close()
		}
	}
	q.file.close()
	q.chunks, q.free = nil, nil
	q.mem.free()
}

func (q *queue) size() int     { return q.n }
func (q *queue) bytes() uint64 { return q.total }
func (q *queue) failed() error { return q.err }

// stack is the DFS frontier: a LIFO of entries in chunks of chunkSize
// bytes, each entry followed by its length in 4 bytes. It grows a chunk
// at a time, never by copying itself, and gives a chunk back once it has
// been emptied (keeping one spare, for a search that goes back and forth
// across a chunk's edge).
type stack struct {
	chunks [][]byte
	spare  []byte
	n      int
	total  uint64 // the bytes of the chunks, the spare's included
	last   []byte // copy of the popped entry, valid until the next pop
}

func (s *stack) push(depth int, fp uint64, enc []byte) uint64 {
	need := len(enc) + 28
	if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1])+need > cap(s.chunks[len(s.chunks)-1]) {
		c := s.spare
		if s.spare = nil; cap(c) < need {
			s.total -= uint64(cap(c))
			c = make([]byte, 0, max(chunkSize, need))
			s.total += uint64(cap(c))
		}
		s.chunks = append(s.chunks, c)
	}
	top := &s.chunks[len(s.chunks)-1]
	start := len(*top)
	*top = appendEntry(*top, depth, fp, enc)
	l := uint32(len(*top) - start)
	*top = append(*top, byte(l), byte(l>>8), byte(l>>16), byte(l>>24))
	s.n++
	return s.bytes()
}

func (s *stack) pop() (int, uint64, []byte, bool) {
	if s.n == 0 {
		return 0, 0, nil, false
	}
	top := &s.chunks[len(s.chunks)-1]
	end := len(*top) - 4
	b := (*top)[end:]
	off := end - int(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24)
	s.last = append(s.last[:0], (*top)[off:end]...)
	*top = (*top)[:off]
	if off == 0 {
		if s.spare != nil {
			s.total -= uint64(cap(s.spare))
		}
		s.spare = *top
		s.chunks[len(s.chunks)-1] = nil
		s.chunks = s.chunks[:len(s.chunks)-1]
	}
	s.n--
	d, fp, enc, _ := readEntry(s.last)
	return d, fp, enc, true
}

func (s *stack) failed() error { return nil }
func (s *stack) size() int     { return s.n }
func (s *stack) bytes() uint64 { return s.total + uint64(cap(s.last)) }
