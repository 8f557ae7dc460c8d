package protocols

import (
	"fmt"
	"strconv"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawadf"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// newMaekawaDF is the protocol of values v, for the given rounds.
func newMaekawaDF(v Values, rounds int) (*maekawadf.Protocol, error) {
	n, _, sets, req, err := maekawaParams(v)
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
	Register(Entry{
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
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			_, r, _, _, err := maekawaParams(v)
			if err != nil {
				return nil, err
			}
			p, err := newMaekawaDF(v, r)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, maekawadf.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			p, err := newMaekawaDF(v, mutex.Endless)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, maekawadf.Properties(p, cfg))
		},
		Family: "mutex",
		Costs:  maekawaDFCosts,
	})
}

// maekawaDFCosts lays the measured costs beside the notes' figures: those
// of Maekawa's algorithm (seed 000) where nobody contends, as the deadlock
// handling then sends nothing, and seed 002's bounds per critical section
// when every process contends: 3√N messages, at most 5√N with FAILED,
// INQUIRE and YIELD, where K = |V_i| stands for √N.
func maekawaDFCosts(n int) ([]CostRow, error) {
	sets := costSets(n)
	p, err := maekawadf.New(n, 2, sets, maekawadf.AllFixes)
	if err != nil {
		return nil, err
	}
	rows, err := mutexCosts[maekawadf.State, maekawadf.Msg](p, maekawaFormulas(sets))
	if err != nil {
		return nil, err
	}
	// Everyone contends: the run of maekawadf.Contention with the
	// requests of higher priority delivered first, and last.
	once, err := maekawadf.New(n, 1, sets, maekawadf.AllFixes)
	if err != nil {
		return nil, err
	}
	k := sets[0].Len()
	var all, extra [2]float64 // per critical section: every message; FAILED, INQUIRE and YIELD
	for i, lowFirst := range []bool{false, true} {
		t, err := maekawadf.Contention(once, lowFirst)
		if err != nil {
			return nil, err
		}
		all[i] = float64(t.Total()) / float64(n)
		extra[i] = float64(t[maekawadf.Fail]+t[maekawadf.Inquire]+t[maekawadf.Yield]) / float64(n)
	}
	return append(rows,
		within("messages per CS, all N contending", all, "3K..5K (seed 002: 3√N, at most 5√N)", 3*k, 5*k),
		within("FAILED+INQUIRE+YIELD per CS, all N contending", extra, "at most 2K (seed 002: 5√N - 3√N)", 0, 2*k),
	), nil
}

// within is a cost row for a bound of the notes: it matches when every
// measured figure (per critical section, so not always whole) lies in
// [lo, hi].
func within(metric string, got [2]float64, text string, lo, hi int) CostRow {
	a, b := min(got[0], got[1]), max(got[0], got[1])
	measured := num(a)
	if b != a {
		measured += ".." + num(b)
	}
	r := CostRow{Metric: metric, Measured: measured, Formula: fmt.Sprintf("%s = %d..%d", text, lo, hi),
		Matches: float64(lo) <= a && b <= float64(hi)}
	if !r.Matches {
		r.Note = "outside the notes' bounds"
	}
	return r
}

// num renders x with at most two decimals: "11", "11.57".
func num(x float64) string { return strconv.FormatFloat(float64(int(x*100+0.5))/100, 'f', -1, 64) }
