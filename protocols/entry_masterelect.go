package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/masterelect"
)

func init() {
	servers := Param{"n", "3", "servers"}
	epochs := Param{"epochs", "3", "the highest epoch (bounds the elections)"}
	build := func(variant masterelect.Variant) func(v Values, cfg model.Config) (checker.Target, error) {
		return func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 1, masterelect.MaxServers)
			if err != nil {
				return nil, err
			}
			e, err := v.Int("epochs", 1, 100)
			if err != nil {
				return nil, err
			}
			p := masterelect.New(variant, n)
			p.MaxEpoch = uint8(e)
			if variant == masterelect.Chubby {
				wait, err := v.On("leasewait")
				if err != nil {
					return nil, err
				}
				p.NoLeaseWait = !wait
			}
			return target(p, cfg, masterelect.Properties(p))
		}
	}
	Register(Entry{
		Name: "chubbyelect",
		Doc: "Chubby's election of its master: vote once, a majority elects, the master lease; a new master waits " +
			"out the old lease before it serves (seeds 000, 003, 004)",
		Params: []Param{servers, epochs,
			{"leasewait", "on", "off: a new master serves at once, while the old may still serve under its lease"}},
		Build: build(masterelect.Chubby),
	})
	Register(Entry{
		Name: "zkelect",
		Doc: "ZooKeeper's election of its leader as the notes give it: each server monitors its next-higher id; the " +
			"leader's predecessor takes over with NEW_LEADER, ACKs from a majority, COMMIT (seeds 000, 003)",
		Params: []Param{servers, epochs},
		Build:  build(masterelect.ZooKeeper),
	})
}
