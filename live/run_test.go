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
	require.Len(t, rep.Verdicts, 1)
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
