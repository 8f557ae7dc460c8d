package checker

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/coordcheck/coordcheck/model"
	"hash"
	"io"
	"os"
	"strings"
	"time"
)

// Checkpoints: an exhaustive BFS writes its whole state to a file now and
// then (Options.Checkpoint), and a later run continues from it
// (Options.Resume) to the same states, transitions, verdict and
// counterexample as a run never stopped. The state is what the search
// loop holds between two steps: the visited set (fingerprints, parents
// and, for the liveness check without the graph, state numbers), the
// frontier as packed encodings (in the layout of its chunks, so that the
// memory it reports stays the same), the counters and the first
// violation. The one-worker search (explore) writes it between two
// expansions; the parallel one (exploreLevels) at a level boundary, where
// it holds nothing else. The file is written to FILE.tmp and renamed.
//
// The format, version 8, all integers little-endian uint64 (strings and
// byte runs prefixed by their length):
//
//	magic "coordck\n", version, the fingerprint scheme
//	  (model.FingerprintScheme)
//	identity (the caller's description of the configuration, then the
//	  search's options and properties), engine, liveness mode
//	elapsed ns, transitions, transitions slept, depth, frontier bytes,
//	  peak bytes, bound
//	violation counts; found, its fingerprint, property and detail
//	terminals: count, fingerprints, positions
//	visited set: parents kept, numbered, then per shard: slots, entries,
//	  and each entry's fingerprint (its number when numbered), then,
//	  when parents are kept, the shard's log of them: its length and
//	  each (fingerprint, parent), oldest first
//	the store's parts (model.Store.Keys): for each of its four tables,
//	  the count and each key, in id order
//	engine 1 (one worker): level depth, level end, pops, the queue's
//	  read offset and chunks; engine 2 (levels): depth, base, chunks
//	SHA-256 of everything before it

const (
	checkpointMagic   = "coordck\n"
	checkpointVersion = 8

	engineSerial = 1
	engineLevels = 2
)

// DefaultCheckpointEvery is how often a search writes its checkpoint when
// Options.CheckpointEvery is zero.
const DefaultCheckpointEvery = time.Minute

// Checkpoint is a search state read from a file by LoadCheckpoint, to be
// continued by one Check (Options.Resume), which takes it over.
type Checkpoint struct {
	path     string
	identity string
	engine   uint64
	mode     livenessMode

	elapsed       time.Duration
	transitions   uint64
	slept         uint64 // Report.Slept
	depth         int
	frontierBytes uint64
	peakBytes     uint64
	bound         string
	counts        []uint64
	found         bool
	badFP         uint64
	badProp, why  string
	termFPs       []uint64
	termPos       []uint64
	// Coverage so far: the kinds of actions taken with their counts, and
	// which premises have held.
	covKinds  []kindEntry
	covCounts []uint64
	premSeen  []uint64
	seen      *fpSet
	// parts are the keys of the search's store (model.Store.Keys): the
	// frontier's states are the ids of those parts.
	parts [4][][]byte

	// The frontier: the queue's chunks (the first read up to head) or
	// the level's.
	chunks     [][]byte
	head       int
	levelDepth int    // serial: the depth being expanded
	levelEnd   uint32 // serial: see explore
	pops       uint64 // serial
	base       uint64 // levels: the BFS position of the level's first state
}

// String says where the checkpoint stands: its states, depth and time.
func (ck *Checkpoint) String() string {
	n := uint64(0)
	if ck.seen != nil {
		n = ck.seen.n
	}
	return fmt.Sprintf("%d states, depth %d, %s searched", n, ck.depth, ck.elapsed.Round(time.Millisecond))
}

// engineOf is the search that runs under opts in mode (see explore).
func engineOf(opts *Options) uint64 {
	if opts.workers() > 1 {
		return engineLevels
	}
	return engineSerial
}

// modeOf is the liveness mode of the first search Check makes.
func (sp *Spec[S, M]) modeOf(opts *Options) livenessMode {
	if len(sp.Liveness) == 0 || opts.SkipLiveness {
		return noLiveness
	}
	return livenessAcyclic
}

// checkpointIdentity describes everything that decides the search's
// course: the caller's description of the system (Options.Identity), the
// options that bound it and the properties.
func (sp *Spec[S, M]) checkpointIdentity(opts *Options) string {
	return fmt.Sprintf("%s | mode=bfs max-states=%d max-depth=%d exhaust=%v liveness=%v sleep=%v properties=%s",
		opts.Identity, opts.MaxStates, opts.MaxDepth, opts.Exhaust, !opts.SkipLiveness, opts.Sleep,
		strings.Join(sp.PropertyNames(), ","))
}

