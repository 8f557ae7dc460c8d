package coordination

import "github.com/coordcheck/coordcheck/model"

// LockDelay is Chubby's lock-delay (seed 004, "Use of Sequences": "one
// approach is to prevent other clients from getting the lock if a lock
// become inaccessible or the holder has failed"; "Open() ... Lock-delay"):
// when a holder's session ends without its releasing the lock, the
// service keeps the lock from others for the lock-delay, so that the
// failed holder's requests still in flight land first. It is the
// alternative to sequencers: it needs no help from the storage server,
// but it is safe only when the delay exceeds the bound on a message's
// delay.
//
// Time is abstract: a delay that exceeds the bound is a session end (the
// closeSession that frees the lock) that waits until no message of the
// failed client is in flight; a shorter one guarantees nothing, and is no
// guard at all.
type LockDelay uint8

// The lock-delays.
const (
	NoLockDelay    LockDelay = iota // the lock is free as soon as the session ends
	ShortLockDelay                  // shorter than the message delay bound
	LongLockDelay                   // longer than the message delay bound
)

var lockDelayNames = [...]string{NoLockDelay: "none", ShortLockDelay: "short", LongLockDelay: "long"}

// String is the delay's name as a parameter value.
func (d LockDelay) String() string { return lockDelayNames[d] }

// ParseLockDelay reads "none", "short" or "long".
func ParseLockDelay(s string) (LockDelay, error) {
	return parseName[LockDelay]("lockdelay", lockDelayNames[:], s)
}

// lockDelayOver says whether the lock-delay of client c's session has run
// out: with a delay longer than the message delay bound, once no message
// of c is in flight.
func (p *Protocol) lockDelayOver(w *model.World[State, Msg], c model.NodeID) bool {
	if p.LockDelay != LongLockDelay {
		return true
	}
	return w.InFlight(func(e model.Envelope[Msg]) bool { return e.From == c }) == 0
}
