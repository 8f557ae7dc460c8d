package model

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// FaultKind is one kind of injected failure.
type FaultKind uint8

// The fault kinds, each bounded by a per-run budget.
const (
	Crash     FaultKind = iota // a node stops; what it was sent is lost
	Restart                    // a crashed node comes back (Init, or Restarter.Recover)
	Drop                       // a message in flight is lost
	Dup                        // a message in flight is duplicated
	Partition                  // the nodes split in two groups; messages across are lost until Heal
	numFaults
)

var faultNames = [numFaults]string{"crash", "restart", "drop", "dup", "partition"}

// String is the fault's name in -faults specs.
func (k FaultKind) String() string { return faultNames[k] }

// Unbounded is the budget of a fault that may strike any number of times
// ("drop=inf"). Only drops may be unbounded: they shrink the network, so
// the state space stays finite.
const Unbounded = -1

// Faults is the fault budget of a run: how many times each kind of fault
// may strike in one execution, and which nodes may crash.
type Faults struct {
	Budget [numFaults]int
	// CrashNodes restricts crashes to these nodes (bit i for node i); zero
	// means any node.
	CrashNodes uint64
}

// Any reports whether some fault may strike.
func (f Faults) Any() bool {
	for _, b := range f.Budget {
		if b != 0 {
			return true
		}
	}
	return false
}

// MayCrash reports whether node id is allowed to crash.
func (f Faults) MayCrash(id NodeID) bool { return f.CrashNodes == 0 || f.CrashNodes&(1<<id) != 0 }

// String renders the budget as a -faults spec: "crash=1@p2,restart=1";
// "none" when no fault may strike.
func (f Faults) String() string {
	var parts []string
	for k, b := range f.Budget {
		if b == 0 {
			continue
		}
		s := faultNames[k] + "="
		if b == Unbounded {
			s += "inf"
		} else {
			s += strconv.Itoa(b)
		}
		if FaultKind(k) == Crash && f.CrashNodes != 0 {
			var ids []string
			for i := range MaxNodes {
				if f.CrashNodes&(1<<i) != 0 {
					ids = append(ids, NodeID(i).String())
				}
			}
			s += "@" + strings.Join(ids, "+")
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// ParseFaults reads a -faults spec: comma-separated kind=count items,
// kinds crash, restart, drop, dup, partition; count a number or, for
// drop, "inf"; crash may name the nodes allowed to crash: crash=1@p2+p3.
// "" and "none" mean no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	if spec == "" || spec == "none" {
		return f, nil
	}
	valid := strings.Join(faultNames[:], ", ")
	seen := map[string]bool{}
	items := strings.Split(spec, ",")
	sort.Strings(items)
	for _, item := range items {
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return f, fmt.Errorf("fault %s is not kind=count (kinds: %s)", clip.Quote(item), valid)
		}
		k := -1
		for i, n := range faultNames {
			if n == name {
				k = i
			}
		}
		if k < 0 {
			return f, fmt.Errorf("unknown fault kind %s (valid: %s)", clip.Quote(name), valid)
		}
		if seen[name] {
			return f, fmt.Errorf("fault kind %q given twice", name)
		}
		seen[name] = true
		if FaultKind(k) == Crash {
			if v, nodes, ok := strings.Cut(val, "@"); ok {
				val = v
				for _, s := range strings.Split(nodes, "+") {
					id, err := ParseNodeID(s)
					if err != nil {
						return f, fmt.Errorf("crash nodes %s: %v", clip.Quote(nodes), err)
					}
					f.CrashNodes |= 1 << id
				}
			}
		}
		if val == "inf" && FaultKind(k) == Drop {
			f.Budget[k] = Unbounded
			continue
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || n > 255 {
			return f, fmt.Errorf("fault %s=%s: want a count from 0 to 255%s", name, clip.Quote(val),
				map[bool]string{true: " or inf", false: ""}[FaultKind(k) == Drop])
		}
		f.Budget[k] = n
	}
	return f, nil
}
