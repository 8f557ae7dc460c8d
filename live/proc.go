package live

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// NodeCommand makes the command that runs node id's process, which must
// call NodeProcess (through its Runner's ServeNode) with id and addr: the
// coordcheck binary re-executed as `coordcheck node PROTOCOL ...`.
type NodeCommand func(id model.NodeID, addr string) *exec.Cmd

// NodeArgs are what a node process is told.
type NodeArgs struct {
	ID   model.NodeID
	Addr string // the runner's listener, on 127.0.0.1
}

// callTimeout bounds one step of a node process: a process that does not
// answer in time is taken for dead.
const callTimeout = 5 * time.Second

// procs runs every node in its own process (Transport Proc). The process
// holds the node's state and runs Init, Step and Recover on it; this
// process sends it the events and carries out the effects it answers
// with, so that every message goes from its sender's process over TCP to
// here, through the link and its faults, and over TCP again to its
// receiver's process. Each answer carries the node's state, kept here as
// its stable storage: a process killed and started again is given it to
// recover from (model.Restarter), as the model's restart says.
type procs[S, M any] struct {
	p       model.Protocol[S, M]
	codec   model.Codec[S, M]
	cmd     NodeCommand
	l       net.Listener
	deliver func(from, to model.NodeID, b []byte)

	mu              sync.Mutex
	nodes           []*proc
	done            bool
	started, killed int // processes started and killed by a crash
}

type proc struct {
	cmd  *exec.Cmd
	conn net.Conn
	r    *bufio.Reader
	exit chan struct{} // closed when cmd has been waited for
}

func startProcs[S, M any](p model.Protocol[S, M], codec model.Codec[S, M], cmd NodeCommand, deliver func(from, to model.NodeID, b []byte)) (*procs[S, M], error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ps := &procs[S, M]{p: p, codec: codec, cmd: cmd, l: l, deliver: deliver, nodes: make([]*proc, p.Nodes())}
	for i := range p.Nodes() {
		if err := ps.start(model.NodeID(i)); err != nil {
			ps.close()
			return nil, err
		}
	}
	return ps, nil
}

// start starts node id's process and waits for it to connect.
func (ps *procs[S, M]) start(id model.NodeID) error {
	cmd := ps.cmd(id, ps.l.Addr().String())
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s's process: %w", id, err)
	}
	pr := &proc{cmd: cmd, exit: make(chan struct{})}
	go func() {
		_ = cmd.Wait() // its exit status is no news: it was killed, or the run ended
		close(pr.exit)
	}()
	if tl, ok := ps.l.(*net.TCPListener); ok {
		_ = tl.SetDeadline(time.Now().Add(callTimeout))
	}
	conn, err := ps.l.Accept()
	if err != nil {
		_ = cmd.Process.Kill()
		return fmt.Errorf("%s's process did not connect: %w", id, err)
	}
	pr.conn, pr.r = conn, bufio.NewReader(conn)
	_ = conn.SetDeadline(time.Now().Add(callTimeout))
	hello, err := binary.ReadUvarint(pr.r)
	if err != nil || hello != uint64(id) {
		conn.Close()
		_ = cmd.Process.Kill()
		return fmt.Errorf("%s's process: bad greeting", id)
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.done {
		conn.Close()
		_ = cmd.Process.Kill()
		return ErrStopped
	}
	ps.nodes[id] = pr
	ps.started++
	return nil
}

// crash kills node id's process, as a crash.
func (ps *procs[S, M]) crash(id model.NodeID) {
	ps.mu.Lock()
	if ps.nodes[id] != nil && !ps.done {
		ps.killed++
	}
	ps.mu.Unlock()
	ps.kill(id)
}

// counts returns the processes started and killed by crashes.
func (ps *procs[S, M]) counts() (started, killed int) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.started, ps.killed
}

