package coordination

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Invariant is a property of the service's worlds.
type Invariant = property.Invariant[State, Msg]

// NewRecipe returns the service with clients that run the recipe of
// workload once each (one lock, one entry, one join), the broken
// variant when broken. The read/write lock's first client writes, the
// others read.
func NewRecipe(workload Workload, replicas, clients int, broken bool) *Protocol {
	p := &Protocol{R: replicas, C: clients, Workload: workload, Reads: LocalReads, MaxEpoch: 3, Broken: broken}
	if workload == RWLockClients {
		p.Writers = 1
	}
	return p
}

// recipeProperties is what the ZooKeeper recipes claim (simple lock,
// read/write lock, double barrier, group membership, election): the
// recipe's own properties, Zab's agreement, and no deadlock where the
// recipe has clients that wait (see Waiting).
func recipeProperties(p *Protocol) property.Set[State, Msg] {
	var invs []Invariant
	deadlock := true
	switch p.Workload {
	case SimpleLockClients:
		invs = []Invariant{invariants.MutualExclusion[State, Msg](p)}
	case RWLockClients:
		invs = []Invariant{p.RWExclusion(), p.WriterFirst()}
	case BarrierClients:
		invs = []Invariant{p.BarrierEntry(), p.BarrierExit(), p.BarrierProgress()}
		deadlock = false // barrier-progress says more
	case MemberClients:
		invs = []Invariant{p.ViewConverges()}
	case ElectionClients:
		invs = []Invariant{p.OneLeader(), p.OneWakeup(), p.LeaderElected()}
	case CounterClients:
		invs = []Invariant{p.NoLostUpdate()}
	}
	invs = append(invs, p.Agreement())
	return property.Set[State, Msg]{Invariants: invs, Deadlock: deadlock}
}
