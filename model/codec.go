package model

// Helpers for canonical encodings. Values are appended to a byte slice and
// read back in the same order; a read returns the rest of the slice.

// AppendU8 appends one byte.
func AppendU8(b []byte, v uint8) []byte { return append(b, v) }

// ReadU8 reads one byte.
func ReadU8(b []byte) (uint8, []byte) { return b[0], b[1:] }

// AppendUvarint appends v in the unsigned LEB128 form.
func AppendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// ReadUvarint reads a value written by AppendUvarint.
func ReadUvarint(b []byte) (uint64, []byte) {
	if b[0] < 0x80 { // one byte, the common case
		return uint64(b[0]), b[1:]
	}
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c := b[0]
		b = b[1:]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, b
		}
	}
}

// AppendBool appends a boolean as one byte.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// ReadBool reads a boolean written by AppendBool.
func ReadBool(b []byte) (bool, []byte) { return b[0] != 0, b[1:] }

// AppendString appends a length-prefixed string.
func AppendString(b []byte, s string) []byte {
	b = AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// ReadString reads a string written by AppendString.
func ReadString(b []byte) (string, []byte) {
	n, b := ReadUvarint(b)
	return string(b[:n]), b[n:]
}
