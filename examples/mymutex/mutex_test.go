package mymutex_test

import (
	"fmt"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/examples/mymutex"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// What to check: mutual exclusion, no deadlock and no starvation (false:
// not the happened-before order of requests, which needs Config.Ordering).
var spec = checker.MustNewSpec(mymutex.Mutex{}, model.Config{},
	invariants.MutexProperties[mymutex.State, mymutex.Msg](mymutex.Mutex{}, false))

// Every schedule, breadth first: go test compares what it prints with Output.
func Example() {
	rep := spec.Check(checker.Options{})
	fmt.Println(rep.Verdict, rep.States, "states")
	// Output: pass 12 states
}

// Random schedules drawn by rapid, shrunk on failure.
func TestRandomSchedules(t *testing.T) { rapidcheck.Check(t, spec, rapidcheck.Options{}) }
