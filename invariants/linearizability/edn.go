package linearizability

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// ednKind is the type of an EDN value: the subset that Jepsen histories
// use.
type ednKind uint8

const (
	ednNil ednKind = iota
	ednBool
	ednInt
	ednKeyword
	ednString
	ednVector
	ednMap
)

// EDN is one EDN value of the subset Jepsen histories use: nil, booleans,
// integers, keywords, strings, vectors and maps.
type EDN struct {
	kind ednKind
	b    bool
	n    int64
	s    string // keyword name without the colon, or string content
	// items holds a vector's elements, or a map's keys and values
	// alternately.
	items []EDN
}

// Get returns the value of the keyword :key in the map m, and whether m
// has it.
func (m EDN) Get(key string) (EDN, bool) { return m.get(key) }

// IsNil says whether e is nil.
func (e EDN) IsNil() bool { return e.kind == ednNil }

// Int returns e's integer, and whether e is one.
func (e EDN) Int() (int64, bool) { return e.n, e.kind == ednInt }

// Bool returns e's boolean, and whether e is one.
func (e EDN) Bool() (bool, bool) { return e.b, e.kind == ednBool }

// Text returns the content of a string, and whether e is one.
func (e EDN) Text() (string, bool) { return e.s, e.kind == ednString }

// Keyword returns a keyword's name without the colon, and whether e is
// one.
func (e EDN) Keyword() (string, bool) { return e.s, e.kind == ednKeyword }

// Items returns the elements of a vector, and whether e is one.
func (e EDN) Items() ([]EDN, bool) { return e.items, e.kind == ednVector }

// short is e's text for an error message, cut to a readable length.
func (e EDN) short() string { return clip.String(e.String()) }

// get returns the value of the keyword key in map m.
func (m EDN) get(key string) (EDN, bool) {
	for i := 0; i+1 < len(m.items); i += 2 {
		if k := m.items[i]; k.kind == ednKeyword && k.s == key {
			return m.items[i+1], true
		}
	}
	return EDN{}, false
}

func (e EDN) isKeyword(name string) bool { return e.kind == ednKeyword && e.s == name }

// String writes e in EDN, so that equal values print equally.
func (e EDN) String() string {
	switch e.kind {
	case ednNil:
		return "nil"
	case ednBool:
		return strconv.FormatBool(e.b)
	case ednInt:
		return strconv.FormatInt(e.n, 10)
	case ednKeyword:
		return ":" + e.s
	case ednString:
		return quoteEDN(e.s)
	}
	open, close, sep := "[", "]", " "
	if e.kind == ednMap {
		open, close = "{", "}"
	}
	var b strings.Builder
	b.WriteString(open)
	for i, it := range e.items {
		if i > 0 {
			if e.kind == ednMap && i%2 == 0 {
				b.WriteString(",")
			}
			b.WriteString(sep)
		}
		b.WriteString(it.String())
	}
	b.WriteString(close)
	return b.String()
}

// ednReader reads EDN values from one line of text.
type ednReader struct {
	s   string
	pos int
}

// skip passes over white space and commas (white space in EDN).
func (r *ednReader) skip() {
	for r.pos < len(r.s) {
		switch r.s[r.pos] {
		case ' ', '\t', '\r', '\n', ',':
			r.pos++
		default:
			return
		}
	}
}

func (r *ednReader) atEnd() bool {
	r.skip()
	return r.pos >= len(r.s)
}

