package mutex

import (
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// FormatSet renders a bit set of nodes as "{p0,p2}".
func FormatSet(set uint64) string {
	var ids []string
	for i := range model.MaxNodes {
		if set&(1<<i) != 0 {
			ids = append(ids, model.NodeID(i).String())
		}
	}
	return "{" + strings.Join(ids, ",") + "}"
}
