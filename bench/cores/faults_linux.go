package main

import (
	"fmt"
	"syscall"
	"time"
)

// firstTouch maps mb megabytes apart from the heap, on huge pages when
// huge is set, writes a byte in each 4 KB page, and returns the time the
// writes took: the page faults and the zeroing of the memory they give.
func firstTouch(mb int, huge bool) (time.Duration, error) {
	n := mb << 20
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(b)
	if huge {
		_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; advice only
	}
	start := time.Now()
	for i := 0; i < n; i += 4096 {
		b[i] = 1
	}
	return time.Since(start), nil
}

// faults prints what memory written for the first time costs: a search
// writes tens of megabytes so, and a page fault costs from under a
// microsecond on bare metal to tens of microseconds in some VMs.
func faults(repeat int) {
	const mb = 64
	fmt.Printf("first touch of %d MB (median of %d):\n", mb, repeat)
	for _, huge := range []bool{false, true} {
		var ts []time.Duration
		for range repeat {
			t, err := firstTouch(mb, huge)
			if err != nil {
				fmt.Printf("  mmap: %v\n", err)
				return
			}
			ts = append(ts, t)
		}
		t := median(ts)
		name := "4 KB pages"
		if huge {
			name = "huge pages"
		}
		fmt.Printf("  %-10s %8v   (%.2f ms a MB)\n", name, t.Round(100*time.Microsecond), t.Seconds()*1000/mb)
	}
}
