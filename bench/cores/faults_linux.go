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
// microsecond on bare metal to tens of microseconds in some VMs. Each
// kind of page is timed cold, after a pause of coldPause, and then again
// at once (the median of repeat): a VM whose host takes back its guest's
// free memory (free page reporting) has given back most free 2 MB blocks
// by the time a new process asks for them, and huge pages, each such a
// block, then cost the most (2.4-2.6 ms a MB against 0.14-0.47 again at
// once, on the README's 2-core VM; 4 KB pages 0.42-0.55 either way).
func faults(repeat int) {
	const mb = 64
	fmt.Printf("first touch of %d MB: cold (after %v idle), again (median of %d):\n", mb, coldPause, repeat)
	for _, huge := range []bool{false, true} {
		time.Sleep(coldPause)
		cold, err := firstTouch(mb, huge)
		if err != nil {
			fmt.Printf("  mmap: %v\n", err)
			return
		}
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
		fmt.Printf("  %-10s cold %8v (%.2f ms a MB)   again %8v (%.2f ms a MB)\n", name,
			cold.Round(100*time.Microsecond), cold.Seconds()*1000/mb, t.Round(100*time.Microsecond), t.Seconds()*1000/mb)
	}
}

// coldPause is how long faults leaves the memory idle before its cold
// touch: long enough for the host to have taken freed memory back (seen
// within 5 s on the README's VM).
const coldPause = 8 * time.Second
