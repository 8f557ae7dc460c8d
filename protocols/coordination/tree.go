package coordination

import (
	"slices"
	"strconv"
	"strings"
)

// Znode is one node of the data tree: "in-memory data node ... UNIX like
// notation for path" (seed 004).
type Znode struct {
	Path    string
	Data    uint8 // 0: no data
	Version uint8 // the data version: how many setData it has seen
	// Owner is the client whose session owns an ephemeral znode, plus one;
	// 0 for a regular znode.
	Owner uint8
	// Cseq counts the children ever created under the znode: the counter
	// a sequential child's name ends with.
	Cseq uint8
}

// Tree is the replicated database: "a tree of znodes" (seed 000). It is
// never stored in a state: a replica's tree is a function of its committed
// history (Replica.tree), rebuilt when needed, so states stay canonical.
type Tree struct {
	Nodes  []Znode // sorted by path
	Closed uint8   // bit c: client c's session has been closed
}

// Event is a change a transaction makes, which fires the watches on its
// path: a data watch (getData, exists) for Created, Deleted and Changed of
// the znode, a child watch (getChildren) for Children of the parent and
// for Deleted of the znode itself.
type Event struct {
	Path string
	Kind EventKind
}

// EventKind is the kind of a watch event.
type EventKind uint8

// The watch events.
const (
	Created EventKind = iota
	Deleted
	Changed
	Children
)

var eventNames = [...]string{Created: "created", Deleted: "deleted", Changed: "changed", Children: "children"}

// String is the event's name.
func (k EventKind) String() string { return eventNames[k] }

// newTree returns the tree every replica starts from: the root and the
// given znodes.
func newTree(paths []string) *Tree {
	t := &Tree{Nodes: []Znode{{Path: "/"}}}
	for _, p := range paths {
		t.insert(Znode{Path: p})
	}
	return t
}

// find returns the index of path, and whether it exists.
func (t *Tree) find(path string) (int, bool) {
	return slices.BinarySearchFunc(t.Nodes, path, func(z Znode, p string) int { return strings.Compare(z.Path, p) })
}

func (t *Tree) insert(z Znode) {
	i, _ := t.find(z.Path)
	t.Nodes = slices.Insert(t.Nodes, i, z)
}

// parent is the path of the parent of path: "/lock" for "/lock/n-1".
func parent(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// base is the last component of path: "n-1" for "/lock/n-1".
func base(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }

// child joins a parent path and a name.
func child(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// SeqOf is the counter a sequential znode's name ends with ("n-12": 12),
// or -1.
func SeqOf(name string) int {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(name[i:])
	if err != nil {
		return -1
	}
	return n
}

// children lists the names of dir's children, sorted by the counter of
// sequential names, then by name.
func (t *Tree) children(dir string) []string {
	names := []string{}
	for _, z := range t.Nodes {
		if z.Path != "/" && z.Path != dir && parent(z.Path) == dir {
			names = append(names, base(z.Path))
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := SeqOf(a) - SeqOf(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return names
}

// Read answers a read operation (getData, exists, getChildren).
func (t *Tree) Read(op Op) Result {
	i, ok := t.find(op.Path)
	if !ok {
		return Result{Code: NoNode}
	}
	switch op.Kind {
	case OpGetData:
		if op.Flags&Stat != 0 {
			return Result{Data: t.Nodes[i].Data, Version: t.Nodes[i].Version}
		}
		return Result{Data: t.Nodes[i].Data}
	case OpGetChildren:
		return Result{Children: t.children(op.Path)}
	}
	return Result{}
}

// Apply applies the write of client (its session) to t, and returns the
// result and the events it fires, in order. The semantics are
// ZooKeeper's: a sequential name takes the parent's counter ("never
// smaller than the value in the name of any other sequential znode ever
// created under p"), ephemeral znodes cannot have children, versions must
// match unless AnyVersion.
func (t *Tree) Apply(client uint8, op Op) (Result, []Event) {
	if op.Kind == OpCloseSession {
		return t.closeSession(client)
	}
	if t.Closed&(1<<client) != 0 {
		return Result{Code: SessionExpired}, nil
	}
	switch op.Kind {
	case OpCreate:
		return t.create(client, op)
	case OpDelete:
		i, code := t.versioned(op)
		if code == OK && len(t.children(op.Path)) > 0 {
			code = NotEmpty
		}
		if code != OK {
			return Result{Code: code}, nil
		}
		return Result{}, t.remove(i)
	case OpSetData:
		i, code := t.versioned(op)
		if code != OK {
			return Result{Code: code}, nil
		}
		t.Nodes[i].Data = op.Data
		t.Nodes[i].Version++
		return Result{}, []Event{{op.Path, Changed}}
	}
	return Result{}, nil
}

// versioned finds the znode a delete or setData acts on: NoNode when
// there is none, BadVersion when op names a version other than its own.
func (t *Tree) versioned(op Op) (int, Code) {
	i, ok := t.find(op.Path)
	switch {
	case !ok:
		return i, NoNode
	case op.Version != AnyVersion && uint8(op.Version) != t.Nodes[i].Version:
		return i, BadVersion
	}
	return i, OK
}

func (t *Tree) create(client uint8, op Op) (Result, []Event) {
	dir := parent(op.Path)
	pi, ok := t.find(dir)
	if !ok {
		return Result{Code: NoNode}, nil
	}
	if t.Nodes[pi].Owner != 0 {
		return Result{Code: NoChildren}, nil
	}
	path := op.Path
	if op.Flags&Sequential != 0 {
		path += strconv.Itoa(int(t.Nodes[pi].Cseq))
	}
	if _, exists := t.find(path); exists {
		return Result{Code: NodeExists}, nil
	}
	t.Nodes[pi].Cseq++
	z := Znode{Path: path, Data: op.Data}
	if op.Flags&Ephemeral != 0 {
		z.Owner = client + 1
	}
	t.insert(z)
	return Result{Path: path}, []Event{{path, Created}, {dir, Children}}
}

// remove deletes the znode at index i and returns its events.
func (t *Tree) remove(i int) []Event {
	path := t.Nodes[i].Path
	t.Nodes = slices.Delete(t.Nodes, i, i+1)
	return []Event{{path, Deleted}, {parent(path), Children}}
}

// closeSession closes client's session: "if the process fails or ends,
// the znode that represents it is automatically removed" (seed 004).
func (t *Tree) closeSession(client uint8) (Result, []Event) {
	t.Closed |= 1 << client
	var evs []Event
	for i := 0; i < len(t.Nodes); {
		if t.Nodes[i].Owner == client+1 {
			evs = append(evs, t.remove(i)...)
			continue
		}
		i++
	}
	return Result{}, evs
}

// format renders the tree as "/lock /lock/n-0(p3) /x=1v1": each znode
// but the root, its data and version when set, and the client that owns
// it when it is ephemeral.
func (t *Tree) format(p *Protocol) string {
	return t.formatOwners(func(owner uint8) string { return p.clientNode(owner).String() })
}

// formatOwners is format with the owner of an ephemeral znode (its
// client) named by name.
func (t *Tree) formatOwners(name func(owner uint8) string) string {
	var parts []string
	for _, z := range t.Nodes {
		if z.Path == "/" {
			continue
		}
		s := z.Path
		if z.Data != 0 || z.Version != 0 {
			s += "=" + strconv.Itoa(int(z.Data)) + "v" + strconv.Itoa(int(z.Version))
		}
		if z.Owner != 0 {
			s += "(" + name(z.Owner-1) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}
