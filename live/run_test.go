package live_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// run runs p for d on transport t and returns the report, requiring that
// the run started.
func run(t *testing.T, r live.Runner, cfg live.RunConfig) *live.Report {
	t.Helper()
	rep, err := r.Run(cfg)
	require.NoError(t, err)
	require.Len(t, rep.Verdicts, 2)
	require.Equal(t, "mutual-exclusion", rep.Verdicts[0].Property)
	require.Equal(t, "no-deadlock", rep.Verdicts[1].Property)
	require.Positive(t, rep.Verdicts[1].Judged)
	return rep
}

// Ricart-Agrawala over TCP: every process enters again and again, the
// observed critical sections never overlap, and every entry costs exactly
// the notes' 2(N-1) messages: the messages sent are 2(N-1) per entry, plus
// at most those of the N requests still pending when the run ends.
func TestRicartAgrawalaOverTCP(t *testing.T) {
	const n = 4
	for _, tr := range []live.Transport{live.TCP, live.Mem} {
		t.Run(tr.String(), func(t *testing.T) {
			rep := run(t, live.NewRunner[ra.State, ra.Msg](ra.New(n, mutex.Endless)),
				live.RunConfig{Duration: 400 * time.Millisecond, Transport: tr})
			v := rep.Verdicts[0]
			require.True(t, v.Holds, v.First)
			require.Equal(t, "mutual-exclusion", v.Property)
			e := rep.TotalEntries()
			require.Equal(t, e, v.Judged)
			for i, k := range rep.Entries {
				require.Positive(t, k, "p%d never entered", i)
			}
			require.GreaterOrEqual(t, rep.Sent, int64(2*(n-1)*e))
			require.LessOrEqual(t, rep.Sent, int64(2*(n-1)*(e+n)))
			require.Len(t, rep.Latencies, e)
		})
	}
}

// The centralized algorithm over TCP: a request, a grant and a release per
// critical section (seed 000), the coordinator serving every client.
func TestCentralizedOverTCP(t *testing.T) {
	const n = 3
	rep := run(t, live.NewRunner[centralized.State, centralized.Msg](centralized.New(n, mutex.Endless)),
		live.RunConfig{Duration: 400 * time.Millisecond, Transport: live.TCP})
	v := rep.Verdicts[0]
	require.True(t, v.Holds, v.First)
	e := rep.TotalEntries()
	require.Equal(t, n+1, len(rep.Entries))
	require.Zero(t, rep.Entries[n], "the coordinator has no critical section")
	for i := range n {
		require.Positive(t, rep.Entries[i], "p%d never entered", i)
	}
	require.InDelta(t, 3*e, rep.Sent, float64(2*n))
}

// hasty is Ricart-Agrawala broken on purpose: a process enters one reply
// short of the N-1 it must wait for.
type hasty struct{ *ra.Protocol }

func (p hasty) Inputs(_ model.NodeID, s ra.State, dst []model.Input) []model.Input {
	return mutex.Inputs(s.Phase, int(s.Rounds), p.Rounds, int(s.Replies) >= p.N-2, dst)
}

// The observer catches the broken protocol on a real run: two observed
// critical sections overlap.
func TestObserverCatchesBrokenMutex(t *testing.T) {
	rep := run(t, live.NewRunner[ra.State, ra.Msg](hasty{ra.New(3, mutex.Endless)}),
		live.RunConfig{Duration: 500 * time.Millisecond, Transport: live.TCP, Hold: time.Millisecond})
	v := rep.Verdicts[0]
	require.False(t, v.Holds)
	require.Positive(t, v.Violations)
	require.Contains(t, v.First, "while")
}

// Duplicated messages break Ricart-Agrawala on a real run, as the checker
// finds with -faults dup=1: a duplicated reply counts twice, so a process
// enters one real reply short. Which frames are duplicated depends on the
// run's timing, so up to three runs are made; each seed of them caught it
// in trials, and the test fails only if none does.
func TestObserverCatchesDuplicatedReplies(t *testing.T) {
	f, err := live.ParseFaults("dup=inf")
	require.NoError(t, err)
	require.Equal(t, "dup=inf", f.String())
	var last *live.Report
	for seed := range uint64(3) {
		last = run(t, live.NewRunner[ra.State, ra.Msg](ra.New(5, mutex.Endless)),
			live.RunConfig{Duration: 700 * time.Millisecond, Transport: live.TCP, Faults: f, Seed: seed + 1, Hold: 200 * time.Microsecond})
		require.Positive(t, last.Faults.Duplicated)
		if !last.Verdicts[0].Holds {
			return
		}
	}
	t.Fatalf("no overlap observed in three runs with dup=inf; the last: %+v", last.Verdicts[0])
}

// Crashes and restarts strike as budgeted, and mutual exclusion still
// holds (a crash loses messages; it grants nothing).
func TestCrashRestart(t *testing.T) {
	f, err := live.ParseFaults("crash=2,restart=1")
	require.NoError(t, err)
	rep := run(t, live.NewRunner[centralized.State, centralized.Msg](centralized.New(3, mutex.Endless)),
		live.RunConfig{Duration: 600 * time.Millisecond, Transport: live.TCP, Faults: f, Hold: 100 * time.Microsecond})
	require.Equal(t, int64(2), rep.Faults.Crashes)
	require.Equal(t, int64(1), rep.Faults.Restarts)
	require.True(t, rep.Verdicts[0].Holds, rep.Verdicts[0].First)
	require.Positive(t, rep.TotalEntries())
}

// The -faults vocabulary of a live run: the checker's, with dup=inf and
// delay.
func TestParseFaults(t *testing.T) {
	f, err := live.ParseFaults("crash=1@p2,restart=1,partition=2,drop=inf,delay=5ms")
	require.NoError(t, err)
	require.Equal(t, live.Faults{Crash: 1, Restart: 1, CrashNodes: 1 << 2, Partition: 2, Drop: model.Unbounded, Delay: 5 * time.Millisecond}, f)
	require.Equal(t, "crash=1@p2,restart=1,partition=2,drop=inf,delay=5ms", f.String())
	for spec, msg := range map[string]string{
		"reorder=1": "unknown fault kind",
		"delay=0s":  "want a duration from 1ns to 1m",
		"restart=1": "a restart needs a crashed node",
		"dup=x":     "want a count",
	} {
		_, err := live.ParseFaults(spec)
		require.ErrorContains(t, err, msg, spec)
	}
}
