package checker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
)

// A BFS that looks its successors up in batches (lookups) finds what one
// that looks each up as it makes it finds, for batches of any size: the
// same states, transitions, levels and counterexample (its path from the
// parent log): on Maekawa N=3's deadlock, bully's election-safety
// violation with Exhaust (the set keeps parents until the first
// violation), centralized under a max-depth (states not expanded) and
// centralized's pass.
func TestBatchedLookupsFindWhatSingleLookupsFind(t *testing.T) {
	defer func(b int) { lookupBatch = b }(lookupBatch)
	mk, err := maekawa.New(3, 1, maekawa.AllSets(3))
	require.NoError(t, err)
	crash, err := model.ParseFaults("crash=1@p2,restart=1")
	require.NoError(t, err)
	bu := bully.New(3)
	ce := centralized.New(4, 1)
	for _, sizes := range []int{1, 2, 7, 2048} {
		lookupBatch = sizes
		sameAsSingle(t, "maekawa", SpecOf(model.MustNewSystem[maekawa.State, maekawa.Msg](mk, model.Config{}), maekawa.Properties(mk, model.Config{})), Options{}, Violated)
		cfg := model.Config{Faults: crash}
		sameAsSingle(t, "bully", SpecOf(model.MustNewSystem[bully.State, bully.Msg](bu, cfg), bully.Properties(bu, false)), Options{Exhaust: true}, Violated)
		ceSpec := SpecOf(model.MustNewSystem[centralized.State, centralized.Msg](ce, model.Config{}), centralized.Properties(ce, model.Config{}))
		sameAsSingle(t, "centralized max-depth", ceSpec, Options{MaxDepth: 9}, Inconclusive)
		sameAsSingle(t, "centralized", ceSpec, Options{}, Pass)
	}
}

// sameAsSingle checks sp with opts in batches and one lookup at a time,
// and requires the verdict want of both and the same report.
func sameAsSingle[S, M any](t *testing.T, name string, sp *Spec[S, M], opts Options, want Verdict) {
	t.Helper()
	opts.SkipLiveness, opts.Workers, opts.recordLevels = true, 1, true
	var logged []bool
	opts.loggedPath = func(ok bool) { logged = append(logged, ok) }
	batched := sp.Check(opts)
	opts.singleLookups = true
	single := sp.Check(opts)
	require.Equal(t, want, batched.Verdict, "%s, batches of %d: %s %s", name, lookupBatch, batched.Bound, batched.Error)
	if want == Violated && !opts.Exhaust {
		require.Equal(t, []bool{true, true}, logged, "%s: both paths came from the parent log", name)
	}
	for _, r := range []*Report{batched, single} {
		r.Elapsed, r.StatesPerSecond, r.StepsPerSecond, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
	}
	require.Equal(t, single, batched, "%s, batches of %d", name, lookupBatch)
}
