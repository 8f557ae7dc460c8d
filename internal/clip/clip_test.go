package clip

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClip(t *testing.T) {
	require.Equal(t, "abc", String("abc"))
	require.Equal(t, `"a\x00b"`, Quote("a\x00b"))
	long := strings.Repeat("x", 100000)
	require.Equal(t, strings.Repeat("x", Max)+"... (100000 bytes)", String(long))
	require.Equal(t, `"`+strings.Repeat("x", Max)+`..." (100000 bytes)`, Quote(long))
	// Binary input quotes to four bytes a byte: fewer bytes are shown.
	require.Equal(t, `"`+strings.Repeat(`\x00`, 15)+`..." (1000 bytes)`, Quote(strings.Repeat("\x00", 1000)))
	// A cut never splits a rune: 59 x and a 3-byte rune leave 59 bytes.
	require.Equal(t, strings.Repeat("x", 59)+"... (62 bytes)", String(strings.Repeat("x", 59)+"€"))
	require.Equal(t, "line 3: bad  thing", Line("line 3: bad\r\n thing"))
	msg := Line("file:7: " + long)
	require.Len(t, msg, MaxLine+len("... (99608 more bytes)"))
	require.True(t, strings.HasPrefix(msg, "file:7: xxx"))
}
