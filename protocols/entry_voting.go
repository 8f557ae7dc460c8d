package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	"github.com/coordcheck/coordcheck/protocols/voting"
)

func init() {
	Register(Entry{
		Name: "voting",
		Doc:  "decentralized voting (Lin): a majority of coordinators' votes, queues by Lamport time, Yield or back-off (seed 001)",
		Params: []Param{
			{"n", "3", "number of processes; the coordinators are the next nodes, p<n>..."},
			{"coordinators", "3", "number of coordinators; a process needs a majority of their votes"},
			paramRounds,
			{"option", "yield", "when nobody has a majority: yield (option B, Yield to the voters) or backoff (option A, release, back off, retry)"},
		},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p, err := newVoting(v, r)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, voting.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			p, err := newVoting(v, mutex.Endless)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, voting.Properties(p, cfg))
		},
		Family: "mutex",
		Costs:  votingCosts,
	})
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

// votingCosts measures Lin's voting with option B (Yield) among n processes
// and n coordinators, the notes' N, beside seed 001's comparison table:
// bandwidth 3N + f(k) per critical section with k Yield rounds ({N request
// + N vote} + Σ_i {C_i yield + [C_i, 2C_i] vote} + N release), client
// delay a round trip (N request + N vote), synchronization delay a round
// trip (N release + M vote).
func votingCosts(n int) ([]CostRow, error) {
	p := voting.New(n, n, 2, voting.OptionYield)
	tie := "with an even N the waiting process counts the new votes one by one against the old ones, " +
		"reaches a tie (N/2 each) and yields once: k = 1"
	return mutexCosts[voting.State, voting.Msg](p, mutexFormulas{
		enter:          exact("2N (N request + N vote)", 2*n),
		exit:           exact("N (release)", n),
		exitOneWaiter:  formula{text: "2N + f(k), k = 0 (N release + N vote)", min: 2 * n, max: 2 * n, note: tie + ": N/2 yields and N/2 votes more"},
		exitAllWaiting: exact("N (release)", n),
		client:         exact("2 (round trip: N request + N vote)", 2),
		sync:           formula{text: "2 (round trip: N release + M vote)", min: 2, max: 2, note: tie + ": one more round trip"},
	})
}
