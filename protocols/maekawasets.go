package protocols

import "github.com/coordcheck/coordcheck/protocols/maekawa"

// paramSets is the voting-sets parameter of both Maekawa variants.
var paramSets = Param{"sets", "all", "voting sets: all (everyone), grid (row+column of a square grid; n a square), " +
	"plane (n=7, the projective plane of seed 001), or V0;V1;... with comma-separated ids, " +
	"e.g. 0,1,2;1,3,5;2,4,5;0,3,4;1,4,6;0,5,6;2,3,6 ('/' may replace ';')"}

// paramRequesters is the workload parameter of both Maekawa variants.
var paramRequesters = Param{"requesters", "all", "processes that request the critical section: all, or comma-separated ids, " +
	"e.g. 0,1,2; the others only vote"}

// maekawaParams reads n, the voting sets and the requesters of a Maekawa
// entry.
func maekawaParams(v Values) (n int, sets []maekawa.Set, requesters maekawa.Set, err error) {
	if n, err = v.Int("n", 1, 63); err != nil {
		return
	}
	if sets, err = maekawa.ParseSets(v.Get("sets"), n); err != nil {
		return
	}
	requesters, err = maekawa.ParseRequesters(v.Get("requesters"), n)
	return
}
