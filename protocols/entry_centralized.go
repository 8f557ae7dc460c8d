package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/centralized"
)

func init() {
	Register(mutexEntry(Entry{
		Name: "centralized",
		Doc:  "centralized mutual exclusion: a coordinator grants the token and queues requests in FIFO order (seed 000)",
		Params: []Param{
			{"n", "3", "number of clients; the coordinator is one more node, p<n>"},
			{"rounds", "2", "critical sections each client enters (bounds the state space)"},
		},
		Costs: costs.CentralizedTable,
	}, newCentralized, centralized.Properties))
}

// newCentralized is the protocol of values v, for the given rounds.
func newCentralized(v Values, rounds int) (*centralized.Protocol, error) {
	n, err := v.Int("n", 1, model.MaxNodes-2)
	if err != nil {
		return nil, err
	}
	return centralized.New(n, rounds), nil
}
