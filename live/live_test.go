package live_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// The Ricart-Agrawala code the checker proved safe runs on goroutines:
// every process enters its critical section the given number of times, and
// no two are ever inside at once.
func TestRicartAgrawalaRuns(t *testing.T) {
	const n, rounds = 5, 20
	c := live.MustStart[ra.State, ra.Msg](ra.New(n, rounds), live.Options{})
	defer c.Stop()
	var inside, entries atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func(id model.NodeID) {
			defer wg.Done()
			for range rounds {
				for _, in := range []model.Input{mutex.Request, mutex.Enter, mutex.Exit} {
					if in == mutex.Exit {
						if inside.Add(1) != 1 {
							errs <- errTwoInside
						}
						entries.Add(1)
						time.Sleep(100 * time.Microsecond)
						inside.Add(-1)
					}
					if err := c.Input(id, in, 10*time.Second); err != nil {
						errs <- err
						return
					}
				}
			}
		}(model.NodeID(i))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, int32(n*rounds), entries.Load())
	for i := range n {
		s := c.State(model.NodeID(i))
		require.Equal(t, mutex.Released, s.Phase)
		require.Equal(t, uint8(rounds), s.Rounds)
	}
}

var errTwoInside = errorString("two processes in the critical section")

type errorString string

func (e errorString) Error() string { return string(e) }
