package checker

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/internal/lines"
	"github.com/coordcheck/coordcheck/model"
)

// Strategy is the order in which the state space is explored.
type Strategy uint8

// The exhaustive strategies.
const (
	// BFS explores by depth; its first counterexample is a shortest one.
	BFS Strategy = iota
	// DFS explores depth first; its frontier is usually smaller.
	DFS
	// Random runs random walks from a seed.
	Random
	// Swarm runs random walks whose biases vary from walk to walk.
	Swarm
)

var strategyNames = [...]string{BFS: "bfs", DFS: "dfs", Random: "random", Swarm: "swarm"}

// String is the strategy's name on the command line.
func (s Strategy) String() string { return strategyNames[s] }

// ParseStrategy reads a strategy name.
func ParseStrategy(name string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %s (valid: bfs, dfs, random, swarm)", clip.Quote(name))
}

// Options bound and steer a check. The zero value is an unbounded BFS that
// stops at the first violation.
type Options struct {
	Strategy Strategy
	// MaxStates, MaxDepth, MaxMemory and Timeout bound the search; zero
	// means no bound. MaxMemory counts the bytes the search holds (see
	// budget.go): the visited set, the frontier, the workers' buffers and
	// the state graph, each counted at the size it is about to grow to.
	MaxStates uint64
	MaxDepth  int
	MaxMemory uint64
	Timeout   time.Duration
	// MemoryReserve is the part of MaxMemory held outside the search
	// (the program, the Go runtime's headroom): the search stops when it
	// holds MaxMemory - MemoryReserve.
	MemoryReserve uint64
	// SkipLiveness checks the safety properties only: the state graph is
	// not kept, which saves its memory on large spaces.
	SkipLiveness bool
	// Workers is the number of goroutines a BFS without the state graph,
	// and random and swarm search, run on (0: GOMAXPROCS). The result is
	// the same for any number: states, transitions, verdict and
	// counterexample. DFS and BFS keeping the state graph run on one.
	Workers int
	// KeepGraph checks liveness on the kept state graph even under BFS,
	// where the graph is kept only once it may have a cycle (see Check):
	// slower, for cross-checking.
	KeepGraph bool
	// Exhaust keeps searching after a violation, to count every violating
	// state (like SPIN's -c0), or for random and swarm search every failing
	// walk; the counterexample is still the first found.
	Exhaust bool
	// Progress, when set, is called about every ProgressInterval (default
	// one second) during the search.
	Progress         func(Progress)
	ProgressInterval time.Duration
	// Stop, when closed, ends the search early (Ctrl-C, SIGTERM), within
	// a fraction of a second in every mode and phase; the verdict is then
	// Inconclusive with bound "interrupted".
	Stop <-chan struct{}

	// Random and swarm search: Seed seeds every walk's stream, Walks is
	// the number of walks (default DefaultWalks), MaxDepth bounds each walk
	// (default DefaultWalkDepth), and Walk, when set, runs only that walk.
	Seed  uint64
	Walks int
	Walk  *int
	// Shard, when set, runs only the walks of one shard of the run (walk
	// k belongs to shard k mod Count; see shard.go and MergeShards).
	Shard *Shard
	// Symmetry stores one state per orbit of the protocol's
	// interchangeable nodes (symmetry.go; BFS and DFS, safety only): the
	// counts of states, transitions and violating states are those of
	// the representatives.
	Symmetry bool
	// Bitstate, when set, is the size in bytes of a bit array that
	// replaces the visited set (supertrace, bitstate.go): a BFS on one
	// worker that may miss states, for spaces whose fingerprints do not
	// fit in memory. It never reports a pass: Inconclusive, with its
	// estimated coverage, unless it finds a violation.
	Bitstate uint64
	// POR expands only a persistent set of actions in each state
	// (por.go; BFS and DFS, deadlocks and terminal properties only).
	POR bool
	// Sleep leaves out, in each state, the actions of the nodes in its
	// sleep set (sleep.go): transitions into states generated already,
	// never a state. The same states, depths, violations and shortest
	// counterexamples; fewer transitions (Report.Slept counts those left
	// out). BFS safety searches only; others ignore it.
	Sleep bool
	// Spill says when BFS writes its frontier to files in SpillDir (the
	// system's temporary directory when empty) instead of holding it in
	// memory (spill.go); the results are the same either way.
	Spill    SpillMode
	SpillDir string

	// Checkpoint, when set, is a file BFS writes its state to every
	// CheckpointEvery (default DefaultCheckpointEvery) and when a time,
	// memory or stop bound ends it early; Resume continues from a state
	// read by LoadCheckpoint. Identity describes the system checked (the
	// protocol, its parameters, the configuration), so that a checkpoint
	// is resumed only by the same check. See Spec.CheckpointError.
	Checkpoint      string
	CheckpointEvery time.Duration
	Identity        string
	Resume          *Checkpoint
	// recordLevels counts the states of each BFS level (RecordLevels).
	recordLevels bool
	// checkpointKill, a test hook, stops the search as if it were killed
	// once it returns true for the number of checkpoints written.
	checkpointKill func(k int) bool
	// levelShare, a test hook, is given the records and the new states
	// of each level the level engine merges.
	levelShare func(recs, fresh uint64)
	// noParentLog, a test hook, makes a BFS find its counterexample's
	// path by a second search (pathTo), not from its parent log; and
	// loggedPath, another, is told whether the log gave the path.
	noParentLog bool
	// levels, a test hook, makes a BFS on several workers that could run
	// in ordered batches run level by level.
	levels bool
	// singleLookups, a test hook, makes a plain BFS run on one worker and
	// look each successor up as it makes it (explore), not in ordered
	// batches (exploreOrdered).
	singleLookups bool
	loggedPath    func(bool)
}

