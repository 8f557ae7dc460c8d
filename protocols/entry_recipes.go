package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/coordination"
)

// recipe is a registry entry for the recipe of workload: the ZooKeeper
// recipes of seed 004 as clients of the coordination service. Each runs
// over one replica by default (a standalone server: the recipes are the
// clients' side; -replicas 3 puts them over Zab), and each has a
// deliberately broken variant, -broken on, that the checker must catch.
func recipe(name string, workload coordination.Workload, clients, doc, broken string) Entry {
	return Entry{
		Name:   name,
		Doc:    doc,
		Params: []Param{paramRecipeReplicas, {"clients", clients, "clients (the nodes after the replicas)"}, paramEpochs, paramBroken(broken)},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, c, err := coordinationSize(v)
			if err != nil {
				return nil, err
			}
			if workload == coordination.BarrierClients || workload == coordination.RWLockClients {
				if c < 2 {
					return nil, fmt.Errorf("parameter clients=%d: want an integer from 2 to %d", c, coordination.MaxClients)
				}
			}
			broken, err := v.On("broken")
			if err != nil {
				return nil, err
			}
			return coordinationTarget(coordination.NewRecipe(workload, r, c, broken), v, cfg)
		},
	}
}

func init() {
	herd := recipe("zkherd", coordination.SimpleLockClients, "3",
		"ZooKeeper's simple lock: create an ephemeral /slock, or watch it; every release wakes every waiter "+
			"(the herd effect; costs coordination counts it) (seed 004, Simple Lock)",
		"/slock is a regular znode: a holder that dies never releases it (deadlock)")
	herd.Family, herd.Costs = "coordination", costs.HerdTable(coordination.SimpleLockClients)
	Register(herd)
	Register(recipe("zkrwlock", coordination.RWLockClients, "3",
		"ZooKeeper's read/write lock: sequential write-/read- znodes; readers share, a writer excludes, no reader "+
			"passes an earlier writer; p(R) writes, the others read (seed 004, Read/Write Lock)",
		"readers ignore the writers before them"))
	Register(recipe("zkbarrier", coordination.BarrierClients, "3",
		"ZooKeeper's double barrier: members register ephemeral znodes under /b, the last opens /b/ready; "+
			"nobody enters before all registered, nobody is done before all left, nobody is stuck (seed 004, Double Barrier)",
		"no ready znode: a member waits until it counts them all itself, and misses them once one has left"))
	Register(recipe("zkgroup", coordination.MemberClients, "3",
		"ZooKeeper's group membership: ephemeral znodes under /g, a child watch; every view converges to the "+
			"live members after a session expires (seed 004, Group Membership)",
		"regular znodes: a dead member stays in the views"))
	Register(recipe("zkelection", coordination.ElectionClients, "3",
		"ZooKeeper's leader election recipe: the lowest sequential znode leads, each candidate watches its "+
			"predecessor, so a leader's crash wakes exactly one (seeds 000, 003 Election in ZooKeeper)",
		"every candidate watches the leader: its crash wakes them all (a herd)"))
	Register(recipe("zkcounter", coordination.CounterClients, "3",
		"ZooKeeper's optimistic concurrency: each client reads /cnt with its version and writes value+1 with "+
			"setData(version), retrying on badversion; no increment is lost (seed 004, Client API: setData(path, data, version))",
		"an unconditional setData (version -1): two clients that read the same value both write value+1"))
}
