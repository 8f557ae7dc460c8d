package checker

import (
	"fmt"
	"time"

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
	return 0, fmt.Errorf("unknown mode %q (valid: bfs, dfs, random, swarm)", name)
}

// Options bound and steer a check. The zero value is an unbounded BFS that
// stops at the first violation.
type Options struct {
	Strategy Strategy
	// MaxStates, MaxDepth, MaxMemory (bytes held by the visited set and
	// the frontier) and Timeout bound the search; zero means no bound.
	MaxStates uint64
	MaxDepth  int
	MaxMemory uint64
	Timeout   time.Duration
	// SkipLiveness checks the safety properties only: the state graph is
	// not kept, which saves its memory on large spaces.
	SkipLiveness bool
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
	// Stop, when closed, ends the search early (Ctrl-C); the verdict is
	// then Inconclusive with bound "interrupted".
	Stop <-chan struct{}

	// Random and swarm search: Seed seeds every walk's stream, Walks is
	// the number of walks (default DefaultWalks), MaxDepth bounds each walk
	// (default DefaultWalkDepth), and Walk, when set, runs only that walk.
	Seed  uint64
	Walks int
	Walk  *int
}

// Progress is a snapshot of a running search.
type Progress struct {
	States, Transitions uint64
	Depth               int
	Frontier            int
	Walks               uint64
	Elapsed             time.Duration
}

