package live

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
)

// Faults are the failures injected on a live run, in the checker's -faults
// vocabulary where it maps: drop=K and dup=K strike K frames at most
// ("inf": any number), each frame with probability Rate while budget is
// left; crash=K[@nodes] and restart=K crash and restart nodes (the run's
// chaos loop, Run); partition=K splits the network K times, each for a
// while, cutting the links between the two sides both ways; delay=D,
// which the model has no need of (it chooses every interleaving), holds
// each frame for a uniform time up to D, behind the frames ahead of it on
// its link.
type Faults struct {
	Drop, Dup      int // budgets; model.Unbounded: no bound
	Crash, Restart int
	Partition      int
	CrashNodes     uint64 // bit i: node i may crash; 0: any node
	Delay          time.Duration
	// DelayNodes, when not 0, restricts the delay to the messages sent to
	// these nodes (bit i for node i): delay=5ms@p2 makes p2 a slow node.
	DelayNodes uint64
	// Rate is the chance that a frame is dropped, or duplicated, while
	// the budget lasts (default DefaultRate).
	Rate float64
}

// DefaultRate is the chance a frame is struck when Faults.Rate is 0.
const DefaultRate = 0.01

// ParseFaults reads a -faults spec for a live run: the checker's items
// (model.ParseFaults), with dup=inf allowed too, and delay=DURATION. A
// partition is not injected on live runs: it is an error, not a silent
// no-op.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	var rest []string
	for _, item := range strings.Split(spec, ",") {
		name, val, _ := strings.Cut(item, "=")
		switch {
		case name == "delay":
			val, nodes, targeted := strings.Cut(val, "@")
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 || d > time.Minute {
				return f, fmt.Errorf("fault delay=%s: want a duration from 1ns to 1m, e.g. delay=5ms or delay=5ms@p2", clip.Quote(val))
			}
			f.Delay = d
			if targeted {
				for _, s := range strings.Split(nodes, "+") {
					id, err := model.ParseNodeID(s)
					if err != nil {
						return f, fmt.Errorf("delay nodes %s: %v", clip.Quote(nodes), err)
					}
					f.DelayNodes |= 1 << id
				}
			}
		case name == "dup" && val == "inf":
			f.Dup = model.Unbounded
		default:
			rest = append(rest, item)
		}
	}
	mf, err := model.ParseFaults(strings.Join(rest, ","))
	if err != nil {
		return f, err
	}
	f.Drop = mf.Budget[model.Drop]
	if f.Dup == 0 {
		f.Dup = mf.Budget[model.Dup]
	}
	f.Crash, f.Restart, f.CrashNodes = mf.Budget[model.Crash], mf.Budget[model.Restart], mf.CrashNodes
	f.Partition = mf.Budget[model.Partition]
	if f.Restart > 0 && f.Crash == 0 {
		return f, fmt.Errorf("faults: a restart needs a crashed node, and the crash budget is 0 (add crash=N)")
	}
	return f, nil
}

// String renders f as a -faults spec, "none" when nothing strikes.
func (f Faults) String() string {
	var parts []string
	count := func(name string, k int) {
		switch k {
		case 0:
		case model.Unbounded:
			parts = append(parts, name+"=inf")
		default:
			parts = append(parts, fmt.Sprintf("%s=%d", name, k))
		}
	}
	mf := f.model()
	mf.Budget[model.Drop], mf.Budget[model.Dup] = 0, 0
	if mf.Any() {
		parts = append(parts, mf.String())
	}
	count("drop", f.Drop)
	count("dup", f.Dup)
	if f.Delay > 0 {
		d := "delay=" + f.Delay.String()
		if f.DelayNodes != 0 {
			var ids []string
			for i := range model.MaxNodes {
				if f.DelayNodes&(1<<i) != 0 {
					ids = append(ids, model.NodeID(i).String())
				}
			}
			d += "@" + strings.Join(ids, "+")
		}
		parts = append(parts, d)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// Check returns an error naming a fault that can never strike among n
// nodes (model.Faults.Check), or nil.
func (f Faults) Check(n int) error {
	mf := f.model()
	mf.Budget[model.Drop], mf.Budget[model.Dup] = 0, 0
	if f.DelayNodes>>n != 0 {
		return fmt.Errorf("fault delay: no node p%d in this configuration", 63-bits.LeadingZeros64(f.DelayNodes))
	}
	if f.Rate < 0 || f.Rate > 1 {
		return fmt.Errorf("fault rate %g: want a probability from 0 to 1", f.Rate)
	}
	return mf.Check(n)
}

// model is f as the checker's fault budget (an unbounded dup becomes
// the largest count the model takes).
func (f Faults) model() model.Faults {
	mf := model.Faults{CrashNodes: f.CrashNodes}
	mf.Budget[model.Crash], mf.Budget[model.Restart], mf.Budget[model.Partition] = f.Crash, f.Restart, f.Partition
	mf.Budget[model.Drop], mf.Budget[model.Dup] = f.Drop, f.Dup
	if f.Dup == model.Unbounded {
		mf.Budget[model.Dup] = 255
	}
	return mf
}

// FaultCounts are the faults that struck.
type FaultCounts struct {
	Dropped, Duplicated, Delayed int64
	// Lost counts frames that arrived after the model lost them: their
	// receiver crashed, or a partition cut their link, since they left.
	Lost int64
	// Cut counts messages sent across a partition (lost at once).
	Cut                           int64
	Crashes, Restarts, Partitions int64
}

// injector decides, from one seeded stream, which frames are struck.
type injector struct {
	mu     sync.Mutex
	f      Faults
	rng    *rand.Rand
	counts FaultCounts
}

func newInjector(f Faults, seed uint64) *injector {
	if f.Rate == 0 {
		f.Rate = DefaultRate
	}
	return &injector{f: f, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// strike decides the fate of one frame: how many copies leave (0: it is
// dropped; 2: duplicated) and how long it is held.
func (j *injector) strike(to model.NodeID) (copies int, delay time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	copies = 1
	switch {
	case j.f.Drop != 0 && j.rng.Float64() < j.f.Rate:
		copies = 0
		j.f.Drop = spend(j.f.Drop)
		j.counts.Dropped++
	case j.f.Dup != 0 && j.rng.Float64() < j.f.Rate:
		copies = 2
		j.f.Dup = spend(j.f.Dup)
		j.counts.Duplicated++
	}
	if j.f.Delay > 0 && copies > 0 && (j.f.DelayNodes == 0 || j.f.DelayNodes&(1<<to) != 0) {
		delay = time.Duration(j.rng.Int64N(int64(j.f.Delay) + 1))
		j.counts.Delayed++
	}
	return copies, delay
}

// spend takes one from a budget.
func spend(budget int) int {
	if budget == model.Unbounded {
		return budget
	}
	return budget - 1
}

// count adds one to the counter at p under the injector's lock.
func (j *injector) count(p *int64) {
	j.mu.Lock()
	*p++
	j.mu.Unlock()
}

// intn draws from the injector's stream.
func (j *injector) intn(n int) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.rng.IntN(n)
}

// snapshot returns the faults that struck so far.
func (j *injector) snapshot() FaultCounts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.counts
}
