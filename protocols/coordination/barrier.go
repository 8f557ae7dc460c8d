package coordination

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// The double barrier of seed 004 ("Double Barrier: to synchronize the
// beginning and the end of computation. Create a znode b, and every
// process needs to register on it, by adding a znode under b. Set a
// threshold that starts the process"). The threshold is the number of
// clients. A client
//
//	enter: 1 create(b + "/" + me, EPHEMERAL)
//	       2 C = getChildren(b, false)
//	       3 if |C| >= threshold (not counting ready): create(b + "/ready"); enter
//	       4 if exists(b + "/ready", true) enter, else wait for the event; enter
//	leave: 5 delete(b + "/" + me)
//	       6 C = getChildren(b, true): if no member is left, exit
//	       7 wait for the event; goto 6
//
// The ready znode is what makes the entry safe: a client that lists
// after the first ones have entered, and perhaps left already, still finds
// the barrier open. The deliberately broken variant (Broken) has no ready
// znode: a client waits with a child watch until it counts the threshold
// itself, and one that lists after another has left never does.
//
// A member that dies leaves by itself: its session expires and its
// ephemeral znode goes, which wakes those waiting to leave. One that dies
// before the barrier filled holds the others at the entry for ever: a
// barrier waits for its missing members, by design (barrier-progress
// excuses that, and only that).

// BarrierDir is the barrier's znode b; ReadyPath the znode that opens it.
const (
	BarrierDir = "/b"
	ReadyPath  = BarrierDir + "/ready"
)

// memberPath is client self's znode under dir: "/b/p4".
func (p *Protocol) memberPath(dir string, self model.NodeID) string { return dir + "/" + self.String() }

// members counts the members' znodes in a listing of b (the ready znode
// is not one).
func members(children []string) int {
	n := 0
	for _, c := range children {
		if c != base(ReadyPath) {
			n++
		}
	}
	return n
}

// stepBarrier is a client of the double barrier.
func (p *Protocol) stepBarrier(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	list := func(phase LockPhase) {
		s.Phase = phase
		watch := Flags(0)
		if phase == Leaving || p.Broken {
			watch = Watch
		}
		p.ask(&s, Op{Kind: OpGetChildren, Path: BarrierDir, Flags: watch}, out)
	}
	leave := func() {
		s.Phase = Releasing
		p.ask(&s, Op{Kind: OpDelete, Path: p.memberPath(BarrierDir, self), Version: AnyVersion}, out)
	}
	// again: what the client asks anew on the next server (reconnect).
	again := func() {
		switch s.Phase {
		case Listing, Checking, Watching:
			list(Listing)
		case Releasing:
			leave()
		case Leaving, LeaveWaiting:
			list(Leaving)
		}
	}
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case InputEnter: // 1
			s.Phase = Creating
			p.ask(&s, Op{Kind: OpCreate, Path: p.memberPath(BarrierDir, self), Flags: Ephemeral}, out)
		case InputLeave: // 5
			leave()
		}
	case model.Timeout:
		p.reconnect(&s, again)
	case model.Receive:
		m := ev.Msg
		if m.Kind == Notify {
			switch {
			case s.Phase == Watching && !p.Broken && m.Event == Event{ReadyPath, Created}:
				s.Phase = Held // 4: the barrier is open
				out.CancelTimer(TimerConnLoss)
			case s.Phase == Watching && p.Broken && m.Event.Path == BarrierDir:
				list(Listing)
			case s.Phase == LeaveWaiting && m.Event.Path == BarrierDir:
				list(Leaving) // 7
			}
			return s
		}
		res, phase := p.answer(ev, &s, out, again)
		switch phase {
		case Creating: // 2
			list(Listing)
		case Listing: // 3
			s.View = uint8(members(res.Children))
			switch {
			case int(s.View) >= p.C && p.Broken:
				s.Phase = Held
			case int(s.View) >= p.C:
				s.Phase = Readying
				p.ask(&s, Op{Kind: OpCreate, Path: ReadyPath}, out)
			case p.Broken:
				s.Phase = Watching // the child watch is set
				out.SetTimer(TimerConnLoss)
			default: // 4
				s.Phase = Checking
				p.ask(&s, Op{Kind: OpExists, Path: ReadyPath, Flags: Watch}, out)
			}
		case Readying: // created, or another client was first: open
			s.Phase = Held
		case Checking: // 4
			if res.Code == OK {
				s.Phase = Held
			} else {
				s.Phase = Watching
				out.SetTimer(TimerConnLoss) // the watch lives as long as the connection
			}
		case Releasing: // 6
			list(Leaving)
		case Leaving: // 6, 7
			s.View = uint8(members(res.Children))
			if s.View == 0 {
				s.Phase = Done
			} else {
				s.Phase = LeaveWaiting
				out.SetTimer(TimerConnLoss)
			}
		}
	}
	return s
}

