package checker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// Sharding: random and swarm search split across machines. Walk k of a
// run belongs to shard k mod n (Options.Shard), so that each of the n
// shards runs every n-th walk with the seed and biases the unsharded run
// gives it, and the union of the shards' walks is the unsharded run's.
// Striping rather than contiguous ranges spreads the early walks, where a
// run that stops at its first failure spends its time, over every shard.
//
// A shard stops as the unsharded run does, relative to its own first
// failure (ExtraWalks walks later, in walk numbers), and lists its
// failing walks (Report.Failures). Since every shard's first failure is
// at or after the run's first failure, every shard has run all of its
// walks that the unsharded run would have run, and MergeShards finds the
// unsharded run's failing walk among them: the shortest failing walk up
// to ExtraWalks after the first, the lowest-numbered of the shortest. A
// shard keeps the trace of each failing walk shorter than all its earlier
// ones, which includes that walk wherever it falls.

// Shard names one shard of a run split n ways: Index in [0, Count).
type Shard struct {
	Index, Count int
}

// String is the shard as on the command line: "1/3".
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// ParseShard reads "i/n", 0 <= i < n.
func ParseShard(text string) (Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %s is not i/n with 0 <= i < n (e.g. 0/3, 1/3, 2/3)", clip.Quote(text))
	}
	return Shard{i, n}, nil
}

// ShardInfo says which part of a random or swarm run a report covers.
type ShardInfo struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// Walks is the number of walks of the whole run, Depth the bound on
	// each, Exhaust whether every failing walk counts (Options.Exhaust).
	Walks   int  `json:"walks"`
	Depth   int  `json:"depth"`
	Exhaust bool `json:"exhaust,omitempty"`
}

// WalkFailure is one failing walk of a shard: its number, its length
// before shrinking, the property it violates, and its trace when it is
// shorter than every earlier failing walk of the shard.
type WalkFailure struct {
	Walk           int    `json:"walk"`
	Steps          int    `json:"steps"`
	Property       string `json:"property"`
	Counterexample *Trace `json:"counterexample,omitempty"`
}

// shardWalks maps a shard's positions to walk numbers: position p is walk
// offset + p*stride.
type shardWalks struct{ offset, stride int }

func newShardWalks(s *Shard) shardWalks {
	if s == nil {
		return shardWalks{0, 1}
	}
	return shardWalks{s.Index, s.Count}
}

// walk is the number of the walk at position p.
func (s shardWalks) walk(p int) int { return s.offset + p*s.stride }

// before is the number of the shard's walks numbered below k.
func (s shardWalks) before(k int) int {
	if k <= s.offset {
		return 0
	}
	return (k - s.offset + s.stride - 1) / s.stride
}

// MergeShards combines the reports of the n shards of one random or swarm
// run into the report of the unsharded run: the verdict, the walks run,
// the failing walk, its counterexample and the count of failing walks are
// those the unsharded run gives (when no shard stopped early on a bound);
// transitions, coverage and distinct states add up the shards' (distinct
// states counted per shard: the sum bounds the union from above). names
// name the reports in errors. It refuses reports that are not shards,
// shards of runs split differently, and shard indices given twice or
// missing. That the shards check the same system is the caller's to
// verify (the protocol, its parameters and the search's flags).
func MergeShards(reps []*Report, names []string) (*Report, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("no report to merge")
	}
	byIndex := map[int]int{}
	var first *ShardInfo
	for i, r := range reps {
		s := r.Shard
		switch {
		case s == nil:
			return nil, fmt.Errorf("%s is not a shard's report (run check -mode random|swarm -shard i/n -json)", names[i])
		case first == nil:
			first = s
		case s.Count != first.Count || s.Walks != first.Walks || s.Depth != first.Depth || s.Exhaust != first.Exhaust || r.Seed != reps[0].Seed:
			return nil, fmt.Errorf("%s and %s are shards of different runs (shards %d/%d and %d/%d, walks %d and %d, depth %d and %d, seed %d and %d)",
				names[0], names[i], first.Index, first.Count, s.Index, s.Count, first.Walks, s.Walks, first.Depth, s.Depth, reps[0].Seed, r.Seed)
		}
		if j, dup := byIndex[s.Index]; dup {
			return nil, fmt.Errorf("%s and %s are both shard %d/%d", names[j], names[i], s.Index, s.Count)
		}
		byIndex[s.Index] = i
	}
	for k := range first.Count {
		if _, ok := byIndex[k]; !ok {
			return nil, fmt.Errorf("shard %d/%d is missing (%d of %d shards given)", k, first.Count, len(reps), first.Count)
		}
	}
	order := make([]*Report, first.Count) // by shard index
	for k := range order {
		order[k] = reps[byIndex[k]]
	}
	return mergeOrdered(order, first), nil
}