// CheckpointError says why Check cannot write or resume checkpoints under
// opts, or returns nil: only BFS checkpoints, not while it keeps the state
// graph, and a resumed file must have been written for the same system,
// options and properties, by a search on one worker or on several as
// this one.
func (sp *Spec[S, M]) CheckpointError(opts Options) error {
	if opts.Checkpoint == "" && opts.Resume == nil {
		return nil
	}
	flag := "-checkpoint"
	if opts.Checkpoint == "" {
		flag = "-resume"
	}
	if opts.Strategy != BFS {
		return fmt.Errorf("%s works with -mode bfs only, not %s", flag, opts.Strategy)
	}
	if opts.KeepGraph && len(sp.Liveness) > 0 && !opts.SkipLiveness {
		return fmt.Errorf("%s does not work while the state graph is kept", flag)
	}
	ck := opts.Resume
	if ck == nil {
		return nil
	}
	if want := sp.checkpointIdentity(&opts); ck.identity != want {
		return fmt.Errorf("checkpoint %s was written for another check: %s", ck.path, firstDifference(ck.identity, want))
	}
	if e := engineOf(&opts); ck.engine != e {
		if ck.engine == engineSerial {
			return fmt.Errorf("checkpoint %s was written by a search on one worker: resume it with -workers 1", ck.path)
		}
		return fmt.Errorf("checkpoint %s was written by a search on several workers: resume it with -workers 2 or more", ck.path)
	}
	if ck.mode != sp.modeOf(&opts) {
		return fmt.Errorf("checkpoint %s was written for another liveness mode", ck.path)
	}
	return nil
}

// firstDifference names the first word where the identities was and is
// differ: "rounds=2 there, rounds=1 here".
func firstDifference(was, is string) string {
	a, b := strings.Fields(was), strings.Fields(is)
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("%q there, %q here", x, y)
		}
	}
	return "the same words, spaced differently"
}

// checkpointer writes a run's checkpoints.
type checkpointer struct {
	path    string
	every   time.Duration
	last    time.Time
	written int
	kill    func(k int) bool // test hook: stop as if killed after the k-th
}

// checkpointKilled is the bound of a search a test hook stopped.
const checkpointKilled = "killed after a checkpoint (test)"

// due reports whether a periodic checkpoint is due.
func (c *checkpointer) due() bool {
	return c != nil && time.Since(c.last) >= c.every
}

// resume restores r's counters and visited set from its checkpoint.
func (r *run[S, M]) resume(ck *Checkpoint) {
	rep := r.rep
	r.start = time.Now().Add(-ck.elapsed)
	r.lastProgress = r.start
	rep.Transitions, rep.Depth, rep.FrontierBytes, rep.Bound = ck.transitions, ck.depth, ck.frontierBytes, ck.bound
	rep.PeakBytes, rep.Slept = ck.peakBytes, ck.slept
	copy(r.counts, ck.counts)
	r.found, r.badFP, r.badProp, r.why = ck.found, ck.badFP, ck.badProp, ck.why
	if r.term != nil {
		copy(r.term.fps, ck.termFPs)
		copy(r.term.pos, ck.termPos)
	}
	for i, k := range ck.covKinds {
		r.cov.counts[r.cov.intern(k.act, k.name)] += ck.covCounts[i]
	}
	for i := range r.premSeen {
		r.premSeen[i] = i < len(ck.premSeen) && ck.premSeen[i] != 0
	}
	if ck.seen == nil {
		panic("checker: a checkpoint resumed twice")
	}
	r.seen, ck.seen = ck.seen, nil // the search grows it: it is used once
	if err := model.NewCursor(r.store, r.sp.System.Clone()).Restore(ck.parts); err != nil {
		r.restoreErr = err
	}
	ck.parts = [4][][]byte{}
}

// save writes r's checkpoint with the engine's frontier, as of now.
// It returns a bound to stop at: a write error, or the test hook's kill.
func (r *run[S, M]) save(engine uint64, frontier func(w *ckWriter)) string {
	c := r.ckpt
	if err := r.writeCheckpoint(engine, frontier); err != nil {
		return "checkpoint failed: " + err.Error()
	}
	c.last = time.Now()
	c.written++
	if c.kill != nil && c.kill(c.written) {
		return checkpointKilled
	}
	return ""
}

