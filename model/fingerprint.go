package model

import (
	"encoding/binary"
	"math/bits"
)

// Fingerprint is a deterministic 64-bit hash of a canonical encoding. The
// same bytes give the same fingerprint on every run and machine. The
// checker stores fingerprints instead of states (hash compaction): with n
// states the chance that two of them collide is about n²/2⁶⁵, below 10⁻⁴
// for 50 million states.
func Fingerprint(b []byte) uint64 {
	const (
		m1 = 0x9e3779b97f4a7c15
		m2 = 0xc2b2ae3d27d4eb4f
		m3 = 0x165667b19e3779f9
	)
	h := uint64(len(b))*m3 ^ m1
	for len(b) >= 16 {
		x := binary.LittleEndian.Uint64(b)
		y := binary.LittleEndian.Uint64(b[8:])
		hi, lo := bits.Mul64(x^m1, y^m2)
		h = bits.RotateLeft64(h^hi^lo, 23)*m3 + m2
		b = b[16:]
	}
	if len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		hi, lo := bits.Mul64(x^m2, h^m1)
		h ^= hi ^ lo
		b = b[8:]
	}
	if len(b) > 0 {
		var t uint64
		for i, c := range b {
			t |= uint64(c) << (8 * i)
		}
		hi, lo := bits.Mul64(t^m3, h^m2)
		h ^= hi ^ lo
	}
	// Final avalanche.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 29
	h *= m2
	h ^= h >> 32
	return h
}

// FingerprintScheme numbers the way worlds are encoded and fingerprinted.
// It changes whenever a world's encoding or fingerprint changes under some
// configuration, so that a file holding fingerprints (a checkpoint) made by
// one scheme is not read by another, whose fingerprints of the same states
// would not match. Scheme 2: a history's records are fingerprinted by
// their parts (records.go), not with the rest.
const FingerprintScheme = 2
