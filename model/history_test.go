package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/besteffort"
)

// Under HistoryByNode the history keeps each node's records in its own
// order, the nodes in id order, whatever the interleaving; without it,
// the records stay in the order they happened.
func TestHistoryByNode(t *testing.T) {
	p := besteffort.New(2, multicast.Workload{Msgs: 1, Senders: 2})
	for _, byNode := range []bool{false, true} {
		sys := model.MustNewSystem(p, model.Config{History: true, HistoryByNode: byNode})
		w := sys.Init()
		var next model.World[besteffort.State, besteffort.Msg]
		for _, a := range []model.Action{
			{Kind: model.ActInput, Node: 1, Input: multicast.Input},
			{Kind: model.ActInput, Node: 0, Input: multicast.Input},
		} {
			sys.Apply(w, a, &next)
			w.CopyFrom(&next)
		}
		var got []string
		for _, r := range w.History {
			got = append(got, r.Node.String()+" "+r.Text)
		}
		want := []string{"p1 mcast p1#1", "p1 deliver p1#1", "p0 mcast p0#1", "p0 deliver p0#1"}
		if byNode {
			want = []string{"p0 mcast p0#1", "p0 deliver p0#1", "p1 mcast p1#1", "p1 deliver p1#1"}
		}
		require.Equal(t, want, got, "byNode=%v", byNode)
	}
}
