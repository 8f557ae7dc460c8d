package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
)

func caching(mode CacheMode, ops int) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		p := NewRegister(1, 2, ops, LeaderReads)
		p.Cache = mode
		return mustSpec(p, model.Config{})
	}
}

// Chubby's client caching over a standalone master: p1 writes, p2 reads,
// from its cache when it holds /x. With the master invalidating every copy
// before the write commits, every history is linearizable; invalidating
// after the commit, a cached read returns a value a completed write has
// overwritten (counterexamples/coordination/late-invalidation.cex).
func TestCachedReadsAreLinearizable(t *testing.T) {
	t.Parallel()
	for _, c := range []pinned{
		{name: "cache=on ops=2", spec: caching(Invalidating, 2), states: 605, edges: 685, depth: 16},
		{name: "cache=on ops=3", spec: caching(Invalidating, 3), states: 8684, edges: 9823, depth: 24},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
	late := pinned{name: "cache=late ops=2", spec: caching(LateInvalidation, 2),
		verdict: checker.Violated, property: linearizability.PropertyName, states: 948, edges: 1291, depth: 12}
	tr := late.run(t).Counterexample
	require.Len(t, tr.Steps, 12)
	require.Equal(t, "input p2 read /x", tr.Steps[9].Action, "the read from the cache")
	require.Equal(t, "deliver p0->p2 INVALIDATE()", tr.Steps[10].Action, "and the invalidation after it")
	_, err := ParseCacheMode("sometimes")
	require.ErrorContains(t, err, "want off, on or late")
}
