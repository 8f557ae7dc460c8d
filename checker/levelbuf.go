package checker

import (
	"sort"

	"github.com/coordcheck/coordcheck/model"
)

// levelBuf is one BFS level: packed entries (as the frontier's) in chunks,
// with the index of each chunk's first entry, so that workers can take
// chunks and find an entry by index. A level made with a spill file
// (spill.go) writes each chunk to it once the chunk is full and keeps
// only where it is: chunks[c] is then nil and spans[c] says where.
type levelBuf struct {
	chunks [][]byte
	spans  []span // when disk is set
	starts []uint64
	n      uint64
	depth  int
	disk   *spillFile // nil: the level is held in memory
	mem    *region    // where its chunks are cut from; nil: the heap
}

const levelChunk = 64 << 10

// add appends an entry. With a spill file, the chunk it fills is written
// out when the entry does not fit, and its memory serves the next one.
func (l *levelBuf) add(fp uint64, enc []byte) error {
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1])+len(enc)+24 > levelChunk {
		var reuse []byte
		if l.disk != nil && len(l.chunks) > 0 {
			var err error
			if reuse, err = l.spillLast(); err != nil {
				return err
			}
		}
		if size := max(levelChunk, len(enc)+24); cap(reuse) < size {
			if l.mem != nil {
				reuse = l.mem.take(size)[:0]
			} else {
				reuse = make([]byte, 0, size)
			}
		}
		l.chunks = append(l.chunks, reuse[:0])
		l.starts = append(l.starts, l.n)
		if l.disk != nil {
			l.spans = append(l.spans, span{})
		}
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = appendEntry(*c, l.depth, fp, enc)
	l.n++
	return nil
}

// spillLast writes the last chunk to the spill file and returns its
// memory, now free.
func (l *levelBuf) spillLast() ([]byte, error) {
	i := len(l.chunks) - 1
	sp, err := l.disk.write(l.chunks[i])
	if err != nil {
		return nil, err
	}
	l.spans[i] = sp
	b := l.chunks[i]
	l.chunks[i] = nil
	return b, nil
}

// flush writes the last chunk out, when the level spills.
func (l *levelBuf) flush() error {
	if l.disk == nil || len(l.chunks) == 0 || l.chunks[len(l.chunks)-1] == nil {
		return nil
	}
	_, err := l.spillLast()
	return err
}

// chunk is chunk c's bytes: in memory, or read from the spill file into
// buf (valid until buf is used again).
func (l *levelBuf) chunk(c int, buf *[]byte) ([]byte, error) {
	if l.chunks[c] != nil {
		return l.chunks[c], nil
	}
	return l.spans[c].read(buf)
}

// concat appends o's entries; l must spill to o's file, or be empty.
func (l *levelBuf) concat(o *levelBuf) {
	if o.disk != nil {
		l.disk = o.disk
	}
	for i, c := range o.chunks {
		l.chunks = append(l.chunks, c)
		l.starts = append(l.starts, l.n+o.starts[i])
		if o.disk != nil {
			l.spans = append(l.spans, o.spans[i])
		}
	}
	l.n += o.n
}

// bytes is the memory the level holds (not what it spilled).
func (l *levelBuf) bytes() uint64 {
	var b uint64
	for _, c := range l.chunks {
		b += uint64(cap(c))
	}
	return b
}

// release lets go of the level's spill file.
func (l *levelBuf) release() {
	if l == nil {
		return
	}
	l.disk.close()
	l.disk = nil
}

// levelCursor reads a level's entries forward from some index.
type levelCursor struct {
	l   *levelBuf
	c   int    // chunk
	b   []byte // the rest of chunk c
	k   uint64 // the index of the entry at b
	buf []byte // chunk c, when read from disk
}

// at is a cursor at entry k.
func (l *levelBuf) at(k uint64) (*levelCursor, error) {
	c := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > k }) - 1
	cu := &levelCursor{l: l, c: c, k: l.starts[c]}
	var err error
	cu.b, err = l.chunk(c, &cu.buf)
	return cu, err
}

// seek moves to entry k, at or after the cursor, and returns its encoding.
func (cu *levelCursor) seek(k uint64) ([]byte, error) {
	for {
		if len(cu.b) == 0 {
			cu.c++
			var err error
			if cu.b, err = cu.l.chunk(cu.c, &cu.buf); err != nil {
				return nil, err
			}
		}
		_, _, enc, rest := readEntry(cu.b)
		if cu.k == k {
			return enc, nil
		}
		cu.b, cu.k = rest, cu.k+1
	}
}

