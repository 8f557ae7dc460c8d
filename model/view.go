package model

// FormatEnvelope renders the message e carries as traces show it:
// "REQ(ts=1)", or "APP" for an application message.
func (sys *System[S, M]) FormatEnvelope(e *Envelope[M]) string { return sys.formatEnvelope(e) }

// TimerName is the name node id's timer t has in traces ("t0" unless the
// protocol names its timers, TimerNamer).
func (sys *System[S, M]) TimerName(id NodeID, t TimerID) string { return sys.timerName(id, t) }

// ArmedTimers lists the timers armed at node id in w, by name, in timer
// order.
func (sys *System[S, M]) ArmedTimers(w *World[S, M], id NodeID) []string {
	var ts []string
	for t := w.Timers[id]; t != 0; t &= t - 1 {
		ts = append(ts, sys.timerName(id, TimerID(trailingZeros(t))))
	}
	return ts
}
