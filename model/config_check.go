package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Check returns an error naming the first part of cfg that cannot take
// effect in a system of n nodes whose protocol implements TimerGuard
// (guarded) and AppCarrier (carries), or nil. A setting that cannot take
// effect would let a check pass without having tried it: a crash aimed at
// a node that does not exist is never injected.
func (cfg Config) Check(n int, guarded, carries bool) error {
	if n < 1 || n > MaxNodes {
		return fmt.Errorf("%d nodes (want 1 to %d)", n, MaxNodes)
	}
	if cfg.Ordering && n > 8 {
		return fmt.Errorf("ordering tracks at most 8 nodes, not %d", n)
	}
	if err := cfg.Faults.Check(n); err != nil {
		return err
	}
	if cfg.Timers == TimersPerfect && !guarded {
		return fmt.Errorf("timers perfect: the protocol cannot say when no reply can still arrive (it has no TimerGuard), so its timers stay free")
	}
	if cfg.AppMsgs > 0 && !cfg.Ordering && !carries {
		return fmt.Errorf("app-msgs %d: without ordering, application messages affect nothing in this protocol", cfg.AppMsgs)
	}
	if cfg.AppMsgs > 0 && n < 2 {
		return fmt.Errorf("app-msgs %d: one node has nobody to send to", cfg.AppMsgs)
	}
	return nil
}

// Check returns an error naming the first fault of the budget that can
// never strike in a system of n nodes, or nil: a crash aimed at a node
// that does not exist, nodes named for crashes with no crash budget, a
// restart with nothing ever down, a partition of a single node.
func (f Faults) Check(n int) error {
	if extra := f.CrashNodes &^ (uint64(1)<<n - 1); n < MaxNodes && extra != 0 {
		var ids []string
		for i := n; i < MaxNodes; i++ {
			if extra&(1<<i) != 0 {
				ids = append(ids, NodeID(i).String())
			}
		}
		return fmt.Errorf("faults %s: no node %s in this configuration (the nodes are p0..%s)",
			f.crashSpec(), strings.Join(ids, ", "), NodeID(n-1))
	}
	if f.CrashNodes != 0 && f.Budget[Crash] == 0 {
		return fmt.Errorf("faults: crash nodes are named but the crash budget is 0")
	}
	if f.Budget[Restart] != 0 && f.Budget[Crash] == 0 {
		return fmt.Errorf("faults %s: a restart needs a crashed node, and the crash budget is 0 (add crash=N)", f)
	}
	if f.Budget[Partition] != 0 && n < 2 {
		return fmt.Errorf("faults %s: a partition needs at least 2 nodes, not %d", f, n)
	}
	return nil
}

// crashSpec is the crash item of the budget as written: "crash=1@p9".
func (f Faults) crashSpec() string {
	only := Faults{CrashNodes: f.CrashNodes}
	only.Budget[Crash] = f.Budget[Crash]
	return only.String()
}

// CheckActionNodes returns an error naming a node that action line (as
// FormatAction writes it: "input p2 request", "deliver p0->p1 ...",
// "partition {p0,p1}|{p2}") names but the system does not have, or nil.
// A replay says so rather than that the action "no longer applies".
func (sys *System[S, M]) CheckActionNodes(line string) error {
	word, rest, _ := strings.Cut(NormalizeAction(line), " ")
	who, _, _ := strings.Cut(rest, " ")
	var names []string
	switch word {
	case "input", "fire", "crash", "restart":
		names = []string{who}
	case "deliver", "drop", "dup", "send":
		from, to, _ := strings.Cut(who, "->")
		names = []string{from, to}
	case "partition":
		names = strings.FieldsFunc(who, func(r rune) bool { return r == '{' || r == '}' || r == ',' || r == '|' })
	}
	for _, s := range names {
		if len(s) < 2 || s[0] != 'p' {
			continue // not a node id: the action will not match, and the replay says so
		}
		id, err := strconv.Atoi(s[1:])
		if err == nil && (id < 0 || id >= sys.n) {
			return fmt.Errorf("%s is not a node of this configuration (the nodes are p0..%s)", clipNode(s), NodeID(sys.n-1))
		}
	}
	return nil
}

// clipNode cuts an overlong node name for an error message.
func clipNode(s string) string {
	if len(s) > 12 {
		return s[:12] + "..."
	}
	return s
}
