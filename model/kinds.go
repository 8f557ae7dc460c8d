package model

// MsgKinder is implemented by protocols that name the kind of each
// message ("REQ", "REPLY"), for the checker's coverage counts. MsgKind
// must be a function of the message alone and return one of a few
// strings: the checker calls it once for each distinct message it meets
// (keyed by the message's encoding), not for every delivery. Without it,
// the kind of a message is its formatted text up to the first '(' or
// blank.
type MsgKinder[M any] interface {
	MsgKind(m M) string
}

// KindLister is implemented by protocols that list every kind of protocol
// action they can take, as the checker's coverage names them: "input
// request", "deliver REQ", "fire token-timeout" (the input; the message's
// kind; the timer's name). A report then lists the kinds that never fired,
// as SPIN lists unreached code. Faults and application messages are not
// listed: the checker knows them from the configuration.
type KindLister interface {
	ActionKinds() []string
}
