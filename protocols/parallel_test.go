package protocols

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
)

// BFS on several workers is the search on one: the same verdict, bound,
// counts, depth and counterexample, for passing and failing
// configurations of every family, under bounds that stop it inside a
// level and with -exhaust.
func TestParallelBFSIsTheSameSearch(t *testing.T) {
	t.Parallel()
	configs := []struct {
		name   string
		params map[string]string
		faults string
	}{
		{"ricartagrawala", map[string]string{"n": "3"}, ""},
		{"ricartagrawala", map[string]string{"n": "3"}, "dup=1"},
		{"centralized", map[string]string{"n": "3"}, ""},
		{"lamport", map[string]string{"n": "2"}, ""},
		{"maekawa", map[string]string{"n": "3"}, ""},
		{"maekawa-df", map[string]string{"n": "3", "sets": "0,1;1,2;0,2"}, ""},
		{"maekawa-df", map[string]string{"n": "3", "fixes": "queue,displaced,held"}, ""},
		{"tokenring", map[string]string{"n": "3"}, "drop=1"},
		{"voting", map[string]string{"n": "2", "coordinators": "2"}, ""},
		{"bully", map[string]string{"n": "3"}, "crash=1,restart=1"},
		{"ringelection", map[string]string{"n": "4"}, ""},
		{"coordination", map[string]string{"ops": "1", "reads": "local"}, ""},
	}
	bounds := []checker.Options{
		{},
		{SkipLiveness: true},
		{Exhaust: true, SkipLiveness: true},
		{MaxStates: 700},
		{MaxStates: 700, Exhaust: true, SkipLiveness: true},
		{MaxDepth: 6},
	}
	for _, c := range configs {
		target, v := buildTarget(t, c.name, c.params, c.faults)
		for _, b := range bounds {
			what := fmt.Sprintf("%s %s faults=%s %+v", c.name, v, c.faults, b)
			one, many := b, b
			one.Workers, many.Workers = 1, 4
			a, z := target.Check(one), target.Check(many)
			require.Equal(t, searchOf(*a), searchOf(*z), what)
		}
	}
}

// searchOf is what a report says of the search itself: all of it but what
// depends on the machine and the workers (time, speed, memory).
func searchOf(r checker.Report) checker.Report {
	r.Elapsed, r.StatesPerSecond, r.StepsPerSecond = 0, 0, 0
	r.TableBytes, r.FrontierBytes, r.PeakBytes = 0, 0, 0
	return r
}