// workers is the number of workers a BFS runs on.
func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Progress is a snapshot of a running search.
type Progress struct {
	States, Transitions uint64
	Depth               int
	Frontier            int
	Walks               uint64
	Elapsed             time.Duration
	// Spilled is what the frontier has written to disk so far
	// (Report.SpilledBytes).
	Spilled uint64
}

// Check explores the state space of sp under opts and reports the verdict.
//
// Liveness is checked in two tries (under DFS, only with a variant). The
// first keeps no state graph and shows, edge by edge, that the graph has
// no cycle: either every step lowers the protocol's variant (model.Ranked),
// or, without one and under BFS, every step goes one level deeper (BFS
// numbers states level by level, so an edge to a state numbered below the
// next level's first is the only kind that can close a cycle). Then no execution is infinite, and a node starves
// only in a terminal state, which the search sees as it goes. At the first
// edge that may close a cycle, the search starts again keeping the graph,
// and looks for fair cycles in it once the space is exhausted.
func (sp *Spec[S, M]) Check(opts Options) *Report {
	if rep := sp.refuse(opts); rep != nil {
		return rep
	}
	if rep := sp.selfCheck(&opts); rep != nil {
		return rep
	}
	if opts.Symmetry {
		return sp.checkSymmetric(opts)
	}
	if opts.POR {
		return sp.checkReduced(opts)
	}
	if opts.Strategy == Random || opts.Strategy == Swarm {
		return sp.walk(opts)
	}
	if opts.Bitstate > 0 {
		if rep := refuseBitstate(&opts, sp.PropertyNames()); rep != nil {
			return rep
		}
		if len(sp.Liveness) > 0 && !opts.SkipLiveness {
			rep, _ := sp.explore(opts, noLiveness)
			return bitstateWithoutLiveness(rep, sp.Liveness)
		}
	}
	if len(sp.Liveness) == 0 || opts.SkipLiveness {
		rep, _ := sp.explore(opts, noLiveness)
		return rep
	}
	// The level argument holds for BFS only; a variant, for any order.
	if (opts.Strategy == BFS || sp.System.Ranked()) && !opts.KeepGraph {
		rep, cyclic := sp.explore(opts, livenessAcyclic)
		if !cyclic {
			return rep
		}
		spent := rep.Elapsed
		if opts.Timeout > 0 {
			opts.Timeout = max(opts.Timeout-spent, time.Nanosecond)
		}
		peak := rep.PeakBytes
		rep, _ = sp.explore(opts, livenessGraph)
		rep.PeakBytes = max(rep.PeakBytes, peak)
		rep.Elapsed += spent
		rep.StatesPerSecond = float64(rep.States) / rep.Elapsed.Seconds()
		return rep
	}
	rep, _ := sp.explore(opts, livenessGraph)
	return rep
}

// livenessMode is how a search checks the liveness properties.
type livenessMode uint8

const (
	noLiveness livenessMode = iota
	// livenessAcyclic keeps no graph and gives up at the first edge that
	// may close a cycle (BFS, or any order with a variant).
	livenessAcyclic
	// livenessGraph keeps the state graph and looks for fair cycles.
	livenessGraph
)

// serialMarks are counters of the one-worker search that few searches
// read: liveness's level bounds and the checkpoints' count of states
// expanded. Reached through a pointer, they stay in memory and leave the
// registers to the loop's hot values: as locals, the loop's head
// reloaded them at every state (centralized N=6 R=2: 0.5% more
// instructions).
type serialMarks struct {
	// levelEnd is the number of states found at the depths up to
	// levelDepth, the one being expanded (livenessAcyclic): under BFS, a
	// successor numbered below it lies no deeper than its parent.
	levelEnd   uint32
	levelDepth int
	pops       uint64 // the states expanded
}

