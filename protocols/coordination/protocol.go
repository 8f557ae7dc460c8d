package coordination

import (
	"fmt"
	"slices"
	"strings"

	quote "github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/masterelect"
)

// ReadMode says where reads are served (see the package comment).
type ReadMode uint8

// The read modes.
const (
	LeaderReads ReadMode = iota // Chubby: at the leader, under its lease
	LocalReads                  // ZooKeeper: at the connected server; may be stale
	SyncReads                   // ZooKeeper: sync(), then read at the connected server
)

var readNames = [...]string{LeaderReads: "leader", LocalReads: "local", SyncReads: "sync"}

// String is the mode's name as a parameter value.
func (m ReadMode) String() string { return readNames[m] }

// ParseReadMode reads "leader", "local" or "sync".
func ParseReadMode(s string) (ReadMode, error) { return parseName[ReadMode]("reads", readNames[:], s) }

// parseName is the value of a mode T whose name among names is s, the
// value of parameter param; an error names the words it may be.
func parseName[T ~uint8](param string, names []string, s string) (T, error) {
	if i := slices.Index(names, s); i >= 0 {
		return T(i), nil
	}
	last := len(names) - 1
	return 0, fmt.Errorf("%s=%s: want %s or %s", param, quote.Quote(s), strings.Join(names[:last], ", "), names[last])
}

// Workload is what the clients do.
type Workload uint8

// The workloads.
const (
	RegisterClients   Workload = iota // a script of setData and getData on /x
	LockClients                       // the lock recipe on /lock
	SimpleLockClients                 // the simple lock (herd effect) on /slock
	RWLockClients                     // the read/write lock recipe on /rw
	BarrierClients                    // the double barrier on /b
	MemberClients                     // group membership on /g
	ElectionClients                   // the leader election recipe on /election
	CounterClients                    // the versioned counter on /cnt (counter.go)
)

// Protocol is the coordination service with R replicas and C clients,
// and, for lock clients with Store set, a storage server.
type Protocol struct {
	R, C     int
	Workload Workload
	Reads    ReadMode
	// Ops is the number of operations of each register client.
	Ops int
	// Store adds the storage server that lock holders write to;
	// Sequencers makes it check their sequencers.
	Store, Sequencers bool
	// Cache makes register clients cache /x (cache.go).
	Cache CacheMode
	// LockDelay is Chubby's lock-delay, the alternative to sequencers
	// (lockdelay.go).
	LockDelay LockDelay
	// Sessions makes caching register clients keep Chubby sessions:
	// local lease, jeopardy, grace period (session.go).
	Sessions SessionMode
	// MaxEpoch bounds the elections (they matter under -timers free; with
	// perfect timers only a leader's crash starts one).
	MaxEpoch uint8
	// NoLease breaks the master lease: a follower may start an election
	// while the leader lives (as if its lease had run out too early), so a
	// deposed leader may go on serving reads.
	NoLease bool
	// Writers is the number of writers of the read/write lock: clients
	// 0..Writers-1 write, the others read.
	Writers int
	// Broken selects the recipe's deliberately broken variant (see each
	// recipe's file): what the checker must catch.
	Broken bool
	// Leader says how an epoch's leader is chosen: by the formula (the
	// default) or elected by the replicas with Chubby's vote (elected.go).
	Leader LeaderMode
	// NoLeaseWait (with the elected leader) lets a new leader start at
	// once, without waiting out the old leader's lease: the deliberately
	// broken variant.
	NoLeaseWait bool
}

// LeaderMode says how the leader of an epoch is chosen.
type LeaderMode uint8

// The leader modes.
const (
	FormulaLeader LeaderMode = iota // replica (e-1) mod R leads epoch e
	ElectedLeader                   // Chubby's vote once, majority, master lease (elected.go)
)

var leaderNames = [...]string{FormulaLeader: "formula", ElectedLeader: "elected"}

