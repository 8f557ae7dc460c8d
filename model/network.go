package model

import (
	"bytes"
	"fmt"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// Network is the semantics of the channels between nodes.
type Network uint8

// The network kinds.
const (
	// FIFO: reliable, and FIFO per ordered pair of nodes (the notes' model).
	FIFO Network = iota
	// Unordered: reliable, but any message in flight may be delivered next.
	Unordered
)

// String is the name used on the command line and in files.
func (n Network) String() string {
	switch n {
	case FIFO:
		return "fifo"
	case Unordered:
		return "unordered"
	}
	return fmt.Sprintf("network(%d)", uint8(n))
}

// ParseNetwork reads a network name.
func ParseNetwork(s string) (Network, error) {
	switch s {
	case "fifo", "":
		return FIFO, nil
	case "unordered":
		return Unordered, nil
	}
	return 0, fmt.Errorf("unknown network %s (valid: fifo, unordered)", clip.Quote(s))
}

// insert puts e into w.Net at its canonical place.
func (sys *System[S, M]) insert(w *World[S, M], e Envelope[M]) {
	i := len(w.Net)
	for i > 0 {
		p := &w.Net[i-1]
		if p.To < e.To || (p.To == e.To && p.From < e.From) {
			break
		}
		if p.To == e.To && p.From == e.From &&
			(sys.Config.Network == FIFO || sys.envCompare(p, &e) <= 0) {
			break
		}
		i--
	}
	w.Net = append(w.Net, e)
	copy(w.Net[i+1:], w.Net[i:])
	w.Net[i] = e
}

// envCompare orders two envelopes of one link by content: protocol
// messages before application ones, then by encoding, then by vector.
func (sys *System[S, M]) envCompare(a, b *Envelope[M]) int {
	if a.App != b.App {
		if b.App {
			return -1
		}
		return 1
	}
	sys.ka = sys.codec.AppendMsg(sys.ka[:0], a.Msg)
	sys.kb = sys.codec.AppendMsg(sys.kb[:0], b.Msg)
	if c := bytes.Compare(sys.ka, sys.kb); c != 0 {
		return c
	}
	switch {
	case a.VC < b.VC:
		return -1
	case a.VC > b.VC:
		return 1
	}
	return 0
}

// dropWhere removes the messages in flight for which lost holds.
func (sys *System[S, M]) dropWhere(w *World[S, M], lost func(e *Envelope[M]) bool) {
	kept := w.Net[:0]
	for i := range w.Net {
		if !lost(&w.Net[i]) {
			kept = append(kept, w.Net[i])
		}
	}
	w.Net = kept
}
