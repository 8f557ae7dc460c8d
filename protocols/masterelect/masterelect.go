// Package masterelect is the election that picks the coordination
// service's own leader, in the two forms the notes describe, as pure
// transition functions over R servers p0..p(R-1):
//
//   - Chubby (seed 000, "Election in Chubby"; seed 003, "Election in
//     Google Chubby"; seed 004, "Paxos in Chubby"): "potential leader tries
//     to get votes from other servers; each server votes for at most one
//     leader; server with majority of votes becomes new leader, and informs
//     everyone". The master holds a lease, "periodically renewed" while a
//     majority answers it; a new master "waits out the old lease" before it
//     serves, for the old one may not know it is deposed and serves until
//     its lease runs out (seed 004, "Master Fail-over: Grace Period").
//   - ZooKeeper (seed 000, "Election in ZooKeeper"; seed 003, "Election in
//     Zookeeper"): the highest id leads; "each process monitors its
//     next-higher id process; IF that successor was the leader and it has
//     failed, become the new leader; ELSE wait for a timeout, and check
//     your successor again"; the new leader commits itself in two phases:
//     "leader sends NEW_LEADER message to all; each process responds with
//     ACK to at most one leader, i.e., one with highest process id; leader
//     waits for a majority of ACKs and then sends COMMIT to all; on
//     receiving COMMIT, process updates its leader variable".
//
// Time is abstract, as in package coordination: timers fire when the time
// they stand for has surely passed (TimerReady). Epochs are bounded by
// MaxEpoch. Both start with a leader established in epoch 1: p0 for
// Chubby, the highest id for ZooKeeper.
package masterelect

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// Variant is the election's form.
type Variant uint8

// The variants.
const (
	Chubby    Variant = iota // vote once, majority, master lease
	ZooKeeper                // highest id, successor monitoring, NEW_LEADER/ACK/COMMIT
)

// MaxServers bounds R.
const MaxServers = 7

// Protocol is the election among R servers.
type Protocol struct {
	R        int
	Variant  Variant
	MaxEpoch uint8
	// NoLeaseWait (Chubby) lets a new master serve at once, without
	// waiting out the old master's lease: the deliberately broken variant.
	NoLeaseWait bool
}

// New returns the election of variant among r servers.
func New(variant Variant, r int) *Protocol { return &Protocol{R: r, Variant: variant, MaxEpoch: 3} }

// Role is a server's part.
type Role uint8

// The roles.
const (
	Follower  Role = iota
	Candidate      // asking for votes (Chubby) or ACKs (ZooKeeper)
	Master         // elected (the leader, in ZooKeeper's words)
)

var roleNames = [...]string{Follower: "FOLLOWER", Candidate: "CANDIDATE", Master: "MASTER"}

// String is the role's name in traces.
func (r Role) String() string { return roleNames[r] }

// State is a server's state.
type State struct {
	Role Role
	// Ballot: the highest epoch seen; whether it has voted (Chubby) or
	// ACKed (ZooKeeper) in it, "at most one leader" an epoch; a
	// candidate's voters in it (ballot.go).
	Ballot
	// Leader is the master it follows, plus one; 0 when it knows none.
	Leader uint8
	// Serving: a Chubby master serves (after the lease wait; until its
	// lease runs out).
	Serving bool
	// Watch is the process a ZooKeeper server monitors, plus one: its
	// next-higher id; 0 for the highest.
	Watch uint8
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	VoteReq   Kind = iota // Chubby: VOTEREQ(e), a candidate asks for a vote
	Vote                  // Chubby: VOTE(e)
	Elected               // Chubby: MASTER(e), "informs everyone"
	NewLeader             // ZooKeeper: NEW_LEADER(e)
	Ack                   // ZooKeeper: ACK(e)
	Commit                // ZooKeeper: COMMIT(e)
	// Looking: ZooKeeper: LOOKING(e), a restarted server asks who leads
	// (its leader variable was volatile); the leader answers with its
	// COMMIT.
	Looking
)

var kindNames = [...]string{VoteReq: "VOTEREQ", Vote: "VOTE", Elected: "MASTER", NewLeader: "NEW_LEADER",
	Ack: "ACK", Commit: "COMMIT", Looking: "LOOKING"}

// Msg is a message: its type and epoch.
type Msg struct {
	Kind  Kind
	Epoch uint8
}

// The timers.
const (
	// TimerElection: Chubby: the server lost its master ("if replicas lose
	// contact with master, they wait for grace period; on timeout, hold new
	// election"); ZooKeeper: the monitored successor failed.
	TimerElection model.TimerID = 0
	// TimerLeaseWait: a new Chubby master has waited out the old lease.
	TimerLeaseWait model.TimerID = 1
	// TimerLeaseExpiry: a Chubby master's lease ran out unrenewed.
	TimerLeaseExpiry model.TimerID = 2
	// TimerHeartbeat: a Chubby master renews its lease (KeepAlive) with a
	// server that does not follow it yet.
	TimerHeartbeat model.TimerID = 3
)

// TimerName names the timers in traces.
func (p *Protocol) TimerName(t model.TimerID) string {
	switch t {
	case TimerElection:
		if p.Variant == ZooKeeper {
			return "monitor"
		}
		return "election"
	case TimerLeaseWait:
		return "lease-wait"
	case TimerLeaseExpiry:
		return "lease-expiry"
	case TimerHeartbeat:
		return "heartbeat"
	}
	return fmt.Sprintf("t%d", t)
}

