package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/maekawadf"
)

// newMaekawaDF is the protocol of values v, for the given rounds.
func newMaekawaDF(v Values, rounds int) (*maekawadf.Protocol, error) {
	n, sets, req, err := maekawaParams(v)
	if err != nil {
		return nil, err
	}
	fixes, err := maekawadf.ParseFixes(v.Get("fixes"))
	if err != nil {
		return nil, err
	}
	p, err := maekawadf.New(n, rounds, sets, fixes)
	if err != nil {
		return nil, err
	}
	p.Requesters = req
	return p, nil
}

func init() {
	Register(mutexEntry(Entry{
		Name: "maekawa-df",
		Doc:  "Maekawa's algorithm with timestamps and FAILED/INQUIRE/YIELD deadlock handling (seed 002)",
		Params: []Param{
			paramN("3"),
			paramRounds,
			paramSets,
			paramRequesters,
			{"fixes", "all", "corrections to seed 002's rules: all, none (the rules to the letter), or a comma list of " +
				"queue (FAILED when any request ahead outranks, one INQUIRE per vote), " +
				"displaced (FAILED to a request pushed back from the head of the queue), " +
				"defer (keep an early INQUIRE until a FAILED), held (yield only a vote held)"},
		},
		Costs: costs.MaekawaDFTable,
	}, newMaekawaDF, maekawadf.Properties))
}
