package coordination

import (
	"strconv"

	"github.com/coordcheck/coordcheck/model"
)

// LockDir is the znode l under which the lock recipe creates its znodes,
// and LockPrefix the prefix of their names.
const (
	LockDir    = "/lock"
	LockPrefix = LockDir + "/n-"
)

// The inputs of lock clients.
const (
	InputLock   = "lock"
	InputUnlock = "unlock"
)

// lockPath is the name of the lock znode with counter n: "/lock/n-3".
func lockPath(n uint8) string { return LockPrefix + strconv.Itoa(int(n)) }

// stepLock is a client running the lock recipe of seed 004:
//
//	1 n = create(l + "/lock-", EPHEMERAL|SEQUENTIAL)
//	2 C = getChildren(l, false)
//	3 if n is lowest znode in C, exit
//	4 p = znode in C ordered just before n
//	5 if exists(p, true) wait for watch event
//	6 goto 2
//
// and unlock: delete(n). With a storage server, the holder writes to it
// (with its sequencer, the counter of n) before it unlocks. A client whose
// connection is lost moves to the next server and carries on, except while
// it creates n: then it gives up (ZooKeeper's recipe finds its znode again
// by a name that holds the session id; that is not modelled).
func (p *Protocol) stepLock(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	// request sends op; its number is the phase it is sent in, so that an
	// answer on an old connection to a phase the client has left is
	// recognised and ignored.
	request := func(op Op) {
		out.Send(model.NodeID(s.Conn), Msg{Kind: Request, Seq: uint8(s.Phase), N: s.Seen, Op: op})
		out.SetTimer(TimerConnLoss)
	}
	list := func() {
		s.Phase = Listing
		request(Op{Kind: OpGetChildren, Path: LockDir})
	}
	unlock := func() {
		s.Phase = Releasing
		request(Op{Kind: OpDelete, Path: lockPath(s.Mine), Version: AnyVersion})
	}
	// reconnect: the connection is lost (or the server does not serve);
	// the client moves to the next server, with its session and where it
	// was in the recipe.
	reconnect := func() {
		s.Conn = uint8((int(s.Conn) + 1) % p.R)
		switch s.Phase {
		case Creating:
			// Whether n was created is unknown: give up, and let the
			// session lapse, which removes n if it exists.
			s.Phase = Failed
		case Listing, Checking, Watching:
			list() // the watch is gone with the connection: look again
		case Releasing:
			unlock()
		}
	}
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case InputLock: // 1
			s.Phase = Creating
			request(Op{Kind: OpCreate, Path: LockPrefix, Flags: Ephemeral | Sequential})
		case InputUnlock:
			unlock()
		}
	case model.Timeout:
		reconnect()
	case model.Receive:
		m := ev.Msg
		switch m.Kind {
		case Reply:
			if ev.From != model.NodeID(s.Conn) || m.Seq != uint8(s.Phase) {
				return s
			}
			out.CancelTimer(TimerConnLoss)
			s.Seen = max(s.Seen, m.N)
			switch m.Res.Code {
			case Refused, ConnLoss:
				reconnect()
				return s
			case SessionExpired:
				s.Phase = Failed
				return s
			}
			switch s.Phase {
			case Creating: // 2
				s.Mine = uint8(SeqOf(m.Res.Path))
				list()
			case Listing: // 3, 4
				pred, found := predecessor(m.Res.Children, s.Mine)
				if !found {
					s.Phase = Held
					if p.Store {
						s.Phase = Writing
						out.Send(p.storeNode(), Msg{Kind: Write, N: p.clientOf(self) + 1, Seq: s.Mine})
					}
					return s
				}
				s.Pred, s.Phase = pred, Checking
				request(Op{Kind: OpExists, Path: lockPath(pred), Flags: Watch})
			case Checking: // 5
				if m.Res.Code == OK {
					s.Phase = Watching
					out.SetTimer(TimerConnLoss) // the watch lives as long as the connection
				} else {
					list() // 6
				}
			case Releasing:
				s.Phase = Done
			}
		case Notify:
			if s.Phase == Watching && m.Event.Path == lockPath(s.Pred) {
				list() // 6
			}
		case Written:
			if s.Phase == Writing {
				s.Phase = Held
				s.Wrote++
			}
		}
	}
	return s
}

// predecessor is the counter of the znode in children ordered just before
// the one with counter mine, if any.
func predecessor(children []string, mine uint8) (uint8, bool) {
	best, found := uint8(0), false
	for _, name := range children {
		if n := SeqOf(name); n >= 0 && n < int(mine) && (!found || uint8(n) > best) {
			best, found = uint8(n), true
		}
	}
	return best, found
}
