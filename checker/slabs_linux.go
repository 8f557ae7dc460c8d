package checker

import (
	"syscall"
	"unsafe"
)

// mapSlab maps bytes of zeroed memory aligned on a huge page and asks for
// huge pages for it; it returns the whole mapping (for unmapSlab) and the
// aligned start, or nil when the system refuses.
func mapSlab(bytes uintptr) ([]byte, unsafe.Pointer) {
	raw, err := syscall.Mmap(-1, 0, int(bytes+hugePage), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := (hugePage - start%hugePage) % hugePage
	// Advice only: without huge pages (disabled, or an old kernel) the
	// memory works the same with small ones.
	_ = syscall.Madvise(raw[off:off+bytes], syscall.MADV_HUGEPAGE)
	return raw, unsafe.Pointer(&raw[off])
}

// mapSpan reserves bytes of address space aligned on a huge page, asks
// for huge pages for it and returns it, or nil when the system refuses.
// Nothing is committed (MAP_NORESERVE): a page is memory only once
// written, so the span may be far larger than the memory it will hold.
func mapSpan(bytes uintptr) []byte {
	raw, err := syscall.Mmap(-1, 0, int(bytes+hugePage), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := (hugePage - start%hugePage) % hugePage
	_ = syscall.Madvise(raw[off:off+bytes], syscall.MADV_HUGEPAGE)
	return raw
}

// unmapSlab gives a mapping back to the system.
func unmapSlab(raw []byte) { _ = syscall.Munmap(raw) }

// unbackSlab gives the whole huge pages of the n bytes at p back to the
// system, and returns their size; they read as zeros if touched again. A part of a huge page is
// kept: giving it back would split the page, a system call and a fault
// per small page after (madvise was 4% of ring N=10's samples on two
// workers when it split them), to save less than 2 MB.
func unbackSlab(p unsafe.Pointer, n uintptr) uintptr {
	lo := (hugePage - uintptr(p)%hugePage) % hugePage // to the first whole page
	hi := (uintptr(p) + n) &^ (hugePage - 1)
	if uintptr(p)+lo >= hi {
		return 0
	}
	if syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo)), hi-uintptr(p)-lo), syscall.MADV_DONTNEED) != nil {
		return 0
	}
	return hi - uintptr(p) - lo
}
