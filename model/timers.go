package model

import (
	"fmt"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// TimerMode says when an armed timer may fire.
type TimerMode uint8

// The timer modes.
const (
	// TimersDefault is the protocol's own assumption: TimersPerfect for
	// protocols that implement TimerGuard, TimersFree otherwise.
	TimersDefault TimerMode = iota
	// TimersFree: an armed timer may fire at any time (an asynchronous
	// system, where a timeout may be premature).
	TimersFree
	// TimersPerfect: a timer fires only when the protocol's TimerGuard says
	// no reply can still arrive (a synchronous system).
	TimersPerfect
)

// String is the mode's name on the command line.
func (m TimerMode) String() string {
	switch m {
	case TimersFree:
		return "free"
	case TimersPerfect:
		return "perfect"
	}
	return "default"
}

// ParseTimerMode reads a timer mode name.
func ParseTimerMode(s string) (TimerMode, error) {
	switch s {
	case "", "default":
		return TimersDefault, nil
	case "free":
		return TimersFree, nil
	case "perfect":
		return TimersPerfect, nil
	}
	return 0, fmt.Errorf("unknown timer mode %s (valid: default, free, perfect)", clip.Quote(s))
}
