package coordination

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/internal/nodeset"
	"github.com/coordcheck/coordcheck/model"
)

// The canonical encodings. Every field is written, in declaration order,
// with the counts of the replicas and clients the protocol has.

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Kind))
	switch s.Kind {
	case ReplicaNode:
		r := &s.R
		b = append(b, byte(r.Role), r.Accepted, r.Current, r.Committed, r.Votes)
		b = append(b, r.Match[:p.R]...)
		b = append(b, r.Cachers, r.Waiting)
		b = appendTxn(b, r.Pending)
		b = append(b, r.Owed[:p.C]...)
		b = appendLog(b, r.Log)
		b = model.AppendUvarint(b, uint64(len(r.Watches)))
		for _, w := range r.Watches {
			b = append(model.AppendString(b, w.Path), w.Client)
			b = model.AppendBool(b, w.Child)
		}
		if p.Leader == ElectedLeader { // the formula's encodings stay as they were
			b = model.AppendBool(append(b, r.Ballot.Epoch, r.Ballot.Votes, r.Leader), r.Ballot.Voted)
		}
	case ClientNode:
		c := &s.C
		b = append(b, c.Conn, c.Next, byte(c.Phase), c.Mine, c.Pred, c.Wrote, c.Seen, c.View, c.Cached)
		b = model.AppendBool(model.AppendBool(b, c.Busy), c.PredRead)
		// The fields of the newer clients, only where they are used: the
		// other configurations keep their encodings byte for byte.
		if p.Workload == CounterClients {
			b = append(b, c.Val, c.Ver)
		}
		if p.Sessions != NoSessions {
			b = append(b, byte(c.Sess), c.Lease)
		}
	case StoreNode:
		d := &s.D
		b = append(b, d.Data, d.Fence, d.Gen, d.Late, d.LateOf)
	}
	return b
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Kind: NodeKind(b[0])}
	b = b[1:]
	switch s.Kind {
	case ReplicaNode:
		r := &s.R
		r.Role, r.Accepted, r.Current, r.Committed, r.Votes = Role(b[0]), b[1], b[2], b[3], b[4]
		b = b[5:]
		copy(r.Match[:], b[:p.R])
		b = b[p.R:]
		r.Cachers, r.Waiting = b[0], b[1]
		r.Pending, b = readTxn(b[2:])
		copy(r.Owed[:], b[:p.C])
		b = b[p.C:]
		r.Log, b = readLog(b)
		var n uint64
		n, b = model.ReadUvarint(b)
		for range n {
			var w WatchReg
			w.Path, b = readPath(b)
			w.Client = b[0]
			w.Child, b = model.ReadBool(b[1:])
			r.Watches = append(r.Watches, w)
		}
		if p.Leader == ElectedLeader {
			r.Ballot.Epoch, r.Ballot.Votes, r.Leader = b[0], b[1], b[2]
			r.Ballot.Voted, b = model.ReadBool(b[3:])
		}
	case ClientNode:
		c := &s.C
		c.Conn, c.Next, c.Phase, c.Mine, c.Pred, c.Wrote, c.Seen, c.View, c.Cached = b[0], b[1], LockPhase(b[2]), b[3], b[4], b[5], b[6], b[7], b[8]
		c.Busy, b = model.ReadBool(b[9:])
		c.PredRead, b = model.ReadBool(b)
		if p.Workload == CounterClients {
			c.Val, c.Ver, b = b[0], b[1], b[2:]
		}
		if p.Sessions != NoSessions {
			c.Sess, c.Lease, b = SessState(b[0]), b[1], b[2:]
		}
	case StoreNode:
		d := &s.D
		d.Data, d.Fence, d.Gen, d.Late, d.LateOf = b[0], b[1], b[2], b[3], b[4]
		b = b[5:]
	}
	return s, b
}

func appendLog(b []byte, log []Txn) []byte {
	b = model.AppendUvarint(b, uint64(len(log)))
	for _, t := range log {
		b = appendTxn(b, t)
	}
	return b
}

