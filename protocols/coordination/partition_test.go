package coordination

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// A minority partition cannot commit: in every state reachable with one
// partition at any point (which may cut the leader off with one client,
// or with none), every transaction a replica has committed is held by a
// majority of the replicas. (Partitions are outside Zab's reliable-link
// assumption: messages on a cut link are lost, and the clients left
// waiting would be reported as a deadlock, which this check leaves out.)
// The deposed leader that serves reads from its own state is
// counterexamples/coordination/lease-broken.cex, caught by porcupine;
// the lease prevents it (TestLeaderReadsNeedTheLease).
func TestMinorityCannotCommit(t *testing.T) {
	t.Parallel()
	p := NewRegister(3, 2, 1, LeaderReads)
	sp := mustSpec(p, faults("partition=1"))
	sp.Deadlock = false
	sp.Invariants = []Invariant{{Name: "committed-by-a-majority", Holds: func(w *model.World[State, Msg]) (bool, string) {
		for i := range p.R {
			r := &w.Nodes[i].R
			held := 0
			for j := range p.R {
				if l := w.Nodes[j].R.Log; len(l) >= int(r.Committed) && slices.Equal(l[:r.Committed], r.Log[:r.Committed]) {
					held++
				}
			}
			if held < p.majority() {
				return false, fmt.Sprintf("p%d committed %d transactions held by %d replicas", i, r.Committed, held)
			}
		}
		return true, ""
	}}}
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, []uint64{17902, 50845}, []uint64{rep.States, rep.Transitions})
}
