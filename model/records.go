package model

import "unsafe"

// The history's share of a world's fingerprint (see hash.go) is the sum of
// its records' parts. A record's part mixes the hash of its text with its
// node and its place: its place among its node's records under
// Config.HistoryByNode, which groups the records by node, each node's in
// its order; its place in the whole history otherwise. Either way the
// records' nodes and places determine the history. A protocol step appends
// records of its own node only, at places known from the parent, so it
// adds their parts to the parent's sum without hashing the history again
// (StepHash); a step taken on ids (Cursor.Step) appends its records to the
// interned rest instead.

// hashRecord seeds a record's text hash.
const hashRecord = 0x27d4eb2f165667c5

// textHash is the hash of a record's text.
func textHash(s string) uint64 {
	return partHash(hashRecord, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// recordPart is the part of node i's record at place k whose text hashes
// to t.
func recordPart(i NodeID, k int, t uint64) uint64 {
	return mix64(t ^ uint64(k+1)*hashTime + uint64(i+1)*hashNode)
}

// historyPart is the sum of the parts of w's records.
func (sys *System[S, M]) historyPart(w *World[S, M]) uint64 {
	var sum uint64
	place := 0
	for k, r := range w.History {
		switch {
		case !sys.Config.HistoryByNode:
			place = k
		case k > 0 && w.History[k-1].Node == r.Node:
			place++
		default:
			place = 0
		}
		sum += recordPart(r.Node, place, textHash(r.Text))
	}
	return sum
}

// firstPlace is the place of the first record a step of node i appends to
// the history of the parent world w, the world h was loaded with.
func (sys *System[S, M]) firstPlace(h *WorldHash, w *World[S, M], i NodeID) int {
	if !sys.Config.HistoryByNode {
		return len(w.History)
	}
	if h.histGen != h.gen { // each node's records, counted once per parent
		clear(h.histN)
		for _, r := range w.History {
			h.histN[r.Node]++
		}
		h.histGen = h.gen
	}
	return h.histN[i]
}
