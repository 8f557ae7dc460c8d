package multicast

import (
	"encoding/binary"
	"fmt"
)

// Codec is the canonical encoding of fixed-size states and messages:
// structs of integers, booleans and arrays of them, encoded field by
// field with encoding/binary (derived, not written). Two equal values
// encode equally and two different ones differently. A protocol embeds
// it and adds FormatState and FormatMsg.
type Codec[S, M any] struct{}

// AppendState appends s's encoding.
func (Codec[S, M]) AppendState(b []byte, s S) []byte { return appendValue(b, s) }

// ReadState reads a state AppendState wrote.
func (Codec[S, M]) ReadState(b []byte) (S, []byte) { return readValue[S](b) }

// AppendMsg appends m's encoding.
func (Codec[S, M]) AppendMsg(b []byte, m M) []byte { return appendValue(b, m) }

// ReadMsg reads a message AppendMsg wrote.
func (Codec[S, M]) ReadMsg(b []byte) (M, []byte) { return readValue[M](b) }

func appendValue[T any](b []byte, v T) []byte {
	b, err := binary.Append(b, binary.LittleEndian, v)
	if err != nil {
		panic(fmt.Sprintf("multicast: %T is not a fixed-size value: %v", v, err))
	}
	return b
}

func readValue[T any](b []byte) (T, []byte) {
	var v T
	n, err := binary.Decode(b, binary.LittleEndian, &v)
	if err != nil {
		panic(fmt.Sprintf("multicast: decoding %T: %v", v, err))
	}
	return v, b[n:]
}