func readLog(b []byte) ([]Txn, []byte) {
	n, b := model.ReadUvarint(b)
	if n == 0 {
		return nil, b
	}
	if n > uint64(len(b)) { // not an encoding: do not allocate for it
		panic(fmt.Sprintf("coordination: a log of %d transactions in %d bytes", n, len(b)))
	}
	log := make([]Txn, n)
	for i := range log {
		log[i], b = readTxn(b)
	}
	return log, b
}

func appendTxn(b []byte, t Txn) []byte {
	return appendOp(append(b, t.Epoch, t.Client, t.Origin, t.Seq), t.Op)
}

func readTxn(b []byte) (Txn, []byte) {
	t := Txn{Epoch: b[0], Client: b[1], Origin: b[2], Seq: b[3]}
	t.Op, b = readOp(b[4:])
	return t, b
}

func appendOp(b []byte, o Op) []byte {
	b = model.AppendString(append(b, byte(o.Kind)), o.Path)
	return append(b, o.Data, byte(o.Version), byte(o.Flags))
}

func readOp(b []byte) (Op, []byte) {
	o := Op{Kind: OpKind(b[0])}
	o.Path, b = readPath(b[1:])
	o.Data, o.Version, o.Flags = b[0], int8(b[1]), Flags(b[2])
	return o, b[3:]
}

// versioned marks, in a result's code byte, that the version follows the
// data: only a getData with Stat reads a version, so every other result
// is written as it was before versions were read.
const versioned = 0x80

// appendResult writes the children list as 0 when absent (nil) and 1+n
// otherwise, so that an empty list and no list differ.
func appendResult(b []byte, r Result) []byte {
	if r.Version != 0 {
		b = append(b, byte(r.Code)|versioned, r.Data, r.Version)
	} else {
		b = append(b, byte(r.Code), r.Data)
	}
	b = model.AppendString(b, r.Path)
	if r.Children == nil {
		return append(b, 0)
	}
	b = model.AppendUvarint(b, uint64(len(r.Children))+1)
	for _, c := range r.Children {
		b = model.AppendString(b, c)
	}
	return b
}

func readResult(b []byte) (Result, []byte) {
	r := Result{Code: Code(b[0] &^ versioned), Data: b[1]}
	if b[0]&versioned != 0 {
		r.Version, b = b[2], b[1:]
	}
	r.Path, b = readPath(b[2:])
	n, b := model.ReadUvarint(b)
	if n > uint64(len(b))+1 { // not an encoding: do not allocate for it
		panic(fmt.Sprintf("coordination: %d children in %d bytes", n-1, len(b)))
	}
	if n > 0 {
		r.Children = make([]string, n-1)
		for i := range r.Children {
			r.Children[i], b = readPath(b)
		}
	}
	return r, b
}

