package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/lamport"
)

func init() {
	Register(mutexEntry(Entry{
		Name:   "lamport",
		Doc:    "Lamport's mutual exclusion: request queues, REQUEST/REPLY/RELEASE, enter on L1 and L2 (seed 002)",
		Params: []Param{paramN("3"), paramRounds},
		Costs:  costs.LamportTable,
	}, newLamport, lamport.Properties))
}

// newLamport is the protocol of values v, for the given rounds.
func newLamport(v Values, rounds int) (*lamport.Protocol, error) {
	n, err := v.Int("n", 2, lamport.MaxSites)
	if err != nil {
		return nil, err
	}
	return lamport.New(n, rounds), nil
}
