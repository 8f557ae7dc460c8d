package model

import (
	"testing"

	"pgregory.net/rapid"
)

// unmix64 undoes mix64: a world's parts' sum is read back from its
// fingerprint.
func TestUnmixInvertsMix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Uint64().Draw(t, "x")
		if got := unmix64(mix64(x)); got != x {
			t.Fatalf("unmix64(mix64(%#x)) = %#x", x, got)
		}
	})
}

// Parts of one word or less never collide under one seed.
func TestPartHashOneWordIsInjective(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SliceOfN(rapid.Byte(), 8, 8).Draw(t, "a")
		b := rapid.SliceOfN(rapid.Byte(), 8, 8).Draw(t, "b")
		if string(a) != string(b) && partHash(7, a) == partHash(7, b) {
			t.Fatalf("%x and %x collide", a, b)
		}
	})
}
