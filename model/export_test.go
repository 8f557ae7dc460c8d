package model

import (
	"reflect"
	"unsafe"
)

// SetMemoBits gives sys an empty memo of 2^bits entries, so that a test
// sees entries replaced.
func SetMemoBits[S, M any](sys *System[S, M], bits uint) { sys.makeMemo(bits) }

// ReadInto reads the derived encoding of a T at the start of b into *v,
// over what it held, as decode reads a node's state in place.
func ReadInto[T any](b []byte, v *T) []byte {
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		panic(err)
	}
	return p.read(b, unsafe.Pointer(v))
}
