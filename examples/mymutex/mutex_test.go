package mymutex_test

import (
	"fmt"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/examples/mymutex"
	"github.com/coordcheck/coordcheck/model"
)

func spec() *checker.Spec[mymutex.State, mymutex.Msg] {
	sp, err := checker.NewSpec(mymutex.Mutex{}, model.Config{}, mymutex.Properties())
	if err != nil {
		panic(err)
	}
	return sp
}

// Every schedule, breadth first: go test compares what it prints with Output.
func Example() {
	rep := spec().Check(checker.Options{})
	fmt.Println(rep.Verdict, rep.States, "states")
	// Output: pass 12 states
}

// Random schedules drawn by rapid, shrunk on failure.
func TestRandomSchedules(t *testing.T) { rapidcheck.Check(t, spec(), rapidcheck.Options{}) }
