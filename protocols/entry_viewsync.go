package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast/viewsync"
)

func init() {
	// It records view installations, so it reports view-synchrony too.
	Register(mcastEntry("viewsync",
		"view-synchronous (atomic) multicast: a membership service installs views in total order after a flush; "+
			"messages tied to their sender's view; all survivors deliver m or none does (seed 001)",
		mcastBuild(plain(viewsync.New), true, viewsync.Properties), costs.ViewsyncTable))
}
