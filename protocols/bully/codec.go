package bully

import "github.com/coordcheck/coordcheck/model"

// AppendState encodes s canonically: the phase, then the coordinator.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	return append(b, byte(s.Phase), byte(s.Coord))
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	return State{Phase: Phase(b[0]), Coord: model.NodeID(b[1])}, b[2:]
}

// AppendMsg encodes m as one byte.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte { return append(b, byte(m)) }

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) { return Msg(b[0]), b[1:] }

var msgNames = [...]string{Election: "ELECTION", OK: "OK", Coordinator: "COORD"}

// String is the message's name: ELECTION, OK or COORD.
func (m Msg) String() string {
	if int(m) < len(msgNames) {
		return msgNames[m]
	}
	return "MSG?"
}

// FormatMsg: "ELECTION", "OK" or "COORD" (the coordinator is the sender).
func (p *Protocol) FormatMsg(m Msg) string { return m.String() }

// FormatState: "NORMAL coord=p2", "WAIT_OK coord=p2", "WAIT_COORD
// coord=none".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	c := "none"
	if s.Coord != NoCoord {
		c = s.Coord.String()
	}
	return s.Phase.String() + " coord=" + c
}
