package costs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A run's figures add up over the kinds asked for, or over all kinds.
func TestRunFigures(t *testing.T) {
	r := ElectionRun{Kinds: []KindStats{
		{Kind: "ELECTION", Sent: 3, Lost: 2, Last: 2},
		{Kind: "OK", Sent: 3, Last: 3},
		{Kind: "COORD", Sent: 2, Last: 4},
	}}
	require.Equal(t, 8, r.Sent())
	require.Equal(t, 5, r.Sent("ELECTION", "COORD"))
	require.Equal(t, 2, r.Lost())
	require.Equal(t, 0, r.Lost("OK"))
	require.Equal(t, 4, r.Time())
	require.Equal(t, 3, r.Time("ELECTION", "OK"))
	require.Equal(t, 0, r.Sent("ACK"))
}

// Extremes picks the cheapest and the dearest run; ties go to the first.
func TestExtremes(t *testing.T) {
	runs := []ElectionRun{
		{Initiator: 0, Kinds: []KindStats{{Kind: "M", Sent: 5}}},
		{Initiator: 1, Kinds: []KindStats{{Kind: "M", Sent: 2}}},
		{Initiator: 2, Kinds: []KindStats{{Kind: "M", Sent: 5}}},
		{Initiator: 3, Kinds: []KindStats{{Kind: "M", Sent: 2}}},
	}
	best, worst := Extremes(runs, func(r ElectionRun) int { return r.Sent() })
	require.EqualValues(t, 1, best.Initiator)
	require.EqualValues(t, 0, worst.Initiator)
}
