package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/voting"
)

func init() {
	Register(mutexEntry(Entry{
		Name: "voting",
		Doc:  "decentralized voting (Lin): a majority of coordinators' votes, queues by Lamport time, Yield or back-off (seed 001)",
		Params: []Param{
			{"n", "3", "number of processes; the coordinators are the next nodes, p<n>..."},
			{"coordinators", "3", "number of coordinators; a process needs a majority of their votes"},
			paramRounds,
			{"option", "yield", "when nobody has a majority: yield (option B, Yield to the voters) or backoff (option A, release, back off, retry)"},
		},
		Costs: costs.VotingTable,
	}, newVoting, voting.Properties))
}

// newVoting is the protocol of values v, for the given rounds.
func newVoting(v Values, rounds int) (*voting.Protocol, error) {
	n, err := v.Int("n", 1, voting.MaxProcesses)
	if err != nil {
		return nil, err
	}
	c, err := v.Int("coordinators", 1, voting.MaxCoordinators)
	if err != nil {
		return nil, err
	}
	opt, err := voting.ParseOption(v.Get("option"))
	if err != nil {
		return nil, err
	}
	return voting.New(n, c, rounds, opt), nil
}
