package model

import (
	"bytes"
	"fmt"
	"strings"
)

// The Read functions of a codec, and System.Decode, trust their input:
// they read encodings the checker made itself, and panic (an index out of
// range) on bytes that are not one. Where bytes come from outside the
// process (a file written by an earlier run), decode them with the
// functions below, which turn a malformed encoding into an error.

// DecodeError is a byte string that is not the encoding of a value.
type DecodeError struct {
	What string // "state", "message" or "world"
	Len  int    // the length of the input
	Msg  string // what went wrong
}

// Error is one short line.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("malformed %s encoding (%d bytes): %s", e.What, e.Len, e.Msg)
}

// decodeGuard turns a panic of a decoder into a DecodeError in *err.
func decodeGuard(what string, n int, err *error) {
	if r := recover(); r != nil {
		msg := fmt.Sprint(r)
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if len(msg) > 100 {
			msg = msg[:100] + "..."
		}
		*err = &DecodeError{what, n, msg}
	}
}

// trailing is the error for bytes left over after a value.
func trailing(what string, b, rest []byte) error {
	if len(rest) == 0 {
		return nil
	}
	return &DecodeError{what, len(b), fmt.Sprintf("%d bytes left over after byte %d", len(rest), len(b)-len(rest))}
}

// DecodeState reads b, which must hold exactly one state of c; a
// malformed encoding is an error, never a panic.
func DecodeState[S, M any](c Codec[S, M], b []byte) (s S, err error) {
	defer decodeGuard("state", len(b), &err)
	s, rest := c.ReadState(b)
	return s, trailing("state", b, rest)
}

// DecodeMsg reads b, which must hold exactly one message of c; a
// malformed encoding is an error, never a panic.
func DecodeMsg[S, M any](c Codec[S, M], b []byte) (m M, err error) {
	defer decodeGuard("message", len(b), &err)
	m, rest := c.ReadMsg(b)
	return m, trailing("message", b, rest)
}

// DecodeChecked is Decode for bytes from outside the process: b must hold
// exactly one world, in the canonical form Encode writes (so that its
// fingerprint is the world's); a malformed encoding is an error, never a
// panic, and w is then unspecified.
func (sys *System[S, M]) DecodeChecked(b []byte, w *World[S, M]) (err error) {
	defer decodeGuard("world", len(b), &err)
	rest := sys.decode(b, w)
	if err := trailing("world", b, rest); err != nil {
		return err
	}
	if !bytes.Equal(sys.Encode(nil, w), b) {
		return &DecodeError{"world", len(b), "not in canonical form (it encodes back differently)"}
	}
	return nil
}
