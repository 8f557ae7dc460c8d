package checker

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
)

// A BFS in ordered batches (exploreOrdered) finds what the one-worker
// search that looks each successor up as it makes it (explore) finds, and
// what the level engine finds, on any number of workers and for batches of
// any size: the same states, transitions, levels, coverage, premises,
// violation counts and counterexample (its path from the parent log). On
// Maekawa N=3's deadlock (the search stops inside a batch, and the
// batches taken after it are not counted), bully's election-safety
// violation with Exhaust (the set keeps parents until the first violation;
// bully's invariants have premises), centralized under a max-depth (states
// not expanded), with symmetry and sleep sets, and its pass.
func TestOrderedFindsWhatOneWorkerFinds(t *testing.T) {
	defer func(n int) { oClaim = n }(oClaim)
	mk, err := maekawa.New(3, 1, maekawa.AllSets(3))
	require.NoError(t, err)
	crash, err := model.ParseFaults("crash=1@p2,restart=1")
	require.NoError(t, err)
	bu := bully.New(3)
	ce := centralized.New(4, 1)
	mkSpec := SpecOf(model.MustNewSystem[maekawa.State, maekawa.Msg](mk, model.Config{}), maekawa.Properties(mk, model.Config{}))
	cfg := model.Config{Faults: crash}
	buSpec := SpecOf(model.MustNewSystem[bully.State, bully.Msg](bu, cfg), bully.Properties(bu, false))
	ceSpec := SpecOf(model.MustNewSystem[centralized.State, centralized.Msg](ce, model.Config{}), centralized.Properties(ce, model.Config{}))
	sizes, workerCounts := []int{1, 2, 7, 256}, []int{1, 2, 3}
	if testing.Short() { // (the -race pass)
		sizes, workerCounts = []int{2, 256}, []int{1, 3}
	}
	for _, size := range sizes {
		oClaim = size
		for _, workers := range workerCounts {
			name := fmt.Sprintf("batches of %d, %d workers", size, workers)
			sameAsOneWorker(t, "maekawa, "+name, mkSpec, Options{Workers: workers}, Violated)
			sameAsOneWorker(t, "bully, "+name, buSpec, Options{Workers: workers, Exhaust: true}, Violated)
			sameAsOneWorker(t, "centralized max-depth, "+name, ceSpec, Options{Workers: workers, MaxDepth: 9}, Inconclusive)
			sameAsOneWorker(t, "centralized symmetry, "+name, ceSpec, Options{Workers: workers, Symmetry: true}, Pass)
			sameAsOneWorker(t, "centralized sleep sets, "+name, ceSpec, Options{Workers: workers, Sleep: true}, Pass)
			sameAsOneWorker(t, "centralized, "+name, ceSpec, Options{Workers: workers}, Pass)
		}
	}
}

// sameAsOneWorker checks sp with opts in ordered batches, one lookup at
// a time on one worker, and level by level on two, and requires the
// verdict want of each and the same report.
func sameAsOneWorker[S, M any](t *testing.T, name string, sp *Spec[S, M], opts Options, want Verdict) {
	t.Helper()
	opts.SkipLiveness, opts.recordLevels = true, true
	var logged []bool
	opts.loggedPath = func(ok bool) { logged = append(logged, ok) }
	ordered := sp.Check(opts)
	one := opts
	one.singleLookups, one.Workers = true, 1
	single := sp.Check(one)
	levels := opts
	levels.levels, levels.Workers = true, 2
	leveled := sp.Check(levels)
	require.Equal(t, want, ordered.Verdict, "%s: %s %s", name, ordered.Bound, ordered.Error)
	if want == Violated && !opts.Exhaust {
		require.Equal(t, []bool{true, true, true}, logged, "%s: every path came from the parent log", name)
	}
	for _, r := range []*Report{ordered, single, leveled} {
		r.Elapsed, r.StatesPerSecond, r.StepsPerSecond, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
	}
	require.Equal(t, single, ordered, "%s: ordered batches against one lookup at a time", name)
	leveled.TableBytes = single.TableBytes // (the level engine grows its set ahead of a level)
	require.Equal(t, single, leveled, "%s: level by level against one lookup at a time", name)
}
