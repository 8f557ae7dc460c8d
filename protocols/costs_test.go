package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/coordination"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
)

// Every entry with a cost table points at its own table of package costs
// (whose tests hold the figures against the notes), in its family: the
// registry measures nothing itself.
func TestCostEntries(t *testing.T) {
	want := map[string]struct {
		family string
		table  func(n int) ([]costs.Row, error)
	}{
		"centralized":    {"mutex", costs.CentralizedTable},
		"lamport":        {"mutex", costs.LamportTable},
		"maekawa":        {"mutex", costs.MaekawaTable},
		"maekawa-df":     {"mutex", costs.MaekawaDFTable},
		"ricartagrawala": {"mutex", costs.RicartAgrawalaTable},
		"tokenring":      {"mutex", costs.TokenRingTable},
		"voting":         {"mutex", costs.VotingTable},
		"bully":          {"election", costs.BullyTable},
		"ringelection":   {"election", costs.RingElectionTable},
		"besteffort":     {"multicast", costs.BestEffortTable},
		"causal-mcast":   {"multicast", costs.CausalTable},
		"causal-total":   {"multicast", costs.ISISTable(isis.CausalTotal)},
		"fifo-mcast":     {"multicast", costs.FIFOTable},
		"fifo-total":     {"multicast", costs.ISISTable(isis.FIFOTotal)},
		"isis":           {"multicast", costs.ISISTable(isis.Total)},
		"nack-mcast":     {"multicast", costs.NackTable},
		"reliable-mcast": {"multicast", costs.ReliableTable},
		"sequencer":      {"multicast", costs.SequencerTable},
		"viewsync":       {"multicast", costs.ViewsyncTable},
		"zkherd":         {"coordination", costs.HerdTable(coordination.SimpleLockClients)},
		"zklock":         {"coordination", costs.HerdTable(coordination.LockClients)},
	}
	seen := 0
	for _, e := range All() {
		if e.Costs == nil {
			continue
		}
		w, ok := want[e.Name]
		require.True(t, ok, "%s has a cost table this test does not know", e.Name)
		require.Equal(t, w.family, e.Family, e.Name)
		got, err := e.Costs(4)
		require.NoError(t, err, e.Name)
		rows, err := w.table(4)
		require.NoError(t, err, e.Name)
		require.Equal(t, rows, got, e.Name)
		seen++
	}
	require.Equal(t, len(want), seen)
}
