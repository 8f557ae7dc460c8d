package live

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/coordcheck/coordcheck/model"
)

// maxFrame bounds a frame's length: a longer one means a broken stream.
const maxFrame = 1 << 20

// tcpTransport gives every node a listener on 127.0.0.1 (a port the OS
// picks) and every ordered pair of nodes, a node and itself included, its
// own TCP connection, which keeps the link FIFO. A connection opens with
// the sender's id; then each frame is its length (uvarint) and its bytes.
type tcpTransport struct {
	listeners []net.Listener
	out       [][]net.Conn // out[from][to]
	deliver   func(from, to model.NodeID, b []byte)

	mu       sync.Mutex
	accepted []net.Conn
	closed   bool
	wg       sync.WaitGroup
}

// openTCP listens for n nodes and connects every pair.
func openTCP(n int, deliver func(from, to model.NodeID, b []byte)) (*tcpTransport, error) {
	t := &tcpTransport{deliver: deliver, out: make([][]net.Conn, n)}
	for to := range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.close()
			return nil, fmt.Errorf("listen for %s: %w", model.NodeID(to), err)
		}
		t.listeners = append(t.listeners, l)
		t.wg.Add(1)
		go t.accept(model.NodeID(to), l)
	}
	for from := range n {
		for to := range n {
			conn, err := net.Dial("tcp", t.listeners[to].Addr().String())
			if err != nil {
				t.close()
				return nil, fmt.Errorf("connect %s to %s: %w", model.NodeID(from), model.NodeID(to), err)
			}
			t.out[from] = append(t.out[from], conn)
			if _, err := conn.Write(binary.AppendUvarint(nil, uint64(from))); err != nil {
				t.close()
				return nil, fmt.Errorf("connect %s to %s: %w", model.NodeID(from), model.NodeID(to), err)
			}
		}
	}
	return t, nil
}

// accept serves node to's listener until it closes.
func (t *tcpTransport) accept(to model.NodeID, l net.Listener) {
	defer t.wg.Done()
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			conn.Close()
			return
		}
		t.accepted = append(t.accepted, conn)
		t.wg.Add(1)
		t.mu.Unlock()
		go t.read(to, conn)
	}
}

// read hands every frame that arrives on conn to deliver, until the
// connection closes.
func (t *tcpTransport) read(to model.NodeID, conn net.Conn) {
	defer t.wg.Done()
	r := bufio.NewReader(conn)
	from, err := binary.ReadUvarint(r)
	if err != nil || from >= uint64(len(t.listeners)) {
		return
	}
	for {
		size, err := binary.ReadUvarint(r)
		if err != nil || size > maxFrame {
			return
		}
		buf := make([]byte, size) // the decoded message may keep it
		if _, err := io.ReadFull(r, buf); err != nil {
			return
		}
		t.deliver(model.NodeID(from), to, buf)
	}
}

// send writes one frame on the connection from -> to.
func (t *tcpTransport) send(from, to model.NodeID, b []byte) error {
	w := binary.AppendUvarint(make([]byte, 0, len(b)+binary.MaxVarintLen32), uint64(len(b)))
	_, err := t.out[from][to].Write(append(w, b...))
	return err
}

// close shuts every listener and connection and waits for the readers.
func (t *tcpTransport) close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	// Closing is best effort: the run is over, and a reader or a pump
	// that sees its connection fail stops.
	for _, l := range t.listeners {
		_ = l.Close()
	}
	for _, row := range t.out {
		for _, c := range row {
			_ = c.Close()
		}
	}
	t.mu.Lock()
	for _, c := range t.accepted {
		_ = c.Close()
	}
	t.mu.Unlock()
	t.wg.Wait()
}