func (r *run[S, M]) writeCheckpoint(engine uint64, frontier func(w *ckWriter)) (err error) {
	tmp := r.ckpt.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w := newCKWriter(f)
	rep, seen := r.rep, r.seen
	w.write([]byte(checkpointMagic))
	w.u64(checkpointVersion)
	w.u64(model.FingerprintScheme)
	w.str(r.sp.checkpointIdentity(r.opts))
	w.u64(engine)
	w.u64(uint64(r.mode))
	w.u64(uint64(time.Since(r.start)))
	w.u64(rep.Transitions)
	w.u64(rep.Slept)
	w.u64(uint64(rep.Depth))
	w.u64(rep.FrontierBytes)
	w.u64(rep.PeakBytes)
	w.str(rep.Bound)
	w.u64s(r.counts)
	w.bool(r.found)
	w.u64(r.badFP)
	w.str(r.badProp)
	w.str(r.why)
	if r.term != nil {
		w.u64s(r.term.fps)
		w.u64s(r.term.pos)
	} else {
		w.u64s(nil)
		w.u64s(nil)
	}
	w.u64(uint64(len(r.cov.kinds)))
	for i, k := range r.cov.kinds {
		w.u64(uint64(k.act))
		w.str(k.name)
		w.u64(r.cov.counts[i])
	}
	prem := make([]uint64, len(r.premSeen))
	for i, ok := range r.premSeen {
		if ok {
			prem[i] = 1
		}
	}
	w.u64s(prem)
	w.bool(seen.parents)
	w.bool(seen.numbering)
	for i := range seen.shards {
		sh := &seen.shards[i]
		w.u64(uint64(len(sh.keys)))
		w.u64(sh.n)
		for j, k := range sh.keys {
			if k == 0 {
				continue
			}
			w.u64(k)
			if seen.numbering {
				w.u64(uint64(sh.ids[j]))
			}
		}
		if seen.parents {
			w.u64(sh.found.n)
			sh.found.each(func(k, parent uint64) {
				w.u64(k)
				w.u64(parent)
			})
		}
	}
	for _, keys := range r.store.Keys() {
		w.u64(uint64(len(keys)))
		for _, k := range keys {
			w.bytes(k)
		}
	}
	frontier(w)
	if err := w.finish(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, r.ckpt.path)
}

// serialFrontier writes the one-worker search's queue and level marks.
func serialFrontier(q *queue, levelDepth int, levelEnd uint32, pops uint64) func(w *ckWriter) {
	return func(w *ckWriter) {
		w.u64(uint64(int64(levelDepth)))
		w.u64(uint64(levelEnd))
		w.u64(pops)
		w.u64(uint64(q.head))
		w.u64(uint64(len(q.chunks)))
		var buf []byte
		for i := range q.chunks {
			c, err := q.chunk(i, &buf)
			if err != nil && w.err == nil {
				w.err = err
			}
			if i == 0 {
				c = c[q.head:]
			}
			w.bytes(c)
		}
	}
}

// levelsFrontier writes the parallel search's level about to be expanded.
func levelsFrontier(level *levelBuf, depth int, base uint64) func(w *ckWriter) {
	return func(w *ckWriter) {
		w.u64(uint64(depth))
		w.u64(base)
		w.u64(uint64(len(level.chunks)))
		var buf []byte
		for c := range level.chunks {
			b, err := level.chunk(c, &buf)
			if err != nil && w.err == nil {
				w.err = err
			}
			w.bytes(b)
		}
	}
}

// queue rebuilds the one-worker search's queue, chunk by chunk as it was.
func (ck *Checkpoint) queue() *queue {
	q := &queue{head: ck.head}
	for i, c := range ck.chunks {
		pad := 0
		if i == 0 {
			pad = ck.head
		}
		b := make([]byte, pad, max(chunkSize, pad+len(c)))
		q.chunks = append(q.chunks, append(b, c...))
		q.total += chunkSize
		for rest := c; len(rest) > 0; q.n++ {
			_, _, _, rest = readEntry(rest)
		}
	}
	if len(q.chunks) == 0 {
		q.head = 0
	}
	ck.chunks = nil // copied: freed as the search goes on
	return q
}

