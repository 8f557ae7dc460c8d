package coordination

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	clipped "github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
)

// The service's API as a sequential specification, for linearizability:
// the same Tree, Apply and Read the replicas use, so that a history from
// the live runtime or from a real ZooKeeper client is judged with the
// semantics the checker explores.

// ZnodeCall is one call of the API: the operation and the session that
// makes it (which owns the ephemeral znodes it creates, and which
// closeSession ends).
type ZnodeCall struct {
	Session uint8
	Op      Op
}

// ZnodeReturn is what a call returned; Unknown when its outcome is
// unknown (it may or may not have happened).
type ZnodeReturn struct {
	Result  Result
	Unknown bool
}

// ZnodeModel is the sequential specification of the API over a tree that
// starts with the root and the given znodes: create, delete and setData
// (with versions, ephemeral and sequential znodes), getData, exists,
// getChildren and closeSession, applied by Tree.Apply and answered by
// Tree.Read. A write's result (ok, nonode, exists, badversion, notempty,
// ...) must be the one the tree gives, a read's answer the tree's. The
// tree is one object, so the model does not partition.
func ZnodeModel(initial []string) linearizability.Model[Tree, ZnodeCall, ZnodeReturn] {
	return linearizability.Model[Tree, ZnodeCall, ZnodeReturn]{
		Name:              "znode",
		Init:              func() Tree { return *newTree(initial) },
		Step:              stepZnode,
		Equal:             func(a, b Tree) bool { return a.Closed == b.Closed && slices.Equal(a.Nodes, b.Nodes) },
		Hash:              hashTree,
		DescribeOperation: describeZnode,
		DescribeState:     describeTree,
	}
}

func stepZnode(s Tree, in ZnodeCall, out ZnodeReturn) (bool, Tree) {
	if !in.Op.Kind.IsWrite() {
		return out.Unknown || sameResult(s.Read(in.Op), out.Result), s
	}
	t := Tree{Nodes: slices.Clone(s.Nodes), Closed: s.Closed}
	res, _ := t.Apply(in.Session, in.Op)
	return out.Unknown || sameResult(res, out.Result), t
}

// sameResult compares two results; an exists answers only by its code.
func sameResult(a, b Result) bool {
	return a.Code == b.Code && a.Data == b.Data && a.Path == b.Path && slices.Equal(a.Children, b.Children)
}

func hashTree(t Tree) uint64 {
	h := fnv.New64a()
	for _, z := range t.Nodes {
		h.Write([]byte(z.Path))
		h.Write([]byte{0, z.Data, z.Version, z.Owner, z.Cseq})
	}
	h.Write([]byte{t.Closed})
	return h.Sum64()
}

// describeTree writes a tree as "/lock /lock/n-0(s3) /x=1v1": each
// znode but the root, its data and version when set, and the session that
// owns it when it is ephemeral.
func describeTree(t Tree) string {
	return t.formatOwners(func(owner uint8) string { return "s" + strconv.Itoa(int(owner)) })
}

func describeZnode(in ZnodeCall, out ZnodeReturn) string {
	s := in.Op.String()
	if in.Op.Kind == OpCloseSession {
		s = "closeSession(" + strconv.Itoa(int(in.Session)) + ")"
	}
	if out.Unknown {
		return s + " -> ?"
	}
	return s + " -> " + out.Result.String()
}

// ZnodeDecoder reads histories of the API in Jepsen's EDN, one map per
// event, the fields named as in the API (ZooKeeper's error codes as
// keywords, the short names of Code.String):
//
//	{:process 0, :type :invoke, :f :create, :path "/lock/n-", :data 1, :flags [:ephemeral :sequential]}
//	{:process 0, :type :ok, :f :create, :value "/lock/n-0"}      (or :value :exists, :nonode, ...)
//	{:process 1, :type :invoke, :f :setData, :path "/x", :data 2, :version 0}
//	{:process 1, :type :ok, :f :setData, :value :ok}              (or :badversion, :nonode)
//	{:process 2, :type :invoke, :f :getData, :path "/x"}
//	{:process 2, :type :ok, :f :getData, :value 2}                (nil: no data; :nonode)
//	{:process 2, :type :invoke, :f :exists, :path "/x"}
//	{:process 2, :type :ok, :f :exists, :value true}
//	{:process 3, :type :invoke, :f :getChildren, :path "/lock"}
//	{:process 3, :type :ok, :f :getChildren, :value ["n-0" "n-1"]}
//	{:process 0, :type :invoke, :f :delete, :path "/lock/n-0", :version -1}
//	{:process 0, :type :invoke, :f :closeSession}
//
// Data are integers 1..255 (0 or nil: none), versions -1 (any) to 127.
// The session of a call is its process, 0..7 (ephemeral znodes and
// closeSession need it); :fail and :info mean what they mean in every
// history.
type ZnodeDecoder struct{}

var znodeFuncs = map[string]OpKind{"create": OpCreate, "delete": OpDelete, "setData": OpSetData,
	"getData": OpGetData, "exists": OpExists, "getChildren": OpGetChildren, "closeSession": OpCloseSession}

// Shape refuses a function that is not of the API.
func (ZnodeDecoder) Shape(ev linearizability.Event) error {
	if _, ok := znodeFuncs[ev.F]; !ok {
		return fmt.Errorf(":f :%s is not an operation of the znode model (want :create, :delete, :setData, :getData, :exists, :getChildren or :closeSession)", ev.F)
	}
	return nil
}

