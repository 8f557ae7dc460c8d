package checker

import (
	"slices"
	"time"
)

// LevelCount is how many states a BFS first found at a depth: the
// states of that level. When the search reported no progress during
// some levels (a level too small for the main worker to take part in,
// under several workers), their states are counted together: Depth is
// the last of them and From the first.
type LevelCount struct {
	From   int    `json:"from,omitempty"`
	Depth  int    `json:"depth"`
	States uint64 `json:"states"`
}

// RecordLevels has a BFS under opts record its states per level, from
// its progress reports: while the level-by-level search (several
// workers, exploreLevels) expands level d, the states it has seen are
// exactly those of levels 0 to d, since a level's new states join the
// visited set only once it is expanded. It asks for a report at every
// poll (opts.Progress still sees one a ProgressInterval, as before).
// After the check, finish sets rep.Levels.
//
// It records nothing where that does not hold: a search on one worker,
// or one that kept the state graph for liveness (both insert states as
// they go), and DFS and random searches. Exact counts there would need a
// hook at the end of each level in the engine.
func RecordLevels(opts *Options) (finish func(rep *Report)) {
	if opts.Strategy != BFS || opts.workers() < 2 {
		return func(*Report) {}
	}
	through := map[int]uint64{} // depth -> states seen while expanding it
	user, every := opts.Progress, opts.ProgressInterval
	if every == 0 {
		every = time.Second
	}
	var last time.Duration
	opts.ProgressInterval = time.Nanosecond
	opts.Progress = func(p Progress) {
		through[p.Depth] = max(through[p.Depth], p.States)
		if user != nil && p.Elapsed-last >= every {
			last = p.Elapsed
			user(p)
		}
	}
	return func(rep *Report) {
		if rep.Liveness == "graph" {
			return // its second search ran on one worker
		}
		// The last level's expansion found the states one deeper.
		if rep.States > through[rep.Depth] {
			through[rep.Depth+1] = rep.States
		}
		through[0] = 1 // the initial state, found before any poll
		depths := make([]int, 0, len(through))
		for d := range through {
			depths = append(depths, d)
		}
		slices.Sort(depths)
		prev, prevDepth := uint64(0), -1
		for _, d := range depths {
			c := LevelCount{Depth: d, States: through[d] - prev}
			if d > prevDepth+1 {
				c.From = prevDepth + 1
			}
			rep.Levels = append(rep.Levels, c)
			prev, prevDepth = through[d], d
		}
	}
}
