package coordination

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is a message type.
type Kind uint8

// The messages.
const (
	// Client and server.
	Request Kind = iota // REQ(#seq op zxid): a client's operation, with the last zxid it has seen
	Reply               // REPLY(#seq result zxid): its answer, and the zxid of the tree it reflects
	Notify              // WATCH(event path): a watch fired

	// Follower and leader, phase 3.
	Forward // FWD(e c #seq op): a follower passes a write (or a leader read) to the leader
	Answer  // ANSWER(e c #seq op result): the leader's answer to a forwarded read
	Sync    // SYNC(e c #seq op): sync() before a read at a follower
	Synced  // SYNCED(e c #seq op): the leader's answer, after every COMMIT sent before
	Propose // PROPOSE(e n txn): transaction n+1 of the history
	Ack     // ACK(e n): the follower holds the first n transactions
	Commit  // COMMIT(e n): the first n transactions are committed

	// Recovery, phases 1 and 2.
	NewEpoch     // NEWEPOCH(e)
	AckEpoch     // ACKEPOCH(e cur history): the promise, with the history held
	NewLeader    // NEWLEADER(e history)
	AckNewLeader // ACKNEWLEADER(e n)
	Join         // JOIN(e): a restarted replica asks the leader to take it back

	// Lock holders and the storage server.
	Write   // WRITE(data seq): a lock holder's write, with its sequencer
	Written // WRITTEN(ok) or WRITTEN(rejected)

	// Chubby's client caching (cache.go).
	Invalidate // INVALIDATE: the master invalidates a client's cached copy of /x
	InvAck     // INVACK: the client has dropped it

	// Chubby's election of the leader, with -leader elected (elected.go).
	VoteReq // VOTEREQ(e): a candidate asks for a vote in epoch e
	Vote    // VOTE(e): the vote

	// Chubby's sessions (session.go).
	Failover // FAILOVER(e): the new master of epoch e: "master failed over", and its KeepAlive
)

var kindNames = [...]string{Request: "REQ", Reply: "REPLY", Notify: "WATCH", Forward: "FWD",
	Answer: "ANSWER", Sync: "SYNC", Synced: "SYNCED", Propose: "PROPOSE", Ack: "ACK",
	Commit: "COMMIT", NewEpoch: "NEWEPOCH", AckEpoch: "ACKEPOCH", NewLeader: "NEWLEADER",
	AckNewLeader: "ACKNEWLEADER", Join: "JOIN", Write: "WRITE", Written: "WRITTEN",
	Invalidate: "INVALIDATE", InvAck: "INVACK", VoteReq: "VOTEREQ", Vote: "VOTE", Failover: "FAILOVER"}

// String is the message type's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "MSG" + strconv.Itoa(int(k))
}

// Msg is a message. Each type uses some of the fields (see Kind); the
// others stay zero.
type Msg struct {
	Kind   Kind
	Epoch  uint8
	Client uint8
	Seq    uint8
	// N is a count of transactions: a zxid (the position of a transaction
	// in the history, from 1); for ACKEPOCH, the current epoch.
	N     uint8
	Op    Op
	Txn   Txn
	Res   Result
	Log   []Txn // ACKEPOCH, NEWLEADER: a history (never modified once sent)
	Event Event // WATCH
}

// formatMsg renders m; clients are named by node id, which needs R.
func (p *Protocol) formatMsg(m Msg) string {
	c := p.clientNode(m.Client).String()
	var args string
	switch m.Kind {
	case Request:
		args = fmt.Sprintf("#%d %s", m.Seq, m.Op)
		if m.N != 0 {
			args += fmt.Sprintf(" zxid=%d", m.N)
		}
	case Reply:
		args = fmt.Sprintf("#%d %s", m.Seq, m.Res)
		if m.N != 0 {
			args += fmt.Sprintf(" zxid=%d", m.N)
		}
		if m.Epoch == Cacheable {
			args += " cacheable"
		}
	case Notify:
		args = fmt.Sprintf("%s %s", m.Event.Kind, m.Event.Path)
	case Forward, Sync, Synced:
		args = fmt.Sprintf("e%d %s #%d %s", m.Epoch, c, m.Seq, m.Op)
	case Answer:
		args = fmt.Sprintf("e%d %s #%d %s %s", m.Epoch, c, m.Seq, m.Op, m.Res)
	case Propose:
		args = fmt.Sprintf("e%d %d %s", m.Epoch, m.N, p.formatTxn(m.Txn))
	case Ack, Commit, AckNewLeader:
		args = fmt.Sprintf("e%d %d", m.Epoch, m.N)
	case NewEpoch, Join, VoteReq, Vote, Failover:
		args = fmt.Sprintf("e%d", m.Epoch)
	case AckEpoch:
		args = fmt.Sprintf("e%d cur=%d %s", m.Epoch, m.N, p.formatLog(m.Log))
	case NewLeader:
		args = fmt.Sprintf("e%d %s", m.Epoch, p.formatLog(m.Log))
	case Write:
		args = fmt.Sprintf("%d seq=%d", m.N, m.Seq)
	case Written:
		args = m.Res.Code.String()
	}
	return m.Kind.String() + "(" + args + ")"
}

// formatTxn: "e1:p3#0@p1:setData(/x,1)": the epoch of the zxid, the
// client and its request number, the replica that answers it, and the
// operation (the zxid's counter is the position in the history).
func (p *Protocol) formatTxn(t Txn) string {
	if t.Origin == NoOrigin {
		return fmt.Sprintf("e%d:%s:%s", t.Epoch, p.clientNode(t.Client), t.Op)
	}
	return fmt.Sprintf("e%d:%s#%d@p%d:%s", t.Epoch, p.clientNode(t.Client), t.Seq, t.Origin, t.Op)
}

// formatLog: "[e1:p3:setData(/x,1) e1:p4:setData(/x,2)]".
func (p *Protocol) formatLog(log []Txn) string {
	parts := make([]string, len(log))
	for i, t := range log {
		parts[i] = p.formatTxn(t)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
