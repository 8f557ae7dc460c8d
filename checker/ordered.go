package checker

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// exploreOrdered is BFS on any number of workers that take the frontier
// in batches of oClaim states, in order, expand them side by side, and
// flush them in order: a batch's successors are looked up in the visited
// set, and its new states queued, only after every batch taken before it
// (run.flush). Each state is thus expanded as a one-worker search that
// looks each successor up as it makes it (explore) expands it, and each
// successor looked up in the same order: the counts, the levels, the
// parent log and the counterexample are that search's, whatever the
// number of workers and their timing. The flushes, one worker's at a
// time, overlap the other workers' expansions; a worker whose batch is
// not yet due takes the next.
//
// A successor a worker recorded lately (its recent cache) is not recorded
// again: it was recorded in one of its batches before, which is flushed
// first. A batch taken after the one a search stops in (a violation) is
// expanded but never flushed: what it counted is taken back.
//
// Only a plain search runs so (orderedFits); the others run level by
// level on several workers (exploreLevels), and on one as explore.
func (sp *Spec[S, M]) exploreOrdered(opts Options) *Report {
	r := sp.newRun(opts, noLiveness)
	rep, seen := r.rep, r.seen
	o := &ordered[S, M]{r: r, fr: &oFrontier{opts: r.opts, written: &r.spilled}}
	seen.growsFlat() // one worker at a time inserts: the one flushing
	seen.helpers = o.together
	o.ws = make([]*oWorker[S, M], opts.workers())
	o.ready = make([]oSlot, oAhead*len(o.ws))
	for i := range o.ws {
		w := &oWorker[S, M]{idx: i, x: newExpander(sp, r.store), cov: newKindTable(), recent: newRecentFPs(), premK: make([]uint64, len(r.prem))}
		for j := range w.premK {
			w.premK[j] = ^uint64(0)
		}
		if r.sleeps() {
			w.x.keepSleep()
		}
		o.ws[i] = w
	}
	defer o.fr.close()
	initFP, initEnc := o.ws[0].x.initial()
	seen.insert(initFP, noParent)
	r.countLevel(0, 1)
	rep.FrontierBytes = o.fr.push(0, initFP, o.ws[0].x.withSleep(initEnc))
	o.fr.publish()
	o.mark = pollBytes
	o.seenN.Store(seen.n)

	var wg sync.WaitGroup
	for _, w := range o.ws[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.work(w)
		}()
	}
	o.work(o.ws[0])
	wg.Wait()

	// What the one-worker search counted: the batches flushed, not those
	// expanded after the one it stopped in.
	for i := range o.ready {
		if b := o.ready[i].b.Load(); b != nil {
			o.ws[b.w].uncount(b)
		}
	}
	for _, w := range o.ws {
		w.cov.addTo(r.cov)
		for i, k := range w.premK {
			if k < o.popped {
				r.premSeen[i] = true
			}
		}
	}
	if o.stop == "" && o.err != nil {
		o.stop = o.err.Error()
	}
	if o.stop != "" {
		rep.Bound = o.stop
	}
	rep.FrontierBytes = max(rep.FrontierBytes, o.fr.bytes())
	rep = r.conclude()
	r.seen.release()
	return rep
}

// orderedFits reports whether a search runs as exploreOrdered: BFS, on
// any number of workers, with no liveness check, checkpoint, resumption,
// bound on the states or bit array (those run level by level on several
// workers, on one as explore).
func orderedFits(opts *Options, mode livenessMode) bool {
	return opts.Strategy == BFS && mode == noLiveness && opts.Checkpoint == "" && opts.Resume == nil &&
		opts.MaxStates == 0 && opts.Bitstate == 0 && !opts.singleLookups && !(opts.levels && opts.workers() > 1)
}

// ordered is what the workers of exploreOrdered share.
type ordered[S, M any] struct {
	r  *run[S, M]
	ws []*oWorker[S, M]
	fr *oFrontier
	// ready holds the batches expanded and not yet flushed, at their
	// sequence number modulo its length; next is the number of the batch
	// flushed next, flushing whether a worker is flushing.
	ready    []oSlot
	next     atomic.Uint64
	flushing atomic.Bool
	halt     atomic.Bool // the search stops
	noTake   atomic.Bool // a batch stopped at a violation: no batch is taken after it
	seenN    atomic.Uint64
	help     atomic.Pointer[oHelp] // a job for the idle workers (together)
	// Kept by the worker flushing: the frontier's bytes at which it polls
	// next, the bound that stopped the search, the number of states
	// popped by the batches flushed.
	mark   uint64
	stop   string
	popped uint64
	// errMu guards err, the first error a worker met reading the frontier
	// back from disk.
	errMu sync.Mutex
	err   error
}

// together runs job on this goroutine (the flushing worker's, with index
// 0) and on the workers that are idle or become so before it is done (the
// visited set's growth: a worker whose batch the flushes have not reached
// takes no more than oAhead batches ahead, and would wait out the growth).
// The job shares its work out itself: it does on each goroutine what is
// left, and nothing once all is done.
func (o *ordered[S, M]) together(job func(int)) {
	h := &oHelp{job: job}
	o.help.Store(h)
	job(0)
	h.closed.Store(true)
	o.help.Store(nil)
	for h.active.Load() != 0 {
		runtime.Gosched()
	}
}

