package voting

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/bruteforce"
)

// An independent brute-force enumeration of seed 001's rules, sharing no
// code with the package or the checker: a coordinator keeps its vote as a
// request and its queue as an explicit sorted list; channels are slices of
// messages per ordered pair; a world is identified by the bytes of all its
// fields; internal/bruteforce counts them. Its counts must equal the
// checker's.

type vReq struct{ ts, id int }

type vProc struct {
	phase, clock, ts, rounds int
	backoff                  bool
	view                     []int // vote reported by coordinator k, -1 unknown
}

type vCoord struct {
	vote  *vReq
	queue []vReq // sorted by (ts, id)
}

type vMsg struct {
	kind byte // 'Q' request, 'S' response, 'Y' yield, 'L' release
	ts   int
	vote int
}

type vWorld struct {
	procs  []vProc
	coords []vCoord
	ch     [][]vMsg // ch[from*nodes+to], head first
}

func (w vWorld) clone() vWorld {
	x := vWorld{procs: slices.Clone(w.procs), coords: slices.Clone(w.coords), ch: make([][]vMsg, len(w.ch))}
	for i := range x.procs {
		x.procs[i].view = slices.Clone(x.procs[i].view)
	}
	for k := range x.coords {
		if v := x.coords[k].vote; v != nil {
			c := *v
			x.coords[k].vote = &c
		}
		x.coords[k].queue = slices.Clone(x.coords[k].queue)
	}
	for i := range w.ch {
		x.ch[i] = slices.Clone(w.ch[i])
	}
	return x
}

func (w vWorld) key() string {
	var b []byte
	num := func(v int) { b = binary.AppendVarint(b, int64(v)) }
	for _, p := range w.procs {
		num(p.phase)
		num(p.clock)
		num(p.ts)
		num(p.rounds)
		b = append(b, map[bool]byte{false: 'f', true: 't'}[p.backoff])
		for _, v := range p.view {
			num(v)
		}
	}
	for _, c := range w.coords {
		if c.vote == nil {
			b = append(b, 'n')
		} else {
			b = append(b, 'v')
			num(c.vote.ts)
			num(c.vote.id)
		}
		num(len(c.queue))
		for _, r := range c.queue {
			num(r.ts)
			num(r.id)
		}
	}
	for _, c := range w.ch {
		num(len(c))
		for _, m := range c {
			b = append(b, m.kind)
			num(m.ts)
			num(m.vote)
		}
	}
	return string(b)
}

