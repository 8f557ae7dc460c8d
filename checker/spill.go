package checker

import (
	"fmt"
	"os"
	"sync/atomic"
)

// Spilling the frontier. A BFS keeps its visited set in memory, 8 bytes
// a state, but the states waiting to be expanded are whole encodings,
// tens of bytes each: on a large space the widest levels weigh as much as
// the visited set. Both BFS engines read their frontier in order, a chunk
// at a time, so a chunk that is full can wait in a file instead, and be
// read back when its turn comes (the frontier is "spilled to disk").
//
// The files are made in Options.SpillDir and unlinked at once: they
// vanish when the search lets go of them, and when the process dies.
// What is spilled is read back byte for byte, so a search finds the same
// states, transitions and counterexample whether it spills or not; only
// the memory it holds differs. A spill that cannot be written or read
// stops the search, inconclusive, with the error as its bound.

// SpillMode says when a BFS spills its frontier to disk.
type SpillMode uint8

const (
	// SpillAuto spills when the frontier outgrows memory: once it (a
	// level, for a search that runs level by level) would take more than
	// a sixteenth of the memory bound. Without a bound nothing is
	// spilled.
	SpillAuto SpillMode = iota
	// SpillNever keeps the frontier in memory.
	SpillNever
	// SpillAlways spills from the first level on.
	SpillAlways
)

var spillModeNames = [...]string{"auto", "never", "always"}

// String is the mode's name on the command line.
func (m SpillMode) String() string { return spillModeNames[m] }

// ParseSpillMode reads a spill mode's name.
func ParseSpillMode(name string) (SpillMode, error) {
	for i, n := range spillModeNames {
		if n == name {
			return SpillMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown spill mode %q (valid: auto, never, always)", name)
}

// spillShare is the part of the memory bound a frontier may take before
// SpillAuto sends it to disk: a sixteenth.
const spillShare = 16

// spills reports whether a frontier of bytes must go to disk under opts.
func spills(opts *Options, bytes uint64) bool {
	switch opts.Spill {
	case SpillAlways:
		return true
	case SpillAuto:
		return opts.MaxMemory > 0 && bytes > budget(opts)/spillShare
	}
	return false
}

// spillFile is a file of frontier chunks, written and read at offsets, by
// any number of goroutines at once.
type spillFile struct {
	f       *os.File
	end     atomic.Int64
	written *atomic.Uint64 // the run's total, in Report.SpilledBytes
	// pending is the one-worker queue's count of chunks in the file not
	// yet read back.
	pending int
}

// newSpillFile makes an unlinked file in dir (the system's temporary
// directory when empty); what is written to it counts in written, when
// not nil.
func newSpillFile(dir string, written *atomic.Uint64) (*spillFile, error) {
	f, err := os.CreateTemp(dir, "coordcheck-frontier-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return &spillFile{f: f, written: written}, nil
}

// span is where a chunk is in a spill file.
type span struct {
	file *spillFile
	off  int64
	n    int
}

// write appends b to the file and returns where it is.
func (s *spillFile) write(b []byte) (span, error) {
	off := s.end.Add(int64(len(b))) - int64(len(b))
	if _, err := s.f.WriteAt(b, off); err != nil {
		return span{}, spillError("write", err)
	}
	if s.written != nil {
		s.written.Add(uint64(len(b)))
	}
	return span{s, off, len(b)}, nil
}

// read reads the chunk at sp into buf, grown as needed, and returns it.
func (sp span) read(buf *[]byte) ([]byte, error) {
	if cap(*buf) < sp.n {
		*buf = make([]byte, sp.n)
	}
	b := (*buf)[:sp.n]
	if sp.file.f == nil {
		return nil, spillError("read", os.ErrClosed)
	}
	if _, err := sp.file.f.ReadAt(b, sp.off); err != nil {
		return nil, spillError("read", err)
	}
	return b, nil
}

// close lets go of the file (it was unlinked when made).
func (s *spillFile) close() {
	if s != nil && s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// spillError is the bound a failed spill stops the search at.
func spillError(op string, err error) error {
	return fmt.Errorf("spill %s failed: %v", op, err)
}

// spillFile makes a file for the frontier when the search spills, nil
// when it does not; what is written to it counts in written, when not
// nil. A file that cannot be made is the bound the search stops at.
func (r *run[S, M]) spillFile(written *atomic.Uint64) (*spillFile, string) {
	if !r.spilling {
		return nil, ""
	}
	f, err := newSpillFile(r.opts.SpillDir, written)
	if err != nil {
		return nil, spillError("create", err).Error()
	}
	return f, ""
}
