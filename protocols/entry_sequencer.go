package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast/sequencer"
)

func init() {
	Register(mcastEntry("sequencer",
		"total-order multicast by a sequencer: messages go to p0, which numbers them and multicasts them; "+
			"hold-back until the number is reached; p0's crash blocks delivery (seed 001)",
		mcastBuild(plain(sequencer.New), false, sequencer.Properties), costs.SequencerTable))
}
