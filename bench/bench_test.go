// Package bench measures the checker's throughput (states per second) and
// memory (bytes per stored state) on the configurations that the SPIN
// anchor in ../shared/bench/spin also runs, so that both can be compared on
// the same model in the same run (see bench/spin-compare.sh). Searches run
// on one worker, as SPIN's pan does; the _AllCores benchmarks run the same
// search on one worker per core (Options.Workers 0).
package bench

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

// run checks protocol name with params under opts, on one worker unless
// opts.Workers says otherwise (-1: one per core).
func run(b *testing.B, name string, params map[string]string, opts checker.Options) {
	b.Helper()
	switch opts.Workers {
	case 0:
		opts.Workers = 1
	case -1:
		opts.Workers = 0
	}
	e, ok := protocols.Lookup(name)
	if !ok {
		b.Skipf("protocol %s not registered", name)
	}
	t, _, err := e.BuildWith(params, model.Config{})
	if err != nil {
		b.Fatal(err)
	}
	var rep *checker.Report
	for b.Loop() {
		rep = t.Check(opts)
	}
	b.ReportMetric(float64(rep.States), "states")
	b.ReportMetric(rep.StatesPerSecond, "states/s")
	b.ReportMetric(rep.BytesPerState(), "B/state")
	b.ReportMetric(float64(rep.Transitions), "transitions")
}

func BenchmarkRA_N3_R2(b *testing.B) {
	run(b, "ricartagrawala", map[string]string{"n": "3", "rounds": "2", "clock": "spin"}, checker.Options{SkipLiveness: true})
}

func BenchmarkRA_N4_R1(b *testing.B) {
	run(b, "ricartagrawala", map[string]string{"n": "4", "rounds": "1", "clock": "spin"}, checker.Options{SkipLiveness: true})
}

func BenchmarkRA_N4_R1_AllCores(b *testing.B) {
	run(b, "ricartagrawala", map[string]string{"n": "4", "rounds": "1", "clock": "spin"}, checker.Options{SkipLiveness: true, Workers: -1})
}

// BenchmarkRA_N4_R2 is the largest exhaustive SPIN anchor: 53,775,170
// states. Run it with -benchtime=1x.
func BenchmarkRA_N4_R2(b *testing.B) {
	run(b, "ricartagrawala", map[string]string{"n": "4", "rounds": "2", "clock": "spin"}, checker.Options{SkipLiveness: true})
}

// BenchmarkRA_N4_R1_Liveness is BenchmarkRA_N4_R1 with starvation freedom
// checked too: the cost of liveness over safety alone. The state graph
// has no cycle, which BFS shows as it goes, so no graph is kept.
func BenchmarkRA_N4_R1_Liveness(b *testing.B) {
	run(b, "ricartagrawala", map[string]string{"n": "4", "rounds": "1", "clock": "spin"}, checker.Options{})
}

// BenchmarkRA_N4_R1_LivenessGraph checks the same liveness on the kept
// state graph (Tarjan's SCCs, fair cycles): what a graph costs.
func BenchmarkRA_N4_R1_LivenessGraph(b *testing.B) {
	run(b, "ricartagrawala", map[string]string{"n": "4", "rounds": "1", "clock": "spin"}, checker.Options{KeepGraph: true})
}

// Deadlock-free Maekawa (seed 002) on the plane with three requesters
// whose sets form a cycle, every property included: 252,373 states.
func BenchmarkMaekawaDF_Plane_R3(b *testing.B) {
	run(b, "maekawa-df", map[string]string{"n": "7", "sets": "plane", "requesters": "0,1,2"}, checker.Options{})
}

func BenchmarkMaekawaDF_Plane_R3_AllCores(b *testing.B) {
	run(b, "maekawa-df", map[string]string{"n": "7", "sets": "plane", "requesters": "0,1,2"}, checker.Options{Workers: -1})
}

// Maekawa with the projective-plane sets of seed 001 (N=7): more than 8
// million states; SPIN cannot finish it in two minutes. The benchmark
// explores the first 2 million states (BFS) to measure throughput.
func BenchmarkMaekawa_Plane(b *testing.B) {
	run(b, "maekawa", map[string]string{"n": "7", "sets": "plane"}, checker.Options{MaxStates: 2_000_000, SkipLiveness: true, Exhaust: true})
}

// Swarm search on configurations BFS cannot finish in a minute, on the
// given workers (0: one per core).
func runWalks(b *testing.B, name string, params map[string]string, workers int) {
	b.Helper()
	e, _ := protocols.Lookup(name)
	t, _, err := e.BuildWith(params, model.Config{})
	if err != nil {
		b.Fatal(err)
	}
	var rep *checker.Report
	for b.Loop() {
		rep = t.Check(checker.Options{Strategy: checker.Swarm, Walks: 2000, Seed: 1, Exhaust: true, Workers: workers})
	}
	b.ReportMetric(rep.StepsPerSecond, "steps/s")
	b.ReportMetric(float64(rep.Transitions), "steps")
	b.ReportMetric(float64(rep.States), "distinct")
	if len(rep.ViolationCounts) > 0 {
		b.ReportMetric(float64(rep.ViolationCounts[0].States), "failing-walks")
	}
}

func BenchmarkSwarm_RA_N8_R2(b *testing.B) {
	runWalks(b, "ricartagrawala", map[string]string{"n": "8", "rounds": "2"}, 1)
}

func BenchmarkSwarm_RA_N8_R2_AllCores(b *testing.B) {
	runWalks(b, "ricartagrawala", map[string]string{"n": "8", "rounds": "2"}, 0)
}

func BenchmarkSwarm_Maekawa_Plane_R2(b *testing.B) {
	runWalks(b, "maekawa", map[string]string{"n": "7", "sets": "plane", "rounds": "2"}, 1)
}

func BenchmarkCR_N10(b *testing.B) {
	run(b, "ringelection", map[string]string{"n": "10"}, checker.Options{SkipLiveness: true})
}

func BenchmarkCR_N10_AllCores(b *testing.B) {
	run(b, "ringelection", map[string]string{"n": "10"}, checker.Options{SkipLiveness: true, Workers: -1})
}
