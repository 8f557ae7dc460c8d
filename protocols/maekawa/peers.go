package maekawa

import "github.com/coordcheck/coordcheck/model"

// Peers (model.Peers, for partial-order reduction): a process sends
// REQUEST and RELEASE to its voting set, and GRANT to the processes whose
// voting sets hold it (seed 000: votes are asked of V_i and given to
// requesters from one's own quorum).
func (p *Protocol) Peers(self model.NodeID) uint64 {
	peers := uint64(p.Sets[self])
	for j, v := range p.Sets {
		if v.Has(self) {
			peers |= 1 << j
		}
	}
	return peers
}
