package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
)

func lockDelay(d LockDelay) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		p := NewLock(1, 2, true, false)
		p.LockDelay = d
		return mustSpec(p, faults("crash=1@p1"))
	}
}

// Chubby's lock-delay, the alternative to sequencers (seed 004, "Use of
// Sequences"): over a standalone server, the holder p1 writes to the
// store p3 and dies. With a lock-delay longer than the message delay
// bound, its write lands before p2 can take the lock: no late write. With
// a shorter one it guarantees nothing, and the late write is found
// (counterexamples/latewrite/short-lock-delay.cex), as without any.
func TestLockDelay(t *testing.T) {
	t.Parallel()
	long := pinned{name: "lockdelay=long", spec: lockDelay(LongLockDelay), states: 736, edges: 1484, depth: 25}
	long.run(t)
	for _, d := range []LockDelay{NoLockDelay, ShortLockDelay} {
		c := pinned{name: "lockdelay=" + d.String(), spec: lockDelay(d),
			verdict: checker.Violated, property: NoLateWriteName, states: 681, edges: 1257, depth: 14}
		tr := c.run(t).Counterexample
		require.Len(t, tr.Steps, 14)
		require.Equal(t, "deliver p1->p3 WRITE(1 seq=0)", tr.Steps[len(tr.Steps)-1].Action, "the dead holder's write lands last")
	}
	_, err := ParseLockDelay("forever")
	require.ErrorContains(t, err, "want none, short or long")
}
