package costs

import (
	"github.com/coordcheck/coordcheck/protocols/coordination"
)

// HerdTable measures the watch notifications per release of the lock of
// workload (Herd) beside the notes' argument: the
// simple lock wakes every waiter, the sequential recipe only the next
// (seed 004, "Simple Lock ... Problems: herd effect"; "Simple Lock
// without herd effect").
func HerdTable(workload coordination.Workload) func(n int) ([]Row, error) {
	return func(n int) ([]Row, error) {
		h, err := Herd(workload, n)
		if err != nil {
			return nil, err
		}
		first, total := exact("1, the next in line only", 1), exact("N-1", n-1)
		if workload == coordination.SimpleLockClients {
			first, total = exact("N-1, every waiter (the herd)", n-1), exact("(N-1)+(N-2)+...+1 = N(N-1)/2", n*(n-1)/2)
		}
		one := func(x int) Range { return Range{Min: x, Max: x} }
		return []Row{
			first.row("watch notifications of a release, N-1 waiting", one(h.First())),
			total.row("watch notifications of all N releases", one(h.Total())),
		}, nil
	}
}
