package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	"github.com/coordcheck/coordcheck/protocols/tokenring"
)

func init() {
	Register(Entry{
		Name: "tokenring",
		Doc:  "token ring mutual exclusion: one token circulates on a logical ring; its holder may enter; token loss: timeout or Misra's ping-pong (seed 000)",
		Params: []Param{paramN("3"), paramRounds,
			{"variant", "plain", "plain (the reliable ring), timeout (regenerate the token after a timeout, values 0..k-1), " +
				"pingpong (Misra: ping and pong detect each other's loss)"},
			{"k", "3", "timeout: the token value v runs in 0..k-1 (the notes: k > 2); pingpong: nbping and nbpong are counted modulo k"},
		},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p, err := newTokenRing(v, r)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, tokenring.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			p, err := newTokenRing(v, mutex.Endless)
			if err != nil {
				return nil, err
			}
			// A live run may lose the token (-faults drop): at most one
			// token then, as the checker's property under drops says.
			props := cfg
			props.Faults.Budget[model.Drop] = model.Unbounded
			return target(p, cfg, tokenring.Properties(p, props))
		},
		Family: "mutex",
		Costs:  tokenRingCosts,
	})
}

// newTokenRing is the protocol of values v, for the given rounds.
func newTokenRing(v Values, rounds int) (*tokenring.Protocol, error) {
	n, err := v.Int("n", 2, model.MaxNodes)
	if err != nil {
		return nil, err
	}
	variant, err := tokenring.ParseVariant(v.Get("variant"))
	if err != nil {
		return nil, err
	}
	k, err := v.Int("k", 2, 100)
	if err != nil {
		return nil, err
	}
	return tokenring.NewVariant(n, rounds, variant, k), nil
}

// tokenRingCosts measures the plain ring beside seed 000's table (and seed
// 001's and 002's, which agree with it).
func tokenRingCosts(n int) ([]CostRow, error) {
	return mutexCosts[tokenring.State, tokenring.Msg](tokenring.New(n, 2), mutexFormulas{
		enter: formula{text: "0 (has the token) .. N (through the ring)", min: 0, max: n,
			note: "the token starts in flight from p0 and never rests at a process that does not want it: " +
				"the farthest process waits for N-1 forwards, the N-th hop was sent before its request"},
		exit:           exact("1", 1),
		exitOneWaiter:  formula{text: "1 (successor) .. N-1 (predecessor)", min: 1, max: n - 1},
		exitAllWaiting: exact("1", 1),
		client: formula{text: "0 (has the token) .. N (just sent it)", min: 0, max: n,
			note: "the token never rests at a process that does not want it, so the notes' best case, " +
				"already holding it, never occurs: the best is its successor's 1 latency"},
		sync: formula{text: "1 (successor) .. N-1 (predecessor)", min: 1, max: n - 1},
	})
}
