package protocols

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
)

// Every protocol of the registry runs for real, over TCP, its default
// parameters and its own code, and the observer judges the run by the
// protocol's own properties: mutual exclusion on the observed intervals,
// the spec's invariants on snapshots of the run, and, once a run with a
// bounded workload (multicasts, client operations, elections) has
// settled, its end-of-run properties (election safety, linearizability
// through porcupine, the multicast orders) and its liveness. Each holds
// and each was judged. Maekawa's original algorithm may deadlock (seeds
// 000, 001): the observer then sees the checker's deadlock, explained by
// the protocol's own circular-wait analysis.
func TestEveryProtocolRunsLive(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			v, err := e.Values(nil)
			require.NoError(t, err)
			r, err := e.Runner(v)
			require.NoError(t, err)
			cfg := live.RunConfig{Duration: 300 * time.Millisecond, Transport: live.TCP, Seed: 1}
			if e.Name == "bully" {
				// Nothing happens in a bully run until the coordinator
				// fails: crash the highest process.
				cfg.Faults, err = live.ParseFaults("crash=1@p2")
				require.NoError(t, err)
			}
			rep, err := r.Run(cfg)
			require.NoError(t, err)
			for _, v := range rep.Verdicts {
				t.Logf("%s: holds %v, judged on %d %s %s", v.Property, v.Holds, v.Judged, v.Of, v.Skipped)
			}
			require.NotEmpty(t, rep.Verdicts)
			require.Positive(t, rep.Sent, "no message was sent")
			for _, v := range rep.Verdicts {
				if e.Name == "maekawa" && v.Property == "no-deadlock" && !v.Holds {
					require.Contains(t, v.First, "circular wait")
					return
				}
			}
			for _, v := range rep.Verdicts {
				require.True(t, v.Holds, "%s: %s", v.Property, v.First)
				require.True(t, v.Judged > 0 || v.Optional, "%s was never judged: %s", v.Property, v.Skipped)
			}
			switch {
			case e.Family == "mutex":
				require.Positive(t, rep.TotalEntries())
			case e.Name != "nack-mcast":
				// NACK-based multicast sends session messages for ever,
				// in the model too; every other workload is bounded.
				require.True(t, rep.Settled, "the run of a bounded workload did not end")
			}
		})
	}
}
