package maekawa

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
)

// Set is a voting set: bit j set when p_j is a member.
type Set uint64

// Has reports whether p_j is in the set.
func (v Set) Has(j model.NodeID) bool { return v&(1<<j) != 0 }

// Len is the number of members, K for the notes' equal-sized sets.
func (v Set) Len() int { return bits.OnesCount64(uint64(v)) }

// Members returns the members in id order.
func (v Set) Members() []model.NodeID {
	var ids []model.NodeID
	for x := uint64(v); x != 0; x &= x - 1 {
		ids = append(ids, model.NodeID(bits.TrailingZeros64(x)))
	}
	return ids
}

// Multicast sends m to every member of v in id order: the notes'
// "multicast ... to all processes in V_i". It allocates nothing, unlike a
// loop over Members.
func Multicast[M any](out *model.Out[M], v Set, m M) {
	for x := uint64(v); x != 0; x &= x - 1 {
		out.Send(model.NodeID(bits.TrailingZeros64(x)), m)
	}
}

// String renders the set as in the sets parameter: "{0,1,2}".
func (v Set) String() string {
	var ids []string
	for _, j := range v.Members() {
		ids = append(ids, strconv.Itoa(int(j)))
	}
	return "{" + strings.Join(ids, ",") + "}"
}

// SetOf returns the set of the given ids.
func SetOf(ids ...int) Set {
	var v Set
	for _, j := range ids {
		v |= 1 << j
	}
	return v
}

// AllSets is the trivial voting structure: every set is everyone (seed
// 000's deadlock example, V1 = V2 = V3 = {p1, p2, p3}).
func AllSets(n int) []Set {
	sets := make([]Set, n)
	for i := range sets {
		sets[i] = Set(1<<n - 1)
	}
	return sets
}

// GridSets is seed 000's approximation: the n processes are placed row by
// row in a √n×√n matrix, and V_i is the union of the row and the column of
// p_i, so |V_i| = 2√n-1. n must be a perfect square.
func GridSets(n int) ([]Set, error) {
	k := 0
	for k*k < n {
		k++
	}
	if k*k != n {
		return nil, fmt.Errorf("sets=grid needs n to be a perfect square (1, 4, 9, 16, ...), got n=%d", n)
	}
	sets := make([]Set, n)
	for i := range sets {
		row, col := i/k, i%k
		for j := range k {
			sets[i] |= 1<<(row*k+j) | 1<<(j*k+col)
		}
	}
	return sets, nil
}

// PlaneSets is seed 001's optimal structure for seven processes, the lines
// of the projective plane of order 2: K = M = 3, and any two sets meet in
// exactly one process.
func PlaneSets() []Set {
	return []Set{
		SetOf(0, 1, 2), SetOf(1, 3, 5), SetOf(2, 4, 5), SetOf(0, 3, 4),
		SetOf(1, 4, 6), SetOf(0, 5, 6), SetOf(2, 3, 6),
	}
}

// ParseSets reads the sets parameter for n processes: "all" (AllSets),
// "grid" (GridSets), "plane" (PlaneSets, n=7), or the sets written out,
// V_0 first: sets separated by ';' (or '/', which needs no quoting in a
// shell), ids within a set by ',', e.g. "0,1,2;1,3,5;2,4,5;0,3,4;1,4,6;0,5,6;2,3,6".
// An id may be written "3" or "p3". The sets are then checked by CheckSets.
func ParseSets(spec string, n int) ([]Set, error) {
	var sets []Set
	switch spec {
	case "all":
		sets = AllSets(n)
	case "grid":
		var err error
		if sets, err = GridSets(n); err != nil {
			return nil, err
		}
	case "plane":
		if n != 7 {
			return nil, fmt.Errorf("sets=plane needs n=7 (the projective plane of order 2), got n=%d", n)
		}
		sets = PlaneSets()
	default:
		parts := strings.FieldsFunc(spec, func(r rune) bool { return r == ';' || r == '/' })
		if len(parts) == 0 {
			return nil, fmt.Errorf("sets=%s: want all, grid, plane, or sets like 0,1,2;1,3,5;...", clip.Quote(spec))
		}
		for i, part := range parts {
			var v Set
			for _, f := range strings.Split(part, ",") {
				f = strings.TrimSpace(f)
				id, err := model.ParseNodeID(f)
				if err != nil || int(id) >= n {
					return nil, fmt.Errorf("voting set V%d=%s: %s is not a process id (0..%d for n=%d)", i, showSet(part), clip.Quote(f), n-1, n)
				}
				if v.Has(id) {
					return nil, fmt.Errorf("voting set V%d=%s lists %d twice", i, showSet(part), id)
				}
				v |= 1 << id
			}
			sets = append(sets, v)
		}
	}
	return sets, CheckSets(n, sets)
}

// showSet is a set as written, "{0,1,2}", quoted when it holds characters
// that do not print (an error is one line), and cut to a readable length.
func showSet(part string) string {
	s := "{" + part + "}"
	if q := strconv.Quote(s); q[1:len(q)-1] != s || len(s) > clip.Max {
		return clip.Quote(s)
	}
	return s
}

// CheckSets checks seed 000's rules that make the algorithm safe: one set
// per process, ids within 0..n-1, p_i ∈ V_i, and V_i ∩ V_j ≠ ∅ for all i,
// j. The error names the offending sets. Sets of unequal sizes are allowed
// (|V_i| = K is the notes' fairness goal, not a safety rule).
func CheckSets(n int, sets []Set) error {
	if len(sets) != n {
		return fmt.Errorf("%d voting sets for n=%d processes (want one per process, V0 first)", len(sets), n)
	}
	for i, v := range sets {
		if n < 64 && v>>n != 0 {
			return fmt.Errorf("voting set V%d=%s names a process outside 0..%d", i, v, n-1)
		}
		if !v.Has(model.NodeID(i)) {
			return fmt.Errorf("voting set V%d=%s does not contain p%d itself", i, v, i)
		}
	}
	for i := range sets {
		for j := i + 1; j < n; j++ {
			if sets[i]&sets[j] == 0 {
				return fmt.Errorf("voting sets V%d=%s and V%d=%s do not intersect", i, sets[i], j, sets[j])
			}
		}
	}
	return nil
}

// Rounds is the number of critical sections p_i of the requester set v
// enters: rounds for a member, none for a process that only votes.
func (v Set) Rounds(i model.NodeID, rounds int) int {
	if v.Has(i) {
		return rounds
	}
	return 0
}

// ParseRequesters reads the requesters parameter: "all", or a
// comma-separated list of ids below n, e.g. "0,1,2".
func ParseRequesters(spec string, n int) (Set, error) {
	if spec == "all" || spec == "" {
		return Set(1<<n - 1), nil
	}
	var v Set
	for _, word := range strings.Split(spec, ",") {
		j, err := strconv.Atoi(strings.TrimSpace(word))
		if err != nil || j < 0 || j >= n {
			return 0, fmt.Errorf("requesters=%s: %s is not a process id (0..%d)", clip.Quote(spec), clip.Quote(word), n-1)
		}
		if v.Has(model.NodeID(j)) {
			return 0, fmt.Errorf("requesters=%s: p%d is named twice", clip.Quote(spec), j)
		}
		v |= 1 << j
	}
	return v, nil
}