// kill kills node id's process and waits for it to end.
func (ps *procs[S, M]) kill(id model.NodeID) {
	ps.mu.Lock()
	pr := ps.nodes[id]
	ps.nodes[id] = nil
	ps.mu.Unlock()
	if pr == nil {
		return
	}
	_ = pr.cmd.Process.Kill()
	pr.conn.Close()
	<-pr.exit
}

// exec asks node id's process to run op and returns its new state and
// effects.
func (ps *procs[S, M]) exec(id model.NodeID, op execOp, state S, ev model.Event[M]) (S, *model.Out[M], error) {
	var zero S
	ps.mu.Lock()
	pr := ps.nodes[id]
	ps.mu.Unlock()
	if pr == nil {
		return zero, nil, errors.New("no process")
	}
	req := []byte{byte(op)}
	switch op {
	case execRecover:
		req = ps.codec.AppendState(req, state)
	case execStep:
		req = append(req, byte(ev.Kind))
		switch ev.Kind {
		case model.Receive:
			req = binary.AppendUvarint(req, uint64(ev.From))
			req = ps.codec.AppendMsg(req, ev.Msg)
		case model.Timeout:
			req = append(req, byte(ev.Timer))
		case model.Environment:
			req = appendString(req, string(ev.Input))
		}
	}
	_ = pr.conn.SetDeadline(time.Now().Add(callTimeout))
	if err := writeFrame(pr.conn, req); err != nil {
		return zero, nil, err
	}
	resp, err := readFrame(pr.r)
	if err != nil {
		return zero, nil, err
	}
	return decodeEffects(ps.codec, resp)
}

// send hands a frame on: it reaches its receiver's process when the
// receiver takes it as a step's event.
func (ps *procs[S, M]) send(from, to model.NodeID, b []byte) error {
	ps.deliver(from, to, b)
	return nil
}

func (ps *procs[S, M]) close() {
	ps.mu.Lock()
	ps.done = true
	ps.mu.Unlock()
	for i := range ps.nodes {
		ps.kill(model.NodeID(i))
	}
	ps.l.Close()
}

// ServeNode is a node process's side: it connects to args.Addr and runs
// the steps it is asked for on its own state until the connection ends.
func (r *runner[S, M]) ServeNode(args NodeArgs) error { return serveNode(r.p, args) }

