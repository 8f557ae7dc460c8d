package model

import (
	"reflect"
	"unsafe"
)

// SetCursorMemoBits gives c an empty memo of 2^bits entries, so that a
// test sees entries replaced.
func SetCursorMemoBits[S, M any](c *Cursor[S, M], bits uint) { c.makeCaches(bits) }

// ReadInto reads the derived encoding of a T at the start of b into *v,
// over what it held, as decode reads a node's state in place.
func ReadInto[T any](b []byte, v *T) []byte {
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		panic(err)
	}
	return p.read(b, unsafe.Pointer(v))
}

// MemoLen is the number of entries of c's memo, 0 before its first step.
func MemoLen[S, M any](c *Cursor[S, M]) int { return len(c.memo) }
