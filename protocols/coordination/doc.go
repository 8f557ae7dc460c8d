// Package coordination is a replicated coordination service in the style of
// Chubby and ZooKeeper (seed 004; seed 000, "Chubby", "ZooKeeper"), written
// as pure transition functions. One Protocol holds every node of the
// system: replicas p0..p(R-1) keep a replicated tree of znodes, clients
// pR..p(R+C-1) use it, and, for Chubby's late-write problem, one storage
// server follows the clients.
//
// # Replicas: Zab, kept minimal
//
// "Transactions are identified by <e, c>: e is the epoch number of the
// leader" (seed 004, Zab). Epoch 1 starts with p0 leading and the others
// following. The leader of epoch e is replica (e-1) mod R, as a view's
// primary in Viewstamped Replication: that is Zab's Phase 0 ("prospective
// leader L elected") made deterministic, which keeps the state space small.
// With Leader set to ElectedLeader (-leader elected) the replicas elect
// it instead, by Chubby's vote with the master lease, the rule package
// masterelect holds (elected.go). The other phases are Zab's:
//
//   - Phase 1, discovery: the prospective leader sends NEWEPOCH(e);
//     "followers promise not to go back to previous epochs" and answer
//     ACKEPOCH with their current epoch and history; once a majority
//     (itself included) has promised, "L selects longest history of
//     latest epoch".
//   - Phase 2, synchronization: NEWLEADER(e, history) to the followers,
//     who adopt it and acknowledge; on a majority the leader commits the
//     whole history and is established.
//   - Phase 3, broadcast: "all client updates go through master"; the
//     leader appends each write to its history and sends PROPOSE; a
//     follower accepts proposals of its epoch in order and ACKs; the
//     leader "commits if quorum acknowledges", in order, and sends COMMIT.
//
// Each replica applies its committed prefix to a tree of znodes (tree.go):
// create with the ephemeral and sequential flags, delete and setData with
// versions, getData, exists and getChildren with one-time watches, and the
// closing of sessions, which deletes their ephemeral znodes.
//
// # Clients and reads
//
// "Clients connect to only one server" (seed 000): client c starts
// connected to replica c mod R. Writes are forwarded by followers to their
// leader; the server the client is connected to answers once it has
// applied the commit (ZooKeeper). Reads come in three modes (Reads):
//
//   - Leader: Chubby's reads, "satisfied by the master alone ... safe since
//     the master lease has not expired": a follower forwards the read and
//     relays the leader's answer.
//   - Local: ZooKeeper's reads, "in any server": the connected server
//     answers from its own copy, which "may be outdated".
//   - Sync: ZooKeeper's sync() then read: the follower asks the leader for
//     a SYNC, which the leader answers after every COMMIT it has sent, on
//     the same FIFO link; the follower then reads its own copy.
//
// A server that is not serving (in an election) refuses a request, which
// did not happen (Jepsen's :fail). So does a server that has not yet
// applied the last transaction the client has seen (each answer carries
// its zxid): a client never sees the tree go back, whatever server it
// reconnects to ("single system image", seed 000). A server that loses
// its leader while it owes a client an answer tells the client that the
// connection is lost: the outcome is unknown (Jepsen's :info). A client
// whose server can no longer answer (it crashed, or restarted and forgot
// the request) loses its connection too, and connects to the next replica.
//
// # Time is abstract: leases and sessions are guards
//
// Timers fire under model.TimersPerfect by default, when the guards of
// TimerReady say that the time they stand for has passed:
//
//   - The master lease. "Replicas promise not to try to elect new master
//     for at least a few seconds (master lease)", and the master renews it
//     while it lives. So a follower's election timer fires only when the
//     leader of its epoch has crashed, or restarted (its lease ran out and
//     was not renewed), and only at the replica that leads the next epoch
//     whose leader is alive. A leader therefore serves reads under its
//     lease: no newer epoch can exist while it leads. NoLease (-lease off)
//     breaks the promise: a follower may start an election at any time,
//     and a deposed leader that still believes in its lease serves stale
//     reads (counterexamples/coordination/lease-broken.cex).
//   - Sessions. A client keeps its session alive with KeepAlives as long
//     as it runs, so the leader's session timer for client c fires only
//     once c has crashed (or, a lock client, given up); the leader then commits a closeSession, which
//     deletes c's ephemeral znodes and fires their watches. Under -timers
//     free a session may expire while its client lives, and the lock
//     recipe loses mutual exclusion, as the ZooKeeper documentation warns.
//   - Connection loss. A client's timer fires when no answer can come any
//     more (see TimerReady).
//
// Under -timers free every timer may fire at any time, which breaks all
// three promises (and MaxEpoch, -epochs, bounds the elections).
//
// The channels are reliable and FIFO, as Zab assumes (TCP): run with
// -network fifo, and crash and restart faults; drops and partitions are
// outside the protocol's assumptions. A replica that restarts keeps Zab's
// persistent state (its history and epochs) and asks to JOIN; an
// established or prospective leader takes it back (recover.go). With a
// majority of the replicas down the service blocks, as a Chubby cell does
// ("3 replicas must be alive for cell to work (otherwise it blocks)"),
// and no-deadlock reports the clients left waiting.
//
// # Workloads
//
// Register clients (NewRegister) run a fixed script of setData and getData
// on one znode /x, and record each invocation and completion with
// Out.Output in Jepsen's words ("invoke write /x 1", "ok read /x 1",
// "fail ...", "info ..."), for the linearizability check. Lock clients
// (NewLock) run the ZooKeeper lock recipe of seed 004: an ephemeral
// sequential znode under /lock, getChildren, and a watch on the
// predecessor; with a storage server, a lock holder writes to it, with or
// without Chubby's sequencer.
//
// The other recipes of seed 004 run as clients too, each in its own file
// with its properties and a deliberately broken variant (Broken): the
// simple lock and its herd effect (simplelock.go; measured in costs/herd.go), the read/write
// lock (rwlock.go), the double barrier (barrier.go), group membership
// (membership.go), the leader election recipe (election_recipe.go) and
// the versioned counter, setData with a version (counter.go);
// NewRecipe builds them, usually over one replica, a standalone server.
// Chubby's client side adds the lock-delay (lockdelay.go), client
// caching with invalidation (cache.go) and the session as the client
// sees it, with jeopardy and the grace period across a master fail-over
// (session.go). The election of the service's own leader is package
// masterelect on its own, and elected.go here.
package coordination
