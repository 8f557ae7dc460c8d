package coordination

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
)

// stepStore is the storage server lock holders write to. Seed 004, "Use of
// Sequences": "A holds a lock L, issues request write W, then fails; B
// acquires L (because A fails), performs actions; W arrives (out-of-order)
// after B's actions". With sequencers, "the other servers can verify the
// sequencer information": as Chubby's servers may, the store checks a
// sequencer against the most recent one it has seen, and rejects an older
// one.
//
// The store also keeps, as an observer, the lock generation of the last
// write it applied, to judge NoLateWrite: a sequencer is the counter of the
// holder's lock znode, and the counters grow with every holder.
func (p *Protocol) stepStore(d Store, ev model.Event[Msg], out *model.Out[Msg]) Store {
	if ev.Kind != model.Receive || ev.Msg.Kind != Write {
		return d
	}
	m := ev.Msg
	gen := m.Seq + 1
	if p.Sequencers {
		if gen < d.Fence {
			out.Send(ev.From, Msg{Kind: Written, Res: Result{Code: BadVersion}})
			return d
		}
		d.Fence = gen
	}
	if gen < d.Gen && d.Late == 0 {
		d.Late, d.LateOf = gen, d.Gen
	}
	d.Data, d.Gen = m.N, gen
	out.Send(ev.From, Msg{Kind: Written})
	return d
}

// LateWrite says why the store's data is corrupted, or "" when it is not.
func (p *Protocol) LateWrite(d Store) string {
	if d.Late == 0 {
		return ""
	}
	return fmt.Sprintf("the store applied a write under lock %s after one under lock %s: "+
		"the late write of a former holder overwrote its successor's data",
		lockPath(d.Late-1), lockPath(d.LateOf-1))
}
