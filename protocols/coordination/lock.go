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

// The inputs of the recipes' clients.
const (
	InputLock   = "lock"   // the locks: want the lock
	InputUnlock = "unlock" // the locks: release it
	InputEnter  = "enter"  // the double barrier: enter it
	InputLeave  = "leave"  // the double barrier: the computation is done, leave
	InputJoin   = "join"   // group membership, election: join the group, volunteer
	// InputIncrement: the versioned counter: add one to the counter.
	InputIncrement = "increment"
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
//
// The same steps run the read/write lock (rwlock.go: its own names and
// predecessor rule, step 3 and 4) and the leader election recipe
// (election_recipe.go: the holder leads, and never unlocks).
func (p *Protocol) stepLock(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	// request sends op; its number is the phase it is sent in, so that an
	// answer on an old connection to a phase the client has left is
	// recognised and ignored.
	request := func(op Op) { p.ask(&s, op, out) }
	list := func() {
		s.Phase = Listing
		request(Op{Kind: OpGetChildren, Path: p.seqDir()})
	}
	unlock := func() {
		s.Phase = Releasing
		request(Op{Kind: OpDelete, Path: p.ownPath(self, s.Mine), Version: AnyVersion})
	}
	// again: what the client asks anew on the next server (reconnect).
	again := func() {
		switch s.Phase {
		case Listing, Checking, Watching:
			list() // the watch is gone with the connection: look again
		case Releasing:
			unlock()
		}
	}
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case InputLock, InputJoin: // 1
			s.Phase = Creating
			request(Op{Kind: OpCreate, Path: p.ownPrefix(self), Flags: Ephemeral | Sequential})
		case InputUnlock:
			unlock()
		}
	case model.Timeout:
		p.reconnect(&s, again)
	case model.Receive:
		m := ev.Msg
		switch m.Kind {
		case Reply:
			res, phase := p.answer(ev, &s, out, again)
			switch phase {
			case Creating: // 2
				s.Mine = uint8(SeqOf(res.Path))
				list()
			case Listing: // 3, 4
				pred, predRead, found := p.lockPredecessor(self, res.Children, s.Mine)
				if !found {
					s.Phase = Held
					if p.Store {
						s.Phase = Writing
						out.Send(p.storeNode(), Msg{Kind: Write, N: p.clientOf(self) + 1, Seq: s.Mine})
					}
					return s
				}
				s.Pred, s.PredRead, s.Phase = pred, predRead, Checking
				request(Op{Kind: OpExists, Path: p.predPath(s), Flags: Watch})
			case Checking: // 5
				if res.Code == OK {
					s.Phase = Watching
					out.SetTimer(TimerConnLoss) // the watch lives as long as the connection
				} else {
					list() // 6
				}
			case Releasing:
				s.Phase = Done
			}
		case Notify:
			if s.Phase == Watching && m.Event.Path == p.predPath(s) {
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

// ask sends op to the client's server, numbered by the phase it is sent
// in, and waits for the answer under the connection-loss timer.
func (p *Protocol) ask(s *Client, op Op, out *model.Out[Msg]) {
	out.Send(model.NodeID(s.Conn), Msg{Kind: Request, Seq: uint8(s.Phase), N: s.Seen, Op: op})
	out.SetTimer(TimerConnLoss)
}

// answer takes the answer to the client's current request: from its
// server, numbered by its phase (anything else is a late answer on an old
// connection, ignored); it stops the connection-loss timer and notes the
// zxid seen. Then it deals with what every recipe does alike: a refusal
// or a lost connection moves the client to the next server (reconnect,
// where it asks again), an expired session fails it.
// It returns the phase the answer is for, in which the recipe goes on, or
// Idle (no request is sent while idle) when nothing is left to do.
func (p *Protocol) answer(ev model.Event[Msg], s *Client, out *model.Out[Msg], again func()) (Result, LockPhase) {
	m := ev.Msg
	if m.Kind != Reply || ev.From != model.NodeID(s.Conn) || m.Seq != uint8(s.Phase) {
		return Result{}, Idle
	}
	out.CancelTimer(TimerConnLoss)
	s.Seen = max(s.Seen, m.N)
	switch m.Res.Code {
	case Refused, ConnLoss:
		p.reconnect(s, again)
		return m.Res, Idle
	case SessionExpired:
		s.Phase = Failed
		return m.Res, Idle
	}
	return m.Res, s.Phase
}

// reconnect: the connection is lost (or the server does not serve); the
// client moves to the next server, with its session and where it was in
// the recipe. A create whose outcome is unknown (n, or the barrier's ready
// znode) is given up: the client fails, and its session lapses, which
// removes the znode if it exists. Anything else the recipe asks again
// there.
func (p *Protocol) reconnect(s *Client, again func()) {
	s.Conn = uint8((int(s.Conn) + 1) % p.R)
	if s.Phase == Creating || s.Phase == Readying {
		s.Phase = Failed
		return
	}
	again()
}

// seqDir is the znode the sequential recipes create their znodes under.
func (p *Protocol) seqDir() string {
	switch p.Workload {
	case RWLockClients:
		return RWDir
	case ElectionClients:
		return ElectionDir
	}
	return LockDir
}

// ownPrefix is the name client self creates, before the counter:
// "/lock/n-", "/rw/read-", "/election/n-".
func (p *Protocol) ownPrefix(self model.NodeID) string {
	if p.Workload == RWLockClients {
		return rwPrefix(p.isWriter(self))
	}
	return p.seqDir() + "/n-"
}

// ownPath is the name of self's znode with counter n.
func (p *Protocol) ownPath(self model.NodeID, n uint8) string {
	return p.ownPrefix(self) + strconv.Itoa(int(n))
}

// predPath is the name of the znode the client watches.
func (p *Protocol) predPath(s Client) string {
	if p.Workload == RWLockClients {
		return rwPrefix(!s.PredRead) + strconv.Itoa(int(s.Pred))
	}
	return p.seqDir() + "/n-" + strconv.Itoa(int(s.Pred))
}

// lockPredecessor is steps 3 and 4 of the recipe at hand: the counter of
// the znode self must wait for, whether it is a read znode, and whether
// there is one (none: self holds the lock, or leads).
func (p *Protocol) lockPredecessor(self model.NodeID, children []string, mine uint8) (uint8, bool, bool) {
	switch p.Workload {
	case RWLockClients:
		return p.rwPredecessor(self, children, mine)
	case ElectionClients:
		pred, found := p.electionPredecessor(children, mine)
		return pred, false, found
	}
	pred, found := predecessor(children, mine)
	return pred, false, found
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
