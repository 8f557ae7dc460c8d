package bully

import "github.com/coordcheck/coordcheck/model"

// Protocol implements model.KindLister (checked by the compiler).
var _ model.KindLister = (*Protocol)(nil)

// ActionKinds lists the kinds of action the protocol takes, for the
// checker's coverage (model.KindLister): the deliveries of each message
// and the firings of each timer. The bully algorithm has no input: an
// election starts when a process notices a crash, or restarts.
func (p *Protocol) ActionKinds() []string {
	ks := make([]string, 0, len(msgNames)+3)
	for _, m := range msgNames {
		ks = append(ks, "deliver "+m)
	}
	for _, t := range []model.TimerID{TimerDetect, TimerOK, TimerCoord} {
		ks = append(ks, "fire "+p.TimerName(t))
	}
	return ks
}