// AppendMsg encodes m canonically: its kind, then the fields that kind
// uses (see Kind); a message's other fields are always zero.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte {
	b = append(b, byte(m.Kind))
	switch m.Kind {
	case Request:
		b = appendOp(append(b, m.Seq, m.N), m.Op)
	case Reply:
		b = appendResult(append(b, m.Seq, m.N, m.Epoch), m.Res)
	case Notify:
		b = append(model.AppendString(b, m.Event.Path), byte(m.Event.Kind))
	case Forward, Sync, Synced:
		b = appendOp(append(b, m.Epoch, m.Client, m.Seq), m.Op)
	case Answer:
		b = appendResult(appendOp(append(b, m.Epoch, m.Client, m.Seq), m.Op), m.Res)
	case Propose:
		b = appendTxn(append(b, m.Epoch, m.N), m.Txn)
	case Ack, Commit, AckNewLeader, Write:
		b = append(b, m.Epoch, m.N, m.Seq)
	case NewEpoch, Join, VoteReq, Vote, Failover:
		b = append(b, m.Epoch)
	case AckEpoch, NewLeader:
		b = appendLog(append(b, m.Epoch, m.N), m.Log)
	case Written:
		b = append(b, byte(m.Res.Code))
	}
	return b
}

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) {
	m := Msg{Kind: Kind(b[0])}
	b = b[1:]
	switch m.Kind {
	case Request:
		m.Seq, m.N = b[0], b[1]
		m.Op, b = readOp(b[2:])
	case Reply:
		m.Seq, m.N, m.Epoch = b[0], b[1], b[2]
		m.Res, b = readResult(b[3:])
	case Notify:
		m.Event.Path, b = readPath(b)
		m.Event.Kind, b = EventKind(b[0]), b[1:]
	case Forward, Sync, Synced, Answer:
		m.Epoch, m.Client, m.Seq = b[0], b[1], b[2]
		m.Op, b = readOp(b[3:])
		if m.Kind == Answer {
			m.Res, b = readResult(b)
		}
	case Propose:
		m.Epoch, m.N = b[0], b[1]
		m.Txn, b = readTxn(b[2:])
	case Ack, Commit, AckNewLeader, Write:
		m.Epoch, m.N, m.Seq, b = b[0], b[1], b[2], b[3:]
	case NewEpoch, Join, VoteReq, Vote, Failover:
		m.Epoch, b = b[0], b[1:]
	case AckEpoch, NewLeader:
		m.Epoch, m.N = b[0], b[1]
		m.Log, b = readLog(b[2:])
	case Written:
		m.Res.Code, b = Code(b[0]), b[1:]
	}
	return m, b
}

// paths interns the paths of the model, so that decoding a state does not
// allocate them again and again. It is never written after init.
var paths = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{"", "/", RegisterPath, LockDir, LockPrefix, CounterPath} {
		m[s] = s
	}
	for i := range 64 {
		s := lockPath(uint8(i))
		m[s] = s
		m[base(s)] = base(s)
	}
	return m
}()

// readPath reads a string written by model.AppendString, interned when it
// is one of the model's paths.
func readPath(b []byte) (string, []byte) {
	n, b := model.ReadUvarint(b)
	if s, ok := paths[string(b[:n])]; ok {
		return s, b[n:]
	}
	return string(b[:n]), b[n:]
}

// FormatMsg: "REQ(#0 setData(/x,1))", "PROPOSE(e1 0 e1:p3#0@p0:setData(/x,1))",
// "ACK(e1 1)", "NEWLEADER(e2 [...])", "REPLY(#1 ok 1)".
func (p *Protocol) FormatMsg(m Msg) string { return p.formatMsg(m) }

// FormatState renders a node's state. A replica: "LEADING e1 log=[...]
// committed=1 tree=/x=1v1 owes=p3#0 watches=..."; a register client:
// "conn=p1 next=1 busy"; a lock client: "WATCHING n-1 pred=n-0 conn=p0";
// the store: "data=p3 gen=n-1".
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	switch s.Kind {
	case ReplicaNode:
		return p.formatReplica(s.R)
	case ClientNode:
		return p.formatClient(self, s.C)
	}
	d := s.D
	if d.Gen == 0 {
		return "empty"
	}
	str := fmt.Sprintf("data=%s gen=%s", p.clientNode(d.Data-1), base(lockPath(d.Gen-1)))
	if d.Fence != 0 {
		str += " fence=" + base(lockPath(d.Fence-1))
	}
	if d.Late != 0 {
		str += fmt.Sprintf(" LATE %s after %s", base(lockPath(d.Late-1)), base(lockPath(d.LateOf-1)))
	}
	return str
}

