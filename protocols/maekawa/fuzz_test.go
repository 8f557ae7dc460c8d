package maekawa

import (
	"strconv"
	"strings"
	"testing"
)

// formatSets writes sets as the sets parameter: "0,1;1,2;0,2".
func formatSets(sets []Set) string {
	parts := make([]string, len(sets))
	for i, v := range sets {
		var ids []string
		for _, j := range v.Members() {
			ids = append(ids, strconv.Itoa(int(j)))
		}
		parts[i] = strings.Join(ids, ",")
	}
	return strings.Join(parts, ";")
}

// requireShort fails unless err is one line of a length in proportion
// with the input.
func requireShort(t *testing.T, err error, input string) {
	if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 600 {
		t.Fatalf("error for %q is not one short line: %q", input, msg)
	}
}

// FuzzParseSets: any sets parameter, for any n the registry accepts,
// parses to sets that satisfy CheckSets or fails with one line, never a
// panic; the sets written out parse back to the same.
func FuzzParseSets(f *testing.F) {
	for _, c := range []struct {
		spec string
		n    uint8
	}{{"all", 3}, {"grid", 4}, {"grid", 9}, {"plane", 7}, {"0,1,2;1,3,5;2,4,5;0,3,4;1,4,6;0,5,6;2,3,6", 7},
		{"0,1/0,1", 2}, {"p0,p1;p1,p0", 2}, {";;", 3}, {"0,,1;1", 2}, {"grid", 63}, {"0,63;63", 64}} {
		f.Add(c.spec, c.n)
	}
	f.Fuzz(func(t *testing.T, spec string, n uint8) {
		size := int(n)%63 + 1 // the registry's range, 1..63
		sets, err := ParseSets(spec, size)
		if err != nil {
			requireShort(t, err, spec)
			return
		}
		if err := CheckSets(size, sets); err != nil {
			t.Fatalf("%q parses to sets that fail CheckSets: %v", spec, err)
		}
		again, err := ParseSets(formatSets(sets), size)
		if err != nil || len(again) != len(sets) {
			t.Fatalf("%q parses, but written as %q it does not: %v", spec, formatSets(sets), err)
		}
		for i := range sets {
			if again[i] != sets[i] {
				t.Fatalf("%q: V%d is %v, written out and parsed %v", spec, i, sets[i], again[i])
			}
		}
	})
}

// FuzzParseRequesters: any requesters parameter parses to a set of ids
// below n or fails with one line; the set written out parses back.
func FuzzParseRequesters(f *testing.F) {
	for _, s := range []string{"all", "", "0,1,2", "2", " 1 , 0", "0,0", "-1", "3", "1,,2", "+1"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, spec string, n uint8) {
		size := int(n)%63 + 1
		v, err := ParseRequesters(spec, size)
		if err != nil {
			requireShort(t, err, spec)
			return
		}
		if v>>size != 0 {
			t.Fatalf("%q with n=%d names %v", spec, size, v)
		}
		if v == 0 {
			return // an empty set has no written form but "" (all)
		}
		var ids []string
		for _, j := range v.Members() {
			ids = append(ids, strconv.Itoa(int(j)))
		}
		if again, err := ParseRequesters(strings.Join(ids, ","), size); err != nil || again != v {
			t.Fatalf("%q parses to %v, written out it parses to %v (%v)", spec, v, again, err)
		}
	})
}
