package lamport

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/bruteforce"
	"github.com/coordcheck/coordcheck/internal/long"
	"github.com/coordcheck/coordcheck/model"
)

// An independent brute-force enumeration of seed 002's algorithm, sharing no
// code with the package or the checker: sites keep their request queue as
// an explicit sorted list of (ts, id) pairs, channels are slices of
// messages per ordered pair, and a world is identified by the text of all
// its fields; internal/bruteforce counts them. Its counts must equal the
// checker's.

type eReq struct{ ts, id int }

type eSite struct {
	phase, clock, rounds int
	queue                []eReq // sorted by (ts, id)
	heard                []bool // L1: a later message from site j since the request
}

type eMsg struct {
	kind byte // 'Q' request, 'P' reply, 'L' release
	ts   int
}

type eWorld struct {
	sites []eSite
	ch    [][]eMsg // ch[i*n+j]: from i to j, head first
}

func (w eWorld) clone() eWorld {
	c := eWorld{sites: make([]eSite, len(w.sites)), ch: make([][]eMsg, len(w.ch))}
	for i, s := range w.sites {
		s.queue = slices.Clone(s.queue)
		s.heard = slices.Clone(s.heard)
		c.sites[i] = s
	}
	for i := range w.ch {
		c.ch[i] = slices.Clone(w.ch[i])
	}
	return c
}

// key is the world's identity: every field, in order.
func (w eWorld) key() string {
	var b []byte
	for _, s := range w.sites {
		b = append(b, byte(s.phase), byte(s.rounds))
		b = binary.AppendUvarint(b, uint64(s.clock))
		for _, r := range s.queue {
			b = binary.AppendUvarint(append(b, byte(r.id)), uint64(r.ts))
		}
		b = append(b, '|')
		for _, h := range s.heard {
			b = append(b, map[bool]byte{false: '0', true: '1'}[h])
		}
	}
	for _, c := range w.ch {
		b = append(b, '|')
		for _, m := range c {
			b = binary.AppendUvarint(append(b, m.kind), uint64(m.ts))
		}
	}
	return string(b)
}

func less(a, b eReq) bool { return a.ts < b.ts || (a.ts == b.ts && a.id < b.id) }

func enumerate(n, rounds int) bruteforce.Counts {
	const released, wanted, held = 0, 1, 2
	init := eWorld{ch: make([][]eMsg, n*n)}
	for range n {
		init.sites = append(init.sites, eSite{heard: make([]bool, n)})
	}
	succ := func(w eWorld) []eWorld {
		var out []eWorld
		for i := range n {
			s := w.sites[i]
			own := -1
			for k, r := range s.queue {
				if r.id == i {
					own = k
				}
			}
			if s.phase == released && s.rounds < rounds { // request
				x := w.clone()
				t := &x.sites[i]
				t.phase, t.clock = wanted, t.clock+1
				t.queue = append(t.queue, eReq{t.clock, i})
				slices.SortFunc(t.queue, func(a, b eReq) int {
					if less(a, b) {
						return -1
					}
					return 1
				})
				t.heard = make([]bool, n)
				for j := range n {
					if j != i {
						x.ch[i*n+j] = append(x.ch[i*n+j], eMsg{'Q', t.clock})
					}
				}
				out = append(out, x)
			}
			if s.phase == wanted { // enter on L1 and L2
				l1 := true
				for j := range n {
					l1 = l1 && (j == i || s.heard[j])
				}
				if l1 && s.queue[0].id == i {
					x := w.clone()
					x.sites[i].phase = held
					out = append(out, x)
				}
			}
			if s.phase == held { // exit
				x := w.clone()
				t := &x.sites[i]
				t.phase, t.rounds = released, t.rounds+1
				t.queue = slices.Delete(t.queue, own, own+1)
				t.heard = make([]bool, n)
				for j := range n {
					if j != i {
						x.ch[i*n+j] = append(x.ch[i*n+j], eMsg{'L', t.clock})
					}
				}
				out = append(out, x)
			}
			for j := range n { // the head message from j
				if len(w.ch[j*n+i]) == 0 {
					continue
				}
				x := w.clone()
				m := x.ch[j*n+i][0]
				x.ch[j*n+i] = x.ch[j*n+i][1:]
				t := &x.sites[i]
				t.clock = 1 + max(t.clock, m.ts)
				if own >= 0 && less(t.queue[own], eReq{m.ts, j}) {
					t.heard[j] = true
				}
				switch m.kind {
				case 'Q':
					t.queue = append(t.queue, eReq{m.ts, j})
					slices.SortFunc(t.queue, func(a, b eReq) int {
						if less(a, b) {
							return -1
						}
						return 1
					})
					x.ch[i*n+j] = append(x.ch[i*n+j], eMsg{'P', t.clock})
				case 'L':
					t.queue = slices.DeleteFunc(t.queue, func(r eReq) bool { return r.id == j })
				}
				out = append(out, x)
			}
		}
		return out
	}
	return bruteforce.Count(init, eWorld.key, succ)
}

func TestIndependentEnumeration(t *testing.T) {
	cases := []struct {
		n, rounds int
		long      bool
	}{{2, 1, false}, {2, 2, false}, {2, 3, false}, {3, 1, true}}
	for _, c := range cases {
		if c.long && !long.Enabled() {
			continue
		}
		rep := spec(c.n, c.rounds, model.FIFO).Check(checker.Options{})
		enumerate(c.n, c.rounds).Require(t, rep.States, rep.Transitions, rep.Depth, "n=%d rounds=%d", c.n, c.rounds)
	}
}
