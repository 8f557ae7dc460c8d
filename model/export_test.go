package model

import (
	"reflect"
	"unsafe"
)

// ReadInto reads the derived encoding of a T at the start of b into *v,
// over what it held, as decode reads a node's state in place.
func ReadInto[T any](b []byte, v *T) []byte {
	p, err := planFor(reflect.TypeFor[T]())
	if err != nil {
		panic(err)
	}
	return p.read(b, unsafe.Pointer(v))
}
