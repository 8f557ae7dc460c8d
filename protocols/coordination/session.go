package coordination

import (
	"fmt"

	quote "github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
)

// Chubby's session as its client sees it: the local lease, jeopardy and
// the grace period (seed 004, "Client Sessions" and "Master Failure": "if
// client does not hear back about Keep-Alive in local lease timeout,
// session is in jeopardy: clear local cache; wait for grace period;
// continue attempt to contact master; successful attempt => ok; jeopardy
// over; failed attempt => session assumed lost"; "Master failed over" is
// one of Chubby's events). Register clients that cache /x (cache.go) talk
// to the master, p0 at first ("clients find master through DNS; contacting
// replica causes redirect to master": a replica that does not lead refuses
// them), and hold a lease from it:
//
//   - Local lease. A client's lease is renewed by the KeepAlives of the
//     master that granted it while that master lives; its timer (lease)
//     fires once that master has crashed. The client enters jeopardy: it
//     empties and disables its cache, tells the application ("jeopardy"),
//     and starts its grace period.
//   - Fail-over. A newly established master tells every open session that
//     the master failed over (FAILOVER(e), which is also its first
//     KeepAlive reply); a client in jeopardy is safe again ("safe") and
//     holds its lease from the new master; any client empties its cache,
//     for it may have missed invalidations. The new master does not know
//     who caches: it counts every open session as a cacher.
//   - Grace period. Its timer (grace) fires only if no master can be
//     reached within it: a grace period longer than any fail-over (45s
//     against elections of 4-6s, seed 000) runs out only when too few
//     replicas live to elect one. Then the client declares its session
//     lost ("expired"), drops its cache and stops: it acts no more on it.
//   - The master's side of the lease. "Modification only continues after
//     all caches invalidated or Keep-Alive time out": a write held for the
//     invalidations of a client that does not answer goes on once that
//     client's lease has timed out at the master (timer lapse-pN). The
//     client's local lease is a conservative, shorter, estimate of the
//     master's, so the master's runs out only after the client's has:
//     once the client is in jeopardy (or expired, or down).
//
// The properties: cached reads stay linearizable across a fail-over (a
// client in jeopardy serves no cached read, and the master writes without
// a client's acknowledgement only after that client's cache is off); a
// client told its session expired acts no more on it (no-act-after-expiry);
// a session survives a fail-over shorter than the grace period
// (session-survives-failover, judged at the end of a run). Two
// deliberately broken variants: KeepCacheInJeopardy (the cache goes on
// serving in jeopardy: a stale read after the new master's write, caught
// by porcupine) and NoGrace (the session is declared expired as soon as
// the local lease runs out, while the new master would honour it).

// SessionMode is whether clients keep Chubby sessions, and how.
type SessionMode uint8

// The session modes.
const (
	NoSessions          SessionMode = iota // sessions are not the clients' concern (the other workloads)
	GraceSessions                          // jeopardy, then a grace period longer than a fail-over
	NoGrace                                // broken: expired as soon as the local lease runs out
	KeepCacheInJeopardy                    // broken: the cache goes on serving in jeopardy
)

var sessionNames = [...]string{NoSessions: "off", GraceSessions: "grace", NoGrace: "nograce", KeepCacheInJeopardy: "keepcache"}

// String is the mode's name.
func (m SessionMode) String() string { return sessionNames[m] }

// SessState is a Chubby session as its client sees it.
type SessState uint8

// The session states, and the events the application is told on entering
// them: "jeopardy", "safe", "expired".
const (
	Safe       SessState = iota // the local lease holds
	InJeopardy                  // the local lease ran out: cache off, within the grace period
	Expired                     // the grace period ran out: the session is lost
)

var sessStateNames = [...]string{Safe: "SAFE", InJeopardy: "JEOPARDY", Expired: "EXPIRED"}

// String is the state's name in traces.
func (s SessState) String() string { return sessStateNames[s] }