// explore is one search. With livenessAcyclic it reports cyclic, and
// stops, when it finds an edge that may close a cycle. A plain BFS runs
// in ordered batches on any number of workers (exploreOrdered), the other
// BFS without the state graph level by level on several workers
// (exploreLevels); this is the search on one, which looks each successor
// up as it makes it: DFS, the liveness checks, checkpoints, max-states,
// bit arrays.
func (sp *Spec[S, M]) explore(opts Options, mode livenessMode) (rep *Report, cyclic bool) {
	if orderedFits(&opts, mode) {
		return sp.exploreOrdered(opts), false
	}
	if opts.Strategy == BFS && mode != livenessGraph && opts.workers() > 1 && opts.Bitstate == 0 {
		return sp.exploreLevels(opts, mode)
	}
	r := sp.newRun(opts, mode)
	if r.restoreErr != nil {
		return r.restoreFailed(), false
	}
	rep = r.rep
	x := newExpander(sp, r.store)
	sleeps := r.sleeps()
	if sleeps {
		x.keepSleep()
	}

	var fr frontier = &queue{}
	if opts.Strategy == DFS {
		fr = &stack{}
	}
	seen, g, term, plog := r.seen, r.g, r.term, r.plog
	seen.growsFlat() // one goroutine inserts
	lv := &serialMarks{levelDepth: -1}
	if ck := r.resumed; ck != nil {
		fr, lv.levelDepth, lv.levelEnd, lv.pops = ck.queue(), ck.levelDepth, ck.levelEnd, ck.pops
	}
	if q, ok := fr.(*queue); ok {
		q.opts, q.written = r.opts, &r.spilled
		defer q.release()
	}
	if r.resumed == nil {
		if mode != noLiveness {
			seen.numbered()
		}
		initFP, initEnc := x.initial()
		seen.insert(initFP, noParent)
		r.countLevel(0, 1)
		if g != nil {
			g.add(0, initFP)
		}
		rep.FrontierBytes = fr.push(0, initFP, x.withSleep(initEnc))
	}

	mark := uint64(pollBytes) // poll when the frontier holds this much
	// recent holds the fingerprints of the successors probed lately
	// (recentFPs; on RA N=4 R=1, 6.2 M of 7.7 M successors are repeats).
	// Made once the search has grown (a small search needs no cache), and
	// not when a liveness check needs the number of each successor found.
	var recent *recentFPs
	grown := false // UseLargeMemo called
	// (Reached through a pointer: as a value, its words were reloaded at
	// the loop's head.)
	prefetch := &prefetcher{seen: seen}
	var stop string // the bound a poll reached
	// next is the number of the state popped next, under BFS: states are
	// numbered as they are inserted, and the queue gives them back in that
	// order (the state graph numbers them so; seen.id would find it again).
	next := uint32(0)
	if ck := r.resumed; ck != nil {
		next = uint32(seen.n) - uint32(fr.size())
	}
	for {
		depth, fp, enc, ok := fr.pop()
		if !ok {
			if err := fr.failed(); err != nil {
				stop = err.Error()
			}
			break
		}
		num := next
		next++
		x.load(fp, enc, false)
		if depth > rep.Depth {
			rep.Depth = depth
		}
		prop, detail, unknown := sp.judgeLoaded(x.judges, &x.cur, x.enabled(), x.ids)
		if unknown != "" && rep.Bound == "" {
			rep.Bound = unknown
		}
		notePremises(r.prem, r.premSeen, &x.cur)
		if prop != "" {
			r.violation(fp, uint64(num), prop, detail)
			if !opts.Exhaust {
				break
			}
		}
		if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
			if x.enabled() > 0 {
				rep.Bound = fmt.Sprintf("max-depth %d", opts.MaxDepth)
			}
			if plog != nil {
				plog.expanded(0)
			}
			continue
		}
		var rank uint64
		if term != nil {
			rank, _ = x.sys.Rank(&x.cur)
			if depth > lv.levelDepth {
				lv.levelDepth, lv.levelEnd = depth, uint32(seen.n)
			}
			if x.enabled() == 0 {
				sp.pendingMasks(&x.cur, term.masks)
				term.note(fp, uint64(seen.id(fp))) // the graph's order, for any search order
			}
		}
		var u uint32
		if g != nil {
			u = num
			if opts.Strategy != BFS {
				u = seen.id(fp)
			}
			sp.record(g, u, &x.cur)
			g.start[u] = uint32(len(g.to))
		}
		if !grown && seen.n >= recentAfter {
			grown = true
			x.ids.UseLargeMemo()
		}
		if recent == nil && term == nil && g == nil && seen.n >= recentAfter {
			recent = newRecentFPs()
			*prefetch = prefetcher{seen: seen, recent: recent}
		}
		x.makeSuccessors(prefetch, rank, term != nil)

		// Look the successors up, queue the new ones.
		kids := 0
		rep.Slept += uint64(x.enabled() - len(x.awake))
		for _, i32 := range x.awake {
			i := int(i32)
			sc := x.successor(i)
			rep.Transitions++
			if !r.cov.countTagged(sc.tag) {
				x.countNoting(r.cov, &x.acts[i], sc.at)
			}
			var v uint32
			added := false
			if recent == nil || !recent.has(key(sc.fp)) {
				v, added = seen.insertID(sc.fp, key(fp))
				if recent != nil {
					recent.put(key(sc.fp))
				}
			}
			grew := false
			if added {
				if plog != nil {
					plog.found(x.ids.IndexInAll(i, &x.acts[i]))
					kids++
				}
				// (The frontier's peak noted as it grows: a push
				// returns its bytes, which only a push adds to but
				// for the rare few a pop does, noted at the end.)
				b := fr.push(depth+1, sc.fp, x.entryOf(sc.at, x.sleepAfter(i)))
				r.countLevel(depth+1, 1)
				rep.FrontierBytes = max(rep.FrontierBytes, b)
				grew = b >= mark
			}
			if rep.Transitions%pollTransitions == 0 || grew {
				// Inside the expansion, since one state may have thousands
				// of large successors; the frontier may take another chunk
				// before the next poll.
				if b := r.poll(fr.size(), fr.bytes()+recent.bytes()+r.plog.bytes(), chunkSize); b != "" && stop == "" {
					stop = b
					if r.ckpt == nil {
						break
					}
					// With a checkpoint to write, the state's expansion
					// ends first, so that the search holds a whole state.
				}
				mark = fr.bytes() + pollBytes
			}
			if term != nil && closes(x.sys, sc.rankClose, opts.Strategy != BFS || !added && v < lv.levelEnd) {
				cyclic = true
				break
			}
			if g != nil {
				if added {
					g.add(v, sc.fp)
				}
				c, fair := x.sys.FairClass(&x.cur, x.acts[i])
				if !fair {
					c = 0
				} else {
					c |= 1 << 63 // fair classes are never 0
				}
				g.addEdge(v, c)
			}
		}
		if cyclic || stop != "" && r.ckpt == nil {
			break
		}
		if plog != nil {
			plog.expanded(kids)
		}
		if g != nil {
			g.end[u] = uint32(len(g.to))
		}
		if opts.MaxStates > 0 && seen.n >= opts.MaxStates {
			rep.Bound = fmt.Sprintf("max-states %d", opts.MaxStates)
			break
		}
		// Between two expansions the search holds a whole state: the
		// checkpoint's place (checkpoint.go), when one is due or a poll
		// stopped the search.
		if lv.pops++; r.ckpt != nil && (stop != "" || lv.pops&1023 == 0 && r.ckpt.due()) {
			if s := r.save(engineSerial, serialFrontier(fr.(*queue), lv.levelDepth, lv.levelEnd, lv.pops)); s != "" {
				stop = s
			}
		}
		if stop != "" {
			break
		}
	}
	if stop != "" {
		rep.Bound = stop
	}
	rep.FrontierBytes = max(rep.FrontierBytes, fr.bytes())
	rep = r.conclude()
	r.seen.release()
	if r.g != nil {
		r.g.release()
	}
	return rep, cyclic
}

