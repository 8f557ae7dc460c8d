package mymutex_test

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/examples/mymutex"
	"github.com/coordcheck/coordcheck/model"
)

func TestMutex(t *testing.T) {
	sp, err := checker.NewSpec(mymutex.Mutex{}, model.Config{}, mymutex.Properties())
	if err != nil {
		t.Fatal(err)
	}
	rapidcheck.Check(t, sp, rapidcheck.Options{}) // random schedules, shrunk on failure
	if rep := sp.Check(checker.Options{}); rep.Verdict != checker.Pass || rep.States != 12 {
		t.Fatalf("%s after %d states", rep.Verdict, rep.States)
	}
}