// String is the mode's name as a parameter value.
func (m LeaderMode) String() string { return leaderNames[m] }

// ParseLeaderMode reads "formula" or "elected".
func ParseLeaderMode(s string) (LeaderMode, error) {
	for i, n := range leaderNames {
		if n == s {
			return LeaderMode(i), nil
		}
	}
	return 0, fmt.Errorf("leader=%s: want formula or elected", quote.Quote(s))
}

// NewRegister returns the service with register clients that run ops
// operations each, reading in the given mode.
func NewRegister(replicas, clients, ops int, reads ReadMode) *Protocol {
	return &Protocol{R: replicas, C: clients, Workload: RegisterClients, Reads: reads, Ops: ops, MaxEpoch: 3}
}

// NewLock returns the service with clients that take the lock once with
// the ZooKeeper recipe; with store, they write to a storage server while
// they hold it, with or without sequencers.
func NewLock(replicas, clients int, store, sequencers bool) *Protocol {
	return &Protocol{R: replicas, C: clients, Workload: LockClients, Reads: LocalReads,
		Store: store, Sequencers: sequencers, MaxEpoch: 3}
}

// Nodes is R + C, plus the storage server.
func (p *Protocol) Nodes() int {
	n := p.R + p.C
	if p.Store {
		n++
	}
	return n
}

// NodeKind is what a node is.
type NodeKind uint8

// The kinds of node.
const (
	ReplicaNode NodeKind = iota // p0..p(R-1)
	ClientNode                  // pR..p(R+C-1)
	StoreNode                   // p(R+C), the storage server
)

func (p *Protocol) kind(id model.NodeID) NodeKind {
	switch {
	case int(id) < p.R:
		return ReplicaNode
	case int(id) < p.R+p.C:
		return ClientNode
	}
	return StoreNode
}

// clientNode is the node id of client c; clientOf the client of node id.
func (p *Protocol) clientNode(c uint8) model.NodeID { return model.NodeID(p.R + int(c)) }
func (p *Protocol) clientOf(id model.NodeID) uint8  { return uint8(int(id) - p.R) }
func (p *Protocol) storeNode() model.NodeID         { return model.NodeID(p.R + p.C) }

// leaderOf is the leader of epoch e: replica (e-1) mod R.
func (p *Protocol) leaderOf(e uint8) model.NodeID { return model.NodeID((int(e) - 1) % p.R) }

// leaderFor is the leader of the epoch r has accepted: by the formula, or
// the one it promised (elected).
func (p *Protocol) leaderFor(r *Replica) model.NodeID {
	if p.Leader == ElectedLeader {
		return model.NodeID(r.Leader - 1)
	}
	return p.leaderOf(r.Accepted)
}

// majority is the size of a quorum of replicas.
func (p *Protocol) majority() int { return p.R/2 + 1 }

// The timers.
const (
	TimerElection model.TimerID = 0 // a follower: the leader's lease ran out
	TimerConnLoss model.TimerID = 1 // a client: its server is gone
	// With the elected leader: a new leader has waited out the old lease;
	// a leader's lease ran out unrenewed.
	TimerLeaseWait   model.TimerID = 2
	TimerLeaseExpiry model.TimerID = 3
	TimerSession     model.TimerID = 8 // the leader: TimerSession+c, client c's session expired
)

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the timers in traces: "election", "connloss",
// "session-p3".
func (p *Protocol) TimerName(t model.TimerID) string {
	switch {
	case t == TimerElection:
		return "election"
	case t == TimerConnLoss:
		return "connloss"
	case t == TimerLeaseWait:
		return "lease-wait"
	case t == TimerLeaseExpiry:
		return "lease-expiry"
	case t == TimerLease:
		return "lease"
	case t == TimerGrace:
		return "grace"
	case t >= TimerLapse:
		return "lapse-" + p.clientNode(uint8(t-TimerLapse)).String()
	case t >= TimerSession:
		return "session-" + p.clientNode(uint8(t-TimerSession)).String()
	}
	return fmt.Sprintf("t%d", t)
}

