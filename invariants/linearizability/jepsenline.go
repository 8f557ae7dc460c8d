package linearizability

import (
	"fmt"
	"strings"
)

// Event is one line of a Jepsen history: an invocation or a completion.
type Event struct {
	// Line is the line's number, from 1.
	Line int
	// Process is the Jepsen process (:process).
	Process int64
	// Type is "invoke", "ok", "fail" or "info" (:type).
	Type string
	// F is the operation's function (:f), without the colon.
	F string
	// Value is the event's :value, nil when absent (and not read on log
	// lines of :fail and :info).
	Value EDN
	// Key is the :key of an EDN map (the key-value :key shape), and
	// HasKey says whether there is one.
	Key    EDN
	HasKey bool
	// Map is the whole EDN map of the event, for the fields of other
	// shapes of history (nil on log lines).
	Map EDN
}

// lineReader turns the lines of a history into events. It detects the
// format of each line: an EDN map (Jepsen's history.EDN, optionally the
// whole file wrapped in one vector, as Knossos's test data is), or one of
// Jepsen's log lines ("INFO  jepsen.util - 0\t:invoke\t:write\t3").
type lineReader struct {
	seen   bool // a line with an event or a bracket was read
	opened bool // the file opened a vector
	closed bool // and closed it
}

// parse reads one line; ok is false for lines without an event (blank,
// EDN comments, the nemesis).
func (lr *lineReader) parse(text string, line int) (ev Event, ok bool, err error) {
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, ";") {
		return ev, false, nil
	}
	if lr.closed {
		return ev, false, fmt.Errorf("text after the closing ] of the history")
	}
	first := !lr.seen
	lr.seen = true
	if first && strings.HasPrefix(t, "[") {
		lr.opened = true
		t = strings.TrimSpace(t[1:])
	}
	if lr.opened && strings.HasPrefix(t, "]") {
		lr.closed = true
		if rest := strings.TrimSpace(t[1:]); rest != "" {
			return ev, false, fmt.Errorf("text after the closing ] of the history")
		}
		return ev, false, nil
	}
	if t == "" {
		return ev, false, nil
	}
	if strings.HasPrefix(t, "{") {
		return lr.parseEDN(t, line)
	}
	if lr.opened {
		return ev, false, fmt.Errorf("want an EDN map {...} inside the history vector")
	}
	return parseLogLine(t, line)
}

// parseEDN reads a line holding one map, such as
// {:type :invoke, :f :write, :value 3, :process 0, :time 12, :index 0}.
func (lr *lineReader) parseEDN(t string, line int) (Event, bool, error) {
	r := &ednReader{s: t}
	m, err := r.read()
	if err != nil {
		return Event{}, false, err
	}
	r.skip()
	if lr.opened && r.pos < len(t) && t[r.pos] == ']' {
		r.pos++
		lr.closed = true
	}
	if !r.atEnd() {
		return Event{}, false, fmt.Errorf("text after the map: %s (one map per line)", clipped(t[r.pos:]))
	}
	ev := Event{Line: line}
	p, ok := m.get("process")
	if !ok {
		return ev, false, fmt.Errorf("map has no :process")
	}
	if p.isKeyword("nemesis") {
		return ev, false, nil
	}
	if p.kind != ednInt {
		return ev, false, fmt.Errorf(":process %s: want an integer or :nemesis", p.short())
	}
	ev.Process = p.n
	ty, ok := m.get("type")
	if !ok {
		return ev, false, fmt.Errorf("map has no :type")
	}
	if ev.Type, err = eventType(ty); err != nil {
		return ev, false, err
	}
	f, ok := m.get("f")
	if !ok {
		return ev, false, fmt.Errorf("map has no :f")
	}
	if ev.F, err = function(f); err != nil {
		return ev, false, err
	}
	ev.Value, _ = m.get("value")
	ev.Key, ev.HasKey = m.get("key")
	ev.Map = m
	return ev, true, nil
}

// parseLogLine reads a Jepsen log line: PROCESS TYPE F VALUE separated by
// tabs or spaces, after any timestamp and logger prefix; on :fail and
// :info lines, what follows F (the value or the error) is not read.
func parseLogLine(t string, line int) (Event, bool, error) {
	start := -1
	words := wordStarts(t)
	for i := 0; i+1 < len(words) && start < 0; i++ {
		if isProcess(word(t, words[i])) && isEventType(word(t, words[i+1])) {
			start = words[i]
		}
	}
	if start < 0 {
		return Event{}, false, fmt.Errorf("not a history line: want an EDN map {:process P, :type T, :f F, :value V} or a Jepsen log line \"P\\t:T\\t:F\\tV\", found %s", clipped(t))
	}
	r := &ednReader{s: t, pos: start}
	p, err := r.read()
	if err != nil {
		return Event{}, false, err
	}
	if p.isKeyword("nemesis") {
		return Event{}, false, nil
	}
	ev := Event{Line: line, Process: p.n}
	ty, err := r.read()
	if err != nil {
		return ev, false, err
	}
	if ev.Type, err = eventType(ty); err != nil {
		return ev, false, err
	}
	f, err := r.read()
	if err != nil {
		return ev, false, fmt.Errorf("missing :f after %s", ty.short())
	}
	if ev.F, err = function(f); err != nil {
		return ev, false, err
	}
	if ev.Type == "fail" || ev.Type == "info" || r.atEnd() {
		return ev, true, nil
	}
	if ev.Value, err = r.read(); err != nil {
		return ev, false, err
	}
	if !r.atEnd() {
		return ev, false, fmt.Errorf("text after the value: %s", clipped(t[r.pos:]))
	}
	return ev, true, nil
}

func eventType(v EDN) (string, error) {
	if v.kind == ednKeyword {
		switch v.s {
		case "invoke", "ok", "fail", "info":
			return v.s, nil
		}
	}
	return "", fmt.Errorf(":type %s: want :invoke, :ok, :fail or :info", v.short())
}

func function(v EDN) (string, error) {
	if v.kind == ednKeyword && v.s != "" {
		return v.s, nil
	}
	return "", fmt.Errorf(":f %s: want a keyword", v.short())
}

func isProcess(w string) bool {
	if w == ":nemesis" {
		return true
	}
	if w == "" {
		return false
	}
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isEventType(w string) bool {
	switch w {
	case ":invoke", ":ok", ":fail", ":info":
		return true
	}
	return false
}

// wordStarts returns the offsets of the words of t (runs of non-space).
func wordStarts(t string) []int {
	var starts []int
	for i := 0; i < len(t); i++ {
		if !isSpace(t[i]) && (i == 0 || isSpace(t[i-1])) {
			starts = append(starts, i)
		}
	}
	return starts
}

func word(t string, start int) string {
	end := start
	for end < len(t) && !isSpace(t[end]) {
		end++
	}
	return t[start:end]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }
