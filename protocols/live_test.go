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
//
// A few recipes' properties apply only at a moment a 300ms run seldom
// shows in its snapshots, taken every 20ms (a writer holding the
// read/write lock while a reader waits; the deletion that wakes the next
// candidate): for them a run that never showed the premise is no defect.
// The command line's run replays every step in the checker, which judges
// every world the run passed through.
var rarePremise = map[string]bool{
	"zkrwlock rw-exclusion":              true,
	"zkrwlock no-reader-passes-a-writer": true,
	"zkelection one-wakeup":              true,
	// A session expires only when a majority of the replicas is down.
	"chubbysession no-act-after-expiry": true,
}

func TestEveryProtocolRunsLive(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			v, err := e.Values(nil)
			require.NoError(t, err)
			r, err := e.Runner(v)
			require.NoError(t, err)
			cfg := live.RunConfig{Duration: 300 * time.Millisecond, Transport: live.TCP, Seed: 1}
			// Nothing happens in an election of the coordinator or the
			// master until the one in office fails: crash it (the
			// highest process for the bully algorithm and ZooKeeper's
			// election; the first master, p0, for Chubby's election and
			// its sessions' fail-over).
			if crash, ok := map[string]string{"bully": "crash=1@p2", "zkelect": "crash=1@p2", "chubbyelect": "crash=1@p0",
				"chubbysession": "crash=1@p0"}[e.Name]; ok {
				cfg.Faults, err = live.ParseFaults(crash)
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
				if v.Judged == 0 && rarePremise[e.Name+" "+v.Property] {
					t.Logf("%s: its premise did not show in this run's snapshots", v.Property)
					continue
				}
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

// The bully algorithm's known flaw, live: crash the highest process and
// restart it during the election its crash starts, and the run may end
// with a process following the interim coordinator (seeds 001, 003; the
// checker's restart-during-election counterexamples). Whether it shows
// depends on the race between the two COORD messages, so runs are made,
// each with its own seed, until one shows it, at most 40 (about one run
// in seven shows it for n=4 with messages delayed up to 5ms).
func TestBullyRestartDisagreesLive(t *testing.T) {
	t.Parallel()
	e := mustLookup(t, "bully")
	v, err := e.Values(map[string]string{"n": "4"})
	require.NoError(t, err)
	r, err := e.Runner(v)
	require.NoError(t, err)
	f, err := live.ParseFaults("crash=1@p3,restart=1,delay=5ms")
	require.NoError(t, err)
	for seed := uint64(1); seed <= 40; seed++ {
		rep, err := r.Run(live.RunConfig{Duration: 100 * time.Millisecond, Transport: live.Mem, Faults: f,
			RestartWithin: 20 * time.Millisecond, Seed: seed})
		require.NoError(t, err)
		require.Equal(t, int64(1), rep.Faults.Restarts)
		if v := rep.Violated(); v != nil {
			require.Equal(t, "election-safety", v.Property, v.First)
			require.Contains(t, v.First, "considers p2 its coordinator, not p3")
			t.Logf("seed %d: %s", seed, v.First)
			return
		}
	}
	t.Fatal("40 runs, no disagreement")
}
