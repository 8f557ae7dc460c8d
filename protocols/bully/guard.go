package bully

import "github.com/coordcheck/coordcheck/model"

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// Protocol implements model.TimersGuard (checked by the compiler).
var _ model.TimersGuard[State, Msg] = (*Protocol)(nil)

// ReadyTimers is the synchronous system of the notes ("it can use timeouts
// to detect process failures"): a timer fires only when waiting longer is
// pointless. These are the guards of the SPIN model, verbatim:
//
//   - detect: the process is NORMAL and its coordinator is down
//     (alive[coord] in SPIN: a perfect failure detector);
//   - ok-timeout (WAIT_OK): quiet: none of p's ELECTIONs is still in
//     flight (every live receiver answers on receipt) and no OK or COORD
//     is in flight towards p;
//   - coord-timeout (WAIT_COORD): quiet, and no live higher process is in
//     an election, and no ELECTION is in flight to a higher process, so
//     nobody can still send p a COORD.
//
// A weaker WAIT_COORD guard ("nothing in my channels") makes the state
// space infinite (SPIN README, 2.3). One pass over the messages in flight
// serves every process's guard (model.TimersGuard); each phase has one
// timer, so a process has at most one ready.
func (p *Protocol) ReadyTimers(w *model.World[State, Msg], ready []uint64) {
	var f flight // read when a process first needs it (most are NORMAL)
	read := false
	for i := range w.Nodes {
		self, s := model.NodeID(i), &w.Nodes[i]
		r := uint64(0)
		switch s.Phase {
		case Normal:
			if s.Coord != NoCoord && s.Coord != self && w.IsDown(s.Coord) {
				r = 1 << TimerDetect
			}
		case WaitOK:
			if !read {
				f, read = inFlight(w), true
			}
			if f.quiet(self) {
				r = 1 << TimerOK
			}
		case WaitCoord:
			if !read {
				f, read = inFlight(w), true
			}
			if f.quiet(self) && p.higherIdle(w, self, f) {
				r = 1 << TimerCoord
			}
		}
		ready[i] = r
	}
}

// TimerReady is ReadyTimers for one timer (model.TimerGuard).
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	var ready [model.MaxNodes]uint64
	p.ReadyTimers(w, ready[:len(w.Nodes)])
	return ready[self]&(1<<t) != 0
}

// flight is what the guards need of the messages in flight, by process
// (bit i for process i): whose ELECTIONs are in flight (electing), who has
// an ELECTION coming (challenged), and who has an OK or COORD coming
// (answered).
type flight struct{ electing, challenged, answered uint64 }

// inFlight reads w's messages in flight once for every guard.
func inFlight(w *model.World[State, Msg]) flight {
	var f flight
	for i := range w.Net {
		switch e := &w.Net[i]; e.Msg {
		case Election:
			f.electing |= 1 << (e.From & 63)
			f.challenged |= 1 << (e.To & 63)
		case OK, Coordinator:
			f.answered |= 1 << (e.To & 63)
		}
	}
	return f
}

// quiet: no reply is pending for self: none of its ELECTIONs is in flight,
// and no OK or COORD is in flight towards it.
func (f flight) quiet(self model.NodeID) bool {
	return (f.electing|f.answered)>>(self&63)&1 == 0
}

// higherIdle: no process above self will ever send it a COORD: every live
// higher process is NORMAL, and no ELECTION is in flight to one.
func (p *Protocol) higherIdle(w *model.World[State, Msg], self model.NodeID, f flight) bool {
	for q := int(self) + 1; q < p.N; q++ {
		if id := model.NodeID(q); !w.IsDown(id) && w.Nodes[q].Phase != Normal {
			return false
		}
	}
	return f.challenged>>(self+1) == 0
}
