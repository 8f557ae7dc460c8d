//go:build !linux

package checker

import "unsafe"

// mapSlab maps nothing where huge pages are not asked for: slabs are
// made on the heap.
func mapSlab(bytes uintptr) ([]byte, unsafe.Pointer) { return nil, nil }

// unmapSlab is never called without mapSlab.
func unmapSlab(raw []byte) {}

// unbackSlab is never called without mapSlab.
func unbackSlab(p unsafe.Pointer, n uintptr) uintptr { return 0 }

// mapSpan reserves nothing where huge pages are not asked for: the
// visited set's tables stay in slabs.
func mapSpan(bytes uintptr) []byte { return nil }