// The timers of the sessions (see TimerName).
const (
	TimerLease model.TimerID = 4  // a client: its local lease ran out
	TimerGrace model.TimerID = 5  // a client: its grace period ran out
	TimerLapse model.TimerID = 16 // the master: TimerLapse+c, client c's lease timed out
)

// NewChubbySession returns the service with register clients that cache
// /x and keep Chubby sessions in the given mode: client 0 writes once,
// the others read ops times each.
func NewChubbySession(replicas, clients, ops int, mode SessionMode) *Protocol {
	p := NewRegister(replicas, clients, ops, LeaderReads)
	p.Cache, p.Sessions = Invalidating, mode
	return p
}

// ParseSessions reads the entry's parameters: grace "long" or "none" and
// jeopardy "clear" or "keep"; one broken variant at a time.
func ParseSessions(grace, jeopardy string) (SessionMode, error) {
	switch {
	case grace != "long" && grace != "none":
		return 0, fmt.Errorf("grace=%s: want long or none", quote.Quote(grace))
	case jeopardy != "clear" && jeopardy != "keep":
		return 0, fmt.Errorf("jeopardy=%s: want clear or keep", quote.Quote(jeopardy))
	case grace == "none" && jeopardy == "keep":
		return 0, fmt.Errorf("grace=none with jeopardy=keep: one broken variant at a time")
	case grace == "none":
		return NoGrace, nil
	case jeopardy == "keep":
		return KeepCacheInJeopardy, nil
	}
	return GraceSessions, nil
}

// leaseRanOut: the client's local lease timed out: "session is in
// jeopardy: clear local cache; wait for grace period" (at once expired
// without a grace period: the broken NoGrace).
func (p *Protocol) leaseRanOut(self model.NodeID, s Client, out *model.Out[Msg]) Client {
	if s.Sess != Safe {
		return s
	}
	if p.Sessions == NoGrace {
		return p.expire(self, s, out)
	}
	s.Sess = InJeopardy
	if p.Sessions != KeepCacheInJeopardy {
		s.Cached = 0
	}
	out.SetTimer(TimerGrace)
	return s
}

// expire: the session is assumed lost; the application is told, and the
// client acts on it no more: an operation in flight has an unknown
// outcome, the cache goes, and it gives up (the master closes the
// session: nobody renews it).
func (p *Protocol) expire(self model.NodeID, s Client, out *model.Out[Msg]) Client {
	s.Sess, s.Phase, s.Cached = Expired, Failed, 0
	if s.Busy {
		out.Output("info " + p.script(p.clientOf(self), s.Next-1).text())
		out.CancelTimer(TimerConnLoss)
		s.Busy = false
	}
	out.CancelTimer(TimerLease)
	out.CancelTimer(TimerGrace)
	return s
}

// onFailover: the new master of epoch e reached the client: its lease is
// now the new master's, jeopardy is over ("successful attempt => ok"),
// and the cache is emptied; the client directs its next requests to the
// new master.
func (p *Protocol) onFailover(s Client, from model.NodeID, e uint8, out *model.Out[Msg]) Client {
	if s.Sess == Expired {
		return s
	}
	if s.Sess == InJeopardy {
		out.CancelTimer(TimerGrace)
	}
	s.Sess, s.Lease, s.Cached = Safe, e, 0
	if !s.Busy {
		s.Conn = uint8(from)
	}
	out.SetTimer(TimerLease)
	return s
}

// mayCache says whether a client may cache a read answered by from: with
// sessions, only while its lease holds and from the master that granted
// it (an old master's answer, late, was not invalidated by the new one).
func (p *Protocol) mayCache(s Client, from model.NodeID) bool {
	return p.Sessions == NoSessions || (s.Sess == Safe && from == p.leaderOf(s.Lease))
}

// failover is the newly established master's fail-over event to every
// open session, which counts as a cacher until a write invalidates it.
func (p *Protocol) failover(r Replica, out *model.Out[Msg]) Replica {
	closed := p.tree(r).Closed
	for c := range p.C {
		if closed&(1<<c) == 0 {
			out.Send(p.clientNode(uint8(c)), Msg{Kind: Failover, Epoch: r.Accepted})
			r.Cachers |= 1 << c
		}
	}
	return r
}

