package tokenring

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Rounds)
	b = model.AppendBool(b, s.Token)
	b = append(b, byte(s.Held), byte(s.Seen))
	return model.AppendBool(b, s.Asking)
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Rounds: b[1]}
	s.Token, b = model.ReadBool(b[2:])
	s.Held, s.Seen = int8(b[0]), int8(b[1])
	s.Asking, b = model.ReadBool(b[2:])
	return s, b
}

// AppendMsg encodes m canonically.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte { return append(b, byte(m.Kind), byte(m.V)) }

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) {
	return Msg{Kind: Kind(b[0]), V: int8(b[1])}, b[2:]
}

// FormatMsg: "TOKEN" (plain), "TOKEN(1)", "ASK" and "STATE(1)" (timeout),
// "PING(1)" and "PONG(-1)" (pingpong).
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Token:
		if p.Variant == Timeout {
			return fmt.Sprintf("TOKEN(%d)", m.V)
		}
		return "TOKEN"
	case Ask:
		return "ASK"
	case Answer:
		return fmt.Sprintf("STATE(%d)", m.V)
	case Ping:
		return fmt.Sprintf("PING(%d)", m.V)
	case Pong:
		return fmt.Sprintf("PONG(%d)", m.V)
	}
	return fmt.Sprintf("MSG(%d)", m.Kind)
}

// FormatState: "WANTED token rounds=0" (plain), "WANTED token(1) state=0
// asking rounds=0" (timeout), "WANTED ping(1) m=-1 rounds=0" (pingpong).
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	str := s.Phase.String()
	switch p.Variant {
	case Timeout:
		if s.Token {
			str += fmt.Sprintf(" token(%d)", s.Held)
		}
		str += fmt.Sprintf(" state=%d", s.Seen)
		if s.Asking {
			str += " asking"
		}
	case PingPong:
		if s.Token {
			str += fmt.Sprintf(" ping(%d)", s.Held)
		}
		str += fmt.Sprintf(" m=%d", s.Seen)
	default:
		if s.Token {
			str += " token"
		}
	}
	return str + fmt.Sprintf(" rounds=%d", s.Rounds)
}
