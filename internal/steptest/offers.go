package steptest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// Offering is a node's state and the inputs the protocol offers it there,
// in order.
type Offering[S any] struct {
	From   S
	Inputs []model.Input
}

// Offer is state from, where the protocol offers inputs (none if empty).
func Offer[S any](from S, inputs ...model.Input) Offering[S] {
	return Offering[S]{From: from, Inputs: inputs}
}

// Offers requires p to offer node self, in each state of offerings,
// exactly its inputs: the workload's guards as the notes state them
// ("wait until ...").
func Offers[S, M any](t *testing.T, p model.Protocol[S, M], self model.NodeID, offerings ...Offering[S]) {
	t.Helper()
	for i, o := range offerings {
		got := p.Inputs(self, o.From, nil)
		if len(o.Inputs) == 0 {
			require.Empty(t, got, "offering %d: %+v", i, o.From)
			continue
		}
		require.Equal(t, o.Inputs, got, "offering %d: %+v", i, o.From)
	}
}
