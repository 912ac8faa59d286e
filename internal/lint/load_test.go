// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// optionalAttributes finds what PartialContent does, native syntax and
// JSON alike.
func TestOptionalAttributes(t *testing.T) {
	native, diags := hclsyntax.ParseConfig([]byte("variable \"a\" {\n  type = number\n  description = \"x\"\n}\nvariable \"b\" {}\n"), "v.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	json, diags := hcljson.Parse([]byte(`{"variable": {"a": {"type": "number", "description": "x"}, "b": {}}}`), "v.tf.json")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, f := range []*hcl.File{native, json} {
		content, _, _ := f.Body.PartialContent(fileSchema)
		for _, b := range content.Blocks {
			want, _, _ := b.Body.PartialContent(variableSchema)
			got := optionalAttributes(b.Body, variableSchema, nil)
			if len(got) != len(want.Attributes) {
				t.Errorf("%s %s: %d attributes, want %d", b.DefRange.Filename, b.Labels[0], len(got), len(want.Attributes))
			}
			for name, a := range want.Attributes {
				if g := got[name]; g == nil || g.Expr.Range() != a.Expr.Range() || g.Range != a.Range {
					t.Errorf("%s %s: attribute %s %+v, want %+v", b.DefRange.Filename, b.Labels[0], name, g, a)
				}
			}
		}
	}
}

// A directory's files parsed by spare helpers come back in name order,
// each with its own diagnostics, with no helper, one or more helpers than
// files; and the modules a call reads ahead are the ones its load reads.
func TestParseFilesInParallel(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.tf": "variable \"a\" {}\n",
		"b.tf": "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n}\n",
		"c.tf": "resource \"aws_sqs_queue\" \"broken\" {\n  name = \n}\n",
		"d.tf": "locals {\n  d = 1\n}\n",
		"e.tf": "module \"m1\" {\n  source = \"./m1\"\n}\nmodule \"m2\" {\n  source = \"./m2\"\n}\nmodule \"m3\" {\n  source = \"./m3\"\n}\n",
	}
	for _, m := range []string{"m1", "m2", "m3"} {
		files[m+"/main.tf"] = "output \"o\" {\n  value = \"" + m + "\"\n}\n"
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := configFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, spare := range []int{0, 1, 8} {
		l := newLoader(dirBoundary(dir))
		if spare > 0 {
			l.startSpare(spare)
		}
		got := l.parseFiles(paths)
		for i, pf := range got {
			if pf.path != paths[i] {
				t.Fatalf("spare %d: file %d is %s, want %s", spare, i, pf.path, paths[i])
			}
			if broken := filepath.Base(pf.path) == "c.tf"; pf.diags.HasErrors() != broken {
				t.Errorf("spare %d: %s has errors %v, want %v: %v", spare, pf.path, pf.diags.HasErrors(), broken, pf.diags)
			}
		}
		mod, err := l.loadModule(dir, dir, "", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(mod.Variables) != 1 || len(mod.Locals) != 1 || len(mod.Resources) != 2 || len(mod.Calls) != 3 {
			// The broken file's resource is kept, as HCL recovers it.
			t.Errorf("spare %d: %d variables, %d locals, %d resources, %d calls; want 1, 1, 2 and 3", spare,
				len(mod.Variables), len(mod.Locals), len(mod.Resources), len(mod.Calls))
		}
		for _, c := range mod.Calls {
			if c.Child == nil || len(c.Child.Outputs) != 1 {
				t.Errorf("spare %d: module %s not read: %+v", spare, c.Name, c.Child)
			}
		}
		if len(l.errs) != 1 || l.errs[0].Subject.Filename != filepath.Join(dir, "c.tf") {
			t.Errorf("spare %d: errors %v, want the one in c.tf", spare, l.errs)
		}
		// Every helper is idle again once the load is done: each takes one
		// of as many tasks as there are helpers.
		release := make(chan struct{})
		taken := 0
		for range spare {
			deadline := time.Now().Add(5 * time.Second)
			for !l.spare.try(func() { <-release }) {
				if time.Now().After(deadline) {
					t.Fatalf("spare %d: only %d helpers idle after the load", spare, taken)
				}
				time.Sleep(time.Millisecond) // a helper may still be returning from its last task
			}
			taken++
		}
		close(release)
		l.stopSpare() // returns once every helper has finished
	}
}

// TestReadAll checks that readAll returns a file's bytes in one buffer of
// its size plus one, growing only for a file larger than its size said,
// and reads no more than the limit and one byte.
func TestReadAll(t *testing.T) {
	src := bytes.Repeat([]byte("resource \"aws_sqs_queue\" \"q\" {}\n"), 300) // 10 KB, well past 512
	for _, tc := range []struct {
		name        string
		size, limit int64
		want        int
		wantAllocs  float64
	}{
		{"size as stated", int64(len(src)), 1 << 20, len(src), 1},
		{"empty file", 0, 1 << 20, 0, 1},
		{"grown since stat", 100, 1 << 20, len(src), -1},
		{"past the limit", int64(len(src)), 1000, 1001, -1},
		{"size past the limit", 1 << 30, 1000, 1001, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := src
			if tc.size == 0 {
				in = nil
			}
			got, err := readAll(nil, bytes.NewReader(in), tc.size, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want || !bytes.Equal(got, in[:tc.want]) {
				t.Errorf("read %d bytes, want the first %d", len(got), tc.want)
			}
			if tc.wantAllocs < 0 {
				return
			}
			if c := cap(got); int64(c) > tc.size+1+8 { // a size class may round up a little
				t.Errorf("buffer capacity %d for a file of %d bytes", c, tc.size)
			}
			allocs := testing.AllocsPerRun(20, func() {
				r := bytes.NewReader(in)
				if _, err := readAll(nil, r, tc.size, tc.limit); err != nil {
					t.Fatal(err)
				}
			})
			// The reader and the LimitReader may escape too; the buffer
			// must be allocated once.
			if allocs > tc.wantAllocs+2 {
				t.Errorf("%v allocations per read, want at most %v", allocs, tc.wantAllocs+2)
			}
		})
	}
}
