// Command cores measures what the machine's second core gives, before a
// table of parallel speed-ups is read: for four kinds of work, the
// throughput of as many threads as there are cores (or -threads) over
// that of one thread, each thread doing the same work on data of its own.
//
//	arithmetic   six independent multiply-add chains: the core's
//	             execution units (two hardware threads of one core share
//	             them)
//	chain        one dependent multiply-add chain: latency only, which two
//	             hardware threads of one core hide for each other
//	random       reads and writes at pseudo-random places of 64 MB: the
//	             misses a core can have in flight, and the memory's
//	             bandwidth for whole lines
//	stream       a pass over 64 MB, reading and writing every word: the
//	             memory's bandwidth
//
// Two idle cores of their own give about 2.0x on the first three; stream
// gives less wherever the cores share the memory's bandwidth (1.24-1.44x
// on the project's first 2-core VM, a PVM guest; 1.14-1.90x on its
// second, a KVM guest on an AMD EPYC host, from session 30 on: the
// README's table). A model checker's search is mostly
// chain and random work (decoding states, probing tables that do not fit
// the cache) with some streaming (copying a level's states and records).
// Where another tenant of the host takes part of a core, the figures fall
// (the first VM read 1.35x arithmetic and 1.07x random at such a time), and
// so does any parallel search: bench/spin-compare.sh prints these figures
// above its table, so that its two-worker columns are read against them.
//
//	go run ./bench/cores [-threads N] [-repeat R]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"
)

// words is the size of each thread's table for the memory kinds: 64 MB,
// more than the last-level cache of the machines the table is run on.
const words = 1 << 23

// kind is one kind of work: run does a fixed amount of it on table t,
// seeded by seed, and returns a value that depends on all of it (so that
// the compiler keeps the work).
type kind struct {
	name string
	run  func(t []uint64, seed uint64) uint64
}

var kinds = []kind{
	{"arithmetic", arithmetic},
	{"chain", chain},
	{"random", random},
	{"stream", stream},
}

func arithmetic(_ []uint64, seed uint64) uint64 {
	a, b, c, d, e, f := seed, seed+1, seed+2, seed+3, seed+4, seed+5
	for range 100_000_000 {
		a = a*3 + b
		b = b*5 + c
		c = c*7 + d
		d = d*9 + e
		e = e*11 + f
		f = f*13 + a
	}
	return a + b + c + d + e + f
}

func chain(_ []uint64, seed uint64) uint64 {
	x := seed
	for range 200_000_000 {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func random(t []uint64, seed uint64) uint64 {
	x, s := seed, uint64(0)
	mask := uint64(len(t) - 1)
	for range 20_000_000 {
		x = x*6364136223846793005 + 1442695040888963407
		j := x >> 20 & mask
		s += t[j]
		t[j] = s
	}
	return s
}

func stream(t []uint64, _ uint64) uint64 {
	var s uint64
	for range 10 {
		for i := range t {
			t[i] += uint64(i)
			s += t[i]
		}
	}
	return s
}

// timed runs k on n threads at once, each on its table, and returns the
// wall time until the last is done.
func timed(k kind, tables [][]uint64, n int) time.Duration {
	var wg sync.WaitGroup
	sums := make([]uint64, n)
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			sums[i] = k.run(tables[i], uint64(i)+1)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var s uint64
	for _, v := range sums {
		s += v
	}
	sink = s
	return elapsed
}

// sink keeps the work's results.
var sink uint64

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func main() {
	threads := flag.Int("threads", runtime.NumCPU(), "threads to compare with one")
	repeat := flag.Int("repeat", 3, "runs of each measure (the median is printed)")
	flag.Parse()
	if *threads < 2 || *repeat < 1 {
		fmt.Fprintln(os.Stderr, "cores: -threads must be at least 2 and -repeat at least 1")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(*threads)
	tables := make([][]uint64, *threads)
	for i := range tables {
		tables[i] = make([]uint64, words)
		for j := range tables[i] {
			tables[i][j] = uint64(j) // every page touched before the clock runs
		}
	}
	fmt.Printf("machine: %d threads over 1, same work per thread (2 real cores: about 2.0x)\n", *threads)
	for _, k := range kinds {
		var one, all []time.Duration
		for range *repeat { // in turn, so that a slow phase falls on both
			one = append(one, timed(k, tables, 1))
			all = append(all, timed(k, tables, *threads))
		}
		t1, tn := median(one), median(all)
		fmt.Printf("  %-10s %6.2fx   (1 thread %v, %d threads %v)\n", k.name,
			float64(*threads)*t1.Seconds()/tn.Seconds(), t1.Round(time.Millisecond), *threads, tn.Round(time.Millisecond))
	}
	faults(*repeat)
}
