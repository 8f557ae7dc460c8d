package protocols

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// Sleep sets leave out transitions, never a state: with them, on one
// worker and on four, a BFS reports what it reports without them (the
// verdict, bound, counts of states and violations, levels, depth and the
// same counterexample) but for the transitions, of which those taken and
// those slept add up to all; on every family, on FIFO and unordered
// networks, with faults, guarded timers and histories, under bounds that
// stop it inside a level and with -exhaust. Where the configuration
// allows them, they leave out some transitions.
func TestSleepSetsKeepTheSearch(t *testing.T) {
	t.Parallel()
	const u = model.Unordered
	configs := []struct {
		name    string
		params  map[string]string
		faults  string
		network model.Network
		slept   bool // whether sleep sets must leave out some transitions
	}{
		{"ricartagrawala", p("n", "3"), "", 0, true},
		{"ricartagrawala", p("n", "3"), "dup=1", 0, true},
		{"ricartagrawala", p("n", "3"), "", u, true},
		{"centralized", p("n", "3"), "", 0, true},
		{"lamport", p("n", "2"), "", 0, true},
		{"maekawa", p("n", "3"), "", 0, true},
		{"maekawa", p("n", "3", "sets", "0,1;1,2;0,2"), "drop=1", u, true},
		{"maekawa-df", p("n", "3", "sets", "0,1;1,2;0,2"), "", 0, true},
		{"tokenring", p("n", "3"), "drop=1", 0, true},
		{"voting", p("n", "2", "coordinators", "2"), "", 0, true},
		{"bully", p("n", "3"), "crash=1,restart=1", 0, true},
		{"bully", p("n", "4"), "crash=2", 0, true},
		{"ringelection", p("n", "4"), "", 0, true},
		{"ringelection", p("n", "4"), "", u, true},
		{"ringelection", p("n", "3", "variant", "enhanced"), "crash=1", 0, true},
		{"viewsync", p("n", "3"), "crash=1", 0, true},
		{"nack-mcast", p("senders", "1"), "drop=1", 0, true},
		{"coordination", p("ops", "1", "reads", "local"), "", 0, false},
		{"fifo-mcast", p("senders", "2"), "", u, true},
		{"causal-mcast", p("senders", "2"), "", 0, true},
		{"reliable-mcast", p("senders", "1"), "drop=1", u, true},
		{"sequencer", p("senders", "all", "msgs", "1"), "crash=1@p0", 0, true},
		{"isis", p("senders", "all", "msgs", "1"), "", 0, true},
	}
	bounds := []checker.Options{
		{SkipLiveness: true},
		{Exhaust: true, SkipLiveness: true},
		{MaxStates: 700, SkipLiveness: true},
		{MaxStates: 700, Exhaust: true, SkipLiveness: true},
		{MaxDepth: 6, SkipLiveness: true},
		{}, // liveness checked: no sleep sets
	}
	for _, c := range configs {
		target, v := buildTargetOn(t, c.name, c.params, c.faults, c.network)
		for bi, b := range bounds {
			what := fmt.Sprintf("%s %s %s faults=%s %+v", c.name, v, c.network, c.faults, b)
			b.Workers = 1
			all := target.Check(b)
			require.Zero(t, all.Slept, what)
			for _, workers := range []int{1, 4} {
				s := b
				s.Sleep, s.Workers = true, workers
				rep := target.Check(s)
				require.Equal(t, all.Transitions, rep.Transitions+rep.Slept, "%s workers=%d", what, workers)
				if c.slept && bi == 0 {
					require.NotZero(t, rep.Slept, what)
				}
				if !b.SkipLiveness {
					require.Zero(t, rep.Slept, what)
				}
				require.Equal(t, sameSearch(*all), sameSearch(*rep), "%s workers=%d", what, workers)
			}
		}
	}
}

// sameSearch is searchOf without the transitions' counts, which sleep
// sets change: the transitions taken, those slept, and their coverage.
func sameSearch(r checker.Report) checker.Report {
	r = searchOf(r)
	r.Transitions, r.Slept, r.Coverage = 0, 0, nil
	return r
}
