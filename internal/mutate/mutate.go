// Package mutate is a small mutation tester for the protocols' transition
// functions, built on go/ast. Package reads one protocol package and makes
// mutants of the functions its Step, Init, Inputs, Recover and TimerReady
// reach (flipped comparisons, negated conditions, && and || swapped,
// dropped sends, timers and assignments, ++ and -- swapped, off-by-one
// integer literals, swapped if/else branches and adjacent switch cases).
//
// The command in ./cmd/mutate applies each mutant with `go test -overlay`
// (the mutated file is written to a temporary directory, so the tree is
// never modified) and runs, with vet off and -failfast, first the protocol
// package's own tests, then, if they all pass, the registry's tests of the
// protocols (package protocols: costs against the notes, entries, liveness
// verdicts). A mutant that fails to compile is discarded; one that fails a
// test is caught; one that outlives -timeout is caught and counted apart as
// a timeout (an unbounded state space, usually). It prints a Markdown table
// of the catch rate per protocol and lists the survivors.
//
// The command is slow (one compilation and link per mutant, seconds each)
// and is not part of `go test ./...`. Run it from the module root:
//
//	go run ./internal/mutate/cmd/mutate -log /tmp/mutants.jsonl            # every protocol, 60 mutants each at most
//	go run ./internal/mutate/cmd/mutate -pkg centralized,bully -max 20     # some of them, 20 mutants each
//	go run ./internal/mutate/cmd/mutate -list -pkg lamport                 # the mutants only
//	go run ./internal/mutate/cmd/mutate -rerun /tmp/mutants.jsonl -log /tmp/mutants.jsonl
//	                                       # after adding tests: run again only the survivors
//	go run ./internal/mutate/cmd/mutate -pkg bully -only guard.go:56:11   # one mutant
//
// Mutants known to be equivalent (no test can tell them from the original:
// the difference is unreachable or changes nothing observable) are listed,
// with a one-line reason each, in testdata/equivalent.txt; they are run like
// the others but counted apart. The catch rate is caught / (compiled -
// equivalent).
//
// Generation is deterministic: the same source gives the same mutants in the
// same order, and a package with more than -max mutants is sampled with the
// fixed -seed, a smaller -max choosing a subset of a larger one's.
package mutate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Mutant is one mutation of one file of a package.
type Mutant struct {
	File string // the mutated file, as given to Generate
	Line int    // the line of the mutated code in the original file
	Col  int    // its column
	Func string // the function it is in
	Op   string // the operator: "boundary", "negate-cmp", ...
	Desc string // what changed, e.g. "< -> <="
	Src  []byte // the whole mutated file, gofmt-printed, without comments
}

// Key names the mutant in testdata/equivalent.txt: "file:line:col op desc".
func (m Mutant) Key() string {
	return fmt.Sprintf("%s:%d:%d %s %s", filepath.ToSlash(m.File), m.Line, m.Col, m.Op, m.Desc)
}

// Roots are the functions whose code, and the code of the package's
// functions they call, is mutated: the transition relation of a protocol.
var Roots = []string{"Init", "Step", "Inputs", "Recover", "TimerReady"}

// The operators.
const (
	OpBoundary   = "boundary"    // < <-> <=, > <-> >=
	OpNegateCmp  = "negate-cmp"  // < -> >=, == -> !=, ...
	OpNegateCond = "negate-cond" // if c -> if !(c), for a c that is not a comparison
	OpAndOr      = "and-or"      // && <-> ||
	OpDropSend   = "drop-send"   // out.Send(...) removed
	OpDropEffect = "drop-effect" // out.SetTimer/CancelTimer/Output(...) removed
	OpDropAssign = "drop-assign" // x = e, x op= e, x++ removed
	OpIncDec     = "incdec"      // x++ <-> x--
	OpLiteral    = "literal"     // an integer literal k -> k+1 and k-1
	OpSwapIfElse = "swap-if"     // if c {A} else {B} -> if c {B} else {A}
	OpSwapCases  = "swap-cases"  // the bodies of two adjacent switch cases swapped
)

// site is one possible mutation: apply changes the tree in place, undo
// restores it.
type site struct {
	pos         token.Pos
	fn          string
	op, desc    string
	apply, undo func()
}

// Package parses the non-test Go files of dir and returns the mutants of
// the functions reachable from Roots, file by file in name order, each
// file's in source order.
func Package(dir string) ([]Mutant, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	var files []*ast.File
	var paths []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		paths = append(paths, name)
	}
	reach := reachable(files, Roots)
	var all []Mutant
	for i, f := range files {
		ms, err := mutants(fset, paths[i], f, reach)
		if err != nil {
			return nil, err
		}
		all = append(all, ms...)
	}
	return all, nil
}

