// Package nodeset writes a set of nodes kept as bits (bit i for node i),
// the way every protocol's trace shows one: "{p0,p2}".
package nodeset

import (
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// Format is "{p0,p2}" for the set bits of set, in node order; "{}" for
// none.
func Format(set uint64) string {
	var ids []string
	for i := 0; set != 0; i++ {
		if set&(1<<i) != 0 {
			set &^= 1 << i
			ids = append(ids, model.NodeID(i).String())
		}
	}
	return "{" + strings.Join(ids, ",") + "}"
}