// restoreFailed is the report of a search whose checkpoint's store
// could not be restored: an error, never a pass.
func (r *run[S, M]) restoreFailed() *Report {
	return &Report{Verdict: Inconclusive, Properties: r.rep.Properties,
		Error: "checkpoint: " + r.restoreErr.Error() + "; start the search again"}
}

// recentAfter is the number of states after which the one-worker search
// keeps a cache of its recent probes. A variable for the tests
// (WithRecentAfter).
var recentAfter uint64 = 1 << 14

// run is the state of one exhaustive search that outlives its loop: the
// report, the visited set, the liveness bookkeeping, the first violation.
type run[S, M any] struct {
	sp     *Spec[S, M]
	opts   *Options
	rep    *Report
	counts []uint64 // violating states per property
	seen   *fpSet
	store  *model.Store[S, M] // the parts of the states stored, shared by the workers
	// restoreErr is why the store of the checkpoint resumed could not be
	// made again (a file that is not this build's, or corrupt).
	restoreErr error
	g          *graph     // livenessGraph
	term       *terminals // livenessAcyclic
	start      time.Time
	// Coverage (coverage.go): the actions taken by kind, and whether each
	// property's premise has held.
	cov      *kindTable
	prem     []premise[S, M]
	premSeen []bool

	found        bool
	badFP        uint64
	badProp, why string
	// path is the counterexample's path of keys when it was taken as the
	// violation was met (foundPath); nil when conclude finds it (pathTo).
	path []uint64
	// badNum is the first violating state's number in BFS order, and
	// plog the log of parents from which conclude then replays its path,
	// in a BFS that keeps no parents (nil otherwise).
	badNum        uint64
	plog          *parentLog
	lastProgress  time.Time
	progressEvery time.Duration

	levels  []uint64 // states per BFS level (countLevel)
	mode    livenessMode
	ckpt    *checkpointer // nil: no checkpoints
	resumed *Checkpoint   // the state the search continues from, or nil

	// spilling is set once the frontier goes to disk (spill.go); spilled
	// counts the bytes written there.
	spilling bool
	spilled  atomic.Uint64
	// probeEarly is whether parallel BFS looks successors up in the
	// visited set as it makes them (levelRun.probe).
	probeEarly bool
}

