package checker

// WithCheckpointKill sets the test hook that stops a search as if it were
// killed once kill returns true for the number of checkpoints written.
func WithCheckpointKill(o *Options, kill func(k int) bool) { o.checkpointKill = kill }

// WithFlatFrom makes visited sets grow flat from tables of b bytes (small
// searches then do), until the returned function is called.
func WithFlatFrom(b uint64) (restore func()) {
	old, oldOne := flatFrom, flatFromOne
	flatFrom, flatFromOne = b, b
	return func() { flatFrom, flatFromOne = old, oldOne }
}

// WithLevelShare sets the test hook that is given the records and the
// new states of each level the level engine merges.
func WithLevelShare(o *Options, f func(recs, fresh uint64)) { o.levelShare = f }

// WithLevels makes a BFS on several workers run level by level, where it
// could run in ordered batches.
func WithLevels(o *Options) { o.levels = true }

// WithRecentAfter makes the one-worker search keep its recent cache from
// its n-th state, until the returned function is called.
func WithRecentAfter(n uint64) (restore func()) {
	old := recentAfter
	recentAfter = n
	return func() { recentAfter = old }
}
