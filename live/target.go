package live

import (
	"github.com/coordcheck/coordcheck/checker"
)

// Runnable is a checker.Target that also runs live, judged by its own
// properties (NewSpecRunner).
type Runnable interface {
	checker.Target
	// Runner is the target's system ready to run live.
	Runner() Runner
}

// target is a spec with its live runner.
type target[S, M any] struct{ *checker.Spec[S, M] }

func (t target[S, M]) Runner() Runner { return NewSpecRunner(t.Spec) }

// Target returns sp as a checker.Target that also runs live.
func Target[S, M any](sp *checker.Spec[S, M]) Runnable { return target[S, M]{sp} }
