package coordination

import (
	"fmt"

	"github.com/coordcheck/coordcheck/internal/nodeset"
	"github.com/coordcheck/coordcheck/model"
)

// Group membership (seed 004, "Group Membership"): "create a znode g. Each
// process create a znode under g in ephemeral mode: if the process fails
// or ends, the znode that represents it under g is automatically removed.
// Watch g for group information. Processes can obtain group information by
// simply listing the children of g." A member
//
//	1 create(g + "/" + me, EPHEMERAL)
//	2 V = getChildren(g, true)
//	3 wait for the event; goto 2
//
// keeps V, its view, as a set of clients. The view converges: once the
// run is over, every live member's view is exactly the live members. The
// deliberately broken variant (Broken) creates its znode as a regular one:
// a member that dies stays in every view for ever.

// GroupDir is the group's znode g.
const GroupDir = "/g"

// view is the set of clients a listing of g names (bit c: client c).
func (p *Protocol) view(children []string) uint8 {
	var v uint8
	for c := range p.C {
		name := p.clientNode(uint8(c)).String()
		for _, ch := range children {
			if ch == name {
				v |= 1 << c
			}
		}
	}
	return v
}

// stepMember is a member of the group.
func (p *Protocol) stepMember(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	list := func() { // 2
		s.Phase = Listing
		p.ask(&s, Op{Kind: OpGetChildren, Path: GroupDir, Flags: Watch}, out)
	}
	// again: what the client asks anew on the next server (reconnect).
	again := func() {
		switch s.Phase {
		case Listing, Watching:
			list() // the watch is gone with the connection
		}
	}
	switch ev.Kind {
	case model.Environment:
		if ev.Input == InputJoin { // 1
			s.Phase = Creating
			flags := Ephemeral
			if p.Broken {
				flags = 0
			}
			p.ask(&s, Op{Kind: OpCreate, Path: p.memberPath(GroupDir, self), Flags: flags}, out)
		}
	case model.Timeout:
		p.reconnect(&s, again)
	case model.Receive:
		m := ev.Msg
		if m.Kind == Notify {
			if s.Phase == Watching && m.Event.Path == GroupDir {
				list() // 3
			}
			return s
		}
		res, phase := p.answer(ev, &s, out, again)
		switch phase {
		case Creating:
			list()
		case Listing:
			s.View = p.view(res.Children)
			s.Phase = Watching
			out.SetTimer(TimerConnLoss) // the watch lives as long as the connection
		}
	}
	return s
}

// ViewConvergesName names the group membership's property.
const ViewConvergesName = "view-converges"

// ViewConverges: at the end of a run, every live member's view is the set
// of live members.
func (p *Protocol) ViewConverges() Invariant {
	return Invariant{
		Name:     ViewConvergesName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			var live uint8
			for c := range p.C {
				if id := p.clientNode(uint8(c)); !w.IsDown(id) && w.Nodes[id].C.Phase != Failed {
					live |= 1 << c
				}
			}
			for c := range p.C {
				id := p.clientNode(uint8(c))
				if live&(1<<c) != 0 && w.Nodes[id].C.View != live {
					return false, fmt.Sprintf("the run ends with %s's view %s, but the live members are %s",
						id, p.formatView(w.Nodes[id].C.View), p.formatView(live))
				}
			}
			return true, ""
		},
	}
}

// formatView: "{p3,p4}".
func (p *Protocol) formatView(v uint8) string {
	return nodeset.Format(uint64(v) << p.R)
}
