package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast/besteffort"
)

func init() {
	Register(mcastEntry("besteffort",
		"best-effort multicast: send to each member, nothing else; the baseline reliable multicast improves on (seed 001)",
		mcastBuild(plain(besteffort.New), false, besteffort.Properties), costs.BestEffortTable))
}
