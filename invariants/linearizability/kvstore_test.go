package linearizability

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// storeFault is how the reference store below misbehaves.
type storeFault uint8

const (
	storeCorrect storeFault = iota
	// storeLosesAppend acknowledges one append and never applies it.
	storeLosesAppend
	// storeReordersAppend applies one append in front of the value
	// instead of behind it.
	storeReordersAppend
)

// kvStoreHistory runs clients against a small in-memory key-value store
// with get, put and append, and writes their history as Jepsen EDN in the
// :key shape, one event a line. Each operation takes effect atomically at
// a random moment between its invocation and its completion, so the
// history of the correct store is linearizable. The faulty store breaks
// one append so that the history must show it: an append invoked while
// its key holds a value and no other operation on the key is pending;
// afterwards nobody puts that key (a put could hide the damage) and the
// next get reads it. Appended values are unique ("c3.7 " is client 3's
// 7th operation). All choices come from one PCG seeded with seed.
func kvStoreHistory(seed uint64, clients, ops, keys int, fault storeFault) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	type client struct {
		phase  int // 0 idle, 1 invoked, 2 took effect
		f, key string
		arg    string
		result string
		n      int
		broken bool // this is the broken append
	}
	cs := make([]client, clients)
	store := map[string]string{}
	pending := map[string]int{} // operations invoked and not completed, per key
	var b strings.Builder
	started, busy := 0, 0
	faultKey := ""    // the broken append's key, once chosen
	mustRead := false // the broken append returned; the next invocation reads its key
	for started < ops || busy > 0 {
		id := rng.IntN(clients)
		c := &cs[id]
		switch c.phase {
		case 0:
			if started >= ops {
				continue
			}
			started++
			busy++
			c.n++
			c.broken = false
			c.key = fmt.Sprint(rng.IntN(keys))
			switch r := rng.IntN(10); {
			case r < 5:
				c.f, c.arg = "get", ""
			case r < 6:
				c.f, c.arg = "put", fmt.Sprintf("p%d.%d ", id, c.n)
			default:
				c.f, c.arg = "append", fmt.Sprintf("c%d.%d ", id, c.n)
			}
			if c.key == faultKey && c.f == "put" {
				c.f, c.arg = "append", fmt.Sprintf("c%d.%d ", id, c.n)
			}
			if mustRead { // the first invocation after the broken append returned
				c.f, c.key, mustRead = "get", faultKey, false
			}
			if fault != storeCorrect && faultKey == "" && c.f == "append" && store[c.key] != "" && pending[c.key] == 0 {
				c.broken, faultKey = true, c.key
			}
			pending[c.key]++
			val := "nil"
			if c.f != "get" {
				val = fmt.Sprintf("%q", c.arg)
			}
			fmt.Fprintf(&b, "{:process %d, :type :invoke, :f :%s, :key %q, :value %s}\n", id, c.f, c.key, val)
			c.phase = 1
		case 1:
			v := store[c.key]
			switch {
			case c.f == "get":
				c.result = v
			case c.f == "put":
				store[c.key] = c.arg
			case !c.broken:
				store[c.key] = v + c.arg
			case fault == storeReordersAppend:
				store[c.key] = c.arg + v
			}
			c.phase = 2
		case 2:
			val := fmt.Sprintf("%q", c.arg)
			if c.f == "get" {
				val = fmt.Sprintf("%q", c.result)
			}
			if c.broken {
				mustRead = true
			}
			pending[c.key]--
			fmt.Fprintf(&b, "{:process %d, :type :ok, :f :%s, :key %q, :value %s, :time %d}\n", id, c.f, c.key, val, b.Len())
			c.phase = 0
			busy--
		}
	}
	return b.String()
}

// TestKVAppendReferenceStore judges histories of the reference store, in
// the :key shape, from 1, 10 and 50 clients: the correct store's are
// linearizable, the faulty ones' are not, and the failing key is named.
func TestKVAppendReferenceStore(t *testing.T) {
	for _, clients := range []int{1, 10, 50} {
		for _, fault := range []storeFault{storeCorrect, storeLosesAppend, storeReordersAppend} {
			for seed := uint64(1); seed <= 3; seed++ {
				name := fmt.Sprintf("clients=%d/fault=%d/seed=%d", clients, fault, seed)
				t.Run(name, func(t *testing.T) {
					text := kvStoreHistory(seed, clients, 20*clients, 1+clients/5, fault)
					h, err := ParseJepsen(strings.NewReader(text), SpecKVAppend)
					require.NoError(t, err)
					require.Len(t, h.Ops, 20*clients)
					r := Check(KVAppend(), h.Ops, 10*time.Second)
					if fault == storeCorrect {
						require.Equal(t, Linearizable, r.Verdict)
						return
					}
					require.Equal(t, NotLinearizable, r.Verdict)
					failing := 0
					for _, p := range r.Partitions {
						if !p.Linearizable() {
							failing++
						}
					}
					require.Equal(t, 1, failing, "exactly the broken key fails: %+v", r.Partitions)
				})
			}
		}
	}
}

// TestMinimizeKVAppend cuts the faulty stores' histories down to their
// smallest failing sub-history: it has at most a handful of operations,
// is not linearizable, and each single removal (with the gets that only
// the removed operation could have supplied) makes it linearizable; and
// no get in it returns what nothing in it wrote.
func TestMinimizeKVAppend(t *testing.T) {
	for _, fault := range []storeFault{storeLosesAppend, storeReordersAppend} {
		for _, clients := range []int{1, 10, 50} {
			t.Run(fmt.Sprintf("fault=%d/clients=%d", fault, clients), func(t *testing.T) {
				text := kvStoreHistory(2, clients, 20*clients, 1+clients/5, fault)
				h, err := ParseJepsen(strings.NewReader(text), SpecKVAppend)
				require.NoError(t, err)
				sub, ok := Minimize(KVAppend(), h.Ops, 10*time.Second, 0)
				require.True(t, ok)
				require.True(t, sub.Minimal)
				require.LessOrEqual(t, len(sub.Ops), 5, "%v", sub.Ops)
				require.Equal(t, NotLinearizable, Check(KVAppend(), sub.Ops, 10*time.Second).Verdict)
				require.Equal(t, sub.Ops, Unsupplied(KVAppend(), sub.Ops), "every get is supplied")
				for i := range sub.Ops {
					rest := Unsupplied(KVAppend(), append(append([]Operation[Input, Output]{}, sub.Ops[:i]...), sub.Ops[i+1:]...))
					require.Equal(t, Linearizable, Check(KVAppend(), rest, 10*time.Second).Verdict,
						"removing operation %d leaves a failing history", i)
				}
			})
		}
	}
}

// TestMinimizeLinearizable refuses a linearizable history.
func TestMinimizeLinearizable(t *testing.T) {
	text := kvStoreHistory(1, 10, 200, 3, storeCorrect)
	h, err := ParseJepsen(strings.NewReader(text), SpecKVAppend)
	require.NoError(t, err)
	_, ok := Minimize(KVAppend(), h.Ops, 10*time.Second, 0)
	require.False(t, ok)
}
