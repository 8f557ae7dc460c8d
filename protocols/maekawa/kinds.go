package maekawa

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
	return append(mutex.InputKinds(), "deliver REQ", "deliver GRANT", "deliver REL")
}