// File returns the mutants of the functions of one file's source whose names
// are in funcs (every function if funcs is nil). The file name is only used
// to name the mutants.
func File(name string, src []byte, funcs []string) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var reach map[string]bool
	if funcs != nil {
		reach = map[string]bool{}
		for _, fn := range funcs {
			reach[fn] = true
		}
	}
	return mutants(fset, name, f, reach)
}

// Sample returns at most max of ms, chosen with a fixed seed, in their
// original order; all of them if max <= 0 or there are no more.
func Sample(ms []Mutant, max int, seed uint64) []Mutant {
	if max <= 0 || len(ms) <= max {
		return ms
	}
	idx := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Perm(len(ms))[:max]
	slices.Sort(idx)
	out := make([]Mutant, len(idx))
	for i, j := range idx {
		out[i] = ms[j]
	}
	return out
}

// reachable is the set of the names of the functions and methods of files
// that roots call, directly or through each other. Calls are matched by
// name only, so a method is reached when any method of that name is called:
// a safe over-approximation.
func reachable(files []*ast.File, roots []string) map[string]bool {
	decls := map[string][]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls[fd.Name.Name] = append(decls[fd.Name.Name], fd)
			}
		}
	}
	seen := map[string]bool{}
	work := slices.Clone(roots)
	for len(work) > 0 {
		name := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[name] || decls[name] == nil {
			continue
		}
		seen[name] = true
		for _, fd := range decls[name] {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.Ident:
					// A call, or a function passed as a value.
					if decls[x.Name] != nil {
						work = append(work, x.Name)
					}
				}
				return true
			})
		}
	}
	return seen
}

// mutants prints one mutant per site of the functions of f in reach (all if
// reach is nil).
func mutants(fset *token.FileSet, name string, f *ast.File, reach map[string]bool) ([]Mutant, error) {
	f.Comments = nil // comments would move with the swapped code
	var sites []site
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || (reach != nil && !reach[fd.Name.Name]) {
			continue
		}
		sites = append(sites, funcSites(fd)...)
	}
	sort.SliceStable(sites, func(i, j int) bool { return sites[i].pos < sites[j].pos })
	var out []Mutant
	for _, s := range sites {
		s.apply()
		var buf bytes.Buffer
		err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&buf, fset, f)
		s.undo()
		if err != nil {
			return nil, fmt.Errorf("%s: printing a mutant: %v", name, err)
		}
		p := fset.Position(s.pos)
		out = append(out, Mutant{File: name, Line: p.Line, Col: p.Column, Func: s.fn, Op: s.op, Desc: s.desc, Src: buf.Bytes()})
	}
	return out, nil
}

var negated = map[token.Token]token.Token{
	token.LSS: token.GEQ, token.LEQ: token.GTR, token.GTR: token.LEQ, token.GEQ: token.LSS,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
}

var boundary = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR,
}