func serveNode[S, M any](p model.Protocol[S, M], args NodeArgs) error {
	if int(args.ID) >= p.Nodes() {
		return fmt.Errorf("node %s: the protocol has %d nodes", args.ID, p.Nodes())
	}
	codec, err := model.CodecOf(p)
	if err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(args.Addr)
	if err != nil || host != "127.0.0.1" {
		return fmt.Errorf("node: address %q is not on 127.0.0.1", args.Addr)
	}
	conn, err := net.DialTimeout("tcp", args.Addr, callTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.Write(binary.AppendUvarint(nil, uint64(args.ID))); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	var s S
	for {
		req, err := readFrame(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var out model.Out[M]
		if len(req) == 0 {
			return errors.New("node: empty request")
		}
		body := req[1:]
		switch execOp(req[0]) {
		case execInit:
			s = p.Init(args.ID, &out)
		case execRecover:
			crashed, _ := codec.ReadState(body)
			rs, ok := p.(model.Restarter[S, M])
			if !ok {
				return errors.New("node: recover asked of a protocol without Recover")
			}
			s = rs.Recover(args.ID, crashed, &out)
		case execStep:
			ev, err := readEvent(codec, body)
			if err != nil {
				return err
			}
			s = p.Step(args.ID, s, ev, &out)
		default:
			return fmt.Errorf("node: unknown request %d", req[0])
		}
		if err := writeFrame(conn, encodeEffects(codec, s, &out)); err != nil {
			return err
		}
	}
}

func readEvent[S, M any](p model.Codec[S, M], b []byte) (model.Event[M], error) {
	var ev model.Event[M]
	if len(b) == 0 {
		return ev, errors.New("node: empty event")
	}
	ev.Kind, b = model.EventKind(b[0]), b[1:]
	switch ev.Kind {
	case model.Receive:
		from, k := binary.Uvarint(b)
		if k <= 0 {
			return ev, errors.New("node: bad sender")
		}
		ev.From = model.NodeID(from)
		ev.Msg, _ = p.ReadMsg(b[k:])
	case model.Timeout:
		if len(b) == 0 {
			return ev, errors.New("node: bad timer")
		}
		ev.Timer = model.TimerID(b[0])
	case model.Environment:
		in, _, err := readString(b)
		if err != nil {
			return ev, err
		}
		ev.Input = model.Input(in)
	}
	return ev, nil
}

// encodeEffects is a step's answer: the new state, the sends, the timer
// operations and the outputs.
func encodeEffects[S, M any](p model.Codec[S, M], s S, out *model.Out[M]) []byte {
	st := p.AppendState(nil, s)
	b := binary.AppendUvarint(nil, uint64(len(st)))
	b = append(b, st...)
	var sends [][]byte
	out.Sends(func(to model.NodeID, msg M) {
		m := binary.AppendUvarint(nil, uint64(to))
		sends = append(sends, p.AppendMsg(m, msg))
	})
	b = binary.AppendUvarint(b, uint64(len(sends)))
	for _, m := range sends {
		b = appendString(b, string(m))
	}
	var timers []byte
	out.TimerOps(func(id model.TimerID, set bool) {
		timers = append(timers, byte(id), map[bool]byte{false: 0, true: 1}[set])
	})
	b = appendString(b, string(timers))
	b = binary.AppendUvarint(b, uint64(len(out.Outputs())))
	for _, o := range out.Outputs() {
		b = appendString(b, o)
	}
	return b
}

func decodeEffects[S, M any](p model.Codec[S, M], b []byte) (S, *model.Out[M], error) {
	var zero S
	bad := errors.New("malformed answer from a node process")
	st, b, err := readString(b)
	if err != nil {
		return zero, nil, bad
	}
	s, rest := p.ReadState([]byte(st))
	if len(rest) != 0 {
		return zero, nil, bad
	}
	out := &model.Out[M]{}
	k, n := binary.Uvarint(b)
	if n <= 0 {
		return zero, nil, bad
	}
	b = b[n:]
	for range k {
		var m string
		if m, b, err = readString(b); err != nil {
			return zero, nil, bad
		}
		to, n := binary.Uvarint([]byte(m))
		if n <= 0 {
			return zero, nil, bad
		}
		msg, rest := p.ReadMsg([]byte(m)[n:])
		if len(rest) != 0 {
			return zero, nil, bad
		}
		out.Send(model.NodeID(to), msg)
	}
	var timers string
	if timers, b, err = readString(b); err != nil || len(timers)%2 != 0 {
		return zero, nil, bad
	}
	for i := 0; i < len(timers); i += 2 {
		if timers[i+1] == 1 {
			out.SetTimer(model.TimerID(timers[i]))
		} else {
			out.CancelTimer(model.TimerID(timers[i]))
		}
	}
	k, n = binary.Uvarint(b)
	if n <= 0 {
		return zero, nil, bad
	}
	b = b[n:]
	for range k {
		var o string
		if o, b, err = readString(b); err != nil {
			return zero, nil, bad
		}
		out.Output(o)
	}
	return s, out, nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func readString(b []byte) (string, []byte, error) {
	k, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) < k {
		return "", nil, errors.New("bad string")
	}
	return string(b[n : n+int(k)]), b[n+int(k):], nil
}

func writeFrame(w io.Writer, b []byte) error {
	_, err := w.Write(append(binary.AppendUvarint(nil, uint64(len(b))), b...))
	return err
}

func readFrame(r *bufio.Reader) ([]byte, error) {
	size, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if size > maxFrame {
		return nil, errors.New("frame too long")
	}
	b := make([]byte, size)
	_, err = io.ReadFull(r, b)
	return b, err
}
