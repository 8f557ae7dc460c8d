package linearizability

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkCheck measures the cost of checking one linearizable history
// (ns/op is per history) and the operations checked per second, on
// simulated histories of 8 clients with 2% timed-out operations.
//
//	go test -run '^$' -bench Check ./invariants/linearizability
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		name string
		m    Model[Value, Input, Output]
		keys int
	}{
		{"cas-register", CASRegister(), 0},
		{"kv-10keys", KV(), 10},
	} {
		for _, n := range []int{100, 1000, 10000} {
			ops := genHistory(uint64(n), 8, n, c.keys, 0.02)
			b.Run(fmt.Sprintf("%s/ops=%d", c.name, len(ops)), func(b *testing.B) {
				for b.Loop() {
					if r := Check(c.m, ops, time.Minute); r.Verdict != Linearizable {
						b.Fatalf("verdict %v", r.Verdict)
					}
				}
				b.ReportMetric(float64(len(ops)*b.N)/b.Elapsed().Seconds(), "ops/s")
			})
		}
	}
}