// formatClient renders a client: "conn=p1 next=1 busy" (a register
// client), "WATCHING n-1 pred=n-0 conn=p0 zxid=2" (the sequential
// recipes), "WATCHING seen=2 conn=p0 zxid=3" (the barrier), "WATCHING
// view={p1,p2} conn=p0 zxid=3" (a group member).
func (p *Protocol) formatClient(self model.NodeID, c Client) string {
	str := c.Phase.String()
	switch p.Workload {
	case RegisterClients:
		str = fmt.Sprintf("conn=p%d next=%d zxid=%d", c.Conn, c.Next, c.Seen)
		if c.Busy {
			str += " busy"
		}
		if c.Cached != 0 {
			str += fmt.Sprintf(" cached=%d", c.Cached-1)
		}
		if p.Sessions != NoSessions {
			str += fmt.Sprintf(" %s lease=e%d", c.Sess, c.Lease)
		}
		return str
	case SimpleLockClients:
	case BarrierClients:
		if c.Phase >= Listing && c.Phase != Failed && c.Phase != Releasing {
			str += fmt.Sprintf(" seen=%d", c.View)
		}
	case MemberClients:
		if c.Phase == Watching || (c.Phase == Listing && c.View != 0) {
			str += " view=" + p.formatView(c.View)
		}
	case CounterClients:
		if c.Phase == Updating {
			str += fmt.Sprintf(" read=%dv%d", c.Val, c.Ver)
		}
	default:
		if c.Phase > Creating && c.Phase != Failed {
			str += " " + base(p.ownPath(self, c.Mine))
		}
		if c.Phase == Checking || c.Phase == Watching {
			str += " pred=" + base(p.predPath(c))
		}
	}
	return str + fmt.Sprintf(" conn=p%d zxid=%d", c.Conn, c.Seen)
}

func (p *Protocol) formatReplica(r Replica) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s e%d", r.Role, r.Accepted)
	if r.Current != r.Accepted {
		fmt.Fprintf(&b, " cur=e%d", r.Current)
	}
	fmt.Fprintf(&b, " log=%s committed=%d tree={%s}", p.formatLog(r.Log), r.Committed, p.tree(r).format(p))
	if r.Role == Discovery || r.Role == Syncing {
		fmt.Fprintf(&b, " votes=%s", nodeset.Format(uint64(r.Votes)))
	}
	if p.Leader == ElectedLeader {
		if r.Role != Leading && r.Role != Discovery && r.Role != Syncing && r.Leader != 0 {
			fmt.Fprintf(&b, " leader=p%d", r.Leader-1)
		}
		fmt.Fprintf(&b, " ballot=e%d", r.Ballot.Epoch)
		if r.Ballot.Voted {
			b.WriteString(" voted")
		}
		if r.Role == Candidate || r.Role == Elected {
			fmt.Fprintf(&b, " ballots=%s", nodeset.Format(uint64(r.Ballot.Votes)))
		}
	}
	if r.Role == Leading || r.Role == Syncing {
		var ms []string
		for j := range p.R {
			ms = append(ms, fmt.Sprint(r.Match[j]))
		}
		b.WriteString(" match=" + strings.Join(ms, ","))
	}
	var owes []string
	for c := range p.C {
		if r.Owed[c] != 0 {
			owes = append(owes, fmt.Sprintf("%s#%d", p.clientNode(uint8(c)), r.Owed[c]-1))
		}
	}
	if len(owes) > 0 {
		b.WriteString(" owes=" + strings.Join(owes, ","))
	}
	if r.Cachers != 0 {
		b.WriteString(" cachers=" + nodeset.Format(uint64(r.Cachers)<<p.R))
	}
	if r.Pending.Op.Kind != OpNone {
		fmt.Fprintf(&b, " held=%s waiting=%s", p.formatTxn(r.Pending), nodeset.Format(uint64(r.Waiting)<<p.R))
	}
	if len(r.Watches) > 0 {
		var ws []string
		for _, w := range r.Watches {
			kind := "data"
			if w.Child {
				kind = "child"
			}
			ws = append(ws, fmt.Sprintf("%s:%s:%s", p.clientNode(w.Client), kind, w.Path))
		}
		b.WriteString(" watches=" + strings.Join(ws, ","))
	}
	return b.String()
}
