// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The files of package lint by part (docs/development.md). The front ends
// hand the builder resourceInstances through intake (resource.go); the
// builder and linker read those and nothing of either front end.
var (
	frontEnds = []string{"hclfront.go", "plan.go"}
	builder   = []string{"build.go", "link.go", "iam.go", "pipes.go", "sns.go", "unlinked.go", "policy.go"}
)

// TestFrontEndWalls holds the front ends apart with the type checker: a
// front end uses nothing declared in the other front end nor in the
// builder (it sees the builder only as intake), and the builder uses
// nothing declared in a front end and no field or method of the HCL
// evaluator's module instance, which only the stream's arguments
// (resource.go) evaluate.
func TestFrontEndWalls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	fset, files, info := typeCheckLint(t)
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	seen := map[string]bool{}
	report := func(at token.Pos, format string, args ...any) {
		msg := fset.Position(at).String() + ": " + format
		if !seen[msg] {
			seen[msg] = true
			t.Errorf(msg, args...)
		}
	}
	for id, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Pkg().Path() != module+"internal/lint" || !obj.Pos().IsValid() {
			continue
		}
		from, to := fileOf(id.Pos()), fileOf(obj.Pos())
		if from == to {
			continue
		}
		switch {
		case slices.Contains(frontEnds, from) && slices.Contains(frontEnds, to):
			report(id.Pos(), "front end %s uses %s of front end %s", from, obj.Name(), to)
		case slices.Contains(frontEnds, from) && slices.Contains(builder, to):
			report(id.Pos(), "front end %s uses %s of the builder's %s; it hands the builder what it reads through intake alone", from, obj.Name(), to)
		case slices.Contains(builder, from) && slices.Contains(frontEnds, to):
			report(id.Pos(), "the builder's %s uses %s of front end %s", from, obj.Name(), to)
		}
	}
	for expr, sel := range info.Selections {
		from := fileOf(expr.Pos())
		if !slices.Contains(builder, from) {
			continue
		}
		recv := sel.Recv()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		if n, ok := recv.(*types.Named); ok && n.Obj().Name() == "instance" {
			report(expr.Pos(), "the builder's %s reads %s of a module instance: a front end's, through resourceInstance", from, sel.Obj().Name())
		}
	}
	if len(files) == 0 || len(info.Uses) == 0 {
		t.Fatal("nothing was type-checked")
	}
}

// typeCheckLint type-checks package lint's own files with the export data
// of what it imports, as `go list -export` builds it.
func typeCheckLint(t *testing.T) (*token.FileSet, []*ast.File, *types.Info) {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), " "); ok && file != "" {
			exports[path] = file
		}
	}
	// The files go build compiles here (boundary_unix.go or
	// boundary_other.go).
	names, err := exec.Command("go", "list", "-f", "{{join .GoFiles \" \"}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range strings.Fields(string(names)) {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check(module+"internal/lint", fset, files, info); err != nil {
		t.Fatalf("type-checking package lint: %v", err)
	}
	return fset, files, info
}
