package coordination

import "github.com/coordcheck/coordcheck/model"

// The simple lock of seed 004 ("Simple Lock"): "create a znode l for
// locking. If one gets to create l he gets the lock. Others who fail to
// create watch l, waiting for the lock to be released. A client releases
// the lock when it dies or explicitly deletes the znode. Problems: herd
// effect": every release wakes every waiter, which all race to create l
// again and all but one lose. `coordcheck costs coordination` counts the
// notifications (costs/herd.go). The deliberately broken variant (Broken)
// creates l as a regular znode, not an ephemeral one: a holder that dies
// never releases, and the waiters wait forever.

// SimpleLockPath is the simple lock's znode l.
const SimpleLockPath = "/slock"

// stepSimpleLock is a client of the simple lock:
//
//	1 create(l, EPHEMERAL): ok: the lock is held
//	2 it exists: exists(l, true): if it still exists, wait for the watch
//	  event, then goto 1; if not, goto 1 at once
//
// and unlock: delete(l).
func (p *Protocol) stepSimpleLock(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	create := func() {
		s.Phase = Creating
		flags := Ephemeral
		if p.Broken {
			flags = 0
		}
		p.ask(&s, Op{Kind: OpCreate, Path: SimpleLockPath, Flags: flags}, out)
	}
	unlock := func() {
		s.Phase = Releasing
		p.ask(&s, Op{Kind: OpDelete, Path: SimpleLockPath, Version: AnyVersion}, out)
	}
	// again: what the client asks anew on the next server (reconnect).
	again := func() {
		switch s.Phase {
		case Checking, Watching:
			create()
		case Releasing:
			unlock()
		}
	}
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case InputLock:
			create()
		case InputUnlock:
			unlock()
		}
	case model.Timeout:
		p.reconnect(&s, again)
	case model.Receive:
		m := ev.Msg
		if m.Kind == Notify {
			if s.Phase == Watching && m.Event.Path == SimpleLockPath && m.Event.Kind == Deleted {
				create() // the herd: every waiter tries again
			}
			return s
		}
		res, phase := p.answer(ev, &s, out, again)
		switch phase {
		case Creating:
			if res.Code == OK {
				s.Phase = Held
				return s
			}
			s.Phase = Checking // 2: l exists
			p.ask(&s, Op{Kind: OpExists, Path: SimpleLockPath, Flags: Watch}, out)
		case Checking:
			if res.Code == OK {
				s.Phase = Watching
				out.SetTimer(TimerConnLoss) // the watch lives as long as the connection
			} else {
				create() // released meanwhile
			}
		case Releasing:
			s.Phase = Done
		}
	}
	return s
}