// level rebuilds the parallel search's level and its fingerprints.
func (ck *Checkpoint) level() *levelBuf {
	l := &levelBuf{depth: ck.levelDepth}
	for _, c := range ck.chunks {
		l.chunks = append(l.chunks, append(make([]byte, 0, max(levelChunk, len(c))), c...))
		l.starts = append(l.starts, l.n)
		for rest := c; len(rest) > 0; l.n++ {
			_, _, _, rest = readEntry(rest)
		}
	}
	ck.chunks = nil
	return l
}

// LoadCheckpoint reads a checkpoint file written by a search with
// Options.Checkpoint, and checks its format and checksum. Whether it fits
// a check is for CheckpointError to say.
func LoadCheckpoint(path string) (ck *Checkpoint, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %v", err)
	}
	r := &ckReader{r: bufio.NewReaderSize(f, 1<<20), h: sha256.New(), left: st.Size()}
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(ckError); ok {
				ck, err = nil, fmt.Errorf("checkpoint %s: %s", path, string(e))
				return
			}
			panic(p)
		}
	}()
	magic := make([]byte, len(checkpointMagic))
	if st.Size() < int64(len(magic)) {
		return nil, fmt.Errorf("checkpoint %s: not a coordcheck checkpoint file", path)
	}
	if r.read(magic); string(magic) != checkpointMagic {
		return nil, fmt.Errorf("checkpoint %s: not a coordcheck checkpoint file", path)
	}
	if v := r.u64(); v != checkpointVersion {
		return nil, fmt.Errorf("checkpoint %s: format version %d, this coordcheck reads version %d", path, v, checkpointVersion)
	}
	if v := r.u64(); v != model.FingerprintScheme {
		// Its visited states' fingerprints are not this build's: new
		// states would not be told from visited ones.
		return nil, fmt.Errorf("checkpoint %s: written by a coordcheck that fingerprints states otherwise (scheme %d, this one's %d); start the search again", path, v, model.FingerprintScheme)
	}
	ck = &Checkpoint{path: path}
	ck.identity = r.str()
	ck.engine = r.u64()
	ck.mode = livenessMode(r.u64())
	if ck.engine != engineSerial && ck.engine != engineLevels || ck.mode > livenessAcyclic {
		r.fail("corrupt (unknown search engine or mode)")
	}
	ck.elapsed = time.Duration(r.u64())
	ck.transitions = r.u64()
	ck.slept = r.u64()
	ck.depth = r.int()
	ck.frontierBytes = r.u64()
	ck.peakBytes = r.u64()
	ck.bound = r.str()
	ck.counts = r.u64s()
	ck.found = r.bool()
	ck.badFP = r.u64()
	ck.badProp, ck.why = r.str(), r.str()
	ck.termFPs, ck.termPos = r.u64s(), r.u64s()
	if len(ck.termFPs) != len(ck.termPos) {
		r.fail("corrupt (terminal states)")
	}
	for n := r.int(); n > 0; n-- {
		ck.covKinds = append(ck.covKinds, kindEntry{act: model.ActionKind(r.u64()), name: r.str()})
		ck.covCounts = append(ck.covCounts, r.u64())
	}
	ck.premSeen = r.u64s()
	seen := &fpSet{parents: r.bool(), numbering: r.bool()}
	seen.init()
	for i := range seen.shards {
		size, n := r.u64(), r.u64()
		if size < minShard || n*4 > size*3 || size > max(minShard, 4*n) {
			r.fail("corrupt (visited set)")
		}
		if n > uint64(r.left)/8 {
			r.fail("truncated")
		}
		sh := &seen.shards[i]
		sh.make(size, seen.numbering)
		for range n {
			k := r.u64()
			var id uint64
			if seen.numbering {
				id = r.u64()
			}
			if k == 0 || k>>(64-shardBits) != uint64(i) || id > 1<<32-1 {
				r.fail("corrupt (visited set)")
			}
			if _, added := sh.insert(k, noParent, uint32(id)); !added {
				r.fail("corrupt (a state twice in the visited set)")
			}
		}
		if seen.parents {
			// The log of parents, in its order (parentFinder needs it).
			if r.u64() != n || n > uint64(r.left)/16 {
				r.fail("corrupt (parents)")
			}
			sh.found = &foundLog{}
			for range n {
				k, parent := r.u64(), r.u64()
				if _, ok := sh.find(k); !ok {
					r.fail("corrupt (a parent of a state not visited)")
				}
				sh.found.add(k, parent)
			}
		}
		seen.n += n
	}
	ck.seen = seen
	for t := range ck.parts {
		n := r.u64()
		if n > uint64(r.left)/8 {
			r.fail("truncated")
		}
		for range n {
			ck.parts[t] = append(ck.parts[t], r.bytes())
		}
	}
	if ck.engine == engineSerial {
		ck.levelDepth = int(int64(r.u64()))
		ck.levelEnd = uint32(r.u64())
		ck.pops = r.u64()
		head := r.u64()
		if head > 1<<31 {
			r.fail("corrupt (frontier)")
		}
		ck.head = int(head)
	} else {
		ck.levelDepth = r.int()
		ck.base = r.u64()
	}
	nchunks := r.int()
	for range nchunks {
		c := r.bytes()
		if !validEntries(c) {
			r.fail("corrupt (frontier)")
		}
		ck.chunks = append(ck.chunks, c)
	}
	sum := r.h.Sum(nil)
	var stored [sha256.Size]byte
	r.read(stored[:])
	if !bytes.Equal(sum, stored[:]) {
		r.fail("corrupt (checksum mismatch)")
	}
	if _, err := r.r.ReadByte(); err != io.EOF {
		r.fail("corrupt (data after the checksum)")
	}
	return ck, nil
}

