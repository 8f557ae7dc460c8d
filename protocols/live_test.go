package protocols

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
)

// Every mutual-exclusion protocol of the registry runs for real, over TCP,
// its default parameters and its own code, and the observer finds its
// critical sections never overlap. Maekawa's original algorithm may
// deadlock (seeds 000, 001): the observer then sees the checker's
// deadlock, nothing in flight and everyone waiting, explained by the
// protocol's own circular-wait analysis.
func TestMutexProtocolsRunLive(t *testing.T) {
	for _, e := range All() {
		if e.Family != "mutex" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			require.NotNil(t, e.Live, "mutex protocol %s has no Live hook", e.Name)
			v, err := e.Values(nil)
			require.NoError(t, err)
			r, err := e.Live(v)
			require.NoError(t, err)
			rep, err := r.Run(live.RunConfig{Duration: 200 * time.Millisecond, Transport: live.TCP})
			require.NoError(t, err)
			require.Len(t, rep.Verdicts, 2)
			require.True(t, rep.Verdicts[0].Holds, rep.Verdicts[0].First)
			if e.Name == "maekawa" && !rep.Verdicts[1].Holds {
				require.Contains(t, rep.Verdicts[1].First, "circular wait")
				return
			}
			require.True(t, rep.Verdicts[1].Holds, rep.Verdicts[1].First)
			require.Positive(t, rep.TotalEntries())
		})
	}
}
