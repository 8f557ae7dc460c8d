package checker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// countStep, which keeps each step's kind on the memo of steps, counts
// what count counts over Ricart-Agrawala's whole space with 3 processes,
// with two tables taking turns on one expander (each must read its own
// notes only). (That a note goes with its step when another takes the
// step's place in the memo is model's TestCursorMemoTagGoesWithItsStep.)
func TestCountStepMatchesCount(t *testing.T) {
	sp := &Spec[ra.State, ra.Msg]{System: model.MustNewSystem[ra.State, ra.Msg](ra.New(3, 1), model.Config{})}
	x := newExpander(sp, model.NewStore[ra.State, ra.Msg]())
	plain, a, b := newKindTable(), newKindTable(), newKindTable()
	fp, enc := x.initial()
	seen := map[uint64]bool{fp: true}
	type item struct {
		fp  uint64
		enc []byte
	}
	queue := []item{{fp, enc}}
	served := 0
	for n := 0; len(queue) > 0; n++ {
		it := queue[0]
		queue = queue[1:]
		x.load(it.fp, it.enc, true)
		tab := a
		if n%3 == 0 {
			tab = b
		}
		x.makeSuccessors(&prefetcher{}, 0, false)
		for i := range x.acts {
			sc := x.successor(i)
			x.count(plain, x.acts[i])
			if !tab.countTagged(sc.tag) {
				x.countNoting(tab, &x.acts[i], sc.at)
			}
			if x.slot[sc.at].stepped.Ref() != 0 {
				served++
			}
			if !seen[sc.fp] {
				seen[sc.fp] = true
				queue = append(queue, item{sc.fp, append([]byte(nil), x.encodeOf(sc.at)...)})
			}
		}
	}
	require.Equal(t, 2861, len(seen))
	require.Greater(t, served, 7000, "the memo served most steps")
	want := map[string]uint64{}
	for i, k := range plain.kinds {
		want[k.name] = plain.counts[i]
	}
	got := map[string]uint64{}
	for _, tab := range []*kindTable{a, b} {
		for i, k := range tab.kinds {
			got[k.name] += tab.counts[i]
		}
	}
	require.Equal(t, want, got)
	require.Equal(t, uint64(3806), want["deliver REQ"])
}
