package counterexamples

import (
	"errors"
	"fmt"
	"slices"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
)

// Result is the outcome of replaying a file.
type Result struct {
	// Trace is the replayed path; its Property is the property violated at
	// the end, "" when none.
	Trace *checker.Trace
	// Reproduced: the final world violates the property the file records.
	Reproduced bool
	// FinalMatches: the final world prints as the file records it.
	FinalMatches bool
}

// LineError says that an action of the file no longer applies.
type LineError struct {
	Line    int    // line number in the file (or action index when unknown)
	Action  string // the action line
	Enabled []string
	// Reason, when set, says why the action cannot apply to the recorded
	// configuration at all (a node it does not have).
	Reason string
}

// Error names the line that no longer applies.
func (e *LineError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("line %d: %s: %s", e.Line, clip.Quote(e.Action), e.Reason)
	}
	return fmt.Sprintf("line %d: %s no longer applies; enabled there: %v", e.Line, clip.Quote(e.Action), e.Enabled)
}

// Target builds the system a file records, through the registry
// (protocols.Setting.Build, as the command line's check does).
func Target(f *File) (checker.Target, error) {
	t, _, _, err := f.Build()
	return t, err
}

// Replay rebuilds the system of f and applies its actions by value. An
// action that is no longer enabled gives a *LineError; a protocol or
// parameter the registry refuses gives its error.
func Replay(f *File) (*Result, error) {
	t, err := Target(f)
	if err != nil {
		return nil, err
	}
	loop := -1
	if f.Loop != nil {
		loop = *f.Loop
	}
	rp, err := t.ReplayLoop(f.Actions, loop)
	var se *checker.StepError
	if errors.As(err, &se) {
		line := se.Step
		if se.Step-1 < len(f.ActionLines) {
			line = f.ActionLines[se.Step-1]
		}
		return nil, &LineError{Line: line, Action: se.Line, Enabled: se.Enabled, Reason: se.Reason}
	}
	if err != nil {
		return nil, err
	}
	return &Result{
		Trace:        rp.Trace,
		Reproduced:   rp.Trace.Property == f.Property,
		FinalMatches: slices.Equal(rp.Trace.Final, f.Final),
	}, nil
}
