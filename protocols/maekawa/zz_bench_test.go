package maekawa

import (
	"testing"
	"github.com/coordcheck/coordcheck/checker"
)

func BenchmarkGrid4(b *testing.B) {
	t := &testing.T{}
	for b.Loop() {
		rep := spec(t, 4, 1, "grid").Check(checker.Options{Exhaust: true})
		b.Logf("%d states %s", rep.States, rep.Elapsed)
	}
}
