package checker

import "unsafe"

// prefetch asks the processor to bring the cache line at p closer (x86's
// PREFETCHT0): a hint, with no effect on what the program computes, that
// lets the visited-set probe of one successor overlap the making of the
// next (see explore).
//
//go:noescape
func prefetch(p unsafe.Pointer)
