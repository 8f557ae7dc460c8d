package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

func init() {
	Register(mutexEntry(Entry{
		Name: "ricartagrawala",
		Doc:  "Ricart-Agrawala mutual exclusion: timestamped requests to all, deferred replies (seed 000)",
		Params: []Param{paramN("3"), paramRounds,
			{"clock", "notes", "notes: every message carries the sender's clock; spin: only requests do (the SPIN anchor model)"}},
		Costs: costs.RicartAgrawalaTable,
	}, newRicartAgrawala, ra.Properties))
}

// newRicartAgrawala is the protocol of values v, for the given rounds.
func newRicartAgrawala(v Values, rounds int) (*ra.Protocol, error) {
	n, err := v.Int("n", 2, 63)
	if err != nil {
		return nil, err
	}
	p := ra.New(n, rounds)
	switch v.Get("clock") {
	case "notes":
	case "spin":
		p.Clocks = ra.SPIN
	default:
		return nil, fmt.Errorf("parameter clock=%s: want notes or spin", clip.Quote(v.Get("clock")))
	}
	return p, nil
}
