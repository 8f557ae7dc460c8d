package coordination

import (
	"strconv"
	"strings"
)

// OpKind is the function of a client operation: the ZooKeeper API of seed
// 004 ("create, delete, exists, getData, setData, getChildren") and the
// closing of a session.
type OpKind uint8

// The operations.
const (
	OpNone         OpKind = iota
	OpCreate              // create(path, data, flags)
	OpDelete              // delete(path, version)
	OpSetData             // setData(path, data, version)
	OpGetData             // getData(path, watch)
	OpExists              // exists(path, watch)
	OpGetChildren         // getChildren(path, watch)
	OpCloseSession        // the end of a session: its ephemeral znodes go
)

var opNames = [...]string{OpNone: "none", OpCreate: "create", OpDelete: "delete",
	OpSetData: "setData", OpGetData: "getData", OpExists: "exists",
	OpGetChildren: "getChildren", OpCloseSession: "closeSession"}

// String is the operation's name in the ZooKeeper API.
func (k OpKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return "op" + strconv.Itoa(int(k))
}

// IsWrite says whether the operation updates the tree: "write requests
// require coordination among the servers" (seed 004).
func (k OpKind) IsWrite() bool {
	return k == OpCreate || k == OpDelete || k == OpSetData || k == OpCloseSession
}

// Flags are the flags of create and the watch flag of reads.
type Flags uint8

// The flags.
const (
	Ephemeral  Flags = 1 << iota // removed when the creator's session ends
	Sequential                   // a counter is appended to the name
	Watch                        // a read leaves a one-time watch
	// Stat: getData answers the znode's version too (ZooKeeper's Stat),
	// for a later setData(path, data, version).
	Stat
)

// AnyVersion is the version that matches every version (ZooKeeper's -1).
const AnyVersion = -1

// Op is a client operation.
type Op struct {
	Kind    OpKind
	Path    string
	Data    uint8 // the data of create and setData; 0 is no data
	Version int8  // the expected version of delete and setData, or AnyVersion
	Flags   Flags
}

// String is the operation as in traces: "setData(/x,1)",
// "create(/lock/n-,e|s)", "exists(/lock/n-1,watch)".
func (o Op) String() string {
	args := []string{}
	if o.Kind != OpCloseSession {
		args = append(args, o.Path)
	}
	if o.Kind == OpCreate || o.Kind == OpSetData {
		if o.Data != 0 {
			args = append(args, strconv.Itoa(int(o.Data)))
		}
	}
	if (o.Kind == OpDelete || o.Kind == OpSetData) && o.Version != AnyVersion {
		args = append(args, "v"+strconv.Itoa(int(o.Version)))
	}
	var fl []string
	if o.Flags&Ephemeral != 0 {
		fl = append(fl, "e")
	}
	if o.Flags&Sequential != 0 {
		fl = append(fl, "s")
	}
	if o.Flags&Watch != 0 {
		fl = append(fl, "watch")
	}
	if o.Flags&Stat != 0 {
		fl = append(fl, "stat")
	}
	if len(fl) > 0 {
		args = append(args, strings.Join(fl, "|"))
	}
	return o.Kind.String() + "(" + strings.Join(args, ",") + ")"
}

// Code is the outcome of an operation.
type Code uint8

// The outcomes: ZooKeeper's error codes, and two of the connection.
const (
	OK             Code = iota
	NoNode              // the znode (or the parent of a new one) does not exist
	NodeExists          // create of a name that exists
	BadVersion          // the expected version does not match
	NotEmpty            // delete of a znode with children
	NoChildren          // create under an ephemeral znode ("they can not have children")
	SessionExpired      // the client's session has been closed
	Refused             // the server is not serving: the operation did not happen
	ConnLoss            // the connection was lost: the outcome is unknown
)

var codeNames = [...]string{OK: "ok", NoNode: "nonode", NodeExists: "exists",
	BadVersion: "badversion", NotEmpty: "notempty", NoChildren: "nochildrenforephemerals",
	SessionExpired: "expired", Refused: "refused", ConnLoss: "connloss"}

// String is the code's short name.
func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "code" + strconv.Itoa(int(c))
}

// Result is what a server answers to an operation.
type Result struct {
	Code Code
	// Data is the data getData read (0: none).
	Data uint8
	// Version is the version of the znode getData read, when it asked for
	// it (Stat).
	Version uint8
	// Path is the name of the znode create made.
	Path string
	// Children are the names getChildren listed, sorted.
	Children []string
}

// String is the result as in traces: "ok", "ok 3", "ok /lock/n-1",
// "ok [n-1 n-2]", "nonode".
func (r Result) String() string {
	s := r.Code.String()
	if r.Data != 0 {
		s += " " + strconv.Itoa(int(r.Data))
	}
	if r.Version != 0 {
		s += " v" + strconv.Itoa(int(r.Version))
	}
	if r.Path != "" {
		s += " " + r.Path
	}
	if r.Children != nil {
		s += " [" + strings.Join(r.Children, " ") + "]"
	}
	return s
}