// lapse: client c's lease timed out at the master, which no longer waits
// for its invalidation; the held write commits once nobody else is
// awaited.
func (p *Protocol) lapse(self model.NodeID, r Replica, c uint8, out *model.Out[Msg]) Replica {
	if r.Role != Leading || r.Waiting&(1<<c) == 0 {
		return r
	}
	return p.onInvAck(self, r, c, out)
}

// sessionTimerReady is TimerReady for the timers of the sessions.
func (p *Protocol) sessionTimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	switch {
	case t == TimerLease:
		// The master that granted the lease leads no more: no KeepAlive
		// renews it.
		c := &w.Nodes[self].C
		return c.Sess == Safe && !p.leads(w, p.leaderOf(c.Lease), c.Lease)
	case t == TimerGrace:
		// A grace period longer than a fail-over: it runs out only when no
		// master can be elected.
		up := 0
		for i := range p.R {
			if !w.IsDown(model.NodeID(i)) {
				up++
			}
		}
		return up < p.majority()
	}
	// lapse-pN at the master: pN's local lease has run out (it is in
	// jeopardy, expired or down), so the master's, longer, has too.
	c := p.clientNode(uint8(t - TimerLapse))
	r := &w.Nodes[self].R
	return r.Role == Leading && r.Waiting&(1<<(t-TimerLapse)) != 0 && (w.IsDown(c) || w.Nodes[c].C.Sess != Safe)
}

// Property names of the sessions.
const (
	SessionSurvivesName  = "session-survives-failover"
	NoActAfterExpiryName = "no-act-after-expiry"
)

// SessionSurvives: at the end of a run in which a majority of the
// replicas lives (so that a fail-over is shorter than the grace period),
// every live client's session is safe.
func (p *Protocol) SessionSurvives() Invariant {
	return Invariant{
		Name:     SessionSurvivesName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			up, master := 0, -1
			for i := range p.R {
				if !w.IsDown(model.NodeID(i)) {
					up++
					if w.Nodes[i].R.Role == Leading {
						master = i
					}
				}
			}
			if up < p.majority() {
				return true, ""
			}
			for c := range p.C {
				id := p.clientNode(uint8(c))
				if s := w.Nodes[id].C.Sess; !w.IsDown(id) && s != Safe {
					where := "no master"
					if master >= 0 {
						where = fmt.Sprintf("master p%d (epoch %d)", master, w.Nodes[master].R.Accepted)
					}
					return false, fmt.Sprintf("the run ends with %s's session %s, though a majority lives and %s serves: the fail-over was shorter than a grace period",
						id, s, where)
				}
			}
			return true, ""
		},
		PremiseDoc: "a session through a fail-over",
		Premise: func(w *model.World[State, Msg]) bool {
			for c := range p.C {
				if s := &w.Nodes[p.clientNode(uint8(c))].C; s.Sess != Safe || s.Lease > 1 {
					return true
				}
			}
			return false
		},
	}
}

// NoActAfterExpiry: a client told that its session expired has no
// operation in flight and serves no read from its cache.
func (p *Protocol) NoActAfterExpiry() Invariant {
	return Invariant{
		Name: NoActAfterExpiryName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for c := range p.C {
				id := p.clientNode(uint8(c))
				s := &w.Nodes[id].C
				if s.Sess == Expired && (s.Busy || s.Cached != 0) {
					return false, fmt.Sprintf("%s acts on its session after it was told it expired", id)
				}
			}
			return true, ""
		},
		PremiseDoc: "a session expired",
		Premise: func(w *model.World[State, Msg]) bool {
			for c := range p.C {
				if w.Nodes[p.clientNode(uint8(c))].C.Sess == Expired {
					return true
				}
			}
			return false
		},
	}
}
