package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/coordcheck/coordcheck/checker"
)

// checkpointFlags are check's -checkpoint, -checkpoint-every and -resume
// (validate.go refuses them outside BFS).
type checkpointFlags struct {
	path, resume string
	every        time.Duration
}

// apply sets opts to write and resume checkpoints as the flags ask, for
// the check identity describes; it returns a one-line error for a flag
// that cannot take effect, a checkpoint file that cannot be written, and
// a resumed file that is damaged or was written for another check.
func (c *checkpointFlags) apply(opts *checker.Options, target checker.Target, identity string, stderr io.Writer) error {
	if c.path == "" && c.resume == "" {
		return nil
	}
	if c.every <= 0 {
		return fmt.Errorf("-checkpoint-every %s: want a positive duration", c.every)
	}
	opts.Checkpoint, opts.CheckpointEvery, opts.Identity = c.path, c.every, identity
	if err := target.CheckpointError(*opts); err != nil {
		return err
	}
	if c.path != "" {
		// Found now, not at the first checkpoint a minute in.
		if err := checkWritable("checkpoint", c.path); err != nil {
			return err
		}
	}
	if c.resume != "" {
		ck, err := checker.LoadCheckpoint(c.resume)
		if err != nil {
			return err
		}
		opts.Resume = ck
		if err := target.CheckpointError(*opts); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "resuming from %s: %s\n", c.resume, ck)
	}
	return nil
}
