package linearizability

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzEDN: any line reads as an EDN value or fails with one line, never
// a panic; a value read prints (edn.String) as EDN that reads back to the
// same value.
func FuzzEDN(f *testing.F) {
	for _, s := range []string{`{:type :invoke, :f :write, :value 3, :process 0, :time 1}`,
		`{:type :ok :f :read :value [:a 1] :process 2}`, `[1 -2 3N nil true false "a\"b\\c\n"]`,
		`{:a {:b [:c]}}`, `"tab\there"`, `:k`, `{:a 1 :a 2}`, `{:a}`, `(1 2)`, `#{1}`, `"\u00e9"`, "\"\x00\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r := &ednReader{s: line}
		v, err := r.read()
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 600 {
				t.Fatalf("error for %q is not one short line: %q", line, msg)
			}
			return
		}
		text := v.String()
		again, err := (&ednReader{s: text}).read()
		if err != nil {
			t.Fatalf("%q reads, prints as %q, which does not read: %v", line, text, err)
		}
		if !reflect.DeepEqual(again, v) {
			t.Fatalf("%q reads as %#v, prints as %q, which reads as %#v", line, v, text, again)
		}
	})
}
