package cli

import (
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"syscall"

	"github.com/coordcheck/coordcheck/checker"
)

// searchStarted is called once a command listens for signals, just before
// its search starts (tests replace it to send the signal).
var searchStarted = func() {}

// stopOnSignal returns a channel closed at the first SIGINT or SIGTERM
// (Ctrl-C, or `timeout`), so that the search stops, inconclusive, and the
// summary is printed; and the function that stops listening. After the
// first signal the process no longer catches them: a second one ends it
// at once, as it would without coordcheck's handler.
func stopOnSignal() (<-chan struct{}, func()) {
	stop := make(chan struct{})
	sig := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
			signal.Stop(sig)
			close(stop)
		case <-done:
		}
	}()
	return stop, func() {
		signal.Stop(sig)
		close(done)
	}
}

// interruptibly runs f until it returns or stop is closed; finished is
// false when stop came first: f, which cannot be cancelled (porcupine),
// is then left to end with the process.
func interruptibly[T any](stop <-chan struct{}, f func() T) (v T, finished bool) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v, true
	case <-stop:
		return v, false
	}
}

// memoryBudget prepares a search bounded to maxMB: it reserves, out of
// the bound, what the process holds before the search (its code, the
// runtime, the protocol tables: the resident memory now) and a tenth for
// the garbage collector's headroom and the search's scratch, and it sets
// the Go runtime's soft memory limit to the bound (less the memory the
// runtime does not manage), so that the collector works harder as the
// heap nears the bound instead of letting garbage double it. The limit
// is a sixteenth below that: the process holds more than the runtime
// counts (the heap's free pages not yet given back, the code), and with
// the limit at the bound, RSS passed a 1,400 MB bound by 0.8-1.9%. It sets
// opts.MemoryReserve and returns the function that restores the limit.
func memoryBudget(opts *checker.Options) func() {
	if opts.MaxMemory == 0 {
		return func() {}
	}
	rss, goHeld := residentBytes(), runtimeBytes()
	opts.MemoryReserve = max(rss, goHeld) + opts.MaxMemory/10
	limit := opts.MaxMemory - opts.MaxMemory/16 - min(opts.MaxMemory/2, rss-min(rss, goHeld))
	prev := debug.SetMemoryLimit(int64(limit))
	return func() { debug.SetMemoryLimit(prev) }
}

// residentBytes is the process's resident memory (VmRSS), 0 when
// /proc cannot tell.
func residentBytes() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb uint64
			for _, c := range strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")) {
				if c < '0' || c > '9' {
					return 0
				}
				kb = kb*10 + uint64(c-'0')
			}
			return kb << 10
		}
	}
	return 0
}

// runtimeBytes is the memory the Go runtime holds from the system and has
// not given back.
func runtimeBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}
