package mutate

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each operator on a small Step, with the exact mutated function.
func TestOperators(t *testing.T) {
	for _, c := range []struct {
		op   string
		step string
		want []string // "key\nmutated Step", in order
	}{
		{OpBoundary, `func Step(a, b int) bool { return a < b || a >= b }`, []string{
			"s.go:3:37 boundary < -> <=\nfunc Step(a, b int) bool { return a <= b || a >= b }",
			"s.go:3:46 boundary >= -> >\nfunc Step(a, b int) bool { return a < b || a > b }",
		}},
		{OpNegateCmp, `func Step(a, b int) bool { return a == b && a > b }`, []string{
			"s.go:3:37 negate-cmp == -> !=\nfunc Step(a, b int) bool { return a != b && a > b }",
			"s.go:3:47 negate-cmp > -> <=\nfunc Step(a, b int) bool { return a == b && a <= b }",
		}},
		{OpNegateCond, "func Step(a, b bool, n int) {\n\tif a {\n\t}\n\tif n > 0 {\n\t}\n\tfor b {\n\t}\n}", []string{
			"s.go:4:5 negate-cond c -> !(c)\nfunc Step(a, b bool, n int) {\n\tif !(a) {\n\t}\n\tif n > 0 {\n\t}\n\tfor b {\n\t}\n}",
			"s.go:8:6 negate-cond c -> !(c)\nfunc Step(a, b bool, n int) {\n\tif a {\n\t}\n\tif n > 0 {\n\t}\n\tfor !(b) {\n\t}\n}",
		}},
		{OpAndOr, `func Step(a, b bool) bool { return a && b }`, []string{
			"s.go:3:38 and-or && -> ||\nfunc Step(a, b bool) bool { return a || b }",
		}},
		{OpDropSend, "func Step(out *Out) {\n\tout.Send(1)\n\tout.SetTimer(2)\n\tout.Other()\n}", []string{
			"s.go:4:2 drop-send out.Send(...) removed\nfunc Step(out *Out) {\n\tout.SetTimer(2)\n\tout.Other()\n}",
		}},
		{OpDropEffect, "func Step(out *Out) {\n\tout.Send(1)\n\tout.CancelTimer(2)\n}", []string{
			"s.go:5:2 drop-effect out.CancelTimer(...) removed\nfunc Step(out *Out) {\n\tout.Send(1)\n}",
		}},
		{OpDropAssign, "func Step(s S) S {\n\ty := s.n\n\ts.x, s.y = y, y\n\ts.n++\n\treturn s\n}", []string{
			"s.go:5:2 drop-assign s.x, s.y = ... removed\nfunc Step(s S) S {\n\ty := s.n\n\ts.n++\n\treturn s\n}",
			"s.go:6:2 drop-assign s.n++ removed\nfunc Step(s S) S {\n\ty := s.n\n\ts.x, s.y = y, y\n\treturn s\n}",
		}},
		{OpIncDec, "func Step(n int) int {\n\tn--\n\treturn n\n}", []string{
			"s.go:4:3 incdec -- -> ++\nfunc Step(n int) int {\n\tn++\n\treturn n\n}",
		}},
		{OpLiteral, `func Step(n int) int { return n + 0x10 }`, []string{
			"s.go:3:35 literal 0x10 -> 17\nfunc Step(n int) int { return n + 17 }",
			"s.go:3:35 literal 0x10 -> 15\nfunc Step(n int) int { return n + 15 }",
		}},
		{OpSwapIfElse, "func Step(a bool) int {\n\tif a {\n\t\treturn 1\n\t} else if !a {\n\t\treturn 2\n\t} else {\n\t\treturn 3\n\t}\n}", []string{
			"s.go:6:9 swap-if then <-> else\nfunc Step(a bool) int {\n\tif a {\n\t\treturn 1\n\t} else if !a {\n\t\treturn 3\n\t} else {\n\t\treturn 2\n\t}\n}",
		}},
		{OpSwapCases, "func Step(k int) int {\n\tswitch k {\n\tcase 1:\n\t\treturn 1\n\tcase 2:\n\tdefault:\n\t\treturn 3\n\t}\n}", []string{
			"s.go:5:2 swap-cases case 1 <-> case 2 bodies\nfunc Step(k int) int {\n\tswitch k {\n\tcase 1:\n\tcase 2:\n\t\treturn 1\n\tdefault:\n\t\treturn 3\n\t}\n}",
			"s.go:7:2 swap-cases case 2 <-> case 3 bodies\nfunc Step(k int) int {\n\tswitch k {\n\tcase 1:\n\t\treturn 1\n\tcase 2:\n\t\treturn 3\n\tdefault:\n\t}\n}",
		}},
	} {
		src := "package p\n\n" + c.step + "\n\nfunc Other(a int) bool { return a < 1 }\n"
		ms, err := File("s.go", []byte(src), []string{"Step"})
		require.NoError(t, err, c.op)
		var got []string
		for _, m := range ms {
			require.Equal(t, "Step", m.Func)
			if m.Op == c.op {
				got = append(got, m.Key()+"\n"+funcText(t, m.Src, "Step"))
			}
		}
		require.Equal(t, c.want, got, c.op)
	}
}

