package checker

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// MustNewSpec is NewSpec for a spec built once, in a package variable of
// a test: it panics with NewSpec's error (a state or message type that
// cannot be encoded, a cfg that cannot take effect), like
// model.MustNewSystem.
func MustNewSpec[S, M any](p model.Protocol[S, M], cfg model.Config, set property.Set[S, M]) *Spec[S, M] {
	sp, err := NewSpec(p, cfg, set)
	if err != nil {
		panic("checker: " + err.Error())
	}
	return sp
}
