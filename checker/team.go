package checker

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// team runs the phases of the level engine on goroutines that live as
// long as the search, one per worker but the main one, which runs its
// share on the caller's goroutine. Started afresh for each phase (five a
// level), a worker's goroutine woke on an idle core a measured 80-190
// microseconds after the phase began (ring N=10 on two workers: 7-11 ms
// of each phase's wall time summed over the 56 levels, 25-35 ms in all),
// and in the phases shared out in equal parts (sort, gather) the
// phase's end waited that much longer. Between phases the team's
// goroutines wait by spinning, for a while, when every worker has a core
// of its own (GOMAXPROCS), and then sleep.
type team struct {
	n    int           // the workers besides the main one
	job  func(i int)   // the phase under way: worker i's share (i >= 1)
	gen  atomic.Uint64 // the phases posted; the team's goroutines ran those before
	left atomic.Int64  // the workers besides the main one not done with the phase
	spin bool          // wait by spinning first

	halt atomic.Bool // the team's goroutines are to end

	mu     sync.Mutex
	posted sync.Cond // gen moved
	done   sync.Cond // left reached 0
	exited sync.WaitGroup
}

// spinFor is how long a waiting goroutine of the team spins before it
// sleeps: longer than the main worker's work between two phases on the
// spin-compare rows (under 0.2 ms). Timed, not counted: under the race
// detector a look costs tens of times more, and a count that spun a
// millisecond spun a tenth of a second there, a core taken from the
// other tests. The time only decides how a goroutine waits, never what
// the search finds.
const spinFor = time.Millisecond

// newTeam starts the goroutines of workers 1..n; they wait by spinning
// first with spin (canSpin).
func newTeam(n int, spin bool) *team {
	t := &team{n: n, spin: spin}
	t.posted.L, t.done.L = &t.mu, &t.mu
	t.exited.Add(n)
	for i := 1; i <= n; i++ {
		go t.serve(i)
	}
	return t
}

// canSpin reports whether a team of n goroutines besides the caller's
// may spin: when each of them and the caller can have a core.
func canSpin(n int) bool { return runtime.GOMAXPROCS(0) > n }

// serve is worker i's goroutine: it runs its share of each phase posted.
func (t *team) serve(i int) {
	defer t.exited.Done()
	var seen uint64
	for {
		t.await(func() bool { return t.gen.Load() != seen }, &t.posted)
		if t.halt.Load() {
			return
		}
		seen = t.gen.Load()
		t.job(i)
		if t.left.Add(-1) == 0 {
			t.mu.Lock()
			t.done.Broadcast()
			t.mu.Unlock()
		}
	}
}

// run runs job on every worker, the main one's share (0) on this
// goroutine, and returns when all are done.
func (t *team) run(job func(i int)) {
	if t.n == 0 {
		job(0)
		return
	}
	t.job = job
	t.left.Store(int64(t.n))
	t.mu.Lock()
	t.gen.Add(1)
	t.posted.Broadcast()
	t.mu.Unlock()
	job(0)
	t.await(func() bool { return t.left.Load() == 0 }, &t.done)
}

// await waits until ready holds: it spins first when the team may, then
// sleeps on c, which is signalled under the team's lock whenever what
// ready reads changes.
func (t *team) await(ready func() bool, c *sync.Cond) {
	if t.spin {
		start := time.Now()
		for k := 1; ; k++ {
			if ready() {
				return
			}
			if k%256 == 0 {
				if time.Since(start) > spinFor {
					break
				}
				runtime.Gosched() // let the collector's workers in
			}
		}
	}
	t.mu.Lock()
	for !ready() {
		c.Wait()
	}
	t.mu.Unlock()
}

// stop ends the team's goroutines, once no phase is under way.
func (t *team) stop() {
	t.halt.Store(true)
	t.mu.Lock()
	t.gen.Add(1)
	t.posted.Broadcast()
	t.mu.Unlock()
	t.exited.Wait()
}