// funcSites lists the mutation sites of one function.
func funcSites(fd *ast.FuncDecl) []site {
	fn := fd.Name.Name
	var sites []site
	add := func(pos token.Pos, op, desc string, apply, undo func()) {
		sites = append(sites, site{pos, fn, op, desc, apply, undo})
	}
	// Conditions that negate-cond wraps: those of if and for statements
	// that are not comparisons (negate-cmp covers those).
	negCond := func(pos token.Pos, cond *ast.Expr) {
		if cond == nil || *cond == nil {
			return
		}
		if b, ok := (*cond).(*ast.BinaryExpr); ok && negated[b.Op] != 0 {
			return
		}
		old := *cond
		add(old.Pos(), OpNegateCond, "c -> !(c)", func() {
			*cond = &ast.UnaryExpr{Op: token.NOT, X: &ast.ParenExpr{X: old}}
		}, func() { *cond = old })
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			op := x.Op
			if b, ok := boundary[op]; ok {
				add(x.OpPos, OpBoundary, op.String()+" -> "+b.String(), func() { x.Op = b }, func() { x.Op = op })
			}
			if ng, ok := negated[op]; ok {
				add(x.OpPos, OpNegateCmp, op.String()+" -> "+ng.String(), func() { x.Op = ng }, func() { x.Op = op })
			}
			if op == token.LAND || op == token.LOR {
				other := token.LOR
				if op == token.LOR {
					other = token.LAND
				}
				add(x.OpPos, OpAndOr, op.String()+" -> "+other.String(), func() { x.Op = other }, func() { x.Op = op })
			}
		case *ast.BasicLit:
			if x.Kind != token.INT {
				break
			}
			v, err := strconv.ParseInt(x.Value, 0, 64)
			if err != nil {
				break
			}
			old := x.Value
			for _, d := range []int64{+1, -1} {
				nv := strconv.FormatInt(v+d, 10)
				add(x.ValuePos, OpLiteral, old+" -> "+nv, func() { x.Value = nv }, func() { x.Value = old })
			}
		case *ast.IncDecStmt:
			tok := x.Tok
			other := token.DEC
			if tok == token.DEC {
				other = token.INC
			}
			add(x.TokPos, OpIncDec, tok.String()+" -> "+other.String(), func() { x.Tok = other }, func() { x.Tok = tok })
		case *ast.IfStmt:
			negCond(x.If, &x.Cond)
			if els, ok := x.Else.(*ast.BlockStmt); ok {
				body := x.Body
				add(x.If, OpSwapIfElse, "then <-> else", func() { x.Body, x.Else = els, body }, func() { x.Body, x.Else = body, els })
			}
		case *ast.ForStmt:
			negCond(x.For, &x.Cond)
		case *ast.BlockStmt:
			sites = append(sites, dropSites(fn, &x.List)...)
		case *ast.CaseClause:
			sites = append(sites, dropSites(fn, &x.Body)...)
		case *ast.SwitchStmt:
			sites = append(sites, swapCaseSites(fn, x.Body)...)
		case *ast.TypeSwitchStmt:
			sites = append(sites, swapCaseSites(fn, x.Body)...)
		}
		return true
	})
	return sites
}

// dropSites lists the statements of a list that can be dropped: sends and
// other effects on the Out, and assignments (not definitions).
func dropSites(fn string, list *[]ast.Stmt) []site {
	var sites []site
	for i, st := range *list {
		op, desc := "", ""
		switch x := st.(type) {
		case *ast.ExprStmt:
			call, ok := x.X.(*ast.CallExpr)
			if !ok {
				continue
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			switch sel.Sel.Name {
			case "Send":
				op = OpDropSend
			case "SetTimer", "CancelTimer", "Output":
				op = OpDropEffect
			default:
				continue
			}
			desc = exprString(sel) + "(...) removed"
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				continue
			}
			op = OpDropAssign
			lhs := make([]string, len(x.Lhs))
			for j, e := range x.Lhs {
				lhs[j] = exprString(e)
			}
			desc = strings.Join(lhs, ", ") + " " + x.Tok.String() + " ... removed"
		case *ast.IncDecStmt:
			op = OpDropAssign
			desc = exprString(x.X) + x.Tok.String() + " removed"
		default:
			continue
		}
		old := *list
		dropped := slices.Concat(old[:i:i], old[i+1:])
		sites = append(sites, site{st.Pos(), fn, op, desc, func() { *list = dropped }, func() { *list = old }})
	}
	return sites
}

// swapCaseSites swaps the bodies of each two adjacent cases of a switch,
// when they differ.
func swapCaseSites(fn string, body *ast.BlockStmt) []site {
	var sites []site
	for i := 0; i+1 < len(body.List); i++ {
		a, ok1 := body.List[i].(*ast.CaseClause)
		b, ok2 := body.List[i+1].(*ast.CaseClause)
		if !ok1 || !ok2 || (len(a.Body) == 0 && len(b.Body) == 0) {
			continue
		}
		ab, bb := a.Body, b.Body
		sites = append(sites, site{a.Case, fn, OpSwapCases, fmt.Sprintf("case %d <-> case %d bodies", i+1, i+2),
			func() { a.Body, b.Body = bb, ab }, func() { a.Body, b.Body = ab, bb }})
	}
	return sites
}

// exprString prints an expression on one line.
func exprString(e ast.Expr) string {
	var buf bytes.Buffer
	_ = printer.Fprint(&buf, token.NewFileSet(), e)
	return strings.Join(strings.Fields(buf.String()), " ")
}

// TestNames lists, sorted, the Test and Fuzz functions of the test files of
// dir: what `go test` runs there.
func TestNames(dir string) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	var tests []string
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			if n := fd.Name.Name; strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Fuzz") {
				if n != "TestMain" {
					tests = append(tests, n)
				}
			}
		}
	}
	sort.Strings(tests)
	return tests, nil
}