// funcText is the gofmt-printed function name of src, blank lines removed.
func funcText(t *testing.T, src []byte, name string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", src, 0)
	require.NoError(t, err, "a mutant must parse:\n%s", src)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			var buf bytes.Buffer
			require.NoError(t, format.Node(&buf, fset, fd))
			// A dropped or moved statement leaves a blank line.
			return strings.ReplaceAll(buf.String(), "\n\n", "\n")
		}
	}
	t.Fatalf("no func %s in\n%s", name, src)
	return ""
}

// Package mutates Step and what it calls, in any non-test file, and nothing
// else; the order is by file name, then position.
func TestPackageMutatesWhatStepReaches(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("package p\n\n"+src), 0o644))
	}
	write("b.go", "func (p *P) Step(n int) int { return p.helper(n) }\n\nfunc (p *P) Format(n int) bool { return n > 1 }\n")
	write("a.go", "type P struct{}\n\nfunc (p *P) helper(n int) int { return n - 1 }\n")
	write("a_test.go", "func Step(n int) bool { return n > 1 }\n")
	ms, err := Package(dir)
	require.NoError(t, err)
	var got []string
	for _, m := range ms {
		got = append(got, strings.TrimPrefix(filepath.ToSlash(m.Key()), filepath.ToSlash(dir)+"/")+" "+m.Func)
	}
	require.Equal(t, []string{
		"a.go:5:44 literal 1 -> 2 helper",
		"a.go:5:44 literal 1 -> 0 helper",
	}, got)
}

// The same source gives the same mutants; a sample keeps the original
// order, depends only on the seed, and a smaller one is a subset.
func TestDeterministic(t *testing.T) {
	src := []byte("package p\n\nfunc Step(a, b int) bool {\n\treturn a < b && a+1 > b-2 && a == 3\n}\n")
	one, err := File("s.go", src, nil)
	require.NoError(t, err)
	two, err := File("s.go", src, nil)
	require.NoError(t, err)
	require.Equal(t, one, two)
	require.Len(t, one, 13)
	s1, s2 := Sample(one, 5, 7), Sample(two, 5, 7)
	require.Equal(t, s1, s2)
	require.Len(t, s1, 5)
	last := -1
	for _, m := range s1 {
		i := indexOf(one, m.Key())
		require.Greater(t, i, last, "sampled mutants keep their order")
		last = i
	}
	for _, m := range Sample(one, 3, 7) {
		require.NotEqual(t, -1, indexOf(s1, m.Key()), "a smaller sample is a subset")
	}
	require.Equal(t, one, Sample(one, 0, 7))
	require.Equal(t, one, Sample(one, 13, 7))
}

func indexOf(ms []Mutant, key string) int {
	for i, m := range ms {
		if m.Key() == key {
			return i
		}
	}
	return -1
}

// TestNames lists the tests go test runs in a directory.
func TestTestNames(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(
		"package p\n\nfunc TestB(t *T) {}\nfunc FuzzA(f *F) {}\nfunc TestMain(m *M) {}\nfunc helper() {}\nfunc (x X) TestC() {}\n"), 0o644))
	names, err := TestNames(dir)
	require.NoError(t, err)
	require.Equal(t, []string{"FuzzA", "TestB"}, names)
}
