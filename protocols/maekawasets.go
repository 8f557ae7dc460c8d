package protocols

import "github.com/coordcheck/coordcheck/protocols/maekawa"

// paramSets is the voting-sets parameter of both Maekawa variants.
var paramSets = Param{"sets", "all", "voting sets: all (everyone), grid (row+column of a square grid; n a square), " +
	"plane (n=7, the projective plane of seed 001), or V0;V1;... with comma-separated ids, " +
	"e.g. 0,1,2;1,3,5;2,4,5;0,3,4;1,4,6;0,5,6;2,3,6 ('/' may replace ';')"}

// paramRequesters is the workload parameter of both Maekawa variants.
var paramRequesters = Param{"requesters", "all", "processes that request the critical section: all, or comma-separated ids, " +
	"e.g. 0,1,2; the others only vote"}

// maekawaParams reads n, rounds, the voting sets and the requesters of a
// Maekawa entry.
func maekawaParams(v Values) (n, rounds int, sets []maekawa.Set, requesters maekawa.Set, err error) {
	if n, err = v.Int("n", 1, 63); err != nil {
		return
	}
	if rounds, err = v.Int("rounds", 1, 100); err != nil {
		return
	}
	if sets, err = maekawa.ParseSets(v.Get("sets"), n); err != nil {
		return
	}
	requesters, err = maekawa.ParseRequesters(v.Get("requesters"), n)
	return
}

// costSets are the voting sets of the cost tables, the notes' sets of size
// K ~ 2 sqrt(N): the grid when N is a square, the projective plane for 7,
// everyone otherwise.
func costSets(n int) []maekawa.Set {
	sets, err := maekawa.GridSets(n)
	switch {
	case n == 7:
		return maekawa.PlaneSets()
	case err != nil:
		return maekawa.AllSets(n)
	}
	return sets
}

// maekawaFormulas are the notes' figures for Maekawa's algorithm with the
// voting sets sets (seed 000): 2K messages to enter, K to exit, K releases
// and a vote from each shared voter between an exit and the next entry.
func maekawaFormulas(sets []maekawa.Set) mutexFormulas {
	k := sets[0].Len()
	lo, hi := len(sets), 0 // voters a waiting process shares with the one that exits
	for a := range sets {
		for b := range sets {
			if a != b {
				x := (sets[a] & sets[b]).Len()
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	return mutexFormulas{
		enter:          formula{text: "2K", min: 2 * k, max: 2 * k},
		exit:           exact("K", k),
		exitOneWaiter:  formula{text: "K + |Va∩Vb| (releases + votes)", min: k + lo, max: k + hi},
		exitAllWaiting: exact("K", k),
		client:         exact("2", 2),
		sync:           exact("2 (release + vote)", 2),
	}
}
