package model

import (
	"strconv"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// NodeID names a node of the system: 0..N-1. It prints as p0, p1, ...
type NodeID uint8

// MaxNodes is the largest number of nodes a System supports.
const MaxNodes = 64

// String renders the id as in traces: "p3".
func (id NodeID) String() string { return "p" + strconv.Itoa(int(id)) }

// ParseNodeID reads "p3" (or "3") back into a NodeID.
func ParseNodeID(s string) (NodeID, error) {
	if len(s) > 1 && s[0] == 'p' {
		s = s[1:]
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || v >= MaxNodes {
		return 0, &ParseError{What: "node id", Text: s}
	}
	return NodeID(v), nil
}

// ParseError reports text that does not name a valid value.
type ParseError struct {
	What string // what was expected, e.g. "node id"
	Text string // the offending text
}

// Error says what was expected and what was given.
func (e *ParseError) Error() string { return "invalid " + e.What + " " + clip.Quote(e.Text) }
