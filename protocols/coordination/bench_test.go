package coordination

import (
	"slices"
	"testing"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
)

// benchConfigs are the register configurations the benchmarks explore.
var benchConfigs = []struct {
	name   string
	ops    int
	faults string
}{
	{"ops=1/crash=1@p0", 1, "crash=1@p0"},
	{"ops=2/none", 2, "none"},
}

// histories returns the distinct histories the runs of a configuration
// end with, and the number of ends of runs (terminal worlds).
func histories(b *testing.B, ops int, fs string) ([][]model.Record, int) {
	seen := map[string]bool{}
	var hs [][]model.Record
	ends := 0
	sp := mustSpec(NewRegister(3, 2, ops, LeaderReads), faults(fs))
	sp.Invariants = []checker.Invariant[State, Msg]{{Name: "collect", Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			ends++
			var key []byte
			for _, r := range w.History {
				key = model.AppendString(append(key, byte(r.Node)), r.Text)
			}
			if !seen[string(key)] {
				seen[string(key)] = true
				hs = append(hs, slices.Clone(w.History))
			}
			return true, ""
		}}}
	if rep := sp.Check(checker.Options{}); rep.Verdict != checker.Pass {
		b.Fatalf("collecting histories: %v", rep.Verdict)
	}
	return hs, ends
}

// BenchmarkLinearizability reports what the linearizability property
// costs:
//
//   - per-history: porcupine's check of one history the runs end with
//     (ns/history), over all the distinct histories of a configuration;
//
//   - per-state: the exhaustive check of the configuration with and
//     without the property (ns/state each; the difference is the
//     property's share, which its cache of verdicts by history keeps
//     small: terminal/state says how many worlds it judges, and
//     histories/state how many porcupine checks).
//
//     go test -run '^$' -bench Linearizability ./protocols/coordination
func BenchmarkLinearizability(b *testing.B) {
	for _, c := range benchConfigs {
		b.Run("per-history/"+c.name, func(b *testing.B) {
			hs, _ := histories(b, c.ops, c.faults)
			for b.Loop() {
				for _, h := range hs {
					if r, _, err := linearizability.CheckRecords(h, time.Minute); err != nil || r.Verdict != linearizability.Linearizable {
						b.Fatalf("%v %v", r.Verdict, err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(hs)), "ns/history")
			b.ReportMetric(float64(len(hs)), "histories")
		})
		for _, with := range []bool{true, false} {
			name := "per-state/" + c.name + "/with-linearizability"
			if !with {
				name = "per-state/" + c.name + "/without"
			}
			b.Run(name, func(b *testing.B) {
				var states uint64
				for b.Loop() {
					sp := mustSpec(NewRegister(3, 2, c.ops, LeaderReads), faults(c.faults))
					if !with {
						sp.Invariants = sp.Invariants[:1]
					}
					rep := sp.Check(checker.Options{})
					if rep.Verdict != checker.Pass {
						b.Fatalf("verdict %v", rep.Verdict)
					}
					states = rep.States
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(uint64(b.N)*states), "ns/state")
				if with {
					hs, ends := histories(b, c.ops, c.faults)
					b.ReportMetric(float64(ends)/float64(states), "terminal/state")
					b.ReportMetric(float64(len(hs))/float64(states), "histories/state")
				}
			})
		}
	}
}
