package tokenring

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
	switch p.Variant {
	case Timeout:
		return append(ks, "deliver TOKEN", "deliver ASK", "deliver STATE", "fire token-timeout")
	case PingPong:
		return append(ks, "deliver PING", "deliver PONG")
	}
	return append(ks, "deliver TOKEN")
}
