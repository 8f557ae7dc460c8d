package linearizability

import (
	"fmt"
	"math/rand/v2"
)

// genHistory simulates clients of linearizable compare-and-set registers
// (one per key, keys "0".."keys-1"; one register with key "" when keys is
// 0) and records their history: each operation takes effect atomically at
// a random step between its call and its return, so the history is
// linearizable. A CAS whose compare fails is dropped, as Jepsen's :fail;
// an operation times out with probability infoRate: it takes effect or
// not, at random, and returns at the end of the history. All choices come
// from one PCG seeded with seed.
func genHistory(seed uint64, clients, n, keys int, infoRate float64) []Operation[Input, Output] {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	type client struct {
		id    int
		phase int // 0 idle, 1 called, 2 took effect
		op    Operation[Input, Output]
		drop  bool
	}
	cs := make([]client, clients)
	for i := range cs {
		cs[i].id = i
	}
	next := clients
	regs := map[string]Value{}
	var ops, pending []Operation[Input, Output]
	started, busy := 0, 0
	t := int64(0)
	for started < n || busy > 0 {
		t++
		c := &cs[rng.IntN(clients)]
		switch c.phase {
		case 0:
			if started >= n {
				continue
			}
			started++
			busy++
			in := Input{Arg: Int(rng.Int64N(5)), New: Int(rng.Int64N(5))}
			if keys > 0 {
				in.Key = fmt.Sprint(rng.IntN(keys))
			}
			switch r := rng.IntN(10); {
			case r < 5:
				in.Op, in.Arg, in.New = Read, Nil, Nil
			case r < 8:
				in.Op, in.New = Write, Nil
			default:
				in.Op = CAS
			}
			c.op = Operation[Input, Output]{Client: c.id, Call: t, Input: in}
			c.drop, c.phase = false, 1
		case 1:
			in, s := c.op.Input, regs[c.op.Input.Key]
			if rng.Float64() < infoRate {
				c.op.Output.Unknown = true
				if rng.IntN(2) == 0 {
					c.phase = 2
					continue // did not take effect
				}
			}
			switch in.Op {
			case Read:
				c.op.Output.Value = s
			case Write:
				regs[in.Key] = in.Arg
			case CAS:
				if s == in.Arg {
					regs[in.Key] = in.New
				} else {
					c.drop = !c.op.Output.Unknown
				}
			}
			c.phase = 2
		case 2:
			c.phase = 0
			busy--
			if c.drop {
				continue
			}
			if c.op.Output.Unknown {
				// as in Jepsen, a client that timed out is gone, and a
				// new one takes its place
				pending = append(pending, c.op)
				c.id, next = next, next+1
				continue
			}
			c.op.Return = t
			ops = append(ops, c.op)
		}
	}
	for _, op := range pending {
		op.Return = t + 1
		ops = append(ops, op)
	}
	return ops
}
