package property

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A set names its properties in checking order: invariants, no-deadlock,
// liveness; the verdicts keep their words and exit codes (DESIGN.md).
func TestSetNamesAndVerdicts(t *testing.T) {
	set := Set[int, int]{
		Invariants: []Invariant[int, int]{{Name: "a"}, {Name: "b"}},
		Deadlock:   true,
		Liveness:   []Liveness[int, int]{{Name: "c"}},
	}
	require.Equal(t, []string{"a", "b", DeadlockProperty, "c"}, set.Names())
	set.Deadlock = false
	require.Equal(t, []string{"a", "b", "c"}, set.Names())
	for v, want := range map[Verdict]struct {
		word string
		code int
	}{Pass: {"pass", 0}, Violated: {"violated", 1}, Inconclusive: {"inconclusive", 3}} {
		require.Equal(t, want.word, v.String())
		require.Equal(t, want.code, v.ExitCode())
		b, err := v.MarshalText()
		require.NoError(t, err)
		require.Equal(t, want.word, string(b))
	}
}