func (sp *Spec[S, M]) newRun(opts Options, mode livenessMode) *run[S, M] {
	r := &run[S, M]{sp: sp, opts: &opts, rep: &Report{Properties: sp.PropertyNames()}, seen: newFPSet(keepsParents(&opts, mode)), start: time.Now(),
		store: sp.newStore()}
	if opts.Bitstate > 0 && mode != livenessGraph {
		r.seen = newBitSet(opts.Bitstate)
	}
	if mode == noLiveness {
		r.rep.Properties = r.rep.Properties[:len(r.rep.Properties)-len(sp.Liveness)]
	}
	r.counts = make([]uint64, len(r.rep.Properties))
	r.cov, r.prem = newKindTable(), sp.premises(r.rep.Properties)
	r.premSeen = make([]bool, len(r.prem))
	switch mode {
	case livenessGraph:
		r.g = newGraph(len(sp.Liveness))
		r.rep.Liveness = "graph"
	case livenessAcyclic:
		r.term = newTerminals(len(sp.Liveness), sp.System.N())
		r.rep.Liveness = "acyclic"
	}
	if logsParents(&opts, mode) {
		r.plog = newParentLog()
	}
	r.lastProgress, r.progressEvery = r.start, opts.ProgressInterval
	if r.progressEvery == 0 {
		r.progressEvery = time.Second
	}
	r.mode = mode
	if mode != livenessGraph && opts.Strategy == BFS {
		if opts.Checkpoint != "" {
			r.ckpt = &checkpointer{path: opts.Checkpoint, every: opts.CheckpointEvery, last: r.start, kill: opts.checkpointKill}
			if r.ckpt.every <= 0 {
				r.ckpt.every = DefaultCheckpointEvery
			}
		}
		if opts.Resume != nil {
			r.resumed = opts.Resume
			r.resume(opts.Resume)
		}
	}
	return r
}

// keepsParents reports whether a search keeps each state's parent beside
// its fingerprint (16 bytes a slot, not 8): DFS and the state graph,
// whose paths a second BFS would not find again (see pathTo), and a BFS
// that goes on after its first violation (Exhaust), until it meets it
// (see parentsUntilFound).
func keepsParents(opts *Options, mode livenessMode) bool {
	return mode == livenessGraph || opts.Strategy == DFS || opts.Exhaust
}

// parentsUntilFound reports whether the search keeps parents only until
// its first violation: a BFS with Exhaust. Without parents, the path to
// that violation is found by a second BFS (pathTo), which would repeat
// the first search up to the violation's level, often most of it; with
// them for good, every slot costs twice the memory. So it keeps them
// until the violation, takes its path at once (foundPath), and lets them
// go: the rest of the search stores fingerprints alone.
func parentsUntilFound(opts *Options, mode livenessMode) bool {
	return opts.Exhaust && mode != livenessGraph && opts.Strategy == BFS
}

// foundPath takes the path to the first violation, r.badFP, while the
// visited set still holds the parents, and lets the parents go when the
// search needs them no more (parentsUntilFound).
func (r *run[S, M]) foundPath() {
	if r.path != nil || !r.seen.parents || !parentsUntilFound(r.opts, r.mode) {
		return
	}
	r.path = r.sp.pathTo(r.seen, key(r.badFP))
	r.seen.dropParents()
}

// violation counts a violating state, number num in BFS order (0 when
// the search is not one), and keeps the first.
func (r *run[S, M]) violation(fp, num uint64, prop, why string) {
	r.counts[indexOf(r.rep.Properties, prop)]++
	if !r.found {
		r.found, r.badFP, r.badNum, r.badProp, r.why = true, fp, num, prop, why
		r.foundPath()
	}
}

// logsParents reports whether a search keeps a parent log (parentLog):
// a BFS that keeps no parents, on fingerprints (not bits), from its
// start (a search resumed from a checkpoint lacks the log's beginning).
func logsParents(opts *Options, mode livenessMode) bool {
	return opts.Strategy == BFS && !keepsParents(opts, mode) && opts.Bitstate == 0 && opts.Resume == nil && !opts.noParentLog
}

// logPath takes the counterexample's path from the parent log, when the
// search kept one that reaches the violating state.
func (r *run[S, M]) logPath() {
	if r.path == nil {
		r.path = r.logPathTo(r.badNum, r.badFP)
	}
}

// logPathTo is the path of keys to state number num (in BFS order), of
// fingerprint fp, from the parent log; nil when the search kept no log
// or the log does not reach it.
func (r *run[S, M]) logPathTo(num, fp uint64) []uint64 {
	if r.plog == nil {
		return nil
	}
	acts, ok := r.plog.path(num)
	if r.opts.loggedPath != nil {
		r.opts.loggedPath(ok)
	}
	if !ok {
		return nil
	}
	path := r.sp.replayPath(acts)
	if path[len(path)-1] != key(fp) {
		panic(fmt.Sprintf("checker: the parent log's path leads to %#x, not to state %#x", path[len(path)-1], key(fp)))
	}
	return path
}

