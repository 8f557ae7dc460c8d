package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast/reliable"
)

func init() {
	Register(mcastEntry("reliable-mcast",
		"basic reliable multicast: S_P, history buffer emptied when all ACKed, L_Q(P), hold-back queue, "+
			"retransmission requests (seed 001, Basic reliable multicasting)",
		mcastBuild(plain(reliable.New), false, reliable.Properties), costs.ReliableTable))
}
