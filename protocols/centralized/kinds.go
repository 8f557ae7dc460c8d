package centralized

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol implements model.KindLister (checked by the compiler).
var _ model.KindLister = (*Protocol)(nil)

// ActionKinds lists the kinds of action the protocol takes, for the
// checker's coverage (model.KindLister): the workload's inputs (a GRANT
// lets a process in: it has no enter input of its own) and the
// deliveries of each message kind.
func (p *Protocol) ActionKinds() []string {
	return []string{"input " + mutex.Request, "input " + mutex.Exit, "deliver REQ", "deliver GRANT", "deliver REL"}
}