// oHelp is a job for the idle workers (together).
type oHelp struct {
	job    func(int)
	active atomic.Int32 // helpers running it
	closed atomic.Bool  // together returns: no helper starts it any more
}

// run runs the job on helper i, unless it is closed.
func (h *oHelp) run(i int) {
	h.active.Add(1)
	if !h.closed.Load() {
		h.job(i)
	}
	h.active.Add(-1)
}

// fail stops the search at a worker's error.
func (o *ordered[S, M]) fail(err error) {
	o.errMu.Lock()
	if o.err == nil {
		o.err = err
	}
	o.errMu.Unlock()
	o.noTake.Store(true)
	o.halt.Store(true)
}

// oSlot holds a batch expanded and not yet flushed, and its sequence
// number plus one (0: empty), by which a worker that does not flush tells
// whether the batch is there without reading it (its flusher hands it on
// to be taken again).
type oSlot struct {
	b   atomic.Pointer[oBatch]
	seq atomic.Uint64
}

// put puts b into the slot.
func (s *oSlot) put(b *oBatch) {
	s.b.Store(b)
	s.seq.Store(b.seq + 1)
}

// holds reports whether the slot holds batch number n.
func (s *oSlot) holds(n uint64) bool { return s.seq.Load() == n+1 }

// empty empties the slot.
func (s *oSlot) empty() {
	s.seq.Store(0)
	s.b.Store(nil)
}

// oAhead bounds the batches taken and not yet flushed: oAhead a worker.
// A worker whose batch is done takes the next while an earlier one, a
// slower worker's, is not; with none to take it waits.
const oAhead = 4

// oWorker is one worker of exploreOrdered.
type oWorker[S, M any] struct {
	_       [64]byte
	idx     int
	x       *expander[S, M]
	cov     *kindTable
	recent  *recentFPs
	premK   []uint64 // the first state (BFS number) in which each premise held
	grown   bool
	before  []uint64 // scratch: the coverage counts before a batch
	readBuf []byte   // a segment read back from disk
	_       [64]byte
}

// oBatch is a run of the frontier's states, taken in order.
type oBatch struct {
	seq, first uint64  // its number among the batches, its first state's in BFS
	segs       []oSeg  // where its states are
	n          uint64  // its states
	w          int     // the worker that expanded it
	lk         lookups // its successors
	popped     uint64  // the states popped: all, or up to a violation
	trans      uint64
	slept      uint64
	depth      int
	viols      []oViol
	cut        bool // it stopped at a violation: the search stops after it
	unknown    string
	maxDepth   bool
	cov        []uint64 // the coverage counts it added to its worker's table
}

// oViol is a violating state.
type oViol struct {
	fp, num   uint64
	prop, why string
}

// work is one worker's loop: take a batch, expand it, flush what is due.
func (o *ordered[S, M]) work(w *oWorker[S, M]) {
	spins := 0
	for !o.halt.Load() {
		b, done := o.take(w)
		if done {
			return
		}
		if b == nil {
			if h := o.help.Load(); h != nil {
				h.run(w.idx)
			}
			o.tryFlush()
			if spins++; spins > 64 {
				runtime.Gosched()
			}
			continue
		}
		spins = 0
		o.expand(w, b)
		o.fr.release(b.segs)
		o.ready[b.seq%uint64(len(o.ready))].put(b)
		o.tryFlush()
	}
}

// take takes the next batch: nil when none can be taken yet, done when
// the search is over (every batch flushed and nothing left to take).
func (o *ordered[S, M]) take(w *oWorker[S, M]) (b *oBatch, done bool) {
	fr := o.fr
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if len(fr.segs) == fr.head {
		return nil, fr.taken == o.next.Load()
	}
	if o.noTake.Load() || fr.taken-o.next.Load() >= uint64(len(o.ready)) {
		return nil, false
	}
	if n := len(fr.batches); n > 0 {
		b = fr.batches[n-1]
		fr.batches = fr.batches[:n-1]
	} else {
		b = &oBatch{}
	}
	b.seq, b.first, b.w, b.n = fr.taken, fr.popped, w.idx, 0
	b.segs = b.segs[:0]
	fr.take(b)
	return b, false
}

// oClaim is the number of states past which a worker takes no more
// segments into a batch, and the most a segment holds. Against 256, on
// two workers (farm-bench, 5 pairs each): 1,024 took 0.95-0.98x the
// time on Maekawa grid, ring N=10 and centralized N=6 R=2; 2,048 and
// 4,096 no less than 1,024; on one worker all the same. (A variable for
// the tests.)
var oClaim = 1024

