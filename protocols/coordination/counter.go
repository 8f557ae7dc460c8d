package coordination

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
)

// The versioned counter: ZooKeeper's optimistic concurrency through znode
// versions (seed 004, Client API: "setData(path, data, version)"; "can
// store information like timestamp version"; seed 000: "Chubby: files
// have version numbers attached"). Each client adds one to a counter kept
// in the znode c:
//
//	1 (v, version) = getData(c)       the data and its Stat
//	2 setData(c, v+1, version)        only if nobody wrote since
//	3 if it failed with badversion, goto 1
//
// The tree's version check (tree.go, Apply) is what refuses the stale
// write: a client that read the counter before another's increment landed
// gets badversion, reads again and retries. A setData whose connection is
// lost has an unknown outcome, and its client gives up (as the lock's
// create, lock.go): retrying it blindly could count it twice.
//
// The property is no lost update, judged at the end of a run: every
// increment applied counts, so the counter's value equals its version
// (the number of setData applied), and it is at least the number of
// clients told their increment succeeded.
// The deliberately broken variant (Broken) writes with AnyVersion, an
// unconditional setData: two clients that read the same value both write
// value+1, and one increment is lost.

// CounterPath is the counter's znode c.
const CounterPath = "/cnt"

// stepCounter is a client of the versioned counter.
func (p *Protocol) stepCounter(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	fetch := func() { // 1
		s.Phase = Fetching
		p.ask(&s, Op{Kind: OpGetData, Path: CounterPath, Flags: Stat}, out)
	}
	// again, after the move to the next server (reconnect): a read is
	// asked again, and so is a refused write (it did not happen: read
	// again); a write whose answer was lost has an unknown outcome and is
	// given up.
	again := func() {
		if s.Phase == Updating && (ev.Kind == model.Timeout || ev.Msg.Res.Code == ConnLoss) {
			s.Phase = Failed
			return
		}
		fetch()
	}
	switch ev.Kind {
	case model.Environment:
		if ev.Input == InputIncrement {
			fetch()
		}
	case model.Timeout:
		p.reconnect(&s, again)
	case model.Receive:
		res, phase := p.answer(ev, &s, out, again)
		switch phase {
		case Fetching: // 2
			s.Val, s.Ver = res.Data, res.Version
			s.Phase = Updating
			version := int8(s.Ver)
			if p.Broken {
				version = AnyVersion
			}
			p.ask(&s, Op{Kind: OpSetData, Path: CounterPath, Data: s.Val + 1, Version: version}, out)
		case Updating:
			if res.Code == BadVersion {
				fetch() // 3: someone wrote since: read again
				return s
			}
			s.Phase = Done
		}
	}
	return s
}

// NoLostUpdateName names the counter's property.
const NoLostUpdateName = "no-lost-update"

// NoLostUpdate: at the end of a run, on every live replica, the counter's
// value equals the number of increments applied (its version: each
// setData adds exactly one), and it is at least the number of clients
// told that theirs succeeded. (At the end: during a run, a live replica
// may not yet have applied what a crashed leader committed.)
func (p *Protocol) NoLostUpdate() Invariant {
	return Invariant{
		Name:     NoLostUpdateName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			done := 0
			for c := range p.C {
				if w.Nodes[p.clientNode(uint8(c))].C.Phase == Done {
					done++
				}
			}
			most := -1
			for i := range p.R {
				if w.IsDown(model.NodeID(i)) {
					continue
				}
				z := p.counter(w.Nodes[i].R)
				if z.Data != z.Version {
					return false, fmt.Sprintf("p%d's %s ends at %d after %d increments applied: an update was lost", i, CounterPath, z.Data, z.Version)
				}
				most = max(most, int(z.Data))
			}
			if most >= 0 && most < done {
				return false, fmt.Sprintf("%s ends at %d, but %d clients were told their increment succeeded", CounterPath, most, done)
			}
			return true, ""
		},
		PremiseDoc: "an increment applied",
		Premise: func(w *model.World[State, Msg]) bool {
			for i := range p.R {
				if w.Nodes[i].R.Committed > 0 {
					return true
				}
			}
			return false
		},
	}
}

// counter is the counter's znode in the replica's tree.
func (p *Protocol) counter(r Replica) Znode {
	t := p.tree(r)
	i, _ := t.find(CounterPath)
	return t.Nodes[i]
}
