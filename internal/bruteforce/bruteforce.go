// Package bruteforce counts a state space the plainest way, for tests that
// check the checker's counts against an enumeration of their own, which
// shares no code with the checker: breadth first, level by level, worlds
// told apart by a text key.
package bruteforce

// Count explores every world reachable from init through succ and returns
// the number of distinct worlds (by key), of transitions (every successor
// of every world, new or not), and the depth: the number of levels after
// init's that hold a world not seen before.
func Count[W any](init W, key func(W) string, succ func(W) []W) (states, edges uint64, depth int) {
	seen := map[string]bool{key(init): true}
	level := []W{init}
	for len(level) > 0 {
		var next []W
		for _, w := range level {
			for _, x := range succ(w) {
				edges++
				if k := key(x); !seen[k] {
					seen[k] = true
					next = append(next, x)
				}
			}
		}
		if len(next) > 0 {
			depth++
		}
		level = next
	}
	return uint64(len(seen)), edges, depth
}
