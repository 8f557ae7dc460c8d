package coordination

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// The read/write lock recipe of seed 004 ("Read/Write Lock"): writers and
// readers create sequential ephemeral znodes under one directory, and the
// counters order them all.
//
//	Write Lock                                 Read Lock
//	1 n = create(l + "/write-", EPH|SEQ)       1 n = create(l + "/read-", EPH|SEQ)
//	2 C = getChildren(l, false)                2 C = getChildren(l, false)
//	3 if n is lowest znode in C, exit          3 if no write znodes lower than n in C, exit
//	4 p = znode in C ordered just before n     4 p = write znode in C ordered just before n
//	5 if exists(p, true) wait for event        5 if exists(p, true) wait for event
//	6 goto 2                                   6 goto 3
//
// The read lock's "goto 3" is taken with a fresh C: the client lists
// again (step 2), as the write lock does; a C listed before the event
// would still hold p. Readers share the lock, a writer excludes every
// other holder, and a reader never passes a writer that came before it
// ("no writer starves behind readers", issue 16): that is what the
// counters promise. The deliberately broken variant (Broken) has readers
// that ignore the writers before them: a reader exits at step 3 at once.

// RWDir is the read/write lock's directory l.
const RWDir = "/rw"

// rwPrefix is the name a writer (or a reader) creates: "/rw/write-".
func rwPrefix(writer bool) string {
	if writer {
		return RWDir + "/write-"
	}
	return RWDir + "/read-"
}

// isWriter says whether client self takes the write lock: the first
// Writers clients do.
func (p *Protocol) isWriter(self model.NodeID) bool { return int(p.clientOf(self)) < p.Writers }

// rwPredecessor is steps 3 and 4: a writer waits for the znode just
// before its own, whatever it is; a reader for the write znode just before
// its own (the broken reader for none).
func (p *Protocol) rwPredecessor(self model.NodeID, children []string, mine uint8) (uint8, bool, bool) {
	if p.isWriter(self) {
		best, read, found := uint8(0), false, false
		for _, name := range children {
			if n := SeqOf(name); n >= 0 && n < int(mine) && (!found || uint8(n) > best) {
				best, read, found = uint8(n), strings.HasPrefix(name, "read-"), true
			}
		}
		return best, read, found
	}
	if p.Broken {
		return 0, false, false
	}
	var writes []string
	for _, name := range children {
		if strings.HasPrefix(name, "write-") {
			writes = append(writes, name)
		}
	}
	pred, found := predecessor(writes, mine)
	return pred, false, found
}

// Property names of the read/write lock.
const (
	RWExclusionName = "rw-exclusion"
	WriterFirstName = "no-reader-passes-a-writer"
)

// holders lists the live clients that hold the lock.
func (p *Protocol) holders(w *model.World[State, Msg]) []model.NodeID {
	var hs []model.NodeID
	for c := range p.C {
		id := p.clientNode(uint8(c))
		if !w.IsDown(id) && p.InCS(id, w.Nodes[id]) {
			hs = append(hs, id)
		}
	}
	return hs
}

// role is "writer" or "reader".
func (p *Protocol) role(id model.NodeID) string {
	if p.isWriter(id) {
		return "writer"
	}
	return "reader"
}

// RWExclusion: readers share the lock, a writer excludes every other
// holder.
func (p *Protocol) RWExclusion() Invariant {
	return Invariant{
		Name: RWExclusionName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			hs := p.holders(w)
			for _, h := range hs {
				if p.isWriter(h) && len(hs) > 1 {
					var names []string
					for _, o := range hs {
						names = append(names, fmt.Sprintf("%s %s", p.role(o), o))
					}
					return false, strings.Join(names, ", ") + " hold the lock at once"
				}
			}
			return true, ""
		},
		PremiseDoc: "a writer holds the lock",
		Premise: func(w *model.World[State, Msg]) bool {
			for _, h := range p.holders(w) {
				if p.isWriter(h) {
					return true
				}
			}
			return false
		},
	}
}

// WriterFirst: a reader holds the lock only when no live writer whose
// znode is lower than its own still waits: the sequence numbers serve
// them in order, so a stream of readers cannot starve a writer.
func (p *Protocol) WriterFirst() Invariant {
	return Invariant{
		Name: WriterFirstName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for _, r := range p.holders(w) {
				if p.isWriter(r) {
					continue
				}
				mine := w.Nodes[r].C.Mine
				for c := range p.C {
					id := p.clientNode(uint8(c))
					wc := &w.Nodes[id].C
					if p.isWriter(id) && !w.IsDown(id) && wc.Phase >= Listing && wc.Phase <= Watching && wc.Mine < mine {
						return false, fmt.Sprintf("reader %s holds the lock with %s while writer %s, which came first with %s, waits",
							r, p.ownPath(r, mine), id, p.ownPath(id, wc.Mine))
					}
				}
			}
			return true, ""
		},
		PremiseDoc: "a reader holds the lock while a writer waits",
		Premise: func(w *model.World[State, Msg]) bool {
			hs := p.holders(w)
			for _, r := range hs {
				if p.isWriter(r) {
					continue
				}
				for c := range p.C {
					id := p.clientNode(uint8(c))
					if ph := w.Nodes[id].C.Phase; p.isWriter(id) && !w.IsDown(id) && ph >= Listing && ph <= Watching {
						return true
					}
				}
			}
			return false
		},
	}
}
