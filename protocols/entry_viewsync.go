package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast/viewsync"
)

func init() {
	Register(Entry{
		Name: "viewsync",
		Doc: "view-synchronous (atomic) multicast: a membership service installs views in total order after a flush; " +
			"messages tied to their sender's view; all survivors deliver m or none does (seed 001)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			return mcastSpec(viewsync.New(n, wl), cfg, v, true, viewsync.Properties)
		},
		Family: "multicast",
		Costs:  costs.ViewsyncTable,
	})
}