func enumerate(n, c, rounds int, opt Option) bruteforce.Counts {
	const released, wanted, held = 0, 1, 2
	nodes, majority := n+c, c/2+1
	init := vWorld{coords: make([]vCoord, c), ch: make([][]vMsg, nodes*nodes)}
	for range n {
		v := make([]int, c)
		for k := range v {
			v[k] = -1
		}
		init.procs = append(init.procs, vProc{view: v})
	}
	send := func(w *vWorld, from, to int, m vMsg) { w.ch[from*nodes+to] = append(w.ch[from*nodes+to], m) }
	enqueue := func(q []vReq, r vReq) []vReq {
		q = append(q, r)
		slices.SortFunc(q, func(a, b vReq) int {
			if a.ts != b.ts {
				return a.ts - b.ts
			}
			return a.id - b.id
		})
		return q
	}
	succ := func(w vWorld) []vWorld {
		var out []vWorld
		for i := range n {
			p := w.procs[i]
			mine := 0
			for _, v := range p.view {
				if v == i {
					mine++
				}
			}
			if p.phase == released && p.rounds < rounds {
				x := w.clone()
				q := &x.procs[i]
				q.phase, q.clock = wanted, q.clock+1
				q.ts = q.clock
				for k := range c {
					send(&x, i, n+k, vMsg{'Q', q.ts, 0})
				}
				out = append(out, x)
			}
			if p.phase == wanted && mine >= majority {
				x := w.clone()
				x.procs[i].phase, x.procs[i].backoff = held, false
				out = append(out, x)
			}
			if p.phase == wanted && p.backoff {
				x := w.clone()
				x.procs[i].backoff = false
				for k := range c {
					if p.view[k] < 0 {
						send(&x, i, n+k, vMsg{'Q', p.ts, 0})
					}
				}
				out = append(out, x)
			}
			if p.phase == held {
				x := w.clone()
				q := &x.procs[i]
				q.phase, q.rounds, q.ts = released, q.rounds+1, 0
				for k := range c {
					q.view[k] = -1
					send(&x, i, n+k, vMsg{'L', 0, 0})
				}
				out = append(out, x)
			}
			for k := range c {
				if len(w.ch[(n+k)*nodes+i]) == 0 {
					continue
				}
				x := w.clone()
				m := x.ch[(n+k)*nodes+i][0]
				x.ch[(n+k)*nodes+i] = x.ch[(n+k)*nodes+i][1:]
				q := &x.procs[i]
				q.clock = max(q.clock, m.ts)
				if q.phase == wanted && (m.vote != i || m.ts == q.ts) {
					q.view[k] = m.vote
					count := make([]int, n)
					known := true
					for _, v := range q.view {
						if v < 0 {
							known = false
						} else {
							count[v]++
						}
					}
					if known && count[i] > 0 && slices.Max(count) < majority {
						for kk := range c {
							if q.view[kk] != i {
								continue
							}
							q.view[kk] = -1
							if opt == OptionYield {
								send(&x, i, n+kk, vMsg{'Y', q.ts, 0})
							} else {
								send(&x, i, n+kk, vMsg{'L', 0, 0})
							}
						}
						q.backoff = opt == OptionBackoff
					}
				}
				out = append(out, x)
			}
		}
		for k := range c {
			for j := range n {
				if len(w.ch[j*nodes+n+k]) == 0 {
					continue
				}
				x := w.clone()
				m := x.ch[j*nodes+n+k][0]
				x.ch[j*nodes+n+k] = x.ch[j*nodes+n+k][1:]
				co := &x.coords[k]
				respond := func(to int) { send(&x, n+k, to, vMsg{'S', co.vote.ts, co.vote.id}) }
				switch m.kind {
				case 'Q':
					if co.vote == nil {
						co.vote = &vReq{m.ts, j}
					} else {
						co.queue = enqueue(co.queue, vReq{m.ts, j})
					}
					respond(j)
				case 'Y':
					former := co.vote.id
					co.queue = enqueue(co.queue, vReq{m.ts, j})
					head := co.queue[0]
					co.vote, co.queue = &head, co.queue[1:]
					respond(co.vote.id)
					if co.vote.id != former {
						respond(former)
					}
				case 'L':
					if co.vote != nil && co.vote.id == j {
						co.vote = nil
						if len(co.queue) > 0 {
							head := co.queue[0]
							co.vote, co.queue = &head, co.queue[1:]
							respond(co.vote.id)
						}
					} else {
						co.queue = slices.DeleteFunc(co.queue, func(r vReq) bool { return r.id == j })
					}
				}
				out = append(out, x)
			}
		}
		return out
	}
	return bruteforce.Count(init, vWorld.key, succ)
}

func TestIndependentEnumeration(t *testing.T) {
	cases := []struct{ n, c, rounds int }{
		{1, 1, 1}, {2, 1, 1}, {1, 3, 2}, {2, 2, 1}, {2, 2, 2}, {3, 2, 1}, {3, 1, 2}, {2, 3, 1},
	}
	for _, opt := range []Option{OptionYield, OptionBackoff} {
		for _, c := range cases {
			rep := spec(c.n, c.c, c.rounds, opt).Check(checker.Options{})
			enumerate(c.n, c.c, c.rounds, opt).Require(t, rep.States, rep.Transitions, rep.Depth,
				"%s n=%d c=%d rounds=%d", opt, c.n, c.c, c.rounds)
		}
	}
}
