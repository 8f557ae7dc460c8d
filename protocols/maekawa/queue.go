package maekawa

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// Queue is a voter's queue of requests, stored canonically: Queue[j] is
// the timestamp of p_j's queued request, 0 when p_j has none. The order of
// service is (timestamp, id), so arrival order adds no states.
type Queue [model.MaxNodes]uint32

// Head returns the queued request with the smallest (timestamp, id) among
// the first n processes.
func (q *Queue) Head(n int) (model.NodeID, bool) {
	best := -1
	for k := range n {
		if q[k] != 0 && (best < 0 || q[k] < q[best]) {
			best = k
		}
	}
	return model.NodeID(best), best >= 0
}

// Order lists the queued processes in (timestamp, id) order.
func (q Queue) Order(n int) []model.NodeID {
	var order []model.NodeID
	for {
		k, ok := q.Head(n)
		if !ok {
			return order
		}
		order = append(order, k)
		q[k] = 0
	}
}

// Format renders the queue as "[(1,p1) (2,p0)]", "" when it is empty.
func (q Queue) Format(n int) string {
	var es []string
	for _, k := range q.Order(n) {
		es = append(es, fmt.Sprintf("(%d,%s)", q[k], k))
	}
	if len(es) == 0 {
		return ""
	}
	return "[" + strings.Join(es, " ") + "]"
}

// Append encodes the first n entries canonically.
func (q *Queue) Append(b []byte, n int) []byte {
	for _, t := range q[:n] {
		b = model.AppendUvarint(b, uint64(t))
	}
	return b
}

// Read decodes n entries written by Append.
func (q *Queue) Read(b []byte, n int) []byte {
	for k := range n {
		var t uint64
		t, b = model.ReadUvarint(b)
		q[k] = uint32(t)
	}
	return b
}
