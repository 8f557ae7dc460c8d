package ricartagrawala

import "github.com/coordcheck/coordcheck/protocols/mutex"

// ActionKinds lists the kinds of action the protocol takes, for the
// checker's coverage (model.KindLister): the workload's inputs and the
// deliveries of each message kind.
func (p *Protocol) ActionKinds() []string {
	return append(mutex.InputKinds(), "deliver REQ", "deliver REP")
}