// conclude fills in the report once the search has ended: the counts, the
// liveness check on what was kept, the verdict and the counterexample.
func (r *run[S, M]) conclude() *Report {
	rep, seen, g, sp := r.rep, r.seen, r.g, r.sp
	if r.found || rep.Bound != "" {
		rep.Liveness = "" // the search ended before it could tell
	}
	if seen.bits != nil && !r.found && rep.Bound == "" {
		// A bitstate search may have missed states: no pass.
		rep.Bound = seen.bitstateBound()
	}
	rep.States = seen.n
	if r.opts.Strategy == BFS {
		rep.Levels = r.levelCounts()
	}
	rep.TableBytes = seen.bytes()
	rep.SpilledBytes = r.spilled.Load()
	if g != nil {
		rep.TableBytes += g.bytes()
	}
	rep.PeakBytes = max(rep.PeakBytes, rep.TableBytes)
	var live *Trace
	if !r.found && rep.Bound == "" {
		switch {
		case g != nil:
			l, stop := sp.findLasso(g, sp.System.N(), r.opts, r.start, rep.TableBytes)
			if stop != "" {
				rep.Bound, rep.Liveness = stop, ""
			} else if l != nil {
				live = sp.lassoTrace(seen, g, l)
			}
		case r.term != nil:
			if p, node, fp, pos, ok := r.term.first(); ok {
				live = sp.terminalTrace(seen, p, node, fp, r.logPathTo(pos, fp))
			}
		}
	}
	rep.Elapsed = time.Since(r.start)
	if s := rep.Elapsed.Seconds(); s > 0 {
		rep.StatesPerSecond = float64(rep.States) / s
	}
	for i, c := range r.counts {
		if c > 0 {
			rep.ViolationCounts = append(rep.ViolationCounts, PropertyCount{rep.Properties[i], c})
		}
	}
	switch {
	case r.found:
		rep.Verdict = Violated
		r.logPath()
		rep.Counterexample = sp.rebuild(seen, r.path, r.badFP, r.badProp, r.why)
	case live != nil:
		rep.Verdict = Violated
		rep.Counterexample = live
		rep.ViolationCounts = append(rep.ViolationCounts, PropertyCount{rep.Counterexample.Property, 1})
	case rep.Bound != "":
		rep.Verdict = Inconclusive
	default:
		rep.Verdict = Pass
	}
	r.plog.release()
	sp.fillCoverage(rep, r.cov, r.prem, r.premSeen)
	return rep
}

// expander loads states, lists their actions and makes their
// successors, with scratch worlds and buffers of its own: one per worker.
// States are in their stored form (model.Store): the ids of their parts
// in the search's store, which the workers share.
type expander[S, M any] struct {
	_   lines.Pad // a worker's: no other's memory on its lines
	sys *model.System[S, M]
	cur model.World[S, M]
	// acts is the loaded state's actions but the steps of the nodes its
	// sleep set holds (model.Cursor.ActionsAwake), which number slept.
	acts  []model.Action
	slept int
	enc   []byte              // a copy of the current state's stored form, when load made one
	ids   *model.Cursor[S, M] // the current state's parts
	// judges is the spec's invariants as the worker judges them.
	judges *judgePlan[S, M]
	// The successors makeSuccessors made, each in a slot: that of acts[i]
	// in slot i. What the search reads of each (succSlot) is in one
	// array, a bounds check a slot where it was one an array; the
	// successors made whole, and their stored forms, beside it.
	slot   []succSlot
	succ   []model.World[S, M]
	stored [][]byte              // the stored form of each successor made
	ranked bool                  // whether makeSuccessors measured closes
	buf    []byte                // a successor's stored form (encodeOf)
	canon  []byte                // under symmetry, a canonical encoding
	rep    model.World[S, M]     // and the world it encodes
	sym    *model.Symmetry[S, M] // nil unless the search reduces by symmetry
	por    *model.Reducer[S, M]  // nil unless the search expands persistent sets
	// Sleep sets (sleep.go): whether the frontier's entries hold them,
	// whether the system's timers are guarded; the loaded state's set.
	sleepOn, guarded bool
	sleep            uint64
	// With guards: ready[k], the timers of node k whose guards hold in
	// the loaded state, and was[k], those that held in the parent that
	// inserted it (read from its entry, for the nodes of sleep with a
	// timer armed). Arrays of MaxNodes, indexed through a mask: no
	// bounds checks.
	ready, was *[model.MaxNodes]uint64
	zt         uint64 // the nodes was holds
	// awake lists the actions the state's sleep set leaves in, by index
	// in acts, in order: those the search takes (all of acts but under
	// guards, where a sleeping node's firings are listed: awakeGuarded).
	awake []int32
	// awake's arrays: the list of all (awakeAll), and awakeGuarded's.
	allAwake, guardedAwake []int32
	_                      lines.Pad
}

// enabled is the number of the loaded state's actions, those asleep
// included.
func (x *expander[S, M]) enabled() int { return len(x.acts) + x.slept }

// newExpander makes an expander of the states of st, the search's store.
func newExpander[S, M any](sp *Spec[S, M], st *model.Store[S, M]) *expander[S, M] {
	x := &expander[S, M]{sys: sp.System.Clone(), judges: sp.plan()}
	x.ids = model.NewCursor(st, x.sys)
	x.sym, x.por = sp.canonicaliser(x.sys), sp.reducer(x.sys)
	x.slots(2)
	// Appended to at every state: on lines of the worker's own, with
	// room to spare (internal/lines).
	x.acts, x.guardedAwake = lines.Own[model.Action](64)[:0], lines.Own[int32](64)[:0]
	x.enc, x.buf = lines.Own[byte](256)[:0], lines.Own[byte](256)[:0]
	return x
}