// paths are the znodes every replica starts with.
func (p *Protocol) paths() []string {
	switch p.Workload {
	case LockClients:
		return []string{LockDir}
	case SimpleLockClients:
		return nil
	case RWLockClients:
		return []string{RWDir}
	case BarrierClients:
		return []string{BarrierDir}
	case MemberClients:
		return []string{GroupDir}
	case ElectionClients:
		return []string{ElectionDir}
	case CounterClients:
		return []string{CounterPath}
	}
	return []string{RegisterPath}
}

// Init: epoch 1, p0 leading with the sessions of every client, the other
// replicas following; client c connected to replica c mod R.
func (p *Protocol) Init(self model.NodeID, out *model.Out[Msg]) State {
	s := State{Kind: p.kind(self)}
	switch s.Kind {
	case ReplicaNode:
		s.R = Replica{Role: Following, Accepted: 1, Current: 1}
		if p.Leader == ElectedLeader {
			// As if p0 had won epoch 1's vote: all voted for it.
			s.R.Ballot, s.R.Leader = masterelect.Ballot{Epoch: 1, Voted: true}, uint8(p.leaderOf(1))+1
		}
		if self == p.leaderOf(1) {
			s.R.Role = Leading
			for c := range p.C {
				out.SetTimer(TimerSession + model.TimerID(c))
			}
			if p.Leader == ElectedLeader {
				out.SetTimer(TimerLeaseExpiry)
			}
		} else {
			out.SetTimer(TimerElection)
		}
	case ClientNode:
		s.C.Conn = uint8(int(p.clientOf(self)) % p.R)
		if p.Sessions != NoSessions {
			// A Chubby client talks to the master, under its lease.
			s.C.Conn, s.C.Lease = uint8(p.leaderOf(1)), 1
			out.SetTimer(TimerLease)
		}
	}
	return s
}

// Inputs offers a register client its next operation, and a lock client
// "lock" when idle and "unlock" when it holds the lock.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	if p.kind(self) != ClientNode {
		return dst
	}
	c := s.C
	if p.Workload == RegisterClients {
		if !c.Busy && int(c.Next) < p.opsOf(p.clientOf(self)) && c.Sess != Expired {
			dst = append(dst, model.Input(p.script(p.clientOf(self), c.Next).text()))
		}
		return dst
	}
	// What an idle client asks for, and what one that holds it gives up
	// (none: a member or a leader stays).
	var want, release model.Input = InputLock, InputUnlock
	switch p.Workload {
	case BarrierClients:
		want, release = InputEnter, InputLeave
	case MemberClients, ElectionClients:
		want, release = InputJoin, ""
	case CounterClients:
		want, release = InputIncrement, ""
	}
	switch {
	case c.Phase == Idle:
		dst = append(dst, want)
	case c.Phase == Held && release != "":
		dst = append(dst, release)
	}
	return dst
}

// Protocol implements model.FairInputs (checked by the compiler).
var _ model.FairInputs = (*Protocol)(nil)

// FairInput: a lock holder eventually unlocks, a barrier member
// eventually leaves; the rest is up to the environment.
func (p *Protocol) FairInput(_ model.NodeID, in model.Input) bool {
	return in == InputUnlock || in == InputLeave
}

// Step dispatches the event to the replica, the client or the store.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch p.kind(self) {
	case ReplicaNode:
		s.R = p.stepReplica(self, s.R, ev, out)
	case ClientNode:
		switch p.Workload {
		case RegisterClients:
			s.C = p.stepRegister(self, s.C, ev, out)
		case SimpleLockClients:
			s.C = p.stepSimpleLock(self, s.C, ev, out)
		case BarrierClients:
			s.C = p.stepBarrier(self, s.C, ev, out)
		case MemberClients:
			s.C = p.stepMember(self, s.C, ev, out)
		case CounterClients:
			s.C = p.stepCounter(self, s.C, ev, out)
		default: // the lock, the read/write lock, the election
			s.C = p.stepLock(self, s.C, ev, out)
		}
	case StoreNode:
		s.D = p.stepStore(s.D, ev, out)
	}
	return s
}

