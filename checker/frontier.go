package checker

import "github.com/coordcheck/coordcheck/model"

// frontier holds the encoded states still to expand, with their depth and
// fingerprint, as packed bytes (no pointers, so the garbage collector never
// scans it). The search order is the only thing that differs between BFS
// (a queue) and DFS (a stack): everything else is the same engine.
type frontier interface {
	push(depth int, fp uint64, enc []byte)
	// pop returns the next entry; enc is valid until the next push or pop.
	pop() (depth int, fp uint64, enc []byte, ok bool)
	size() int
	bytes() uint64
}

func appendEntry(b []byte, depth int, fp uint64, enc []byte) []byte {
	b = model.AppendUvarint(b, uint64(len(enc)))
	b = model.AppendUvarint(b, uint64(depth))
	for i := range 8 {
		b = append(b, byte(fp>>(8*i)))
	}
	return append(b, enc...)
}

func readEntry(b []byte) (depth int, fp uint64, enc, rest []byte) {
	n, b := model.ReadUvarint(b)
	d, b := model.ReadUvarint(b)
	for i := range 8 {
		fp |= uint64(b[i]) << (8 * i)
	}
	b = b[8:]
	return int(d), fp, b[:n], b[n:]
}

// queue is the BFS frontier: a FIFO of entries in chunks of chunkSize
// bytes; a chunk is released as soon as it has been read.
type queue struct {
	chunks [][]byte
	head   int // read offset in chunks[0]
	n      int
	total  uint64
}

const chunkSize = 1 << 20

func (q *queue) push(depth int, fp uint64, enc []byte) {
	if len(q.chunks) == 0 || len(q.chunks[len(q.chunks)-1])+len(enc)+24 > chunkSize {
		q.chunks = append(q.chunks, make([]byte, 0, max(chunkSize, len(enc)+24)))
		q.total += chunkSize
	}
	last := &q.chunks[len(q.chunks)-1]
	*last = appendEntry(*last, depth, fp, enc)
	q.n++
}

func (q *queue) pop() (int, uint64, []byte, bool) {
	if q.n == 0 {
		return 0, 0, nil, false
	}
	for q.head == len(q.chunks[0]) { // chunk fully read: release it
		q.chunks[0] = nil
		q.chunks = q.chunks[1:]
		q.total -= chunkSize
		q.head = 0
	}
	d, fp, enc, rest := readEntry(q.chunks[0][q.head:])
	q.head = len(q.chunks[0]) - len(rest)
	q.n--
	return d, fp, enc, true
}

func (q *queue) size() int     { return q.n }
func (q *queue) bytes() uint64 { return q.total }

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

func (s *stack) push(depth int, fp uint64, enc []byte) {
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

func (s *stack) size() int     { return s.n }
func (s *stack) bytes() uint64 { return s.total + uint64(cap(s.last)) }
