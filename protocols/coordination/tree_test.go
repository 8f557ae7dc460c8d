package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The data model of seeds 000 and 004, one rule per step: each step
// applies a write (or answers a read) on the tree the steps before made.
func TestTreeSemantics(t *testing.T) {
	const c0, c1 = 0, 1
	steps := []struct {
		name   string
		client uint8
		op     Op
		want   Result
		events []Event
	}{
		{"create a regular znode", c0, Op{Kind: OpCreate, Path: "/app", Data: 5},
			Result{Path: "/app"}, []Event{{"/app", Created}, {"/", Children}}},
		{"a name is unique", c1, Op{Kind: OpCreate, Path: "/app"}, Result{Code: NodeExists}, nil},
		{"the parent must exist", c0, Op{Kind: OpCreate, Path: "/none/a"}, Result{Code: NoNode}, nil},
		{"sequential: the parent's counter is appended", c0, Op{Kind: OpCreate, Path: "/lock/n-", Flags: Ephemeral | Sequential},
			Result{Path: "/lock/n-0"}, []Event{{"/lock/n-0", Created}, {"/lock", Children}}},
		{"the counter never goes back", c1, Op{Kind: OpCreate, Path: "/lock/n-", Flags: Ephemeral | Sequential},
			Result{Path: "/lock/n-1"}, []Event{{"/lock/n-1", Created}, {"/lock", Children}}},
		{"ephemeral znodes cannot have children", c0, Op{Kind: OpCreate, Path: "/lock/n-0/x"}, Result{Code: NoChildren}, nil},
		{"getChildren lists in counter order", c1, Op{Kind: OpGetChildren, Path: "/lock"}, Result{Children: []string{"n-0", "n-1"}}, nil},
		{"getData reads the data", c1, Op{Kind: OpGetData, Path: "/app"}, Result{Data: 5}, nil},
		{"exists of a missing znode", c1, Op{Kind: OpExists, Path: "/lock/n-7"}, Result{Code: NoNode}, nil},
		{"setData with a wrong version fails", c0, Op{Kind: OpSetData, Path: "/app", Data: 6, Version: 3}, Result{Code: BadVersion}, nil},
		{"setData with the right version", c0, Op{Kind: OpSetData, Path: "/app", Data: 6, Version: 0},
			Result{}, []Event{{"/app", Changed}}},
		{"any version", c1, Op{Kind: OpSetData, Path: "/app", Data: 7, Version: AnyVersion},
			Result{}, []Event{{"/app", Changed}}},
		{"delete needs the version too", c0, Op{Kind: OpDelete, Path: "/app", Version: 1}, Result{Code: BadVersion}, nil},
		{"delete of a znode with children fails", c0, Op{Kind: OpDelete, Path: "/lock", Version: AnyVersion}, Result{Code: NotEmpty}, nil},
		{"the end of a session removes its ephemeral znodes", c0, Op{Kind: OpCloseSession},
			Result{}, []Event{{"/lock/n-0", Deleted}, {"/lock", Children}}},
		{"an expired session can do nothing", c0, Op{Kind: OpSetData, Path: "/app", Version: AnyVersion}, Result{Code: SessionExpired}, nil},
		{"delete", c1, Op{Kind: OpDelete, Path: "/app", Version: 2}, Result{}, []Event{{"/app", Deleted}, {"/", Children}}},
		{"a sequential name after deletions", c1, Op{Kind: OpCreate, Path: "/lock/n-", Flags: Sequential},
			Result{Path: "/lock/n-2"}, []Event{{"/lock/n-2", Created}, {"/lock", Children}}},
	}
	tr := newTree([]string{"/lock"})
	for _, s := range steps {
		var got Result
		var evs []Event
		if s.op.Kind.IsWrite() {
			got, evs = tr.Apply(s.client, s.op)
		} else {
			got = tr.Read(s.op)
		}
		require.Equal(t, s.want, got, s.name)
		require.Equal(t, s.events, evs, s.name)
	}
	p := NewLock(3, 2, false, false)
	require.Equal(t, "/lock /lock/n-1(p4) /lock/n-2", tr.format(p))
}

// A watch fires once, for the events of its kind: "one time triggers".
func TestWatchesFireOnce(t *testing.T) {
	p := NewLock(1, 2, false, false)
	ws := addWatch(nil, WatchReg{Path: "/lock/n-0", Client: 1})
	ws = addWatch(ws, WatchReg{Path: "/lock", Client: 0, Child: true})
	ws = addWatch(ws, WatchReg{Path: "/lock/n-0", Client: 1}) // once
	require.Len(t, ws, 2)
	r := Replica{Watches: ws}
	var out outbox
	r = p.fire(r, []Event{{"/lock/n-0", Changed}}, out.o())
	require.Equal(t, []string{"p2 WATCH(changed /lock/n-0)"}, out.sent(p))
	r = p.fire(r, []Event{{"/lock/n-0", Deleted}, {"/lock", Children}}, out.o())
	require.Equal(t, []string{"p1 WATCH(children /lock)"}, out.sent(p), "the data watch is gone")
	require.Empty(t, r.Watches)
}

// A child watch fires for its znode's children and for its deletion, not
// for a change of its data, and a data watch not for its children (seed
// 000: "if the znode is specifically changed or removed or new children
// are created under it"; tree.go's Event).
func TestWatchKinds(t *testing.T) {
	data := WatchReg{Path: "/lock", Client: 0}
	child := WatchReg{Path: "/lock", Client: 0, Child: true}
	for _, c := range []struct {
		kind        EventKind
		data, child bool
	}{
		{Created, true, false},
		{Deleted, true, true},
		{Changed, true, false},
		{Children, false, true},
	} {
		ev := Event{"/lock", c.kind}
		require.Equal(t, c.data, triggers(data, ev), "data watch, %s", ev.Kind)
		require.Equal(t, c.child, triggers(child, ev), "child watch, %s", ev.Kind)
		require.False(t, triggers(child, Event{"/lock/n-0", c.kind}), "another path, %s", ev.Kind)
	}
}

// Operations print as in traces (op.go): the path, the data, the expected
// version, and the flags joined by "|".
func TestOpStrings(t *testing.T) {
	for _, c := range []struct {
		op   Op
		want string
	}{
		{Op{Kind: OpSetData, Path: "/x", Data: 1, Version: AnyVersion}, "setData(/x,1)"},
		{Op{Kind: OpCreate, Path: "/lock/n-", Flags: Ephemeral | Sequential}, "create(/lock/n-,e|s)"},
		{Op{Kind: OpCreate, Path: "/lock/n-", Flags: Ephemeral}, "create(/lock/n-,e)"},
		{Op{Kind: OpExists, Path: "/lock/n-1", Flags: Watch}, "exists(/lock/n-1,watch)"},
		{Op{Kind: OpDelete, Path: "/x", Version: 2}, "delete(/x,v2)"},
	} {
		require.Equal(t, c.want, c.op.String())
	}
}

// SeqOf reads a sequential znode's counter, -1 for another name.
func TestSeqOf(t *testing.T) {
	require.Equal(t, 12, SeqOf("n-12"))
	require.Equal(t, 0, SeqOf("/lock/n-0"))
	require.Equal(t, -1, SeqOf("n-"))
	require.Equal(t, -1, SeqOf("lock"))
}