// read reads one value.
func (r *ednReader) read() (EDN, error) {
	r.skip()
	if r.pos >= len(r.s) {
		return EDN{}, fmt.Errorf("unexpected end of line")
	}
	switch c := r.s[r.pos]; {
	case c == '{':
		r.pos++
		m, err := r.readSeq('}', ednMap)
		if err != nil {
			return m, err
		}
		if len(m.items)%2 != 0 {
			return m, fmt.Errorf("map %s has a key without a value", m.short())
		}
		for i := 0; i < len(m.items); i += 2 {
			for j := 0; j < i; j += 2 {
				if m.items[i].String() == m.items[j].String() {
					return m, fmt.Errorf("map has the key %s twice", m.items[i].short())
				}
			}
		}
		return m, nil
	case c == '[':
		r.pos++
		return r.readSeq(']', ednVector)
	case c == '"':
		return r.readString()
	case c == ':':
		r.pos++
		tok := r.token()
		if tok == "" || tok[0] == ':' {
			return EDN{}, fmt.Errorf("bad keyword %s", clipped(":"+tok))
		}
		return EDN{kind: ednKeyword, s: tok}, nil
	case c == '}' || c == ']' || c == ')':
		return EDN{}, fmt.Errorf("unexpected %q", c)
	case c == '(' || c == '#' || c == '\\' || c == '^' || c == '`' || c == '~' || c == '@' || c == '\'':
		return EDN{}, fmt.Errorf("unsupported EDN at %s (histories use maps, vectors, keywords, integers, strings, nil and booleans)", clipped(r.s[r.pos:]))
	}
	tok := r.token()
	switch tok {
	case "nil":
		return EDN{kind: ednNil}, nil
	case "true", "false":
		return EDN{kind: ednBool, b: tok == "true"}, nil
	case "":
		return EDN{}, fmt.Errorf("unexpected %q", r.s[r.pos])
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(tok, "N"), 10, 64)
	if err != nil {
		return EDN{}, fmt.Errorf("bad value %s: want an integer, a keyword, a string, nil, a vector or a map", clipped(tok))
	}
	return EDN{kind: ednInt, n: n}, nil
}

// readSeq reads the elements of a vector or a map up to the closing byte.
func (r *ednReader) readSeq(closing byte, kind ednKind) (EDN, error) {
	v := EDN{kind: kind}
	for {
		r.skip()
		if r.pos >= len(r.s) {
			return v, fmt.Errorf("missing %q", closing)
		}
		if r.s[r.pos] == closing {
			r.pos++
			return v, nil
		}
		it, err := r.read()
		if err != nil {
			return v, err
		}
		v.items = append(v.items, it)
	}
}

// token reads the characters up to a delimiter.
func (r *ednReader) token() string {
	start := r.pos
	for r.pos < len(r.s) && !strings.ContainsRune(" \t\r\n,{}[]()\"", rune(r.s[r.pos])) {
		r.pos++
	}
	return r.s[start:r.pos]
}

func (r *ednReader) readString() (EDN, error) {
	var b strings.Builder
	for r.pos++; r.pos < len(r.s); r.pos++ {
		c := r.s[r.pos]
		switch c {
		case '"':
			r.pos++
			return EDN{kind: ednString, s: b.String()}, nil
		case '\\':
			r.pos++
			if r.pos >= len(r.s) {
				break
			}
			switch e := r.s[r.pos]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			case 'u':
				if r.pos+4 >= len(r.s) {
					return EDN{}, fmt.Errorf("unterminated \\u escape in a string")
				}
				u, err := strconv.ParseUint(r.s[r.pos+1:r.pos+5], 16, 16)
				if err != nil {
					return EDN{}, fmt.Errorf("bad escape %s in a string", clipped(`\u`+r.s[r.pos+1:r.pos+5]))
				}
				b.WriteRune(rune(u))
				r.pos += 4
			default:
				return EDN{}, fmt.Errorf("unsupported escape %s in a string", strconv.Quote(`\`+string(rune(e))))
			}
		default:
			b.WriteByte(c)
		}
	}
	return EDN{}, fmt.Errorf("unterminated string")
}

// quoteEDN writes s as an EDN string: quotes, backslashes and control
// characters escaped (\n, \t, \r, \u00XX), other bytes as they are, so
// that readString reads it back exactly.
func quoteEDN(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := range len(s) {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// clipped quotes input for an error message, cut to a readable length
// (see package clip).
func clipped(s string) string { return clip.Quote(s) }
