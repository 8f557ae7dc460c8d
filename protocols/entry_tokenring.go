package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
	"github.com/coordcheck/coordcheck/protocols/tokenring"
)

func init() {
	e := mutexEntry(Entry{
		Name: "tokenring",
		Doc:  "token ring mutual exclusion: one token circulates on a logical ring; its holder may enter; token loss: timeout or Misra's ping-pong (seed 000)",
		Params: []Param{paramN("3"), paramRounds,
			{"variant", "plain", "plain (the reliable ring), timeout (regenerate the token after a timeout, values 0..k-1), " +
				"pingpong (Misra: ping and pong detect each other's loss)"},
			{"k", "3", "timeout: the token value v runs in 0..k-1 (the notes: k > 2); pingpong: nbping and nbpong are counted modulo k"},
		},
		Costs: costs.TokenRingTable,
	}, newTokenRing, tokenring.Properties)
	// A live run may lose the token (-faults drop): at most one token
	// then, as the checker's property under drops says.
	_, e.LiveTarget = mutexTargets(newTokenRing, func(p *tokenring.Protocol, cfg model.Config) property.Set[tokenring.State, tokenring.Msg] {
		cfg.Faults.Budget[model.Drop] = model.Unbounded
		return tokenring.Properties(p, cfg)
	})
	Register(e)
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
