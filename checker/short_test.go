package checker_test

import "testing"

// workerCounts is the worker counts a test compares. Under -short, the
// flag of .ci/run's race pass, it leaves out one worker when the list
// holds others: a one-worker search runs on the test's goroutine alone,
// where the race detector has nothing to find, and such searches were
// half the time of that pass's longest tests. The plain `go test ./...`
// runs them all.
func workerCounts(counts ...int) []int {
	if !testing.Short() || len(counts) < 2 {
		return counts
	}
	kept := make([]int, 0, len(counts))
	for _, w := range counts {
		if w != 1 {
			kept = append(kept, w)
		}
	}
	return kept
}
