package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// linProgress shows how far lincheck is on a terminal: the share of the
// history file read, then that the check runs. It writes nothing when w
// is not a terminal (a pipe, a file, a test).
type linProgress struct {
	w     io.Writer
	size  int64
	read  atomic.Int64
	phase atomic.Value // string: what is being done
	done  chan struct{}
	wg    sync.WaitGroup
}

// startLinProgress starts showing progress on w every 200 ms, for a
// history file of size bytes; nil when w is not a terminal.
func startLinProgress(w io.Writer, size int64) *linProgress {
	if !isTerminal(w) {
		return nil
	}
	p := &linProgress{w: w, size: size, done: make(chan struct{})}
	p.phase.Store("reading")
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		start := time.Now()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				fmt.Fprint(p.w, "\r\033[K")
				return
			case <-tick.C:
				ph := p.phase.Load().(string)
				if ph == "reading" && p.size > 0 {
					fmt.Fprintf(p.w, "\rreading the history: %d%% of %s bytes  %.0fs   ",
						100*p.read.Load()/p.size, group(uint64(p.size)), time.Since(start).Seconds())
				} else {
					fmt.Fprintf(p.w, "\r%s  %.0fs   ", ph, time.Since(start).Seconds())
				}
			}
		}
	}()
	return p
}

// reader counts what r reads toward the share shown.
func (p *linProgress) reader(r io.Reader) io.Reader {
	if p == nil {
		return r
	}
	return &countingReader{r: r, n: &p.read}
}

// say sets what is being done.
func (p *linProgress) say(phase string) {
	if p != nil {
		p.phase.Store(phase)
	}
}

// stop clears the progress line.
func (p *linProgress) stop() {
	if p != nil {
		close(p.done)
		p.wg.Wait()
	}
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}
