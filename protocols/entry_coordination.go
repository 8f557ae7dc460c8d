package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/coordination"
)

// Parameters of the coordination service's entries.
var (
	paramReplicas = Param{"replicas", "3", "replicas of the service (p0.. ; p0 leads epoch 1)"}
	paramClients  = Param{"clients", "2", "clients (the nodes after the replicas)"}
	paramEpochs   = Param{"epochs", "3", "the highest epoch: bounds elections, which only a leader's crash starts unless -timers free"}
	// The recipes' (entry_recipes.go).
	paramRecipeReplicas = Param{"replicas", "1", "replicas of the service (p0.. ; 1: a standalone server)"}
	paramBroken         = func(doc string) Param { return Param{"broken", "off", "on: " + doc} }
)

// coordinationSize reads the replicas and clients parameters.
func coordinationSize(v Values) (replicas, clients int, err error) {
	if replicas, err = v.Int("replicas", 1, coordination.MaxReplicas); err != nil {
		return
	}
	clients, err = v.Int("clients", 1, coordination.MaxClients)
	return
}

// registerSize reads the replicas, the register clients and each
// client's operations.
func registerSize(v Values) (replicas, clients, ops int, err error) {
	if replicas, clients, err = coordinationSize(v); err != nil {
		return
	}
	ops, err = v.Int("ops", 0, 20)
	return
}

// coordinationTarget is the target of p, its epochs bounded by the epochs
// parameter, checked against the properties of its workload.
func coordinationTarget(p *coordination.Protocol, v Values, cfg model.Config) (checker.Target, error) {
	e, err := v.Int("epochs", 1, 100)
	if err != nil {
		return nil, err
	}
	p.MaxEpoch = uint8(e)
	return target(p, cfg, coordination.Properties(p))
}

func init() {
	Register(Entry{
		Name: "coordination",
		Doc: "a Chubby/ZooKeeper-like service: Zab epochs, writes committed by a majority, reads at the leader " +
			"under its lease, locally or after sync; the clients' history must be linearizable (seeds 000, 004)",
		Params: []Param{paramReplicas, paramClients,
			{"ops", "2", "operations of each client: writes and reads of /x, alternating"},
			{"reads", "leader", "leader (Chubby, under the master lease), local (ZooKeeper, may be stale) or sync (sync, then local)"},
			paramEpochs,
			{"lease", "on", "off: a follower may start an election while the leader lives (a master lease that runs out too early)"},
			{"cache", "off", "Chubby's client caching of /x (with -replicas 1): on (the master invalidates every copy before a write commits) or late (after)"},
			{"leader", "formula", "how an epoch's leader is chosen: formula (replica (e-1) mod R) or elected (Chubby's vote once, " +
				"a majority, the master lease; elections may also start while the leader lives)"},
			{"leasewait", "on", "off (with -leader elected): a new leader starts at once, while the old one may still serve under its lease"}},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, c, ops, err := registerSize(v)
			if err != nil {
				return nil, err
			}
			reads, err := coordination.ParseReadMode(v.Get("reads"))
			if err != nil {
				return nil, fmt.Errorf("parameter %v", err)
			}
			p := coordination.NewRegister(r, c, ops, reads)
			if p.Cache, err = coordination.ParseCacheMode(v.Get("cache")); err != nil {
				return nil, fmt.Errorf("parameter %v", err)
			}
			if p.Cache != coordination.NoCache && (r != 1 || reads != coordination.LeaderReads) {
				return nil, fmt.Errorf("parameter cache=%s needs replicas=1 and reads=leader: the master keeps its cachers in volatile state", p.Cache)
			}
			lease, err := v.On("lease")
			if err != nil {
				return nil, err
			}
			p.NoLease = !lease
			if p.Leader, err = coordination.ParseLeaderMode(v.Get("leader")); err != nil {
				return nil, fmt.Errorf("parameter %v", err)
			}
			wait, err := v.On("leasewait")
			if err != nil {
				return nil, err
			}
			if !wait && p.Leader != coordination.ElectedLeader {
				return nil, fmt.Errorf("parameter leasewait=off needs leader=elected: the formula's leader waits for no election")
			}
			p.NoLeaseWait = !wait
			if p.Leader == coordination.ElectedLeader && (p.NoLease || p.Cache != coordination.NoCache) {
				return nil, fmt.Errorf("parameter leader=elected goes with lease=on and cache=off: its elections may start early by themselves, and its leader keeps no cachers")
			}
			return coordinationTarget(p, v, cfg)
		},
	})
	Register(Entry{
		Name: "chubbysession",
		Doc: "Chubby's client side of a session: caching clients hold a local lease from the master; when it runs out " +
			"they disable the cache and are in jeopardy for a grace period; a new master reached within it keeps the session " +
			"(seed 004, Client Sessions, Master Failure)",
		Params: []Param{paramReplicas, paramClients,
			{"ops", "2", "reads of each client but p(R), which writes /x once; a read comes from the cache when it can"},
			paramEpochs,
			{"grace", "long", "long (longer than a fail-over) or none (broken: the session is declared expired as the local lease runs out)"},
			{"jeopardy", "clear", "clear (the cache is emptied and off in jeopardy) or keep (broken: it goes on serving)"}},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, c, ops, err := registerSize(v)
			if err != nil {
				return nil, err
			}
			mode, err := coordination.ParseSessions(v.Get("grace"), v.Get("jeopardy"))
			if err != nil {
				return nil, fmt.Errorf("parameter %v", err)
			}
			return coordinationTarget(coordination.NewChubbySession(r, c, ops, mode), v, cfg)
		},
	})
	Register(Entry{
		Name:   "zklock",
		Family: "coordination",
		Costs:  costs.HerdTable(coordination.LockClients),
		Doc: "the ZooKeeper lock recipe (ephemeral sequential znode, watch the predecessor) as clients of the " +
			"coordination service; a crashed client's session expires and its znode goes (seed 004)",
		Params: []Param{paramReplicas, paramClients, paramEpochs},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, c, err := coordinationSize(v)
			if err != nil {
				return nil, err
			}
			return coordinationTarget(coordination.NewLock(r, c, false, false), v, cfg)
		},
	})
	Register(Entry{
		Name: "latewrite",
		Doc: "Chubby's late write: zklock holders write to a storage server; a crashed holder's delayed write " +
			"lands after its successor's unless the server checks sequencers, or the lock-delay exceeds the message delay (seed 004, Use of Sequences)",
		Params: []Param{paramReplicas, paramClients,
			{"sequencers", "off", "on: the storage server rejects a write whose sequencer is older than one it has seen"},
			paramEpochs,
			{"lockdelay", "none", "Chubby's lock-delay after a holder's session ends: short (below the message delay bound) or long (above it)"}},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, c, err := coordinationSize(v)
			if err != nil {
				return nil, err
			}
			seq, err := v.On("sequencers")
			if err != nil {
				return nil, err
			}
			p := coordination.NewLock(r, c, true, seq)
			if p.LockDelay, err = coordination.ParseLockDelay(v.Get("lockdelay")); err != nil {
				return nil, fmt.Errorf("parameter %v", err)
			}
			return coordinationTarget(p, v, cfg)
		},
	})
}
