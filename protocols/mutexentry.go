package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// mutexEntry completes e, an entry of the mutual-exclusion family: newP
// makes the protocol of values v for a number of rounds, the parameter
// rounds (1..100) for a check (Build) and mutex.Endless for a live run,
// whose workload never ends (LiveTarget); props is what the notes claim
// for it.
func mutexEntry[P model.Protocol[S, M], S, M any](e Entry, newP func(v Values, rounds int) (P, error),
	props func(P, model.Config) property.Set[S, M]) Entry {
	e.Build, e.LiveTarget = mutexTargets(newP, props)
	e.Family = "mutex"
	return e
}

// mutexTargets are mutexEntry's Build and LiveTarget.
func mutexTargets[P model.Protocol[S, M], S, M any](newP func(v Values, rounds int) (P, error),
	props func(P, model.Config) property.Set[S, M]) (build, live func(Values, model.Config) (checker.Target, error)) {
	make := func(v Values, cfg model.Config, rounds int) (checker.Target, error) {
		p, err := newP(v, rounds)
		if err != nil {
			return nil, err
		}
		return target(p, cfg, props(p, cfg))
	}
	build = func(v Values, cfg model.Config) (checker.Target, error) {
		r, err := v.Int("rounds", 1, 100)
		if err != nil {
			return nil, err
		}
		return make(v, cfg, r)
	}
	live = func(v Values, cfg model.Config) (checker.Target, error) { return make(v, cfg, mutex.Endless) }
	return build, live
}
