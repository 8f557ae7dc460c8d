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

// CursorScratch is the arrays c writes at every Load, each as the span
// of addresses its capacity covers.
func CursorScratch[S, M any](c *Cursor[S, M]) [][2]uintptr {
	return [][2]uintptr{CapSpan(c.netMsg), CapSpan(c.places), CapSpan(c.dig)}
}

// CapSpan is the addresses of s's capacity.
func CapSpan[T any](s []T) [2]uintptr {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return [2]uintptr{lo, lo + uintptr(cap(s))*unsafe.Sizeof(*new(T))}
}
