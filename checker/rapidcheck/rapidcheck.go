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
//		sp := checker.MustNewSpec(p, model.Config{}, myproto.Properties(p))
//		rapidcheck.Check(t, sp, rapidcheck.Options{})
//	}
//
// (examples/mymutex is a whole protocol of one's own and its test.)
//
// A failure prints the shrunk counterexample and the -rapid.seed (and fail
// file) that replay it.
package rapidcheck

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/checker"
)

// DefaultMaxSteps bounds a drawn schedule when Options.MaxSteps is zero.
const DefaultMaxSteps = 60

// Options tune the drawn schedules.
type Options struct {
	// MaxSteps bounds the length of a schedule.
	MaxSteps int
}

// Check fails t if rapid finds a schedule of sp that violates one of its
// properties; see Property. sp is a *checker.Spec or a registry target.
func Check(t rapid.TB, sp checker.Target, opts Options) {
	t.Helper()
	rapid.Check(t, Property(sp, opts))
}

// Property is the rapid property of sp: from the initial world, draw a
// number of steps, then at every step check the properties and draw one of
// the enabled actions by value. A violation fails the test.
//
// rapid shrinks the drawn schedule first; coordcheck's own shrinker
// (Spec.Shrink: it deletes actions, pairs and chunks and re-matches the
// deliveries, keeping the same violated property) then shortens rapid's
// result, and the counterexample is logged once, in the run rapid makes
// to show its final failure. The failure message itself is one line: rapid
// prints it beside that output.
func Property(sp checker.Target, opts Options) func(*rapid.T) {
	maxSteps := opts.MaxSteps
	if maxSteps == 0 {
		maxSteps = DefaultMaxSteps
	}
	var memo shrunkMemo
	return func(rt *rapid.T) {
		sim := sp.Simulate()
		steps := rapid.IntRange(1, maxSteps).Draw(rt, "steps")
		var lines []string
		for i := 0; ; i++ {
			if prop, _ := sim.Violation(); prop != "" {
				// Logged lazily: rapid formats the log only in the runs
				// that show output, so the many failing runs of its own
				// shrinking do not pay for coordcheck's.
				rt.Log(&lazyTrace{sp: sp, lines: lines, prop: prop, memo: &memo})
				rt.Fatalf("coordcheck: %s is violated after %d drawn steps (the shrunk counterexample is logged above)", prop, len(lines))
			}
			names := sim.Enabled()
			if i == steps || len(names) == 0 {
				return
			}
			// Drawn by value, so rapid's log shows the action itself.
			name := rapid.SampledFrom(names).Draw(rt, fmt.Sprintf("step %d", i+1))
			lines = append(lines, name)
			sim.Take(slices.Index(names, name))
		}
	}
}

// lazyTrace is the shrunk counterexample of a failing schedule, made when
// it is first printed.
type lazyTrace struct {
	sp    checker.Target
	lines []string
	prop  string
	memo  *shrunkMemo
}

// shrunkMemo keeps the last shrunk counterexample: rapid shows its final
// failure up to twice (the fail file and the test log).
type shrunkMemo struct {
	key, text string
}

func (l *lazyTrace) String() string {
	key := l.prop + "\x00" + strings.Join(l.lines, "\x00")
	if l.memo.key == key && l.memo.text != "" {
		return l.memo.text
	}
	rp, err := l.sp.Replay(l.sp.Shrink(l.lines, l.prop))
	text := ""
	if err != nil {
		text = fmt.Sprintf("coordcheck: the shrunk schedule does not replay: %v", err)
	} else {
		text = fmt.Sprintf("\n%s(rapid's schedule: %d steps; shrunk by coordcheck to %d)", rp.Trace, len(l.lines), len(rp.Trace.Steps))
	}
	l.memo.key, l.memo.text = key, text
	return text
}
