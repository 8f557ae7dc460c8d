package costs_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/coordination"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
)

// table is one protocol's cost table, by the registry's name.
type table struct {
	name string
	rows func(n int) ([]costs.Row, error)
}

// The tables of each family, in the registry's order.
var (
	mutexTables = []table{
		{"centralized", costs.CentralizedTable}, {"lamport", costs.LamportTable},
		{"maekawa", costs.MaekawaTable}, {"maekawa-df", costs.MaekawaDFTable},
		{"ricartagrawala", costs.RicartAgrawalaTable}, {"tokenring", costs.TokenRingTable},
		{"voting", costs.VotingTable},
	}
	electionTables = []table{{"bully", costs.BullyTable}, {"ringelection", costs.RingElectionTable}}
	mcastTables    = []table{
		{"besteffort", costs.BestEffortTable}, {"causal-mcast", costs.CausalTable},
		{"causal-total", costs.ISISTable(isis.CausalTotal)}, {"fifo-mcast", costs.FIFOTable},
		{"fifo-total", costs.ISISTable(isis.FIFOTotal)}, {"isis", costs.ISISTable(isis.Total)},
		{"nack-mcast", costs.NackTable}, {"reliable-mcast", costs.ReliableTable},
		{"sequencer", costs.SequencerTable}, {"viewsync", costs.ViewsyncTable},
	}
)

// differing measures tb for n and returns the metrics that differ from
// the notes, each of which must say why.
func differing(t *testing.T, tb table, n int) []string {
	rows, err := tb.rows(n)
	require.NoError(t, err, "%s n=%d", tb.name, n)
	require.NotEmpty(t, rows, "%s n=%d", tb.name, n)
	var got []string
	for _, r := range rows {
		if !r.Matches {
			got = append(got, r.Metric)
			require.NotEmpty(t, r.Note, "%s n=%d %s: a difference must say why", tb.name, n, r.Metric)
		}
	}
	return got
}

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
	for _, tb := range mutexTables {
		for n := 3; n <= 7; n++ {
			want := differs[tb.name]
			if n%2 == 0 {
				want = append(slices.Clone(want), differsEvenN[tb.name]...)
			}
			require.Equal(t, want, differing(t, tb, n), "%s n=%d", tb.name, n)
		}
	}
}

// The measured costs of every election protocol match the notes' figures
// for N from 3 to 7, except the bully algorithm's completion times, whose
// rows say why.
func TestElectionCostsMatchTheNotes(t *testing.T) {
	differs := map[string][]string{
		"bully": {"coordinator crashed, best: completion time", "coordinator crashed, worst: completion time"},
	}
	for _, tb := range electionTables {
		for n := 3; n <= 7; n++ {
			require.Equal(t, differs[tb.name], differing(t, tb, n), "%s n=%d", tb.name, n)
		}
	}
}

// The measured costs of every multicast protocol match the formulas
// derived from the notes, for N from 3 to 7: each row is a formula
// evaluated for N and a figure measured by running the protocol.
func TestMulticastCostsMatchTheNotes(t *testing.T) {
	for _, tb := range mcastTables {
		for n := 3; n <= 7; n++ {
			require.Empty(t, differing(t, tb, n), "%s n=%d", tb.name, n)
		}
	}
}

// The headline costs of the total-order and view-synchronous multicasts,
// measured for N=3..7: N messages through the sequencer, 3(N-1) for ISIS
// and its hybrids, N-1 per view-synchronous multicast and 3(N-2) per view
// change.
func TestTotalOrderMulticastCosts(t *testing.T) {
	for n := 3; n <= 7; n++ {
		for _, tb := range mcastTables {
			want := map[string]map[string]int{
				"sequencer":    {"messages per multicast (p1 multicasts)": n, "delivery latency (message delays)": 2},
				"isis":         {"messages per multicast": 3 * (n - 1), "delivery latency (message delays)": 3},
				"fifo-total":   {"messages per multicast": 3 * (n - 1)},
				"causal-total": {"messages per multicast": 3 * (n - 1)},
				"viewsync":     {"messages per multicast": n - 1, "view change after a crash: messages": 3 * (n - 2)},
			}[tb.name]
			if want == nil {
				continue
			}
			rows, err := tb.rows(n)
			require.NoError(t, err)
			found := 0
			for _, r := range rows {
				if v, ok := want[r.Metric]; ok {
					found++
					var got int
					_, err := fmt.Sscan(r.Measured, &got)
					require.NoError(t, err)
					require.Equal(t, v, got, "%s n=%d %s", tb.name, n, r.Metric)
				}
			}
			require.Equal(t, len(want), found, "%s n=%d: rows %+v", tb.name, n, rows)
		}
	}
}

// `costs coordination`: the herd effect, measured, matches the notes'
// argument for N = 3..7 (N-1 notifications per release of the simple
// lock, 1 of the sequential recipe).
func TestHerdTable(t *testing.T) {
	for n := 3; n <= 7; n++ {
		for workload, first := range map[coordination.Workload]int{coordination.SimpleLockClients: n - 1, coordination.LockClients: 1} {
			rows, err := costs.HerdTable(workload)(n)
			require.NoError(t, err)
			require.Len(t, rows, 2)
			for _, r := range rows {
				require.True(t, r.Matches, "%v n=%d: %+v", workload, n, r)
			}
			require.Equal(t, strconv.Itoa(first), rows[0].Measured, "%v n=%d", workload, n)
		}
	}
	_, err := costs.HerdTable(coordination.SimpleLockClients)(9)
	require.ErrorContains(t, err, "9 clients: want 2 to 8")
}