// arena holds a worker's encodings of the successors of one level that
// may be new, in chunks taken from its region (mem), which the level
// engine keeps from level to level while memory is plentiful: a chunk
// made on the heap took a page fault per 4 KB page each time a level
// was wider than the last. When the level spills (spill.go), a full
// chunk is written to disk instead and its memory serves the next: the
// arena then holds one chunk, from the heap, and its references count
// the chunks written before (spans).
type arena struct {
	chunks [][]byte
	cur    int // the chunk being filled
	disk   *spillFile
	spans  []span // the chunks written to disk, when disk is set
	mem    region
}

const arenaChunk = 64 << 10

// add appends enc, prefixed by its length, and returns its reference
// (chunk<<32 | offset) and the bytes the arena grew by.
func (a *arena) add(enc []byte) (ref, grew uint64, err error) {
	need := len(enc) + binaryMaxVarint
	if a.disk != nil {
		return a.addSpilled(enc, need)
	}
	for a.cur < len(a.chunks) && len(a.chunks[a.cur])+need > cap(a.chunks[a.cur]) {
		a.cur++
	}
	if a.cur == len(a.chunks) {
		a.chunks = append(a.chunks, a.mem.take(max(arenaChunk, need))[:0])
		grew = uint64(cap(a.chunks[a.cur]))
	}
	c := &a.chunks[a.cur]
	ref = uint64(a.cur)<<32 | uint64(len(*c))
	*c = model.AppendUvarint(*c, uint64(len(enc)))
	*c = append(*c, enc...)
	return ref, grew, nil
}

// addSpilled is add when the arena spills: chunk 0 in memory is the one
// being filled, the chunks before it are on disk.
func (a *arena) addSpilled(enc []byte, need int) (ref, grew uint64, err error) {
	if len(a.chunks) == 0 {
		a.chunks, a.cur = [][]byte{make([]byte, 0, max(arenaChunk, need))}, 0
		grew = uint64(cap(a.chunks[0]))
	}
	c := &a.chunks[0]
	if len(*c)+need > cap(*c) {
		sp, err := a.disk.write(*c)
		if err != nil {
			return 0, 0, err
		}
		a.spans = append(a.spans, sp)
		if cap(*c) < need {
			grew = uint64(need - cap(*c))
			*c = make([]byte, 0, need)
		}
		*c = (*c)[:0]
	}
	ref = uint64(len(a.spans))<<32 | uint64(len(*c))
	*c = model.AppendUvarint(*c, uint64(len(enc)))
	*c = append(*c, enc...)
	return ref, grew, nil
}

// at returns the encoding of reference ref, from an arena that does not
// spill.
func (a *arena) at(ref uint64) []byte {
	return entryAt(a.chunks[ref>>32], ref)
}

// entryAt is the encoding at ref's offset in chunk c.
func entryAt(c []byte, ref uint64) []byte {
	b := c[ref&(1<<32-1):]
	n, b := model.ReadUvarint(b)
	return b[:n]
}

// arenaReader reads one arena's encodings by increasing reference, as
// gather does: a chunk on disk is read once, into buf.
type arenaReader struct {
	chunk int // the chunk in buf, -1: none
	buf   []byte
}

// read returns the encoding of reference ref, read through r when the
// arena spills.
func (a *arena) read(ref uint64, r *arenaReader) ([]byte, error) {
	if a.disk == nil {
		return a.at(ref), nil
	}
	c := int(ref >> 32)
	if c == len(a.spans) {
		return entryAt(a.chunks[0], ref), nil
	}
	if r.chunk != c {
		if _, err := a.spans[c].read(&r.buf); err != nil {
			return nil, err
		}
		r.chunk = c
	}
	return entryAt(r.buf[:a.spans[c].n], ref), nil
}

// reset empties the arena for the next level, letting go of its chunks
// (and, unless keep, of its region's memory); disk, when set, is where
// that level's arena spills. It returns the bytes the arena let go of.
func (a *arena) reset(disk *spillFile, keep bool) (freed uint64) {
	for _, c := range a.chunks {
		freed += uint64(cap(c))
	}
	clear(a.chunks)
	a.chunks, a.cur = a.chunks[:0], 0
	a.mem.done(keep)
	a.disk, a.spans = disk, nil
	return freed
}

// binaryMaxVarint is the longest length prefix.
const binaryMaxVarint = 10
