package model

// Fairness classes: liveness is checked under weak fairness. An action
// class that stays enabled must eventually be taken. The classes are the
// delivery on each link (a FIFO link's head; on an unordered network, each
// distinct message), each node's timers, and the protocol's fair inputs.
// Faults are never fair, and neither are the other inputs.

// FairClass returns the fairness class of a, enabled in w, and whether a
// is weakly fair at all. Two actions of one class are the same obligation.
func (sys *System[S, M]) FairClass(w *World[S, M], a Action) (uint64, bool) {
	base := uint64(a.Kind)<<56 | uint64(a.Node)<<48 | uint64(a.Peer)<<40
	switch a.Kind {
	case ActDeliver:
		if sys.Config.Network == FIFO {
			return base, true
		}
		sys.ka = sys.codec.AppendMsg(sys.ka[:0], w.Net[a.Slot].Msg)
		return base ^ Fingerprint(sys.ka)>>24, true
	case ActFire:
		return base | uint64(a.Timer), true
	case ActInput:
		if f, ok := sys.P.(FairInputs); ok && f.FairInput(a.Node, a.Input) {
			return base ^ Fingerprint([]byte(a.Input))>>24, true
		}
	}
	return 0, false
}
