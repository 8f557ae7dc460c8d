// Package rapidcheck checks a protocol from `go test` with rapid
// (pgregory.net/rapid): rapid draws the schedule — which enabled action,
// input, delivery or fault comes next — the spec's properties are checked
// after every step, and a failure is shrunk by rapid and printed as a
// coordcheck counterexample, with the actions by value.
//
// A user's test is a few lines:
//
//	func TestMyProtocol(t *testing.T) {
//		p := myproto.New(3)
//		sp := &checker.Spec[myproto.State, myproto.Msg]{
//			System:     model.MustNewSystem[myproto.State, myproto.Msg](p, model.Config{}),
//			Invariants: []checker.Invariant[myproto.State, myproto.Msg]{invariants.MutualExclusion[myproto.State, myproto.Msg](p)},
//			Deadlock:   true,
//		}
//		rapidcheck.Check(t, sp, rapidcheck.Options{})
//	}
//
// A failure prints the shrunk counterexample and the -rapid.seed (and fail
// file) that replay it.
package rapidcheck

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// DefaultMaxSteps bounds a drawn schedule when Options.MaxSteps is zero.
const DefaultMaxSteps = 60

// Options tune the drawn schedules.
type Options struct {
	// MaxSteps bounds the length of a schedule.
	MaxSteps int
}

// Check fails t if rapid finds a schedule of sp that violates one of its
// properties; see Property.
func Check[S, M any](t rapid.TB, sp *checker.Spec[S, M], opts Options) {
	t.Helper()
	rapid.Check(t, Property(sp, opts))
}

// Property is the rapid property of sp: from the initial world, draw a
// number of steps, then at every step check the properties and draw one of
// the enabled actions by value. A violation fails with the counterexample.
func Property[S, M any](sp *checker.Spec[S, M], opts Options) func(*rapid.T) {
	maxSteps := opts.MaxSteps
	if maxSteps == 0 {
		maxSteps = DefaultMaxSteps
	}
	return func(rt *rapid.T) {
		sys := sp.System.Clone()
		cur, next := sys.Init(), &model.World[S, M]{}
		steps := rapid.IntRange(1, maxSteps).Draw(rt, "steps")
		var lines []string
		var acts []model.Action
		for i := 0; ; i++ {
			acts = sys.Actions(cur, acts[:0])
			if prop, _ := sp.Violation(cur, acts); prop != "" {
				rp, err := sp.Replay(lines)
				if err != nil {
					rt.Fatalf("coordcheck: the drawn schedule does not replay: %v", err)
				}
				rt.Fatalf("\n%s", rp.Trace)
			}
			if i == steps || len(acts) == 0 {
				return
			}
			names := make([]string, len(acts))
			for j, a := range acts {
				names[j] = sys.FormatAction(cur, a)
			}
			// Drawn by value, so rapid's log shows the action itself.
			name := rapid.SampledFrom(names).Draw(rt, fmt.Sprintf("step %d", i+1))
			j := slices.Index(names, name)
			lines = append(lines, name)
			sys.Apply(cur, acts[j], next)
			cur, next = next, cur
		}
	}
}
