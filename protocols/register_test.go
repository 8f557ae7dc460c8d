package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Register refuses what would make a registry ambiguous or unusable: a
// name already taken, an entry without a name or a Build.
func TestRegisterRefusesBadEntries(t *testing.T) {
	ra, ok := Lookup("ricartagrawala")
	require.True(t, ok)
	require.PanicsWithValue(t, "protocols: duplicate entry ricartagrawala", func() { Register(ra) })
	require.Panics(t, func() { Register(Entry{Name: "", Build: ra.Build}) })
	require.Panics(t, func() { Register(Entry{Name: "no-build"}) })
	_, ok = Lookup("no-build")
	require.False(t, ok)
}
