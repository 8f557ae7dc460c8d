package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/voting"
)

func init() {
	register(Entry{
		Name: "voting",
		Doc:  "decentralized voting (Lin): a majority of coordinators' votes, queues by Lamport time, Yield or back-off (seed 001)",
		Params: []Param{
			{"n", "3", "number of processes; the coordinators are the next nodes, p<n>..."},
			{"coordinators", "3", "number of coordinators; a process needs a majority of their votes"},
			paramRounds,
			{"option", "yield", "when nobody has a majority: yield (option B, Yield to the voters) or backoff (option A, release, back off, retry)"},
		},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 1, voting.MaxProcesses)
			if err != nil {
				return nil, err
			}
			c, err := v.Int("coordinators", 1, voting.MaxCoordinators)
			if err != nil {
				return nil, err
			}
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			opt, err := voting.ParseOption(v.Get("option"))
			if err != nil {
				return nil, err
			}
			p := voting.New(n, c, r, opt)
			return mutexSpec[voting.State, voting.Msg](p, cfg,
				checker.Invariant[voting.State, voting.Msg]{Name: voting.VotesAccurateName, Holds: p.VotesAccurate}), nil
		},
		Family: "mutex",
	})
}
