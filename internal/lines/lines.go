// Package lines keeps a goroutine's hot scratch off the cache lines of
// other goroutines' memory.
//
// A search's workers are set up one after the other by one goroutine, so
// their small arrays and structs come out of the same span, side by side:
// a worker writing its own would take the line from the core reading the
// next worker's (false sharing). On two workers that made the cursor's
// Load and Step two to three times slower than on one (RA N=4 R=1: the
// two-worker search took 0.93-1.16 s, 0.65-0.66 s once padded).
package lines

import "unsafe"

// Size is the size of a cache line, or a multiple of it (adjacent lines
// are fetched in pairs on some machines).
const Size = 128

// Pad is padding that keeps what is before it and what is after it on
// different cache lines: at the start and the end of a worker's struct,
// it keeps the struct's lines its own.
type Pad [Size]byte

// Own makes a slice of n zero Ts on cache lines of its own: appending to
// it copies it.
func Own[T any](n int) []T {
	var t T
	size := max(int(unsafe.Sizeof(t)), 1)
	pad := (Size + size - 1) / size
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}
