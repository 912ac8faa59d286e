// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

//go:build unix

package lint_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
)

// treeNames are the paths a fuzzed tree puts things at: every kind of
// file the linter reads, a module directory and a nested root.
var treeNames = []string{
	"main.tf", "b.tf.json", "c.tofu", "terraform.tfvars", "terraform.tfvars.json", "a.auto.tfvars",
	".queuecap.hcl", ".terraform/modules/modules.json", ".terraform/environment",
	"m/main.tf", "m", "sub/main.tf", "sub/.queuecap.hcl", "terragrunt/terragrunt.hcl",
}

// treeSecret is in a file beside the repository and in the process's
// environment (/proc/self/environ): no output may show it.
const treeSecret = "queuecap-fuzz-secret-7f3a"

// treeTargets are what a fuzzed link points at, OUTSIDE standing for the
// directory beside the repository and REPO for the repository.
var treeTargets = []string{
	"OUTSIDE/secret.tf", "OUTSIDE", "OUTSIDE/mod", "/proc/self/environ", "/dev/zero", "/etc/passwd",
	"REPO/main.tf", "REPO/m", "REPO", "main.tf", "../main.tf", "m", "absent.tf", "loop",
}

// FuzzLintTree lints a repository built from the input, operation by
// operation (buildTree): files of the names the linter reads, of any
// content and of a size past the cap, links inside the repository and
// out of it, named pipes. The run must end, and its output, in every
// format, must show nothing that lies outside the repository.
func FuzzLintTree(f *testing.F) {
	f.Add([]byte("\x00\x00\x20module \"m\" {\n  source = \"./m\"\n}\n\x01\x0a\x01"))
	f.Add([]byte("\x01\x00\x00\x01\x03\x03\x01\x05\x04\x02\x06\x00"))
	f.Add([]byte("\x00\x07\x60{\"Modules\":[{\"Key\":\"m\",\"Source\":\"x/y/aws\",\"Dir\":\"OUTSIDE/mod\"}]}\x00\x00\x30module \"m\" {\n  source = \"x/y/aws\"\n}\n"))
	f.Add([]byte("\x03\x00\x00\x01\x04\x00\x02\x05\x00\x01\x0b\x01\x00\x09\x10x = file(\"../m\")\n"))
	f.Add([]byte("\x01\x0a\x02\x01\x0b\x0d\x00\x0b\x10locals {\n  a = 1\n}\n\x01\x0c\x07"))
	if err := os.Setenv("QUEUECAP_FUZZ_SECRET", treeSecret); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		top := t.TempDir()
		repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "outside")
		writeFiles(t, outside, map[string]string{
			"secret.tf":   "locals {\n  token = \"" + treeSecret + "\n}\n",
			"mod/main.tf": "locals {\n  token = \"" + treeSecret + "\n}\n",
		})
		writeFiles(t, repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
		buildTree(t, repo, outside, ops)

		done := make(chan *lint.Result, 1)
		go func() {
			done <- lintDir(t, lint.Options{Dirs: []string{repo}, Recursive: len(ops) > 0 && ops[0]&0x80 != 0})
		}()
		var res *lint.Result
		select {
		case res = <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the run did not end")
		}
		for _, name := range formatter.Names() {
			var out bytes.Buffer
			if err := formatter.Write(&out, name, res, formatter.Options{ShowSkipped: true, NoColor: true}); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(out.Bytes(), []byte(treeSecret)) {
				t.Fatalf("the %s output shows what lies outside the repository:\n%s", name, out.Bytes())
			}
		}
	})
}

// buildTree carries out ops in repo: each operation is a byte for its
// kind, one for its name (treeNames) and one for its argument, then, for
// a file, as many bytes of content as the argument says.
func buildTree(t *testing.T, repo, outside string, ops []byte) {
	t.Helper()
	for len(ops) >= 3 {
		kind, name, arg := ops[0]%5, treeNames[int(ops[1])%len(treeNames)], int(ops[2])
		ops = ops[3:]
		p := filepath.Join(repo, filepath.FromSlash(name))
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
			continue // a file or link already stands where its directory would
		}
		if _, err := os.Lstat(p); err == nil {
			continue // the first operation on a name stands
		}
		var err error
		switch kind {
		case 0: // a file
			n := min(arg, len(ops))
			content := strings.ReplaceAll(string(ops[:n]), "OUTSIDE", outside)
			ops = ops[n:]
			err = os.WriteFile(p, []byte(content), 0o644)
		case 1: // a link
			target := treeTargets[arg%len(treeTargets)]
			target = strings.Replace(strings.Replace(target, "OUTSIDE", outside, 1), "REPO", repo, 1)
			if target == "loop" {
				target = filepath.Base(p)
			}
			err = os.Symlink(target, p)
		case 2: // a named pipe
			err = syscall.Mkfifo(p, 0o644)
		case 3: // a file past the cap, sparse: nothing to write
			var file *os.File
			if file, err = os.Create(p); err == nil {
				err = file.Truncate(16<<20 + int64(arg) + 1)
				file.Close()
			}
		case 4: // a directory
			err = os.Mkdir(p, 0o755)
		}
		if err != nil {
			t.Skip("cannot make the tree here:", err)
		}
	}
}
