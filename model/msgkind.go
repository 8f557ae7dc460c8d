package model

// MsgKinder is implemented by protocols that name the kind of each
// message ("REQ", "REPLY"), for the checker's coverage counts. MsgKind
// must return one of a few constant strings, and must not allocate: it is
// called for every delivery the checker explores. Without it, the kind of
// a message is its formatted text up to the first '(' or blank.
type MsgKinder[M any] interface {
	MsgKind(m M) string
}
