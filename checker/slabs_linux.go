package checker

import (
	"syscall"
	"unsafe"
)

// mapSlab maps bytes of zeroed memory aligned on a huge page; it returns
// the whole mapping (for unmapSlab) and the aligned start, or nil when
// the system refuses.
//
// It does not ask for transparent huge pages (MADV_HUGEPAGE), nor does
// mapSpan. A huge page is a block of 2 MB of free memory, and a VM whose
// host takes back the guest's free memory (a balloon's free page
// reporting, as on the 2-core VM of the README's table) has handed most
// such blocks back: the first write of each then waits for the host to
// find and zero 2 MB. There, 64 MB written a page at a time took 2.4-2.6
// ms a MB on huge pages a few seconds after the last run, 0.14-0.47 when
// the memory had just been freed, and 0.42-0.55 on 4 KB pages either way
// (bench/cores prints both). A search is mostly the first case: after
// pan-hc4, as in bench/spin-compare.sh, one worker took 0.88-0.89x the
// time without the advice (RA N=4 R=1, centralized N=6 R=2, bully N=4,
// ring N=10; Maekawa 0.98x; five runs each), and RA N=4 R=2 on two
// workers 16.2-16.5 s against 18.2-19.2 s, its system time 0.7 s against
// 3.9 s. (The alignment stays: where the system gives huge pages to all
// memory, enabled=always, a table still starts on one.)
func mapSlab(bytes uintptr) ([]byte, unsafe.Pointer) {
	raw, err := syscall.Mmap(-1, 0, int(bytes+hugePage), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := (hugePage - start%hugePage) % hugePage
	return raw, unsafe.Pointer(&raw[off])
}

// mapSpan reserves bytes of address space and returns it (its first huge
// page boundary on: alignedSpan), or nil when the system refuses.
// Nothing is committed (MAP_NORESERVE): a page is memory only once
// written, so the span may be far larger than the memory it will hold.
func mapSpan(bytes uintptr) []byte {
	raw, err := syscall.Mmap(-1, 0, int(bytes+hugePage), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return raw
}

// unmapSlab gives a mapping back to the system.
func unmapSlab(raw []byte) { _ = syscall.Munmap(raw) }

// unbackSlab gives the whole huge pages of the n bytes at p back to the
// system, and returns their size; they read as zeros if touched again. A
// part of a huge page is kept: where the system gives huge pages, giving
// it back would split the page, a system call and a fault per small page
// after (madvise was 4% of ring N=10's samples on two workers when it
// split them), to save less than 2 MB.
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
