// Package long gates the test suite's long explorations: pinned state
// counts of configurations with millions of states, which take seconds to
// minutes each. They run only when COORDCHECK_LONG is set (and -short is
// not), so that `go test ./...` stays fast:
//
//	COORDCHECK_LONG=1 go test ./...
package long

import (
	"os"
	"testing"
)

// Enabled reports whether long explorations run.
func Enabled() bool { return os.Getenv("COORDCHECK_LONG") != "" && !testing.Short() }

// Skip skips t unless long explorations run.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("long exploration: set COORDCHECK_LONG=1 to run it")
	}
}
