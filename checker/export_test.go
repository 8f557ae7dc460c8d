package checker

// WithCheckpointKill sets the test hook that stops a search as if it were
// killed once kill returns true for the number of checkpoints written.
func WithCheckpointKill(o *Options, kill func(k int) bool) { o.checkpointKill = kill }
