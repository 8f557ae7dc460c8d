package coordination

import (
	"slices"

	"github.com/coordcheck/coordcheck/protocols/masterelect"
)

// Limits of the model.
const (
	MaxReplicas = 7
	MaxClients  = 8
)

// Role is a replica's part in Zab (seed 004: "all process either Lead or
// Follow"), with the phases of recovery.
type Role uint8

// The roles.
const (
	Following Role = iota // phase 3, following the leader of its epoch
	Leading               // phase 3, the established leader of its epoch
	Discovery             // prospective leader, phase 1: collecting promises
	Syncing               // prospective leader, phase 2: collecting NEWLEADER acks
	Promised              // follower in phases 1-2: promised an epoch, awaiting NEWLEADER
	// With the elected leader (elected.go), phase 0: Candidate asks for
	// votes; Elected has a majority and waits out the old master's lease.
	Candidate
	Elected
)

var roleNames = [...]string{Following: "FOLLOWING", Leading: "LEADING", Discovery: "DISCOVERY",
	Syncing: "SYNC", Promised: "PROMISED", Candidate: "CANDIDATE", Elected: "ELECTED"}

// String is the role's name in traces.
func (r Role) String() string { return roleNames[r] }

// Txn is one transaction of the history: a client's write (or the end of
// a session), identified by the epoch that proposed it and its position.
type Txn struct {
	Epoch  uint8
	Client uint8 // the client (its session)
	// Origin is the replica the client is connected to, which answers it
	// once it applies the transaction; NoOrigin for a closeSession.
	Origin uint8
	Seq    uint8 // the client's request number
	Op     Op
}

// NoOrigin marks a transaction no client waits for.
const NoOrigin = 0xff

// WatchReg is a one-time watch a replica holds for a client: "watches may
// be set to trigger an event if the znode is specifically changed or
// removed or new children are created under it" (seed 000).
type WatchReg struct {
	Path   string
	Client uint8
	Child  bool // a getChildren watch; otherwise a data watch
}

// Replica is a server's state. Log, Committed, Accepted and Current are
// Zab's persistent state (history, the committed prefix, acceptedEpoch,
// currentEpoch); the rest is volatile.
type Replica struct {
	Role      Role
	Accepted  uint8 // the last epoch promised (NEWEPOCH acknowledged)
	Current   uint8 // the epoch of the history held (the last NEWLEADER accepted)
	Log       []Txn
	Committed uint8 // Log[:Committed] is committed and applied
	// Votes: a prospective leader's set of replicas that promised
	// (Discovery) or acknowledged NEWLEADER (Syncing).
	Votes uint8
	// Match: the leader's count of transactions each replica has accepted.
	Match [MaxReplicas]uint8
	// Owed[c] is 1 + the request number for which client c waits for an
	// answer from this server, 0 when none.
	Owed [MaxClients]uint8
	// Chubby's client caching (cache.go), at the master: Cachers, the
	// clients that may hold /x in their cache; Pending, a write held
	// until Waiting, the clients whose invalidation is not yet
	// acknowledged, is empty (Pending.Op.Kind is OpNone when none).
	Cachers, Waiting uint8
	Pending          Txn
	Watches          []WatchReg // sorted by path, kind and client
	// With the elected leader only (elected.go; zero otherwise): Ballot,
	// the replica's vote in Chubby's election (its epoch and vote are
	// persistent), and Leader, the leader of epoch Accepted plus one.
	Ballot masterelect.Ballot
	Leader uint8
}

// serving says whether the replica answers clients: in phase 3 only.
func (r *Replica) serving() bool { return r.Role == Following || r.Role == Leading }

// LockPhase is where a lock client is in the recipe of seed 004.
type LockPhase uint8

// The phases of the lock recipe.
const (
	Idle      LockPhase = iota // not wanting the lock
	Creating                   // 1: n = create(l + "/n-", EPHEMERAL|SEQUENTIAL)
	Listing                    // 2: C = getChildren(l, false)
	Checking                   // 5: exists(p, true)
	Watching                   // 5: wait for the watch event
	Held                       // 3: n is the lowest znode: in the critical section
	Writing                    // in the critical section, a write to storage in flight
	Releasing                  // unlock: delete(n)
	Done                       // released
	Failed                     // the connection was lost: the client gave up

	// The double barrier (barrier.go).
	Readying     // create(b + "/ready"): the last to arrive opens the barrier
	Leaving      // getChildren(b, true) after delete(n): who has not left yet
	LeaveWaiting // wait for the child watch: someone else leaves

	// The versioned counter (counter.go).
	Fetching // 1: (v, version) = getData(c, stat)
	Updating // 2: setData(c, v+1, version)
)

var lockNames = [...]string{Idle: "IDLE", Creating: "CREATING", Listing: "LISTING",
	Checking: "CHECKING", Watching: "WATCHING", Held: "HELD", Writing: "WRITING",
	Releasing: "RELEASING", Done: "DONE", Failed: "FAILED", Readying: "READYING", Leaving: "LEAVING",
	LeaveWaiting: "LEAVE-WAITING", Fetching: "FETCHING", Updating: "UPDATING"}

// String is the phase's name in traces.
func (p LockPhase) String() string { return lockNames[p] }

// Client is a client's state.
type Client struct {
	Conn uint8 // the replica it is connected to
	Seen uint8 // the last zxid it has seen: it never reads an older tree
	Next uint8 // register: operations invoked so far
	Busy bool  // register: operation Next-1 awaits its answer
	// Lock recipe.
	Phase LockPhase
	Mine  uint8 // the counter of its lock znode
	Pred  uint8 // the counter of the znode it watches
	Wrote uint8 // writes to storage completed (for the data it writes)
	// Cached is a caching register client's copy of /x, plus one; 0: none.
	Cached uint8
	// PredRead: the read/write lock's predecessor is a read znode
	// ("read-k"), not a write znode.
	PredRead bool
	// View is a group member's view (bit j: client j's znode was listed),
	// and a barrier client's count of members seen at its last listing.
	View uint8
	// Val and Ver: the value and version a counter client read (encoded
	// only by CounterClients).
	Val, Ver uint8
	// Sess is a Chubby client's session as it sees it, and Lease the
	// epoch of the master its lease is from (encoded only with Sessions).
	Sess  SessState
	Lease uint8
}

// Store is the storage server that lock holders write to (Chubby's late
// write, seed 004 "Use of Sequences"): a Bigtable-like server outside the
// coordination service.
type Store struct {
	Data   uint8 // the client that wrote last, plus one
	Fence  uint8 // the highest sequencer seen, plus one (with sequencers)
	Gen    uint8 // the lock generation of the last write applied, plus one
	Late   uint8 // the generation of a write applied after a newer one, plus one
	LateOf uint8 // the newer generation it followed, plus one
}

// State is a node's state: a replica, a client or the store, by node id;
// the other parts stay zero.
type State struct {
	Kind NodeKind
	R    Replica
	C    Client
	D    Store
}

// clip returns s with its capacity cut to its length, so that appending
// copies: states are values, and a step must not write into the arrays of
// the state it was given.
func clip[T any](s []T) []T { return slices.Clip(s) }