// expand expands batch b's states, as the one-worker search does
// between two flushes.
func (o *ordered[S, M]) expand(w *oWorker[S, M], b *oBatch) {
	r, x, sp, opts := o.r, w.x, o.r.sp, o.r.opts
	plog := r.plog
	if !w.grown && o.seenN.Load() >= recentAfter {
		w.grown = true
		x.ids.UseLargeMemo()
	}
	w.before = append(w.before[:0], w.cov.counts...)
	before := w.before
	b.popped, b.trans, b.slept, b.depth, b.cut, b.unknown, b.maxDepth = 0, 0, 0, 0, false, "", false
	b.viols = b.viols[:0]
	pf := &prefetcher{recent: w.recent}
	num := b.first
	lk := &b.lk
	for i := range b.segs {
		buf, err := b.segs[i].entries(&w.readBuf)
		if err != nil {
			o.fail(err)
			goto out
		}
		for ; len(buf) > 0; num++ {
			depth, fp, enc, rest := readEntry(buf)
			buf = rest
			b.popped++
			x.load(fp, enc, false)
			b.depth = max(b.depth, depth)
			prop, detail, unknown := sp.judgeLoaded(x.judges, &x.cur, x.enabled(), x.ids)
			if unknown != "" && b.unknown == "" {
				b.unknown = unknown
			}
			for i := range r.prem {
				if num < w.premK[i] && r.prem[i].holds(&x.cur) {
					w.premK[i] = num
				}
			}
			if prop != "" {
				b.viols = append(b.viols, oViol{fp, num, prop, detail})
				if !opts.Exhaust {
					b.cut = true
					o.noTake.Store(true) // the batches after it are not flushed
					goto out
				}
			}
			if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
				if x.enabled() > 0 {
					b.maxDepth = true
				}
				lk.begin(fp, depth)
				lk.end()
				continue
			}
			x.makeSuccessors(pf, 0, false)
			b.slept += uint64(x.enabled() - len(x.awake))
			lk.begin(fp, depth)
			for _, i32 := range x.awake {
				i := int(i32)
				sc := x.successor(i)
				b.trans++
				if !w.cov.countTagged(sc.tag) {
					x.countNoting(w.cov, &x.acts[i], sc.at)
				}
				if nfp := key(sc.fp); !w.recent.has(nfp) {
					w.recent.put(nfp)
					act := 0
					if plog != nil {
						act = x.ids.IndexInAll(i, &x.acts[i])
					}
					lk.arena = x.appendEntry(lk.arena, sc.at, x.sleepAfter(i))
					lk.add(sc.fp, act)
				}
			}
			lk.end()
		}
	}
out:
	// The counts the batch added, to take back if it is not flushed.
	cov := w.cov.counts
	b.cov = b.cov[:0]
	for i, c := range cov {
		if i < len(before) {
			c -= before[i]
		}
		b.cov = append(b.cov, c)
	}
}

// uncount takes a batch that was not flushed out of the worker's counts.
func (w *oWorker[S, M]) uncount(b *oBatch) {
	for i, c := range b.cov {
		w.cov.counts[i] -= c
	}
}

// tryFlush flushes the batches due, in order, unless another worker is
// flushing.
func (o *ordered[S, M]) tryFlush() {
	for {
		n := o.next.Load()
		if !o.ready[n%uint64(len(o.ready))].holds(n) || o.halt.Load() {
			return
		}
		if !o.flushing.CompareAndSwap(false, true) {
			return
		}
		for !o.halt.Load() {
			n := o.next.Load()
			slot := &o.ready[n%uint64(len(o.ready))]
			if !slot.holds(n) {
				break
			}
			b := slot.b.Load()
			slot.empty()
			o.flush(b)
			o.fr.mu.Lock()
			o.fr.batches = append(o.fr.batches, b)
			o.fr.mu.Unlock()
			o.next.Store(n + 1)
		}
		o.flushing.Store(false)
	}
}

// flush is the one-worker search's account of a batch: its states'
// judgements, then its successors' lookups (run.flush).
func (o *ordered[S, M]) flush(b *oBatch) {
	r, rep := o.r, o.r.rep
	o.popped = b.first + b.popped
	o.fr.consumed += segBytes(b.segs)
	rep.Depth = max(rep.Depth, b.depth)
	if b.unknown != "" && rep.Bound == "" {
		rep.Bound = b.unknown
	}
	for _, v := range b.viols {
		r.violation(v.fp, v.num, v.prop, v.why)
	}
	if b.maxDepth {
		rep.Bound = fmt.Sprintf("max-depth %d", r.opts.MaxDepth)
	}
	rep.Transitions += b.trans
	rep.Slept += b.slept
	other := uint64(len(o.ws)) * (o.ws[0].recent.bytes() + b.lk.bytes())
	if s := r.flush(&b.lk, o.fr, &o.mark, other); s != "" && o.stop == "" {
		o.stop = s
	}
	if err := o.fr.err; err != nil && o.stop == "" {
		o.stop = err.Error()
	}
	o.fr.publish()
	o.seenN.Store(r.seen.n)
	if o.stop == "" {
		if s := r.poll(o.fr.size(), o.fr.bytes()+other+r.plog.bytes(), chunkSize); s != "" {
			o.stop = s
		}
	}
	if b.cut || o.stop != "" {
		o.halt.Store(true)
	}
}
