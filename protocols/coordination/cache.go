package coordination

import "github.com/coordcheck/coordcheck/model"

// Chubby's client caching (seed 004, "Client Caching": "clients cache all
// file content"; "strict consistency: lease based; master will invalidate
// cached copies upon a write request"; "Keep-Alive messages include
// invalidation requests; responding to Keep-Alive implies acknowledgement
// of cache invalidation"; "modification only continues after all caches
// invalidated"). A register client that read /x at the master keeps the
// value, and reads it from its cache, without a message, until the master
// invalidates it. The master, on a write, sends INVALIDATE to every
// client that may cache /x, holds the write until each has acknowledged
// (INVACK, the KeepAlive reply), and only then commits it; a read answered
// while a write is held is not cacheable. So a cached read is never older
// than a write that has completed: the history stays linearizable.
//
// The deliberately broken variant (LateInvalidation) commits the write at
// once and sends the invalidations after: a client reads its stale cache
// after the write has returned, and porcupine rejects the history.
//
// The master keeps its cachers in volatile state: the check is of a
// standalone server (-replicas 1), whose failures are outside it.

// CacheMode is whether register clients cache /x, and how the master
// invalidates.
type CacheMode uint8

// The cache modes.
const (
	NoCache          CacheMode = iota
	Invalidating               // invalidate every copy before the write commits
	LateInvalidation           // broken: commit, then invalidate
)

var cacheNames = [...]string{NoCache: "off", Invalidating: "on", LateInvalidation: "late"}

// String is the mode's name as a parameter value.
func (m CacheMode) String() string { return cacheNames[m] }

// ParseCacheMode reads "off", "on" or "late".
func ParseCacheMode(s string) (CacheMode, error) {
	return parseName[CacheMode]("cache", cacheNames[:], s)
}

// Cacheable marks a Reply (in its Epoch field) whose data the client may
// cache.
const Cacheable = 1

// replyCached is the master's answer to client c's read: cacheable, and c
// recorded as a cacher, unless a write is held for invalidations or, over
// several replicas, proposed and not yet committed (its invalidations
// were sent before c cached: c would keep the old value after the write).
func (p *Protocol) replyCached(r Replica, c, seq uint8, op Op, out *model.Out[Msg]) Replica {
	res := p.tree(r).Read(op)
	if r.Pending.Op.Kind != OpNone || len(r.Log) > int(r.Committed) {
		return p.reply(r, c, seq, op, res, out)
	}
	r.Cachers |= 1 << c
	out.Send(p.clientNode(c), Msg{Kind: Reply, Seq: seq, N: r.Committed, Epoch: Cacheable, Res: res})
	r.Owed[c] = 0
	return r
}

// writeCached is the master's write t when clients cache: it invalidates
// every copy, and commits once all are invalidated (at once, broken).
func (p *Protocol) writeCached(self model.NodeID, r Replica, t Txn, out *model.Out[Msg]) Replica {
	if r.Pending.Op.Kind != OpNone {
		// One write at a time is held; another did not happen.
		out.Send(p.clientNode(t.Client), Msg{Kind: Reply, Seq: t.Seq, Res: Result{Code: Refused}})
		r.Owed[t.Client] = 0
		return r
	}
	for c := range p.C {
		if r.Cachers&(1<<c) != 0 {
			out.Send(p.clientNode(uint8(c)), Msg{Kind: Invalidate})
		}
	}
	if p.Cache == LateInvalidation || r.Cachers == 0 {
		r.Cachers = 0
		return p.propose(self, r, t, out)
	}
	r.Pending, r.Waiting, r.Cachers = t, r.Cachers, 0
	if p.Sessions != NoSessions {
		// Or until the client's lease times out (session.go).
		for c := range p.C {
			if r.Waiting&(1<<c) != 0 {
				out.SetTimer(TimerLapse + model.TimerID(c))
			}
		}
	}
	return r
}

// onInvAck: a client has dropped its copy; the held write commits once
// all have.
func (p *Protocol) onInvAck(self model.NodeID, r Replica, c uint8, out *model.Out[Msg]) Replica {
	r.Waiting &^= 1 << c
	if p.Sessions != NoSessions {
		out.CancelTimer(TimerLapse + model.TimerID(c))
	}
	if r.Waiting != 0 || r.Pending.Op.Kind == OpNone {
		return r
	}
	t := r.Pending
	r.Pending = Txn{}
	return p.propose(self, r, t, out)
}
