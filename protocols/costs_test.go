package protocols

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The measured costs of every mutual-exclusion protocol match the notes'
// formulas for N from 3 to 7, except where the tables name the difference
// (and the row says why): differs for every N, differsEvenN also when N is
// even.
func TestMutexCostsMatchTheNotes(t *testing.T) {
	differs := map[string][]string{
		"ricartagrawala": {"messages per exit, no contention"},
		"tokenring":      {"messages per entry", "client delay (latencies)"},
	}
	differsEvenN := map[string][]string{
		"voting": {"messages from exit to next entry, one waiting", "synchronization delay (latencies)"},
	}
	for _, e := range All() {
		if e.Family != "mutex" || e.Costs == nil {
			continue
		}
		for n := 3; n <= 7; n++ {
			rows, err := e.Costs(n)
			require.NoError(t, err, "%s n=%d", e.Name, n)
			var got []string
			for _, r := range rows {
				if !r.Matches {
					got = append(got, r.Metric)
					require.NotEmpty(t, r.Note, "%s n=%d %s: a difference must say why", e.Name, n, r.Metric)
				}
			}
			want := differs[e.Name]
			if n%2 == 0 {
				want = append(slices.Clone(want), differsEvenN[e.Name]...)
			}
			require.Equal(t, want, got, "%s n=%d: %+v", e.Name, n, rows)
		}
	}
}
