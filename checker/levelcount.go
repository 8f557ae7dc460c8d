package checker

// LevelCount is how many states a BFS first found at a depth: the
// states of that level.
type LevelCount struct {
	Depth  int    `json:"depth"`
	States uint64 `json:"states"`
}

// RecordLevels has a BFS under opts count its states level by level
// (Report.Levels): the states first found at each depth. It is the same
// count on any number of workers. DFS, random and swarm searches have no
// levels and record none; a search resumed from a checkpoint counts none
// either (the levels before the checkpoint are not in it). finish is
// kept for its callers: the engine fills rep.Levels itself.
func RecordLevels(opts *Options) (finish func(rep *Report)) {
	opts.recordLevels = opts.Strategy == BFS
	return func(*Report) {}
}

// countLevel counts a state first found at depth d, when levels are
// recorded.
func (r *run[S, M]) countLevel(d int, n uint64) {
	if !r.opts.recordLevels || r.resumed != nil {
		return
	}
	for len(r.levels) <= d {
		r.levels = append(r.levels, 0)
	}
	r.levels[d] += n
}

// levelCounts is what countLevel counted, as Report.Levels.
func (r *run[S, M]) levelCounts() []LevelCount {
	var ls []LevelCount
	for d, n := range r.levels {
		if n > 0 {
			ls = append(ls, LevelCount{Depth: d, States: n})
		}
	}
	return ls
}
