package coordination

import (
	"strconv"

	"github.com/coordcheck/coordcheck/model"
)

// RegisterPath is the znode register clients read and write.
const RegisterPath = "/x"

// regOp is one operation of a register client's script.
type regOp struct {
	write bool
	value uint8 // the value written
}

// script is client c's operation i: clients alternate writes and reads,
// client c starting with a write when c is even; every write writes a
// value of its own, 1 + c + C*i. With caching, client 0 writes and the
// others only read, so that a read may come from the cache.
func (p *Protocol) script(c, i uint8) regOp {
	if p.Cache != NoCache {
		if c == 0 {
			return regOp{write: true, value: uint8(1 + int(c) + p.C*int(i))}
		}
		return regOp{}
	}
	if (int(c)+int(i))%2 == 0 {
		return regOp{write: true, value: uint8(1 + int(c) + p.C*int(i))}
	}
	return regOp{}
}

// opsOf is the length of client c's script: Ops, but with Chubby sessions
// the writer, client 0, writes once (the readers read Ops times).
func (p *Protocol) opsOf(c uint8) int {
	if p.Sessions != NoSessions && c == 0 {
		return min(p.Ops, 1)
	}
	return p.Ops
}

// text is the operation in Jepsen's words: "write /x 1", "read /x".
func (o regOp) text() string {
	if o.write {
		return "write " + RegisterPath + " " + strconv.Itoa(int(o.value))
	}
	return "read " + RegisterPath
}

// op is the service operation: setData(/x, v, -1) or getData(/x).
func (o regOp) op() Op {
	if o.write {
		return Op{Kind: OpSetData, Path: RegisterPath, Data: o.value, Version: AnyVersion}
	}
	return Op{Kind: OpGetData, Path: RegisterPath}
}

// stepRegister is a register client: it invokes its next operation when
// the environment says so and records the invocation and the completion,
// for the linearizability check: "ok" (it happened, with the value read),
// "fail" (refused: it did not happen), "info" (the connection was lost:
// it may or may not have happened).
func (p *Protocol) stepRegister(self model.NodeID, s Client, ev model.Event[Msg], out *model.Out[Msg]) Client {
	c := p.clientOf(self)
	switch ev.Kind {
	case model.Environment:
		o := p.script(c, s.Next)
		if !o.write && s.Cached != 0 {
			// A read from the cache: no message (Chubby's client caching).
			out.Output("invoke " + o.text())
			out.Output(completion(o, Result{Data: s.Cached - 1}))
			s.Next++
			return s
		}
		out.Send(model.NodeID(s.Conn), Msg{Kind: Request, Seq: s.Next, N: s.Seen, Op: o.op()})
		out.SetTimer(TimerConnLoss)
		out.Output("invoke " + o.text())
		s.Next++
		s.Busy = true
	case model.Receive:
		m := ev.Msg
		if m.Kind == Failover {
			return p.onFailover(s, ev.From, m.Epoch, out)
		}
		if m.Kind == Invalidate {
			s.Cached = 0
			out.Send(ev.From, Msg{Kind: InvAck})
			return s
		}
		if m.Kind == Reply && m.Epoch == Cacheable && s.Busy && ev.From == model.NodeID(s.Conn) && m.Seq == s.Next-1 && p.mayCache(s, ev.From) {
			s.Cached = m.Res.Data + 1
		}
		if m.Kind != Reply || !s.Busy || ev.From != model.NodeID(s.Conn) || m.Seq != s.Next-1 {
			return s // a late answer to an operation already given up
		}
		o := p.script(c, m.Seq)
		s.Seen = max(s.Seen, m.N)
		switch m.Res.Code {
		case Refused:
			out.Output("fail " + o.text())
		case ConnLoss:
			out.Output("info " + o.text())
		default:
			out.Output(completion(o, m.Res))
		}
		out.CancelTimer(TimerConnLoss)
		s.Busy = false
	case model.Timeout:
		switch ev.Timer {
		case TimerLease:
			return p.leaseRanOut(self, s, out)
		case TimerGrace:
			return p.expire(self, s, out)
		}
		// The server is gone: the outcome is unknown; connect to the next.
		if s.Busy {
			out.Output("info " + p.script(c, s.Next-1).text())
			s.Busy = false
		}
		s.Conn = uint8((int(s.Conn) + 1) % p.R)
	}
	return s
}

// completion is the "ok" record of o with result res: "ok write /x 1",
// "ok read /x 3", "ok read /x nil".
func completion(o regOp, res Result) string {
	if o.write {
		if res.Code != OK {
			return "fail " + o.text() // a write the tree refused did not happen
		}
		return "ok " + o.text()
	}
	v := "nil"
	if res.Data != 0 {
		v = strconv.Itoa(int(res.Data))
	}
	return "ok " + o.text() + " " + v
}
