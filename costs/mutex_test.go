package costs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// Ricart-Agrawala against the notes' table (seed 000): entry 2(N-1)
// messages, client delay 2 latencies, synchronization delay 1 latency (the
// reply of the process that exits), N-1 messages for an exit... when all
// others wait: without contention an exit replies to no one.
func TestRicartAgrawalaCosts(t *testing.T) {
	for n := 3; n <= 7; n++ {
		p := ra.New(n, 2)
		c, err := costs.Mutex(model.MustNewSystem[ra.State, ra.Msg](p, model.Config{}), p)
		require.NoError(t, err)
		require.Equal(t, costs.Range{2 * (n - 1), 2 * (n - 1)}, c.EnterMsgs, "n=%d", n)
		require.Equal(t, costs.Range{0, 0}, c.ExitMsgs, "n=%d", n)
		require.Equal(t, costs.Range{2, 2}, c.ClientDelay, "n=%d", n)
		require.Equal(t, costs.Range{1, 1}, c.SyncDelay, "n=%d", n)
		require.Equal(t, costs.Range{1, 1}, c.SyncExitMsgs, "n=%d", n)
		require.Equal(t, costs.Range{n - 1, n - 1}, c.ExitAllWaiting, "n=%d", n)
		require.False(t, c.Perpetual)
	}
}
