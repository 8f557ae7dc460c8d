package checker

import (
	"fmt"
	"math"
	"strings"
)

// Bitstate (supertrace) search: for state spaces whose fingerprints do
// not fit in memory, the visited set is an array of bits, each state
// marked by bitstateHashes bits its fingerprint picks (Holzmann's
// supertrace with several hash functions, as SPIN's -DBITSTATE -k3). A
// new state whose bits happen to be set already is taken for visited and
// not explored: the search may miss states, so a bitstate search that
// finds no violation never claims a pass. It reports Inconclusive, with
// the estimated coverage, computed as it goes: when the array is a
// fraction f full, a new state is lost with probability f^k, so each
// state inserted stands for 1/(1-f^k) states met, and the coverage is the
// states inserted over that sum. A violation it finds is real, and its
// counterexample is rebuilt exactly (pathTo).

// bitstateHashes is the number of bits a state sets.
const bitstateHashes = 3

// bitShard is one shard's part of the bit array.
type bitShard struct {
	words []uint64
	set   uint64  // bits set
	met   float64 // the states inserted, each weighted by 1/(1-f^k)
}

// newBitSet makes a bitstate set of about bytes bytes.
func newBitSet(bytes uint64) *fpSet {
	s := &fpSet{}
	words := max(bytes/8/numShards, 1)
	s.bits = make([]bitShard, numShards)
	for i := range s.bits {
		s.bits[i].words = make([]uint64, words)
	}
	return s
}

// bitPositions calls f with the k bit positions of key k in a shard of
// nbits bits (double hashing on the key's bits below the shard's).
func bitPositions(k, nbits uint64, f func(pos uint64) bool) bool {
	h1 := k << shardBits
	h2 := mix(k) | 1
	for i := range uint64(bitstateHashes) {
		if !f(home(h1+i*h2, nbits)) {
			return false
		}
	}
	return true
}

// mix is a bijective finalizer, for the second hash.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// insert marks key k and reports whether some bit was clear (a new state).
func (b *bitShard) insert(k uint64) bool {
	nbits := uint64(len(b.words)) * 64
	had := bitPositions(k, nbits, func(p uint64) bool { return b.words[p/64]&(1<<(p%64)) != 0 })
	if had {
		return false
	}
	f := float64(b.set) / float64(nbits)
	b.met += 1 / (1 - math.Pow(f, bitstateHashes))
	bitPositions(k, nbits, func(p uint64) bool {
		if w := &b.words[p/64]; *w&(1<<(p%64)) == 0 {
			*w |= 1 << (p % 64)
			b.set++
		}
		return true
	})
	return true
}

// has reports whether every bit of key k is set.
func (b *bitShard) has(k uint64) bool {
	nbits := uint64(len(b.words)) * 64
	return bitPositions(k, nbits, func(p uint64) bool { return b.words[p/64]&(1<<(p%64)) != 0 })
}

// coverage is the estimated fraction of the states met that were
// explored.
func (s *fpSet) coverage() float64 {
	var met float64
	for i := range s.bits {
		met += s.bits[i].met
	}
	if met == 0 {
		return 1
	}
	return float64(s.n) / met
}

// bitstateBound is the bound a bitstate search that found no violation
// reports: its estimated coverage and the bits per state.
func (s *fpSet) bitstateBound() string {
	bitsPerState := float64(s.bytes()*8) / float64(max(s.n, 1))
	return fmt.Sprintf("bitstate: estimated coverage %.4f%% (%.1f bits per state, %d hashes): no pass is claimed",
		100*s.coverage(), bitsPerState, bitstateHashes)
}

// refuseBitstate is the report of a bitstate search opts cannot make, or
// nil: it is a BFS on one worker, whose visited set is the bit array
// alone, so it keeps no checkpoint (the array is not written) and no
// state graph.
func refuseBitstate(opts *Options, props []string) *Report {
	why := ""
	switch {
	case opts.Strategy != BFS:
		why = "bitstate search is a BFS (-mode bfs)"
	case opts.Checkpoint != "" || opts.Resume != nil:
		why = "bitstate search writes no checkpoint"
	case opts.KeepGraph:
		why = "bitstate search keeps no state graph"
	}
	if why == "" {
		return nil
	}
	return &Report{Verdict: Inconclusive, Error: why, Properties: props}
}

// bitstateWithoutLiveness is the report of a bitstate search of a spec
// with liveness properties, which it does not check: a bit array cannot
// tell a state met before from one of the next level, so the search
// without a graph would take every state met again for a cycle and give
// up at once, and it keeps no graph to look for fair cycles in. It checks
// the safety properties and deadlock; when it finds no violation, its
// bound says which properties it left out.
func bitstateWithoutLiveness[S, M any](rep *Report, live []Liveness[S, M]) *Report {
	if rep.Verdict != Inconclusive {
		return rep
	}
	names := make([]string, len(live))
	for i, l := range live {
		names[i] = l.Name
	}
	rep.Bound += "; " + strings.Join(names, ", ") + " not checked (liveness is checked on the exact search only)"
	return rep
}
