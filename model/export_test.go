package model

// SetMemoBits gives sys an empty memo of 2^bits entries, so that a test
// sees entries replaced.
func SetMemoBits[S, M any](sys *System[S, M], bits uint) { sys.makeMemo(bits) }