// initial returns the initial state's fingerprint and stored form.
func (x *expander[S, M]) initial() (uint64, []byte) {
	w := x.sys.Init()
	if x.sym != nil {
		return x.storeCanonical(w, nil)
	}
	enc, fp := x.ids.AppendStored(nil, w)
	return fp, enc
}

// storeCanonical returns the fingerprint and the stored form (appended
// to b) of the representative of w's orbit: a search that reduces by
// symmetry stores representatives, hashed whole once made canonical.
func (x *expander[S, M]) storeCanonical(w *model.World[S, M], b []byte) (uint64, []byte) {
	x.canon = x.sym.Canonical(x.sys.Encode(x.canon[:0], w), w)
	x.sys.Decode(x.canon, &x.rep)
	b, _ = x.ids.AppendStored(b, &x.rep)
	return model.Fingerprint(x.canon), b
}

// load makes enc, whose fingerprint is fp, the current state and lists
// its actions. (A fingerprint of 0 is stored as its key, 1: a step from
// that state, about once in 2^64 states, would be hashed wrong, a
// collision of the kind hash compaction accepts.) The successors' stored
// forms are made from enc's bytes (encodeOf), which the caller keeps as
// they are until it is done with them, or else asks for a copy. (Copied
// every time, on one worker, the copies were 1% of centralized N=6 R=2's
// instructions.)
func (x *expander[S, M]) load(fp uint64, enc []byte, copied bool) {
	if x.sleepOn { // the entry begins with the state's sleep set
		x.sleep, enc = model.ReadUvarint(enc)
		if x.guarded {
			enc = x.readWas(enc)
		}
	}
	if copied {
		x.enc = append(x.enc[:0], enc...)
		enc = x.enc
	}
	x.ids.Load(enc, fp, &x.cur)
	x.acts, x.slept = x.ids.ActionsAwake(&x.cur, x.acts[:0], x.sleep)
	if x.por != nil {
		x.acts = x.por.Persistent(&x.cur, x.acts)
	}
	if x.guarded { // keepSleep sets it, with sleepOn
		x.awakeGuarded()
	} else {
		x.awakeAll()
	}
	x.slots(max(2, len(x.acts)))
}

// slots makes room for n successors, on cache lines of the worker's own
// (internal/lines: written at every step).
func (x *expander[S, M]) slots(n int) {
	if n <= len(x.slot) {
		return
	}
	n = max(n, 2*len(x.slot), 8)
	x.slot = grownOwn(x.slot, n)
	x.succ = grownOwn(x.succ, n)
	x.stored = grownOwn(x.stored, n)
}

// succSlot is what an expander keeps of the successor in one slot.
type succSlot struct {
	fp uint64 // its fingerprint
	// lazy: the successor is not made (expander.succ); the step took its
	// fingerprint from the parts' ids (model.Cursor.Step), and encodeOf
	// writes its stored form from the parent's and what the step changed
	// (stepped): most successors of a search are states already visited,
	// never made nor stored.
	lazy    bool
	closes  bool // it may close a cycle (makeSuccessors, ranked)
	stepped model.Stepped
}

// grownOwn is s grown to length n, on cache lines of its own.
func grownOwn[T any](s []T, n int) []T {
	g := lines.Own[T](n)
	copy(g, s)
	return g
}

// stepTo applies action acts[i] to the current state, leaving the
// successor made and stored in slot k (s), and returns its fingerprint:
// for the steps Cursor.Step does not take, and every step under
// symmetry. makeSuccessors takes the others itself, with Cursor.Step,
// which computes the fingerprint from the parts of the world the step
// changed: a successor already visited is mostly never made nor stored
// (see encodeOf).
func (x *expander[S, M]) stepTo(i, k int, s *succSlot) uint64 {
	a := &x.acts[i]
	s.lazy = false
	s.stepped = model.Stepped{}
	next := &x.succ[k]
	x.sys.Apply(&x.cur, *a, next)
	var fp uint64
	if x.sym != nil {
		fp, x.stored[k] = x.storeCanonical(next, x.stored[k][:0])
	} else {
		x.stored[k], fp = x.ids.AppendStored(x.stored[k][:0], next)
	}
	// Apply's effects stay the system's scratch output (RankAfter), which
	// storing a successor does not touch.
	return fp
}

// encodeOf returns the stored form of the successor stepTo left in slot
// k (under symmetry, of its representative), valid until the next
// encodeOf or a step into slot k.
func (x *expander[S, M]) encodeOf(k int) []byte {
	if s := &x.slot[k]; s.lazy { // from the parent's and what the step changed
		x.buf = x.ids.AppendStepped(x.buf[:0], &s.stepped)
		return x.buf
	}
	return x.stored[k]
}

// successor is one successor makeSuccessors made: its fingerprint, where the
// expander keeps it (encodeOf), and, when asked for, whether the step did
// not lower the variant (closes).
type successor struct {
	fp        uint64
	at        int
	rankClose bool
	tag       uint64 // the step's memo tag (countTagged)
}

