package linearizability

import (
	"fmt"
	"strings"
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

// BenchmarkKVAppendFile measures what `coordcheck lincheck -model
// kv-append` does with a history file in the :key shape: parse the EDN
// text and check it, per key. The histories come from the reference store
// of kvstore_test.go with 50 clients and about 100 operations a key;
// ops/s counts operations (two events each); -benchmem gives the bytes
// allocated, and /usr/bin/time on the test binary the peak memory.
//
//	go test -run '^$' -bench KVAppendFile -benchtime 1x -benchmem ./invariants/linearizability
func BenchmarkKVAppendFile(b *testing.B) {
	for _, n := range []int{2000, 100_000, 1_000_000} {
		if testing.Short() && n > 100_000 {
			continue
		}
		keys := max(10, n/100) // about 100 operations a key, as a real run spreads them
		text := kvStoreHistory(1, 50, n, keys, storeCorrect)
		b.Run(fmt.Sprintf("ops=%d/keys=%d", n, keys), func(b *testing.B) {
			for b.Loop() {
				h, err := ParseJepsen(strings.NewReader(text), SpecKVAppend)
				if err != nil {
					b.Fatal(err)
				}
				if r := Check(KVAppend(), h.Ops, 10*time.Minute); r.Verdict != Linearizable {
					b.Fatalf("verdict %v", r.Verdict)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
