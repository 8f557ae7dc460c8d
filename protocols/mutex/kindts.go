package mutex

import "github.com/coordcheck/coordcheck/model"

// KindTS is the message the timestamped algorithms share (Lamport,
// Ricart-Agrawala, Maekawa with and without deadlock handling): a kind of
// the protocol's, and a timestamp (0 where the kind carries none).
type KindTS[K ~uint8] struct {
	Kind K
	TS   uint32
}

// KindTSCodec is the codec of KindTS messages (model.MsgCodec): the
// kind's byte, then the timestamp as a varint, the bytes the derived
// codec would write. A protocol embeds it. It is written by hand because
// a message is encoded on every transition: the derived one made
// Ricart-Agrawala N=4 about a quarter slower.
type KindTSCodec[K ~uint8] struct{}

// AppendMsg appends m's encoding (AppendKindTS).
func (KindTSCodec[K]) AppendMsg(b []byte, m KindTS[K]) []byte {
	return AppendKindTS(b, uint8(m.Kind), m.TS)
}

// ReadMsg reads a message AppendMsg wrote (ReadKindTS).
func (KindTSCodec[K]) ReadMsg(b []byte) (KindTS[K], []byte) {
	k, ts, b := ReadKindTS(b)
	return KindTS[K]{Kind: K(k), TS: ts}, b
}

// AppendKindTS appends a {Kind, TS} message: the kind's byte, then the
// timestamp as a varint.
func AppendKindTS(b []byte, kind uint8, ts uint32) []byte {
	return model.AppendUvarint(append(b, kind), uint64(ts))
}

// ReadKindTS reads what AppendKindTS wrote.
func ReadKindTS(b []byte) (kind uint8, ts uint32, rest []byte) {
	v, rest := model.ReadUvarint(b[1:])
	return b[0], uint32(v), rest
}
