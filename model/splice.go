package model

import "bytes"

// EncodePeeked appends to b the encoding of the world after action a
// from w, the world h was loaded with by LoadFP given w's encoding and
// spans: the bytes EncodeStep gives for the world Apply makes. ref is
// Peeked after PeekHash served a from w (other steps may have been
// peeked since). No world is made: the stepping node's new
// state and the messages it sends are the memo's encodings, the rest is
// copied from the parent's encoding, and the new messages are put in
// their canonical places among the parent's (as insert puts them).
func (sys *System[S, M]) EncodePeeked(b []byte, h *WorldHash, w *World[S, M], a *Action, ref MemoRef) []byte {
	e := sys.memoAt(ref, h, w, a)
	enc, spans, n := h.enc, h.spans, sys.n
	// The nodes, a.Node's new.
	from := uint32(0)
	if a.Node > 0 {
		from = spans[a.Node-1]
	}
	b = append(b, enc[:from]...)
	b = append(b, e.after...)
	b = append(b, enc[spans[a.Node]:spans[n-1]]...)
	// The timers, a.Node's new; the rest up to the history unchanged (a
	// protocol step changes no crash, fault count, partition nor
	// application-message count); the history with the step's records.
	at := int(spans[n-1])
	for j := range n {
		t := w.Timers[j]
		if NodeID(j) == a.Node {
			t = e.tAfter
		}
		b = AppendUvarint(b, t)
		at += uvarintLen(enc[at:])
	}
	rest := at
	at += uvarintLen(enc[at:]) // Down
	if sys.faulty {
		at += int(numFaults)
		at += uvarintLen(enc[at:]) // Cut
	}
	if sys.Config.AppMsgs > 0 {
		at++ // AppSent
	}
	b = append(b, enc[rest:at]...)
	if sys.Config.History {
		b = sys.spliceHistory(b, enc, at, a.Node, &sys.memoRecs[uint64(ref)>>sys.memoShift])
	}
	return sys.spliceNet(b, h, w, a, e)
}

// spliceNet appends the network after step a (memo e) from w: w's
// messages but the one delivered, and the messages sent that are not
// lost, each after the messages of its link on a FIFO network, in order
// of encoding on an unordered one (protocol messages before application
// ones), as insert puts them one by one.
func (sys *System[S, M]) spliceNet(b []byte, h *WorldHash, w *World[S, M], a *Action, e *memoEntry) []byte {
	// The messages sent that arrive, in the order insert leaves them:
	// by receiver (they all come from a.Node), in sending order within
	// one link, or in order of encoding on an unordered network.
	order := h.order[:0]
	for k, snd := range e.sends {
		if !w.IsDown(snd.to) && !w.Separated(a.Node, snd.to) {
			order = append(order, k)
		}
	}
	for x := 1; x < len(order); x++ { // insertion sort, stable: a step sends few
		for y := x; y > 0 && sys.sentBefore(e, order[y], order[y-1]); y-- {
			order[y], order[y-1] = order[y-1], order[y]
		}
	}
	h.order = order
	count := len(w.Net) + len(order)
	if a.Kind == ActDeliver {
		count--
	}
	b = AppendUvarint(b, uint64(count))
	// The parent's messages are copied in runs, between the places of
	// the messages sent, the delivered one cut out.
	appBytes := uint32(0)
	if sys.Config.AppMsgs > 0 {
		appBytes = 1
	}
	start := func(k int) uint32 { // where message k's envelope starts
		if k == len(w.Net) {
			return uint32(len(h.enc)) // the network ends the encoding
		}
		return h.spans[sys.n+2*k] - 2 - appBytes
	}
	cut := -1
	if a.Kind == ActDeliver {
		cut = int(a.Slot)
	}
	done := 0 // the parent's messages before done are copied
	copyTo := func(k int) {
		if done <= cut && cut < k {
			b = append(b, h.enc[start(done):start(cut)]...)
			done = cut + 1
		}
		b = append(b, h.enc[start(done):start(k)]...)
		done = k
	}
	for _, x := range order {
		k := done
		for ; k < len(w.Net); k++ {
			if k != cut {
				msg := sys.n + 2*k
				if sys.sentGoesFirst(e, x, a.Node, &w.Net[k], h.enc[h.spans[msg]:h.spans[msg+1]]) {
					break
				}
			}
		}
		copyTo(k)
		b = sys.appendSent(b, e, x, a.Node)
	}
	copyTo(len(w.Net))
	return b
}

// sentBefore reports whether message x sent in memo e goes before
// message y, sent before it, once both are inserted.
func (sys *System[S, M]) sentBefore(e *memoEntry, x, y int) bool {
	if e.sends[x].to != e.sends[y].to {
		return e.sends[x].to < e.sends[y].to
	}
	return sys.Config.Network != FIFO && bytes.Compare(e.sentMsg(x), e.sentMsg(y)) < 0
}

// sentGoesFirst reports whether message x sent in memo e from node self
// goes before the parent's message p, whose encoding is msg.
func (sys *System[S, M]) sentGoesFirst(e *memoEntry, x int, self NodeID, p *Envelope[M], msg []byte) bool {
	to := e.sends[x].to
	if to != p.To {
		return to < p.To
	}
	if self != p.From {
		return self < p.From
	}
	if sys.Config.Network == FIFO {
		return false // behind the link's messages
	}
	return p.App || bytes.Compare(msg, e.sentMsg(x)) > 0
}

// appendSent appends the envelope of message x sent in memo e from self.
func (sys *System[S, M]) appendSent(b []byte, e *memoEntry, x int, self NodeID) []byte {
	b = append(b, byte(e.sends[x].to), byte(self))
	if sys.Config.AppMsgs > 0 {
		b = AppendBool(b, false)
	}
	return append(b, e.sentMsg(x)...)
}

// sentMsg is the encoding of the k-th message the memoized step sent.
func (e *memoEntry) sentMsg(k int) []byte {
	from := uint32(0)
	if k > 0 {
		from = e.sends[k-1].end
	}
	return e.out[from:e.sends[k].end]
}
