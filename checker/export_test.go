package checker

// WithCheckpointKill sets the test hook that stops a search as if it were
// killed once kill returns true for the number of checkpoints written.
func WithCheckpointKill(o *Options, kill func(k int) bool) { o.checkpointKill = kill }

// WithFlatFrom makes visited sets grow flat from tables of b bytes (small
// searches then do), until the returned function is called.
func WithFlatFrom(b uint64) (restore func()) {
	old := flatFrom
	flatFrom = b
	return func() { flatFrom = old }
}
