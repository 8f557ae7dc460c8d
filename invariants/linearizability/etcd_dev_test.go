package linearizability

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestEtcdDev(t *testing.T) {
	dir := os.Getenv("ETCD_DIR")
	want := map[int]bool{2: true, 5: true, 7: true, 18: true, 25: true, 31: true, 38: true, 45: true, 48: true, 49: true, 51: true, 53: true, 56: true, 67: true, 75: true, 76: true, 80: true, 87: true, 92: true, 98: true, 100: true, 101: true, 102: true}
	agree, differ := 0, 0
	var total time.Duration
	for i := 0; i <= 102; i++ {
		if i == 95 {
			continue
		}
		f, err := os.Open(fmt.Sprintf("%s/etcd_%03d.log", dir, i))
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseJepsen(f, SpecCASRegister)
		f.Close()
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		r := Check(CASRegister(), h.Ops, 10*time.Second)
		total += r.Elapsed
		got := r.Verdict == Linearizable
		if got == want[i] {
			agree++
		} else {
			differ++
			t.Logf("etcd_%03d: porcupine says %v, we say %v (%d ops, %d fail, %d info)", i, want[i], r.Verdict, len(h.Ops), h.Failed, h.Indeterminate)
		}
	}
	t.Logf("agree %d differ %d total %v", agree, differ, total)
}