// stepReplica is a replica's reaction to a message or a timer.
func (p *Protocol) stepReplica(self model.NodeID, r Replica, ev model.Event[Msg], out *model.Out[Msg]) Replica {
	if ev.Kind == model.Timeout {
		switch {
		case ev.Timer == TimerElection && p.Leader == ElectedLeader:
			return p.stand(self, r, out)
		case ev.Timer == TimerElection:
			return p.startElection(self, r, out)
		case ev.Timer == TimerLeaseWait:
			return p.startDiscovery(self, r, r.Ballot.Epoch, out)
		case ev.Timer == TimerLeaseExpiry:
			return p.stepDown(r, out)
		}
		if ev.Timer >= TimerLapse {
			return p.lapse(self, r, uint8(ev.Timer-TimerLapse), out)
		}
		return p.expireSession(self, r, uint8(ev.Timer-TimerSession), out)
	}
	if ev.Kind != model.Receive {
		return r
	}
	m, from := ev.Msg, ev.From
	switch m.Kind {
	case Request:
		return p.onRequest(self, r, p.clientOf(from), m, out)
	case Forward:
		return p.onForward(self, r, from, m, out)
	case Answer:
		return p.onAnswer(r, m, out)
	case Sync:
		return p.onSync(r, from, m, out)
	case Synced:
		return p.onSynced(r, m, out)
	case Propose:
		return p.onPropose(r, from, m, out)
	case Ack:
		return p.onAck(self, r, from, m, out)
	case Commit:
		return p.onCommit(self, r, m, out)
	case NewEpoch:
		return p.onNewEpoch(r, from, m, out)
	case AckEpoch:
		return p.onAckEpoch(self, r, from, m, out)
	case NewLeader:
		return p.onNewLeader(r, from, m, out)
	case AckNewLeader:
		return p.onAckNewLeader(self, r, from, m, out)
	case Join:
		return p.onJoin(r, from, m, out)
	case InvAck:
		return p.onInvAck(self, r, p.clientOf(from), out)
	case VoteReq:
		return p.onVoteReq(r, from, m, out)
	case Vote:
		return p.onVote(self, r, from, m, out)
	}
	return r
}

// Protocol implements invariants.CriticalSection (checked by the compiler).
var _ invariants.CriticalSection[State] = (*Protocol)(nil)

// InCS: a lock client holds the lock (an election client leads).
func (p *Protocol) InCS(self model.NodeID, s State) bool {
	return p.kind(self) == ClientNode && (s.C.Phase == Held || s.C.Phase == Writing)
}

// Protocol implements model.Waiter (checked by the compiler).
var _ model.Waiter[State] = (*Protocol)(nil)

// Waiting: a lock client wants the lock, a register client waits for an
// answer, a group member or a candidate waits for the answer that makes
// it one (a candidate that watches its predecessor, a member that
// watches the group, waits for the environment: for a crash); a barrier
// client is judged by barrier-progress instead (barrier.go).
func (p *Protocol) Waiting(self model.NodeID, s State) bool {
	if p.kind(self) != ClientNode {
		return false
	}
	switch p.Workload {
	case RegisterClients:
		return s.C.Busy
	case BarrierClients:
		return false
	case MemberClients, ElectionClients:
		return s.C.Phase >= Creating && s.C.Phase <= Checking
	case CounterClients:
		return s.C.Phase == Fetching || s.C.Phase == Updating
	}
	return s.C.Phase >= Creating && s.C.Phase <= Watching
}