// mergeOrdered merges the shards' reports, given in shard order.
func mergeOrdered(shards []*Report, info *ShardInfo) *Report {
	rep := &Report{Properties: shards[0].Properties, Seed: shards[0].Seed}
	var fails []WalkFailure
	for _, s := range shards {
		rep.Transitions += s.Transitions
		rep.States += s.States
		rep.TableBytes += s.TableBytes
		rep.PeakBytes = max(rep.PeakBytes, s.PeakBytes)
		rep.Depth = max(rep.Depth, s.Depth)
		rep.Elapsed = max(rep.Elapsed, s.Elapsed) // the shards run side by side
		fails = append(fails, s.Failures...)
	}
	// The walks the unsharded run would have run: all, or up to
	// ExtraWalks past the first failure.
	cut := info.Walks
	if len(fails) > 0 && !info.Exhaust {
		firstFail := slices.MinFunc(fails, func(a, b WalkFailure) int { return a.Walk - b.Walk }).Walk
		cut = min(cut, firstFail+1+ExtraWalks)
	}
	var best *WalkFailure
	failing := uint64(0)
	for i := range fails {
		f := &fails[i]
		if f.Walk >= cut {
			continue
		}
		failing++
		if best == nil || f.Steps < best.Steps || f.Steps == best.Steps && f.Walk < best.Walk {
			best = f
		}
	}
	stopped := ""
	for _, s := range shards {
		sw := shardWalks{s.Shard.Index, s.Shard.Count}
		if s.Bound != "" && !strings.HasPrefix(s.Bound, "walks ") && stopped == "" {
			stopped = s.Bound
		}
		rep.Walks += uint64(min(int(s.Walks), sw.before(cut)))
	}
	rep.Bound = stopped
	if best != nil {
		walk := best.Walk
		rep.FailingWalk, rep.ShrunkFrom = &walk, best.Steps
		rep.Counterexample = traceOf(fails, walk)
	}
	if rep.Counterexample != nil {
		rep.Verdict = Violated
		rep.ViolationCounts = []PropertyCount{{rep.Counterexample.Property, failing}}
	} else {
		rep.Verdict = Inconclusive
		if rep.Bound == "" {
			rep.Bound = fmt.Sprintf("walks %d of depth %d", rep.Walks, info.Depth)
		}
	}
	if s := rep.Elapsed.Seconds(); s > 0 {
		rep.StatesPerSecond = float64(rep.States) / s
		rep.StepsPerSecond = float64(rep.Transitions) / s
	}
	mergeCoverage(rep, shards)
	return rep
}

// traceOf returns the trace the shards kept for walk k.
func traceOf(fails []WalkFailure, k int) *Trace {
	for _, f := range fails {
		if f.Walk == k && f.Counterexample != nil {
			return f.Counterexample
		}
	}
	return nil
}

// mergeCoverage adds up the shards' counts by kind (in the order the
// shards list them), keeps the kinds no shard fired, and a premise as seen
// when some shard saw it.
func mergeCoverage(rep *Report, shards []*Report) {
	rep.Coverage = []KindCount{}
	at := map[string]int{}
	for _, s := range shards {
		for _, c := range s.Coverage {
			if i, ok := at[c.Kind]; ok {
				rep.Coverage[i].Count += c.Count
				continue
			}
			at[c.Kind] = len(rep.Coverage)
			rep.Coverage = append(rep.Coverage, c)
		}
	}
	rep.NeverFired = []string{}
	for _, k := range shards[0].NeverFired {
		if _, fired := at[k]; !fired {
			rep.NeverFired = append(rep.NeverFired, k)
		}
	}
	rep.Premises = slices.Clone(shards[0].Premises)
	for _, s := range shards[1:] {
		for i := range rep.Premises {
			if i < len(s.Premises) && s.Premises[i].Seen {
				rep.Premises[i].Seen = true
			}
		}
	}
}
