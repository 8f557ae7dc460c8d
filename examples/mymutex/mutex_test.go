package mymutex_test

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/examples/mymutex"
)

func TestMutex(t *testing.T) {
	rapidcheck.Check(t, mymutex.Spec(), rapidcheck.Options{}) // random schedules, shrunk on failure
	rep := mymutex.Spec().Check(checker.Options{})            // every schedule
	if rep.Verdict != checker.Pass || rep.States != 12 {
		t.Fatalf("%s after %d states", rep.Verdict, rep.States)
	}
}
