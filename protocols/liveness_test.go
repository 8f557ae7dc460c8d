package protocols

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// Liveness is checked without the state graph while the graph shows no
// cycle: by the protocol's variant (BFS and DFS), or by BFS levels. On
// every family's configurations, passing and failing, that gives the
// verdict, the counts and the counterexample of the check on the kept
// graph, in both search orders, and says which way it went.
func TestLivenessWithAndWithoutTheGraph(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		params   map[string]string
		faults   string
		skip     []string
		verdict  checker.Verdict
		liveness string // "acyclic" or "graph"
	}{
		{"ricartagrawala", map[string]string{"n": "3"}, "", nil, checker.Pass, "acyclic"},
		{"lamport", map[string]string{"n": "2"}, "", nil, checker.Pass, "acyclic"},
		{"centralized", map[string]string{"n": "3"}, "", nil, checker.Pass, "acyclic"},
		{"maekawa-df", map[string]string{"n": "3", "sets": "0,1;1,2;0,2"}, "", nil, checker.Pass, "acyclic"},
		{"maekawa-df", map[string]string{"n": "4", "sets": "grid", "requesters": "0,3"}, "", nil, checker.Pass, "acyclic"},
		{"tokenring", map[string]string{"n": "3"}, "", nil, checker.Pass, "graph"},
		{"voting", map[string]string{"n": "2", "coordinators": "2", "option": "backoff"}, "", nil, checker.Violated, "graph"},
		{"bully", map[string]string{"n": "3"}, "crash=1", nil, checker.Pass, "graph"},
		{"ringelection", map[string]string{"n": "4"}, "", nil, checker.Pass, "graph"},
		// Maekawa's deadlock, seen as starvation in a terminal state.
		{"maekawa", map[string]string{"n": "3"}, "", []string{"no-deadlock"}, checker.Violated, "acyclic"},
		{"maekawa-df", map[string]string{"n": "3", "fixes": "queue,displaced,held"}, "", []string{"no-deadlock"}, checker.Violated, "acyclic"},
	} {
		target, v := buildTarget(t, c.name, c.params, c.faults)
		if c.skip != nil {
			var err error
			target, err = target.Without(c.skip)
			require.NoError(t, err)
		}
		for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
			r := target.Check(checker.Options{Strategy: strategy})
			g := target.Check(checker.Options{Strategy: strategy, KeepGraph: true})
			what := fmt.Sprintf("%s %s %s", c.name, v, strategy)
			require.Equal(t, c.verdict, r.Verdict, "%s: %v", what, r.Counterexample)
			want := c.liveness
			if strategy == checker.DFS && c.name != "maekawa-df" { // the one with a variant
				want = "graph" // no level argument in DFS
			}
			if r.Verdict == checker.Violated && r.Counterexample.Property != "starvation-freedom" {
				want = "" // a safety violation ends the search before
			}
			require.Equal(t, want, r.Liveness, what)
			require.Equal(t, g.Verdict, r.Verdict, what)
			require.Equal(t, g.States, r.States, what)
			require.Equal(t, g.Transitions, r.Transitions, what)
			require.Equal(t, g.Counterexample, r.Counterexample, what)
		}
	}
}

// requireProperties builds each entry of want with its defaults and
// requires the properties it checks, in order.
func requireProperties(t *testing.T, want map[string][]string) {
	t.Helper()
	for name, props := range want {
		target, _ := buildTarget(t, name, nil, "")
		require.Equal(t, props, target.PropertyNames(), name)
	}
}

// buildTarget is the registry's target for protocol name with the given
// parameters and fault budget.
func buildTarget(t *testing.T, name string, params map[string]string, faults string) (checker.Target, Values) {
	t.Helper()
	return buildTargetOn(t, name, params, faults, model.Config{}.Network)
}

// mustLookup is the registry's entry name, which must be there.
func mustLookup(t *testing.T, name string) Entry {
	t.Helper()
	e, ok := Lookup(name)
	require.True(t, ok, name)
	return e
}

// buildTargetOn is buildTarget on the given network.
func buildTargetOn(t *testing.T, name string, params map[string]string, faults string, network model.Network) (checker.Target, Values) {
	t.Helper()
	e := mustLookup(t, name)
	f, err := model.ParseFaults(faults)
	require.NoError(t, err)
	target, v, err := e.BuildWith(params, model.Config{Network: network, Faults: f})
	require.NoError(t, err, "%s %v", name, params)
	return target, v
}
