package checker

import "unsafe"

// recentFPs is a cache of the fingerprints a search met last: pairs of
// slots, a fingerprint going into its pair's first slot and pushing the
// one there to the second; one pushed out of both is forgotten. A state's
// successors are often states made a little before, from states near it
// in the search, and 512 KB (a fraction of the core's cache) holds most
// of them where the visited set, tens of megabytes, mostly misses.
//
// Its two users:
//
//   - a level worker (levelWorker.recent) puts the fingerprints it
//     records in the level: a successor found there is neither looked up
//     in the visited set (it was not there: the set does not change while
//     the level is expanded) nor recorded again. One forgotten is recorded
//     again, which merge drops (it keeps the first record of a
//     fingerprint, and records are only ever left out after the first).
//     It leaves 0.7-3.4% more records than a table of every fingerprint
//     of the level on the spin-compare rows and 1.1% more on RA N=4 R=2,
//     where that table took tens of megabytes and a cache miss on most
//     lookups;
//   - the one-worker search (explore) puts the fingerprints it probes in
//     the visited set, all of them in it since: one found there is not
//     probed again.
//
// Its users hold it by pointer, one word (nil when they have none): held
// as a slice, three words, it was one more value the one-worker search's
// loop kept in registers and reloaded at every state.
type recentFPs [1 << recentBits]uint64

// recentBits is log2 of a recentFPs' slots.
const recentBits = 16

func newRecentFPs() *recentFPs { return new(recentFPs) }

// pair is the first slot of fp's pair.
func (c *recentFPs) pair(fp uint64) uint64 {
	return (fp * 0x9e3779b97f4a7c15) >> (64 - recentBits) &^ 1
}

// prefetch asks for fp's pair's cache line, which has reads one
// successor later.
func (c *recentFPs) prefetch(fp uint64) { prefetch(unsafe.Pointer(&c[c.pair(fp)])) }

// has reports whether fp is in the cache.
func (c *recentFPs) has(fp uint64) bool {
	i := c.pair(fp)
	return c[i] == fp || c[(i+1)&(1<<recentBits-1)] == fp
}

// put puts fp, not in the cache, into its pair's first slot, pushing the
// one there to the second.
func (c *recentFPs) put(fp uint64) {
	i := c.pair(fp)
	c[i], c[(i+1)&(1<<recentBits-1)] = fp, c[i]
}

// reset forgets every fingerprint in c (none when it is nil).
func (c *recentFPs) reset() {
	if c != nil {
		clear(c[:])
	}
}

// bytes is the memory of c, none when it is nil.
func (c *recentFPs) bytes() uint64 {
	if c == nil {
		return 0
	}
	return uint64(len(c)) * 8
}
