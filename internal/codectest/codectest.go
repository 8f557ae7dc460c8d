// Package codectest checks a protocol's hand-written codec, as the
// engine relies on it: a value reads back exactly as it was written, and
// values that differ are written differently (a fingerprint is taken of
// the bytes) and, for messages, formatted differently (a counterexample
// file names a message by its text).
package codectest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// States requires every state to read back exactly as c wrote it after a
// byte already in the buffer (a codec appends), with no byte left over,
// and two states to encode alike only when they are equal.
func States[S any](t *testing.T, c model.StateCodec[S], states []S) {
	t.Helper()
	seen := map[string]int{}
	for i, s := range states {
		b := c.AppendState([]byte{7}, s)
		got, rest := c.ReadState(b[1:])
		require.Equal(t, s, got, "state %d", i)
		require.Empty(t, rest, "state %d", i)
		if j, dup := seen[string(b)]; dup {
			require.Equal(t, states[j], s, "state %d encodes like state %d", i, j)
		}
		seen[string(b)] = i
	}
}

// MsgCodec is a message codec that also formats its messages.
type MsgCodec[M any] interface {
	model.MsgCodec[M]
	model.MsgFormatter[M]
}

// Msgs requires every message, all different, to read back exactly as c
// wrote it, with no byte left over, and to format differently from the
// others.
func Msgs[M any](t *testing.T, c MsgCodec[M], msgs []M) {
	t.Helper()
	texts := map[string]int{}
	for i, m := range msgs {
		got, rest := c.ReadMsg(c.AppendMsg(nil, m))
		require.Equal(t, m, got, "message %d", i)
		require.Empty(t, rest, "message %d", i)
		text := c.FormatMsg(m)
		j, dup := texts[text]
		require.False(t, dup, "message %d formats like message %d: %s", i, j, text)
		texts[text] = i
	}
}