// makeSuccessors makes the loaded state's successors in action order,
// successor i left in slot i (encodeOf), for successor(i) to return.
// What pf asks for is prefetched as soon as a successor's fingerprint is
// known: its pair in the recent cache and, for a search that looks each
// successor up at once, its visited-set slot, which the caller probes
// only once all the state's successors are made: most probes miss the
// cache, and the misses overlap with each other and with the making
// (a batch of lookups prefetches its own, batch.go). (One successor
// ahead, as it was, was too short a lead: the load of the slot took 86%
// of the insert's samples, RA N=4 R=1.) With ranked, it measures each
// step against rank, the state's (rankAfter). The caller loops over the
// successors itself: through an iterator (range over a function), each
// successor was a call of the loop's body, its variables reached through
// the closure (ring N=10, one worker: 0.97x the time without).
func (x *expander[S, M]) makeSuccessors(pf *prefetcher, rank uint64, ranked bool) {
	x.ranked = ranked && x.sys.Ranked()
	sym := x.sym != nil
	for _, i32 := range x.awake { // the others' successors are generated from elsewhere (sleep.go)
		i := int(i32)
		s := &x.slot[i]
		// (Cursor.Step's steps taken here, not in a call of stepTo: the
		// call and its bounds checks were 1% of centralized N=6 R=2's
		// instructions.)
		fp, ok := uint64(0), false
		if !sym {
			fp, ok = x.ids.Step(&x.cur, &x.acts[i], &s.stepped)
		}
		if ok {
			s.lazy = true
		} else {
			fp = x.stepTo(i, i, s)
		}
		s.fp = fp
		pf.fetch(fp)
		if x.ranked {
			s.closes = x.rankAfter(i, rank) >= rank
		}
	}
}

// prefetcher is what makeSuccessors asks for as each successor's
// fingerprint is known: the slot of the visited set, when seen is set,
// and the pair of the recent cache, when recent is. (A func value, it was
// an indirect call for each successor.)
type prefetcher struct {
	seen   *fpSet
	recent *recentFPs
}

// fetch asks for fp's lines.
func (p *prefetcher) fetch(fp uint64) {
	if p.seen != nil {
		p.seen.prefetch(fp)
	}
	if p.recent != nil {
		p.recent.prefetch(key(fp))
	}
}

// successor is the successor of action i makeSuccessors made.
func (x *expander[S, M]) successor(i int) successor {
	s := &x.slot[i]
	return successor{fp: s.fp, at: i, rankClose: x.ranked && s.closes, tag: s.stepped.Tag()}
}

// rankAfter is the measure of the successor of action i (slot i), right
// after it: from the step's memo when Cursor.Step took it, else from
// Apply's effects (model.System.RankAfter). Made to be measured, each
// successor of a ranked search (the graph-free liveness check) was
// applied and encoded in full, most of them states visited already:
// centralized N=6 R=2 took 2.2 times as long as its safety check.
func (x *expander[S, M]) rankAfter(i int, rank uint64) uint64 {
	if s := &x.slot[i]; s.lazy {
		return s.stepped.RankAfter(rank)
	}
	return x.sys.RankAfter(&x.cur, x.acts[i], &x.succ[i], rank)
}

// closes reports whether a step from a state to its successor may close
// a cycle: with a variant, when it does not lower the measure
// (rankClose: model.System.RankAfter, taken right after the step's Apply,
// was not below the state's rank); without one, when the successor is no
// deeper in BFS than the state (shallow, known once it was probed).
func closes[S, M any](sys *model.System[S, M], rankClose, shallow bool) bool {
	if sys.Ranked() {
		return rankClose
	}
	return shallow
}

// poll checks the time, memory and stop bounds and reports progress,
// given the frontier's size, the memory held besides the visited set and
// the graph (the frontier, the workers' buffers), and what these may add
// before the next poll. It returns the name of the bound reached, or "".
func (r *run[S, M]) poll(frontier int, otherBytes, extra uint64) string {
	opts, rep := r.opts, r.rep
	now := time.Now()
	if opts.Progress != nil && now.Sub(r.lastProgress) >= r.progressEvery {
		r.lastProgress = now
		opts.Progress(Progress{States: r.seen.n, Transitions: rep.Transitions, Depth: rep.Depth,
			Frontier: frontier, Elapsed: now.Sub(r.start), Spilled: r.spilled.Load()})
	}
	stop := r.overMemory(otherBytes, extra, 0)
	if s := interrupt(opts, r.start); s != "" {
		stop = s
	}
	return stop
}

// overMemory notes the memory held (the visited set, the graph, the
// store, and otherBytes) and reports the memory bound when it holds, or would hold
// once the coming phase has added extra bytes and the visited set more
// states, more than the budget.
func (r *run[S, M]) overMemory(otherBytes, extra, more uint64) string {
	otherBytes += r.store.Bytes() // the parts the frontier's states name
	held, ahead := r.seen.bytes()+otherBytes, r.seen.bytesAfter(more)+otherBytes+extra
	if r.g != nil {
		held += r.g.bytes()
		ahead += r.g.bytesAhead()
	}
	r.rep.PeakBytes = max(r.rep.PeakBytes, held)
	if over(r.opts, ahead) {
		return memoryBound(r.opts)
	}
	return ""
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	panic("checker: unknown property " + name)
}
