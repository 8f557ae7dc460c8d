package nodeset

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormat(t *testing.T) {
	require.Equal(t, "{}", Format(0))
	require.Equal(t, "{p0,p2}", Format(0b101))
	require.Equal(t, "{p63}", Format(1<<63))
}
