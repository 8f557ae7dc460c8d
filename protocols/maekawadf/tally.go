package maekawadf

import "fmt"

// Tally counts the messages of a run by kind (costs.MaekawaContention
// measures seed 002's worst case in it).
type Tally [Yield + 1]int

// Total is the number of messages of every kind.
func (t Tally) Total() int {
	n := 0
	for _, c := range t {
		n += c
	}
	return n
}

// String lists the counts by kind: "REQ 9, GRANT 10, ...".
func (t Tally) String() string {
	str := ""
	for k, c := range t {
		if k > 0 {
			str += ", "
		}
		str += fmt.Sprintf("%s %d", kindNames[k], c)
	}
	return str
}
