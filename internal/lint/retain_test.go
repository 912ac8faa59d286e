// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestLocalLiterals(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`module "a" { source = "./a" }`, []string{"./a"}},
		{`module "a" { source = "../b/c" }` + "\n" + `module "d" { source = "../" }`, []string{"../b/c", "../"}},
		{`{"module": {"x": {"source": "./x"}}}`, []string{"./x"}},
		{`source = "git::./x"`, nil},
		{`source = "terraform-aws-modules/sqs/aws"`, nil},
		{`a = ".hidden"` + "\n" + `b = "./unterminated` + "\n" + `c = "./c"`, []string{"./c"}},
		{`source = "./${var.x}"`, []string{"./${var.x}"}},
		{`".`, nil},
		{``, nil},
	} {
		if got := localLiterals([]byte(tt.src)); !slices.Equal(got, tt.want) {
			t.Errorf("localLiterals(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// retentionTree is three roots: a and b call shared/m (which calls its
// own ./n), c has an installed remote module, and d calls its ./m
// through a source the prediction cannot read.
func retentionTree(t *testing.T) (dir string, roots []string) {
	dir = t.TempDir()
	WriteFiles(t, dir, map[string]string{
		"a/main.tf":                         "module \"m\" {\n  source = \"../shared/m\"\n}\nlocals {\n  script = file(\"./run.sh\")\n}\n",
		"a/run.sh":                          "true\n",
		"b/main.tf.json":                    `{"module": {"x": {"source": "../shared/m"}}}`,
		"shared/m/main.tf":                  "module \"n\" {\n  source = \"./n\"\n}\n",
		"shared/m/n/main.tf":                "resource \"aws_sqs_queue\" \"q\" {}\n",
		"c/main.tf":                         "module \"r\" {\n  source = \"example/r/aws\"\n}\n",
		"c/.terraform/modules/modules.json": `{"Modules": [{"Key": "", "Dir": "."}, {"Key": "r", "Dir": ".terraform/modules/r"}]}`,
		"c/.terraform/modules/r/main.tf":    "resource \"aws_sqs_queue\" \"r\" {}\n",
		"d/main.tf":                         "module \"m\" {\n  source = \"./${\"m\"}\"\n}\n",
		"d/m/main.tf":                       "resource \"aws_sqs_queue\" \"d\" {}\n",
	})
	for _, r := range []string{"a", "b", "c", "d"} {
		roots = append(roots, filepath.Join(dir, r))
	}
	return dir, roots
}

func TestPredictReads(t *testing.T) {
	dir, roots := retentionTree(t)
	p := func(rel ...string) []string {
		var out []string
		for _, r := range rel {
			out = append(out, filepath.Join(dir, filepath.FromSlash(r)))
		}
		return out
	}
	l := newLoader(dirBoundary(dir))
	reads := l.predictReads(roots)
	want := [][]string{
		p("a", "shared/m", "shared/m/n"),
		p("b", "shared/m", "shared/m/n"),
		p("c", "c/.terraform/modules/r"), // the manifest's root entry, ".", is c itself
		p("d"),
	}
	if !reflect.DeepEqual(reads, want) {
		t.Errorf("predicted reads\n%q\nwant\n%q", reads, want)
	}
	refs := map[string]int{}
	for _, d := range p("a", "b", "c", "d", "c/.terraform/modules/r") {
		refs[d] = 1
	}
	for _, d := range p("shared/m", "shared/m/n") {
		refs[d] = 2
	}
	if !reflect.DeepEqual(l.retention.refs, refs) {
		t.Errorf("refs %v, want %v", l.retention.refs, refs)
	}
}

// A module directory is dropped from the cache once the last root module
// predicted to read it is done, and one the prediction missed is read for
// the root that needs it without being cached.
func TestRetentionReleases(t *testing.T) {
	dir, roots := retentionTree(t)
	l := newLoader(dirBoundary(dir))
	reads := l.predictReads(roots)
	cached := func(rel string) bool {
		_, ok := l.modules.Load(filepath.Join(dir, filepath.FromSlash(rel)))
		return ok
	}
	opts := Options{Config: &Config{}}
	if b, _ := buildRoot(l, roots[0], opts, nil); b == nil {
		t.Fatal("root a not built")
	}
	if !cached("shared/m") || !cached("shared/m/n") || !cached("a") {
		t.Error("a's modules not cached while a runs")
	}
	l.release(reads[0])
	if cached("a") || !cached("shared/m") || !cached("shared/m/n") {
		t.Error("after a: want a dropped, shared/m and shared/m/n kept for b")
	}
	b, _ := buildRoot(l, roots[1], opts, nil)
	if b == nil || len(b.model.Queues) != 1 || b.model.Queues[0].Addr != "module.x.module.n.aws_sqs_queue.q" {
		t.Fatalf("root b: want the queue of shared/m/n, got %+v", b)
	}
	l.release(reads[1])
	if cached("shared/m") || cached("shared/m/n") || cached("b") {
		t.Error("after b: shared/m and shared/m/n still cached")
	}
	// d's ./m is named by a template: not predicted, read, not cached.
	d, _ := buildRoot(l, roots[3], opts, nil)
	if d == nil || len(d.model.Queues) != 1 || d.model.Queues[0].Addr != "module.m.aws_sqs_queue.d" {
		t.Fatalf("root d: want the queue of d/m, got %+v", d)
	}
	if cached("d/m") {
		t.Error("d/m, which no root was predicted to read, is cached")
	}
	l.release(reads[3])
	l.release(reads[2])
	n := 0
	l.modules.Range(func(any, any) bool { n++; return true })
	if n != 0 || len(l.retention.refs) != 0 {
		t.Errorf("after every root: %d modules cached, refs %v", n, l.retention.refs)
	}
}

// The run-long source cache keeps only files that may hold ignore
// comments; a module's own files stay with its declarations.
func TestSourceCacheKeepsIgnoreFiles(t *testing.T) {
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{
		"plain.tf":   "resource \"aws_sqs_queue\" \"q\" {}\n",
		"ignored.tf": "# queuecap-ignore: all\nresource \"aws_sqs_queue\" \"r\" {}\n",
	})
	l := newLoader(dirBoundary(dir))
	m, err := l.moduleDecl(dir)
	if err != nil {
		t.Fatal(err)
	}
	plain, ignored := filepath.Join(dir, "plain.tf"), filepath.Join(dir, "ignored.tf")
	if l.sources.lookup(plain) != nil || l.sources.lookup(ignored) == nil {
		t.Errorf("source cache: plain.tf %v, ignored.tf %v; want only ignored.tf", l.sources.lookup(plain) != nil, l.sources.lookup(ignored) != nil)
	}
	if m.source(plain) == nil || m.source(ignored) == nil {
		t.Error("the module does not hold its files' sources")
	}
}

// walkRoots, which reads each directory once, finds the root modules a
// filepath.WalkDir walk does, and lists each one's files as configFiles.
func TestWalkRootsAsWalkDir(t *testing.T) {
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{
		"a/main.tf":                      "",
		"a/b/x.tf.json":                  "{}",
		"a/b/x.tofu.json":                "{}",
		"a/.hidden/main.tf":              "",
		"a/.terraform/modules/m/main.tf": "",
		"c/readme.md":                    "",
		"c/d/e/main.tofu":                "",
		"f/override.tf":                  "",
		"f/main.tf":                      "",
	})
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "c", "link")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(dir, "c"), filepath.Join(dir, "c", "d", "loop")); err != nil {
		t.Fatal(err)
	}
	linkedTop := filepath.Join(t.TempDir(), "top")
	if err := os.Symlink(dir, linkedTop); err != nil {
		t.Fatal(err)
	}
	// The walk as it was, with filepath.WalkDir.
	walkDir := func(top string) (dirs []string, errs []string) {
		_ = filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, path)
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.IsDir() {
				return nil
			}
			if path != top && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			if files, _ := configFiles(path); len(files) > 0 {
				dirs = append(dirs, path)
			}
			return nil
		})
		slices.Sort(dirs)
		return dirs, errs
	}
	for _, top := range []string{dir, filepath.Join(dir, "a"), filepath.Join(dir, "a", "main.tf"), filepath.Join(dir, "missing"), dir + "/./c/../", linkedTop} {
		want, wantErrs := walkDir(top)
		var errs []string
		listed := map[string][]string{}
		got := walkRoots(top, nil, func(path string, _ error) { errs = append(errs, path) }, func(d string, files []string) { listed[d] = files }, nil)
		if !slices.Equal(got, want) || !slices.Equal(errs, wantErrs) {
			t.Errorf("walkRoots(%s) = %q, errors at %q; want %q, errors at %q", top, got, errs, want, wantErrs)
		}
		for _, d := range got {
			if files, _ := configFiles(d); !slices.Equal(listed[d], files) {
				t.Errorf("walkRoots(%s) listed %q for %s, want %q", top, listed[d], d, files)
			}
		}
	}
}