// validEntries reports whether b is a run of whole frontier entries.
func validEntries(b []byte) bool {
	for len(b) > 0 {
		n, rest, ok := uvarint(b)
		if !ok {
			return false
		}
		if _, rest, ok = uvarint(rest); !ok || uint64(len(rest)) < 8 || uint64(len(rest)-8) < n {
			return false
		}
		b = rest[8+n:]
	}
	return true
}

func uvarint(b []byte) (uint64, []byte, bool) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, false
	}
	return v, b[n:], true
}

// ckWriter writes a checkpoint's fields and hashes them.
type ckWriter struct {
	w   *bufio.Writer
	h   hash.Hash
	err error
	buf [8]byte
}

func newCKWriter(f io.Writer) *ckWriter {
	h := sha256.New()
	return &ckWriter{w: bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20), h: h}
}

func (w *ckWriter) write(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
	}
}

func (w *ckWriter) u64(v uint64) {
	binary.LittleEndian.PutUint64(w.buf[:], v)
	w.write(w.buf[:])
}

func (w *ckWriter) bool(v bool) {
	if v {
		w.u64(1)
	} else {
		w.u64(0)
	}
}

func (w *ckWriter) bytes(b []byte) {
	w.u64(uint64(len(b)))
	w.write(b)
}

func (w *ckWriter) str(s string) { w.bytes([]byte(s)) }

func (w *ckWriter) u64s(vs []uint64) {
	w.u64(uint64(len(vs)))
	for _, v := range vs {
		w.u64(v)
	}
}

// finish flushes the fields, then writes their checksum.
func (w *ckWriter) finish() error {
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err != nil {
		return w.err
	}
	_, err := w.w.Write(w.h.Sum(nil)) // hashed too, after its sum was taken
	if err == nil {
		err = w.w.Flush()
	}
	return err
}

// ckReader reads a checkpoint's fields; a malformed file panics with a
// ckError, which LoadCheckpoint turns into its error.
type ckReader struct {
	r    *bufio.Reader
	h    hash.Hash
	left int64 // bytes not yet read, to bound every length
	buf  [8]byte
}

type ckError string

func (r *ckReader) fail(why string) { panic(ckError(why)) }

func (r *ckReader) read(b []byte) {
	if int64(len(b)) > r.left {
		r.fail("truncated")
	}
	if _, err := io.ReadFull(r.r, b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			r.fail("truncated")
		}
		r.fail(err.Error())
	}
	r.left -= int64(len(b))
	r.h.Write(b)
}

func (r *ckReader) u64() uint64 {
	r.read(r.buf[:])
	return binary.LittleEndian.Uint64(r.buf[:])
}

// int reads a count or size, which cannot exceed the bytes left.
func (r *ckReader) int() int {
	v := r.u64()
	if v > uint64(r.left) {
		r.fail("corrupt (a length beyond the end of the file)")
	}
	return int(v)
}

func (r *ckReader) bool() bool { return r.u64() != 0 }

func (r *ckReader) bytes() []byte {
	b := make([]byte, r.int())
	r.read(b)
	return b
}

func (r *ckReader) str() string { return string(r.bytes()) }

func (r *ckReader) u64s() []uint64 {
	n := r.int()
	if n > int(r.left/8) {
		r.fail("corrupt (a length beyond the end of the file)")
	}
	vs := make([]uint64, n)
	for i := range vs {
		vs[i] = r.u64()
	}
	return vs
}
