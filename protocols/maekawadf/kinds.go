package maekawadf

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol implements model.KindLister (checked by the compiler).
var _ model.KindLister = (*Protocol)(nil)

// ActionKinds lists the kinds of action the protocol takes, for the
// checker's coverage (model.KindLister): the workload's inputs and the
// deliveries of each message kind.
func (p *Protocol) ActionKinds() []string {
	ks := mutex.InputKinds()
	for _, k := range kindNames {
		ks = append(ks, "deliver "+k)
	}
	return ks
}
