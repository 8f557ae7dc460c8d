package checker

import "slices"

// LengthCount is how many failing walks had a length.
type LengthCount struct {
	Steps int    `json:"steps"`
	Walks uint64 `json:"walks"`
}

// countFailingWalk counts a failing walk of n steps in
// rep.FailingWalkLengths, kept sorted by length.
func (rep *Report) countFailingWalk(n int) {
	i, found := slices.BinarySearchFunc(rep.FailingWalkLengths, n, func(c LengthCount, n int) int { return c.Steps - n })
	if !found {
		rep.FailingWalkLengths = slices.Insert(rep.FailingWalkLengths, i, LengthCount{Steps: n})
	}
	rep.FailingWalkLengths[i].Walks++
}
