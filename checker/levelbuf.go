package checker

import (
	"sort"

	"github.com/coordcheck/coordcheck/model"
)

// levelBuf is one BFS level: packed entries (as the frontier's) in chunks,
// with the index of each chunk's first entry, so that workers can take
// chunks and find an entry by index.
type levelBuf struct {
	chunks [][]byte
	starts []uint64
	n      uint64
	depth  int
}

const levelChunk = 64 << 10

func (l *levelBuf) add(fp uint64, enc []byte) {
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1])+len(enc)+24 > levelChunk {
		l.chunks = append(l.chunks, make([]byte, 0, max(levelChunk, len(enc)+24)))
		l.starts = append(l.starts, l.n)
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = appendEntry(*c, l.depth, fp, enc)
	l.n++
}

// concat appends o's entries.
func (l *levelBuf) concat(o *levelBuf) {
	for i, c := range o.chunks {
		l.chunks = append(l.chunks, c)
		l.starts = append(l.starts, l.n+o.starts[i])
	}
	l.n += o.n
}

func (l *levelBuf) bytes() uint64 {
	var b uint64
	for _, c := range l.chunks {
		b += uint64(cap(c))
	}
	return b
}

// levelCursor reads a level's entries forward from some index.
type levelCursor struct {
	l *levelBuf
	c int    // chunk
	b []byte // the rest of chunk c
	k uint64 // the index of the entry at b
}

// at is a cursor at entry k.
func (l *levelBuf) at(k uint64) *levelCursor {
	c := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > k }) - 1
	return &levelCursor{l: l, c: c, b: l.chunks[c], k: l.starts[c]}
}

// seek moves to entry k, at or after the cursor, and returns its encoding.
func (cu *levelCursor) seek(k uint64) []byte {
	for {
		if len(cu.b) == 0 {
			cu.c++
			cu.b = cu.l.chunks[cu.c]
		}
		_, _, enc, rest := readEntry(cu.b)
		if cu.k == k {
			return enc
		}
		cu.b, cu.k = rest, cu.k+1
	}
}

// arena holds a worker's encodings of the successors of one level that
// may be new, in chunks that are kept from level to level.
type arena struct {
	chunks [][]byte
	cur    int // the chunk being filled
}

const arenaChunk = 64 << 10

// add appends enc, prefixed by its length, and returns its reference
// (chunk<<32 | offset) and the bytes the arena grew by.
func (a *arena) add(enc []byte) (ref, grew uint64) {
	need := len(enc) + binaryMaxVarint
	for a.cur < len(a.chunks) && len(a.chunks[a.cur])+need > cap(a.chunks[a.cur]) {
		a.cur++
	}
	if a.cur == len(a.chunks) {
		a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, need)))
		grew = uint64(cap(a.chunks[a.cur]))
	}
	c := &a.chunks[a.cur]
	ref = uint64(a.cur)<<32 | uint64(len(*c))
	*c = model.AppendUvarint(*c, uint64(len(enc)))
	*c = append(*c, enc...)
	return ref, grew
}

// at returns the encoding of reference ref.
func (a *arena) at(ref uint64) []byte {
	b := a.chunks[ref>>32][ref&(1<<32-1):]
	n, b := model.ReadUvarint(b)
	return b[:n]
}

// reset empties the arena, keeping its chunks.
func (a *arena) reset() {
	for i := range a.chunks {
		a.chunks[i] = a.chunks[i][:0]
	}
	a.cur = 0
}

// binaryMaxVarint is the longest length prefix.
const binaryMaxVarint = 10
