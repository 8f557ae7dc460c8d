package masterelect

import (
	"math/bits"

	"github.com/coordcheck/coordcheck/model"
)

// This file is the rule of Chubby's election, one home for it: the
// election here (chubby.go) and the coordination service's elected
// leader (package coordination, -leader elected) both vote by it.
//
//   - "Potential leader tries to get votes from other servers": Stand.
//   - "Each server votes for at most one leader": Grant, once an epoch.
//   - "Server with majority of votes becomes new leader": Count.
//   - "Master lease can be renewed by the master as long as it continues
//     to win a majority each time": LeaseHeld; a server that has voted
//     in a later epoch no longer renews it.
//   - A new master "waits out the old lease" before it serves (seed 004,
//     "Master Fail-over"): LeaseWaitOver.

// Ballot is a server's part in the vote: the highest epoch it has seen,
// whether it has voted in it (stable storage: "votes for at most one
// leader" must survive a crash), and, a candidate's, who voted for it.
type Ballot struct {
	Epoch uint8
	Voted bool
	Votes uint8 // bit j: server j voted for it in Epoch
}

// Stand: self stands for election in the next epoch, and votes for
// itself.
func (b Ballot) Stand(self model.NodeID) Ballot {
	return Ballot{Epoch: b.Epoch + 1, Voted: true, Votes: 1 << self}
}

// Observe: a message of epoch e; a later epoch is one it has not voted in.
func (b Ballot) Observe(e uint8) Ballot {
	if e > b.Epoch {
		return Ballot{Epoch: e}
	}
	return b
}

// Grant answers a request for a vote in epoch e: it votes (true) when it
// has not voted in e, nor seen a later epoch.
func (b Ballot) Grant(e uint8) (Ballot, bool) {
	b = b.Observe(e)
	if e != b.Epoch || b.Voted {
		return b, false
	}
	b.Voted = true
	return b, true
}

// Count records a candidate's vote from voter in epoch e (a vote of
// another epoch does not count), and says whether the candidate now has
// a majority of the n servers.
func (b Ballot) Count(voter model.NodeID, e uint8, n int) (Ballot, bool) {
	if e != b.Epoch {
		return b, false
	}
	b.Votes |= 1 << voter
	return b, bits.OnesCount8(b.Votes) >= Majority(n)
}

// Majority is the size of a quorum of n servers: "any two quorums
// intersect".
func Majority(n int) int { return n/2 + 1 }

// LeaseHeld says whether a master's lease is still renewed: renewers,
// the servers (itself included) that answer it and have not voted in a
// later epoch, are a majority of the n.
func LeaseHeld(renewers, n int) bool { return renewers >= Majority(n) }

// LeaseWaitOver says whether a new master has waited out the old lease:
// no other server still serves as master under its lease.
func LeaseWaitOver(otherServing bool) bool { return !otherServing }
