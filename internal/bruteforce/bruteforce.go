// Package bruteforce counts a state space the plainest way, for tests that
// check the checker's counts against an enumeration of their own, which
// shares no code with the checker: breadth first, level by level, worlds
// told apart by a text key.
package bruteforce

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Counts are the figures of an explored state space.
type Counts struct {
	States, Edges uint64
	Depth         int
}

// Count explores every world reachable from init through succ and returns
// the number of distinct worlds (by key), of transitions (every successor
// of every world, new or not), and the depth: the number of levels after
// init's that hold a world not seen before.
func Count[W any](init W, key func(W) string, succ func(W) []W) Counts {
	seen := map[string]bool{key(init): true}
	level := []W{init}
	var c Counts
	for len(level) > 0 {
		var next []W
		for _, w := range level {
			for _, x := range succ(w) {
				c.Edges++
				if k := key(x); !seen[k] {
					seen[k] = true
					next = append(next, x)
				}
			}
		}
		if len(next) > 0 {
			c.Depth++
		}
		level = next
	}
	c.States = uint64(len(seen))
	return c
}

// Require requires the checker's figures (a report's States, Transitions
// and Depth) to equal the enumeration's; msgAndArgs name the
// configuration, as testify's do.
func (c Counts) Require(t *testing.T, states, edges uint64, depth int, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, c, Counts{States: states, Edges: edges, Depth: depth}, msgAndArgs...)
}
