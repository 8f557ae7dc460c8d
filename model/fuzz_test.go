package model

import (
	"strings"
	"testing"
)

// FuzzParseFaults: any -faults spec parses or fails with one short line,
// never a panic; what parses prints (Faults.String) as a spec that parses
// back to the same budget.
func FuzzParseFaults(f *testing.F) {
	for _, s := range []string{"", "none", "crash=1", "crash=1@p2+p3,restart=1", "drop=inf",
		"drop=2,dup=1,partition=1", "crash=0@p1", "crash=1@p63", "dup=inf", "crash=x", "crash=1,crash=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		faults, err := ParseFaults(spec)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 600 {
				t.Fatalf("error for %q is not one short line: %q", spec, msg)
			}
			return
		}
		again, err := ParseFaults(faults.String())
		if err != nil {
			t.Fatalf("%q parses, prints as %q, which does not: %v", spec, faults.String(), err)
		}
		if again != faults {
			t.Fatalf("%q parses to %+v, prints as %q, which parses to %+v", spec, faults, faults.String(), again)
		}
	})
}

// FuzzParseNodeID: a node id parses to an id below MaxNodes that prints
// as p<id> and parses back to itself.
func FuzzParseNodeID(f *testing.F) {
	for _, s := range []string{"p0", "3", "p63", "p64", "-1", "pp1", "p", "+5", "p+5", "07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseNodeID(s)
		if err != nil {
			return
		}
		if id >= MaxNodes {
			t.Fatalf("%q parses to %d", s, id)
		}
		if again, err := ParseNodeID(id.String()); err != nil || again != id {
			t.Fatalf("%q parses to %v, which does not parse back (%v, %v)", s, id, again, err)
		}
	})
}