// Nodes is R.
func (p *Protocol) Nodes() int { return p.R }

func (p *Protocol) majority() int { return Majority(p.R) }

// first is the leader of epoch 1: p0 (Chubby) or the highest id
// (ZooKeeper).
func (p *Protocol) first() model.NodeID {
	if p.Variant == ZooKeeper {
		return model.NodeID(p.R - 1)
	}
	return 0
}

// Init: epoch 1 with its leader established, serving; the others follow
// it, and (ZooKeeper) monitor their next-higher id.
func (p *Protocol) Init(self model.NodeID, out *model.Out[Msg]) State {
	s := State{Ballot: Ballot{Epoch: 1, Voted: true}, Leader: uint8(p.first()) + 1}
	if self == p.first() {
		s.Role, s.Serving = Master, p.Variant == Chubby
		if p.Variant == Chubby {
			out.SetTimer(TimerLeaseExpiry)
			out.SetTimer(TimerHeartbeat)
		}
		return s
	}
	if p.Variant == ZooKeeper {
		s.Watch = uint8(self) + 2
	}
	out.SetTimer(TimerElection)
	return s
}

// Inputs: the election needs none; faults start it.
func (p *Protocol) Inputs(model.NodeID, State, []model.Input) []model.Input { return nil }

// Step dispatches to the variant.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if p.Variant == ZooKeeper {
		return p.stepZooKeeper(self, s, ev, out)
	}
	return p.stepChubby(self, s, ev, out)
}

// broadcast sends m to every other server.
func (p *Protocol) broadcast(self model.NodeID, m Msg, out *model.Out[Msg]) {
	for j := range p.R {
		if id := model.NodeID(j); id != self {
			out.Send(id, m)
		}
	}
}

// Recover restarts a crashed server (model.Restarter) from its stable
// storage, its epoch and its vote ("each server votes for at most one
// leader" must survive a crash): as a follower that knows no master, its
// lease (if it was master) long gone.
//
// A ZooKeeper server keeps its leader variable too (it is written with
// the epoch, on COMMIT), unless it was the leader itself, monitors its
// next-higher id again, and asks the others who leads now (LOOKING), for
// it missed the COMMITs sent while it was down. With its leader variable
// volatile and no LOOKING, as the model first had it, a restarted
// follower followed nobody for good (zkelect -faults crash=1,restart=1,
// 2 steps), and one that restarted before the leader failed did not know
// that its successor had been the leader, and nobody took over
// (crash=2,restart=2, 7 steps).
func (p *Protocol) Recover(self model.NodeID, crashed State, out *model.Out[Msg]) State {
	s := State{Ballot: Ballot{Epoch: crashed.Epoch, Voted: crashed.Voted}}
	if p.Variant == ZooKeeper {
		if crashed.Leader != uint8(self)+1 {
			s.Leader = crashed.Leader
		}
		if int(self)+1 < p.R {
			s.Watch = uint8(self) + 2
		}
		p.broadcast(self, Msg{Looking, s.Epoch}, out)
	}
	out.SetTimer(TimerElection)
	return s
}

// Waiting: a candidate waits for its election's outcome.
func (p *Protocol) Waiting(_ model.NodeID, s State) bool { return s.Role == Candidate }

// AppendState encodes s.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	return append(b, byte(s.Role), s.Epoch, s.Votes, s.Leader, s.Watch, boolByte(s.Voted), boolByte(s.Serving))
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Role: Role(b[0]), Ballot: Ballot{Epoch: b[1], Votes: b[2]}, Leader: b[3], Watch: b[4]}
	s.Voted, s.Serving = b[5] != 0, b[6] != 0
	return s, b[7:]
}

// AppendMsg encodes m.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte { return append(b, byte(m.Kind), m.Epoch) }

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) { return Msg{Kind(b[0]), b[1]}, b[2:] }

// FormatMsg: "VOTEREQ(e2)".
func (p *Protocol) FormatMsg(m Msg) string { return fmt.Sprintf("%s(e%d)", kindNames[m.Kind], m.Epoch) }

// FormatState: "MASTER e2 serving", "CANDIDATE e2 votes={p1,p2}",
// "FOLLOWER e2 leader=p1 voted watch=p2".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s e%d", s.Role, s.Epoch)
	if s.Serving {
		b.WriteString(" serving")
	}
	if s.Role == Candidate {
		b.WriteString(" votes=" + formatSet(s.Votes))
	}
	if s.Role != Master && s.Leader != 0 {
		fmt.Fprintf(&b, " leader=p%d", s.Leader-1)
	}
	if s.Voted && s.Role == Follower {
		b.WriteString(" voted")
	}
	if s.Watch != 0 {
		fmt.Fprintf(&b, " watch=p%d", s.Watch-1)
	}
	return b.String()
}

func formatSet(set uint8) string {
	var ids []string
	for i := range 8 {
		if set&(1<<i) != 0 {
			ids = append(ids, model.NodeID(i).String())
		}
	}
	return "{" + strings.Join(ids, ",") + "}"
}

func count(set uint8) int { return bits.OnesCount8(set) }