// Check explores the state space of sp under opts and reports the verdict.
//
// Liveness under BFS is checked in two tries. The first keeps no state
// graph and shows, edge by edge, that the graph has no cycle: either every
// step lowers the protocol's variant (model.Ranked), or, without one, every
// step goes one level deeper (BFS numbers states level by level, so an edge
// to a state numbered below the next level's first is the only kind that
// can close a cycle). Then no execution is infinite, and a node starves
// only in a terminal state, which the search sees as it goes. At the first
// edge that may close a cycle, the search starts again keeping the graph,
// and looks for fair cycles in it once the space is exhausted.
func (sp *Spec[S, M]) Check(opts Options) *Report {
	if opts.Strategy == Random || opts.Strategy == Swarm {
		return sp.walk(opts)
	}
	if len(sp.Liveness) == 0 || opts.SkipLiveness {
		rep, _ := sp.explore(opts, noLiveness)
		return rep
	}
	if opts.Strategy == BFS && !opts.KeepGraph {
		rep, cyclic := sp.explore(opts, livenessAcyclic)
		if !cyclic {
			return rep
		}
		spent := rep.Elapsed
		if opts.Timeout > 0 {
			opts.Timeout = max(opts.Timeout-spent, time.Nanosecond)
		}
		rep, _ = sp.explore(opts, livenessGraph)
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
	// can close a cycle (BFS only).
	livenessAcyclic
	// livenessGraph keeps the state graph and looks for fair cycles.
	livenessGraph
)

// explore is one search. With livenessAcyclic it reports cyclic, and
// stops, when it finds an edge that may close a cycle.
func (sp *Spec[S, M]) explore(opts Options, mode livenessMode) (rep *Report, cyclic bool) {
	sys := sp.System.Clone()
	start := time.Now()
	rep = &Report{Properties: sp.PropertyNames()}
	if mode == noLiveness {
		rep.Properties = rep.Properties[:len(rep.Properties)-len(sp.Liveness)]
	}
	counts := make([]uint64, len(rep.Properties))

	var fr frontier = &queue{}
	if opts.Strategy == DFS {
		fr = &stack{}
	}
	seen := newFPSet(0)
	var g *graph
	var term *terminals
	switch mode {
	case livenessGraph:
		g = newGraph(len(sp.Liveness))
		seen.numbered()
		rep.Liveness = "graph"
	case livenessAcyclic:
		term = newTerminals(len(sp.Liveness), sys.N())
		seen.numbered()
		rep.Liveness = "acyclic"
	}
	// levelEnd is the number of states found at the depths up to the one
	// being expanded (livenessAcyclic): under BFS, a successor numbered
	// below it lies no deeper than its parent.
	var levelEnd uint32
	levelDepth := -1
	var buf []byte
	buf = sys.Encode(buf, sys.Init())
	initFP := model.Fingerprint(buf)
	seen.insert(initFP, noParent)
	if g != nil {
		g.add(0, initFP)
	}
	fr.push(0, initFP, buf)

	var (
		cur, next     model.World[S, M]
		acts          []model.Action
		found         bool
		badFP         uint64
		badProp, why  string
		pops          uint64
		lastProgress  = start
		progressEvery = opts.ProgressInterval
	)
	if progressEvery == 0 {
		progressEvery = time.Second
	}
	for {
		depth, fp, enc, ok := fr.pop()
		if !ok {
			break
		}
		sys.Decode(enc, &cur)
		acts = sys.Actions(&cur, acts[:0])
		if depth > rep.Depth {
			rep.Depth = depth
		}
		prop, detail, unknown := sp.judge(&cur, acts)
		if unknown != "" && rep.Bound == "" {
			rep.Bound = unknown
		}
		if prop != "" {
			counts[indexOf(rep.Properties, prop)]++
			if !found {
				found, badFP, badProp, why = true, fp, prop, detail
			}
			if !opts.Exhaust {
				break
			}
		}
		if opts.MaxDepth > 0 && depth >= opts.MaxDepth {
			if len(acts) > 0 {
				rep.Bound = fmt.Sprintf("max-depth %d", opts.MaxDepth)
			}
			continue
		}
		var rank uint64
		if term != nil {
			rank, _ = sys.Rank(&cur)
			if depth > levelDepth {
				levelDepth, levelEnd = depth, uint32(seen.n)
			}
			if len(acts) == 0 {
				sp.pendingMasks(&cur, term.masks)
				term.note(fp)
			}
		}
		var u uint32
		if g != nil {
			u = seen.id(fp)
			sp.record(g, u, &cur)
			g.start[u] = uint32(len(g.to))
		}
		for _, a := range acts {
			sys.Apply(&cur, a, &next)
			buf = sys.Encode(buf[:0], &next)
			nfp := model.Fingerprint(buf)
			rep.Transitions++
			v, added := seen.insertID(nfp, key(fp))
			if added {
				fr.push(depth+1, nfp, buf)
			}
			if term != nil && mayClose(sys, &cur, a, &next, rank, added, v, levelEnd) {
				cyclic = true
				break
			}
			if g != nil {
				if added {
					g.add(v, nfp)
				}
				c, fair := sys.FairClass(&cur, a)
				if !fair {
					c = 0
				} else {
					c |= 1 << 63 // fair classes are never 0
				}
				g.to = append(g.to, v)
				g.class = append(g.class, c)
			}
		}
		if cyclic {
			break
		}
		if g != nil {
			g.end[u] = uint32(len(g.to))
		}
		if b := fr.bytes(); b > rep.FrontierBytes {
			rep.FrontierBytes = b
		}
		if opts.MaxStates > 0 && seen.n >= opts.MaxStates {
			rep.Bound = fmt.Sprintf("max-states %d", opts.MaxStates)
			break
		}
		if pops++; pops&1023 == 0 {
			if stop := sp.poll(&opts, rep, seen, fr, g, start, &lastProgress, progressEvery); stop != "" {
				rep.Bound = stop
				break
			}
		}
	}

	if found || rep.Bound != "" {
		rep.Liveness = "" // the search ended before it could tell
	}
	rep.States = seen.n
	rep.TableBytes = seen.bytes()
	if g != nil {
		rep.TableBytes += g.bytes()
	}
	var live *Trace
	if !found && rep.Bound == "" {
		switch {
		case g != nil:
			if l := sp.findLasso(g, sys.N()); l != nil {
				live = sp.lassoTrace(seen, g, l)
			}
		case term != nil:
			if p, node, fp, ok := term.first(); ok {
				live = sp.terminalTrace(seen, p, node, fp)
			}
		}
	}
	rep.Elapsed = time.Since(start)
	if s := rep.Elapsed.Seconds(); s > 0 {
		rep.StatesPerSecond = float64(rep.States) / s
	}
	for i, c := range counts {
		if c > 0 {
			rep.ViolationCounts = append(rep.ViolationCounts, PropertyCount{rep.Properties[i], c})
		}
	}
	switch {
	case found:
		rep.Verdict = Violated
		rep.Counterexample = sp.rebuild(seen, badFP, badProp, why)
	case live != nil:
		rep.Verdict = Violated
		rep.Counterexample = live
		rep.ViolationCounts = append(rep.ViolationCounts, PropertyCount{rep.Counterexample.Property, 1})
	case rep.Bound != "":
		rep.Verdict = Inconclusive
	default:
		rep.Verdict = Pass
	}
	return rep, cyclic
}

// mayClose reports whether the step a from cur to next, of number v
// (added when new), may close a cycle: with a variant, when it does not
// lower the measure from rank; without one, when next is no deeper than
// cur, which BFS has numbered below levelEnd. It must follow the Apply of
// a at once (see model.System.RankAfter).
func mayClose[S, M any](sys *model.System[S, M], cur *model.World[S, M], a model.Action, next *model.World[S, M],
	rank uint64, added bool, v, levelEnd uint32) bool {
	if sys.Ranked() {
		return sys.RankAfter(cur, a, next, rank) >= rank
	}
	return !added && v < levelEnd
}

// poll checks the time, memory and stop bounds and reports progress. It
// returns the name of the bound reached, or "".
func (sp *Spec[S, M]) poll(opts *Options, rep *Report, seen *fpSet, fr frontier, g *graph, start time.Time, last *time.Time, every time.Duration) string {
	now := time.Now()
	if opts.Progress != nil && now.Sub(*last) >= every {
		*last = now
		opts.Progress(Progress{States: seen.n, Transitions: rep.Transitions, Depth: rep.Depth,
			Frontier: fr.size(), Elapsed: now.Sub(start)})
	}
	if opts.Timeout > 0 && now.Sub(start) >= opts.Timeout {
		return fmt.Sprintf("timeout %s", opts.Timeout)
	}
	held := seen.bytes() + fr.bytes()
	if g != nil {
		held += g.bytes()
	}
	if opts.MaxMemory > 0 && held >= opts.MaxMemory {
		return fmt.Sprintf("max-memory %d MB", opts.MaxMemory>>20)
	}
	if opts.Stop != nil {
		select {
		case <-opts.Stop:
			return "interrupted"
		default:
		}
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
