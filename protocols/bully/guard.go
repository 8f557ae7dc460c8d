package bully

import "github.com/coordcheck/coordcheck/model"

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady is the synchronous system of the notes ("it can use timeouts
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
// space infinite (SPIN README, 2.3).
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	s := w.Nodes[self]
	switch t {
	case TimerDetect:
		return s.Phase == Normal && s.Coord != NoCoord && s.Coord != self && w.IsDown(s.Coord)
	case TimerOK:
		return s.Phase == WaitOK && quiet(w, self)
	case TimerCoord:
		return s.Phase == WaitCoord && quiet(w, self) && p.higherIdle(w, self)
	}
	return false
}

// quiet: no reply is pending for self: none of its ELECTIONs is in flight,
// and no OK or COORD is in flight towards it.
func quiet(w *model.World[State, Msg], self model.NodeID) bool {
	for _, e := range w.Net {
		if e.From == self && e.Msg == Election {
			return false
		}
		if e.To == self && (e.Msg == OK || e.Msg == Coordinator) {
			return false
		}
	}
	return true
}

// higherIdle: no process above self will ever send it a COORD: every live
// higher process is NORMAL, and no ELECTION is in flight to one.
func (p *Protocol) higherIdle(w *model.World[State, Msg], self model.NodeID) bool {
	for q := int(self) + 1; q < p.N; q++ {
		if id := model.NodeID(q); !w.IsDown(id) && w.Nodes[q].Phase != Normal {
			return false
		}
	}
	for _, e := range w.Net {
		if e.To > self && e.Msg == Election {
			return false
		}
	}
	return true
}
