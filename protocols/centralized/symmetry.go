package centralized

import "github.com/coordcheck/coordcheck/model"

// Symmetry (model.Symmetric): the clients are interchangeable. Nothing in
// the algorithm (seed 000) tells one client from another: each requests,
// waits for the GRANT and releases the same way, and the coordinator
// treats requests by arrival alone (FIFO), not by id. So renaming the
// clients throughout a run gives a run, and a search may keep one state
// per renaming. The coordinator, pN, is fixed.

// Interchangeable is the set of clients, p0..p(N-1).
func (p *Protocol) Interchangeable() uint64 { return uint64(1)<<p.N - 1 }

// PermuteState renames the client ids a state holds: the coordinator's
// holder and queue (a client's own state names nobody).
func (p *Protocol) PermuteState(self model.NodeID, s State, perm []model.NodeID) State {
	if self != p.Coordinator() {
		return s
	}
	if s.Holder != Nobody {
		s.Holder = perm[s.Holder]
	}
	if len(s.Queue) > 0 {
		q := []byte(s.Queue)
		for i, id := range q {
			q[i] = byte(perm[id])
		}
		s.Queue = Queue(q)
	}
	return s
}

// PermuteMsg: messages carry no node id.
func (p *Protocol) PermuteMsg(m Msg, _ []model.NodeID) Msg { return m }

// Peers (model.Peers, for partial-order reduction): a client sends only to
// the coordinator, and the coordinator only to the clients.
func (p *Protocol) Peers(self model.NodeID) uint64 {
	if self == p.Coordinator() {
		return uint64(1)<<p.N - 1
	}
	return 1 << p.Coordinator()
}