// Input reads an invocation.
func (ZnodeDecoder) Input(ev linearizability.Event) (ZnodeCall, error) {
	kind := znodeFuncs[ev.F]
	if ev.Process < 0 || ev.Process > 7 {
		return ZnodeCall{}, fmt.Errorf(":process %d: the znode model's sessions are processes 0 to 7", ev.Process)
	}
	c := ZnodeCall{Session: uint8(ev.Process), Op: Op{Kind: kind, Version: AnyVersion}}
	if kind == OpCloseSession {
		return c, nil
	}
	p, ok := ev.Map.Get("path")
	path, isText := p.Text()
	if !ok || !isText || !strings.HasPrefix(path, "/") {
		return c, fmt.Errorf(":%s needs :path, a string starting with /", ev.F)
	}
	c.Op.Path = path
	if d, ok := ev.Map.Get("data"); ok && !d.IsNil() {
		n, isInt := d.Int()
		if !isInt || n < 0 || n > 255 {
			return c, fmt.Errorf(":data %s: want an integer from 0 to 255", clipped.String(d.String()))
		}
		c.Op.Data = uint8(n)
	}
	if v, ok := ev.Map.Get("version"); ok && !v.IsNil() {
		n, isInt := v.Int()
		if !isInt || n < -1 || n > 127 {
			return c, fmt.Errorf(":version %s: want -1 (any) or an integer to 127", clipped.String(v.String()))
		}
		c.Op.Version = int8(n)
	}
	if f, ok := ev.Map.Get("flags"); ok {
		items, isVec := f.Items()
		if !isVec {
			return c, fmt.Errorf(":flags %s: want a vector of :ephemeral and :sequential", clipped.String(f.String()))
		}
		for _, it := range items {
			switch k, _ := it.Keyword(); k {
			case "ephemeral":
				c.Op.Flags |= Ephemeral
			case "sequential":
				c.Op.Flags |= Sequential
			default:
				return c, fmt.Errorf(":flags %s: want :ephemeral or :sequential", clipped.String(it.String()))
			}
		}
	}
	return c, nil
}

// Output reads the completion of call in.
func (ZnodeDecoder) Output(in ZnodeCall, _, done linearizability.Event) (ZnodeReturn, error) {
	v := done.Value
	if k, ok := v.Keyword(); ok {
		for c := OK; c <= ConnLoss; c++ {
			if c.String() == k {
				return ZnodeReturn{Result: Result{Code: c}}, nil
			}
		}
		return ZnodeReturn{}, fmt.Errorf(":value :%s: want a result or one of ZooKeeper's codes (:ok, :nonode, :exists, :badversion, :notempty, ...)", k)
	}
	var r Result
	switch in.Op.Kind {
	case OpCreate:
		path, ok := v.Text()
		if !ok {
			return ZnodeReturn{}, fmt.Errorf(":create returned %s: want the created path or a code", clipped.String(v.String()))
		}
		r.Path = path
	case OpGetData:
		if !v.IsNil() {
			n, ok := v.Int()
			if !ok || n < 0 || n > 255 {
				return ZnodeReturn{}, fmt.Errorf(":getData returned %s: want data 0..255, nil or a code", clipped.String(v.String()))
			}
			r.Data = uint8(n)
		}
	case OpExists:
		b, ok := v.Bool()
		if !ok {
			return ZnodeReturn{}, fmt.Errorf(":exists returned %s: want true or false", clipped.String(v.String()))
		}
		if !b {
			r.Code = NoNode
		}
	case OpGetChildren:
		items, ok := v.Items()
		if !ok {
			return ZnodeReturn{}, fmt.Errorf(":getChildren returned %s: want a vector of names or a code", clipped.String(v.String()))
		}
		r.Children = []string{}
		for _, it := range items {
			name, ok := it.Text()
			if !ok {
				return ZnodeReturn{}, fmt.Errorf(":getChildren returned %s: want names as strings", clipped.String(v.String()))
			}
			r.Children = append(r.Children, name)
		}
	default:
		if !v.IsNil() {
			return ZnodeReturn{}, fmt.Errorf(":%s returned %s: want a code (:ok, :nonode, ...)", done.F, clipped.String(v.String()))
		}
	}
	return ZnodeReturn{Result: r}, nil
}

// Unknown is the return of a call whose outcome is unknown.
func (ZnodeDecoder) Unknown() ZnodeReturn { return ZnodeReturn{Unknown: true} }

// ZnodeHistory turns the records of the service's clients (World.History:
// "invoke write /x 1", "ok read /x 1", ...) into calls of the API: a
// write is setData(path, data) at any version, a read is getData(path).
// Like linearizability.FromRecords, a node that goes on after an unknown
// outcome becomes a new client.
func ZnodeHistory(h *linearizability.History) []linearizability.Operation[ZnodeCall, ZnodeReturn] {
	ops := make([]linearizability.Operation[ZnodeCall, ZnodeReturn], len(h.Ops))
	for i, op := range h.Ops {
		c := ZnodeCall{Op: Op{Kind: OpGetData, Path: op.Input.Key, Version: AnyVersion}}
		if op.Input.Op == linearizability.Write {
			n, _ := op.Input.Arg.Int()
			c.Op.Kind, c.Op.Data = OpSetData, uint8(n)
		}
		r := ZnodeReturn{Unknown: op.Output.Unknown}
		if n, ok := op.Output.Value.Int(); ok && c.Op.Kind == OpGetData {
			r.Result.Data = uint8(n)
		}
		ops[i] = linearizability.Operation[ZnodeCall, ZnodeReturn]{Client: op.Client, Call: op.Call,
			Return: op.Return, Input: c, Output: r, Note: op.Note}
	}
	return ops
}