// Property names of the double barrier.
const (
	BarrierEntryName    = "barrier-entry"
	BarrierExitName     = "barrier-exit"
	BarrierProgressName = "barrier-progress"
)

// anyClient reports whether some client's state is ok.
func (p *Protocol) anyClient(w *model.World[State, Msg], ok func(Client) bool) bool {
	for c := range p.C {
		if ok(w.Nodes[p.clientNode(uint8(c))].C) {
			return true
		}
	}
	return false
}

// entered says whether a barrier client has passed the entry.
func entered(ph LockPhase) bool {
	return ph == Held || ph == Releasing || ph == Leaving || ph == LeaveWaiting || ph == Done
}

// registered says whether client c's znode was ever created under b: a
// create of it is in the committed history of some replica.
func (p *Protocol) registered(w *model.World[State, Msg], c uint8) bool {
	path := p.memberPath(BarrierDir, p.clientNode(c))
	for i := range p.R {
		r := &w.Nodes[i].R
		for _, tx := range r.Log[:r.Committed] {
			if tx.Client == c && tx.Op.Kind == OpCreate && tx.Op.Path == path {
				return true
			}
		}
	}
	return false
}

// mostCommitted is the tree of the replica that has committed most.
func (p *Protocol) mostCommitted(w *model.World[State, Msg]) *Tree {
	best := 0
	for i := 1; i < p.R; i++ {
		if w.Nodes[i].R.Committed > w.Nodes[best].R.Committed {
			best = i
		}
	}
	return p.tree(w.Nodes[best].R)
}

// BarrierEntry: nobody enters before every client has registered.
func (p *Protocol) BarrierEntry() Invariant {
	return Invariant{
		Name: BarrierEntryName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for c := range p.C {
				id := p.clientNode(uint8(c))
				if !entered(w.Nodes[id].C.Phase) {
					continue
				}
				for o := range p.C {
					if !p.registered(w, uint8(o)) {
						return false, fmt.Sprintf("%s entered the barrier before %s registered", id, p.clientNode(uint8(o)))
					}
				}
				return true, ""
			}
			return true, ""
		},
		PremiseDoc: "a client entered the barrier",
		Premise: func(w *model.World[State, Msg]) bool {
			return p.anyClient(w, func(c Client) bool { return entered(c.Phase) })
		},
	}
}

// BarrierExit: nobody leaves (is done) before every member has left: no
// member's znode is left under b.
func (p *Protocol) BarrierExit() Invariant {
	return Invariant{
		Name: BarrierExitName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for c := range p.C {
				id := p.clientNode(uint8(c))
				if w.Nodes[id].C.Phase != Done {
					continue
				}
				if left := members(p.mostCommitted(w).children(BarrierDir)); left > 0 {
					return false, fmt.Sprintf("%s left the barrier while %d members are still in it", id, left)
				}
			}
			return true, ""
		},
		PremiseDoc: "a client left the barrier",
		Premise: func(w *model.World[State, Msg]) bool {
			return p.anyClient(w, func(c Client) bool { return c.Phase == Done })
		},
	}
}

// BarrierProgress: at the end of a run every live client has left the
// barrier. Clients held at the entry are excused only when a member died
// and the barrier never opened (no ready znode): the threshold can never
// be met, and a barrier waits for its missing members. (The broken
// variant has no ready znode, so a death excuses it always; it is caught
// without one.)
func (p *Protocol) BarrierProgress() Invariant {
	return Invariant{
		Name:     BarrierProgressName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			var stuck []string
			atEntry, dead := true, false
			for c := range p.C {
				id := p.clientNode(uint8(c))
				ph := w.Nodes[id].C.Phase
				dead = dead || w.IsDown(id) || ph == Failed
				if !w.IsDown(id) && ph != Done && ph != Failed {
					stuck = append(stuck, fmt.Sprintf("%s %s", id, ph))
					atEntry = atEntry && !entered(ph)
				}
			}
			if len(stuck) == 0 {
				return true, ""
			}
			if _, open := p.mostCommitted(w).find(ReadyPath); atEntry && dead && !open {
				return true, ""
			}
			return false, "the run ends with " + strings.Join(stuck, ", ") + " in the barrier"
		},
	}
}
