// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"bufio"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// checkErrors asserts every error names a file and a position in it, and
// returns the errors' text.
func checkErrors(t *testing.T, res *lint.Result) string {
	t.Helper()
	var b strings.Builder
	for _, e := range res.Errors {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

// goodTF has one finding, so a test can tell the run went on.
var goodTF = slaAlarm("", "")

func TestRobustness(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randomBytes := make([]byte, 4096)
	rng.Read(randomBytes)
	printable := make([]byte, 4096)
	for i := range printable {
		printable[i] = "{}[]()\"=#/*<>$%~\n ab1.,:?"[rng.Intn(25)]
	}
	deep := func(opening, closing string, n int, inner string) string {
		return strings.Repeat(opening, n) + inner + strings.Repeat(closing, n)
	}
	cases := []struct {
		name  string
		files map[string]string
		// wantErr is in the text of the errors ("" for none); errFile
		// is the file every error must name.
		wantErr, errFile string
	}{
		{name: "random bytes", files: map[string]string{"random.tf": string(randomBytes)}, wantErr: "random.tf:1:1: Binary file: it holds a NUL byte", errFile: "random.tf"},
		{name: "random printable text", files: map[string]string{"random.tf": string(printable)}, wantErr: "random.tf:", errFile: "random.tf"},
		{name: "non-UTF-8 in a string", files: map[string]string{"latin1.tf": "resource \"aws_sqs_queue\" \"a\" {\n  name = \"caf\xe9\"\n}\n"},
			wantErr: "latin1.tf:2:14: Invalid UTF-8: configuration files must be UTF-8 encoded", errFile: "latin1.tf"},
		{name: "a byte order mark and NUL bytes", files: map[string]string{"bom.tf": "\ufeffresource \"aws_sqs_queue\" \"a\" {\x00}\n"}, wantErr: "bom.tf:", errFile: "bom.tf"},
		{name: "990 nested brackets", files: map[string]string{"deep.tf": "locals {\n  x = " + deep("[", "]", 990, "1") + "\n}\n"}},
		{name: "990 nested objects read by a rule", files: map[string]string{"deep.tf": `resource "aws_sqs_queue" "a" {
  tags = local.deep
}
locals {
  deep = ` + deep("{ a = ", " }", 990, "1") + `
}
`}},
		{name: "990 nested parentheses in a size", files: map[string]string{"deep.tf": `resource "aws_autoscaling_group" "a" {
  max_size = ` + deep("(", ")", 990, "25") + `
}
`}},
		{name: "10000 unclosed brackets", files: map[string]string{"deep.tf": "locals {\n  x = " + strings.Repeat("[", 10000) + "\n}\n"}, wantErr: "deep.tf:", errFile: "deep.tf"},
		{name: "a .tf.json that is not JSON", files: map[string]string{"main.tf.json": "resource \"aws_sqs_queue\" \"a\" {}\n"}, wantErr: "main.tf.json:1:1: Invalid JSON keyword", errFile: "main.tf.json"},
		{name: "a .tf.json that is JSON but not configuration", files: map[string]string{"main.tf.json": `[1, 2, 3]`}, wantErr: "main.tf.json:1:2: Incorrect JSON value type", errFile: "main.tf.json"},
		{name: "a .tf.json with a wrong shape", files: map[string]string{"main.tf.json": `{"resource": {"aws_sqs_queue": [1, "x", null]}}`}, wantErr: "main.tf.json:", errFile: "main.tf.json"},
		{name: "an empty file and a comment-only file", files: map[string]string{"empty.tf": "", "comments.tf": "# nothing here\n// nor here\n"}},
		{name: "a directory named like a file", files: map[string]string{"dir.tf/main.tf": goodTF}},
		{name: "tfvars that do not parse", files: map[string]string{"terraform.tfvars": "x = [\n", "vars.tf": "variable \"x\" {}\n"}, wantErr: "terraform.tfvars:", errFile: "terraform.tfvars"},
		{name: "tfvars that reference things", files: map[string]string{"terraform.tfvars": "x = var.y\n", "vars.tf": "variable \"x\" {}\n"}, wantErr: "terraform.tfvars:1:5: Variables not allowed", errFile: "terraform.tfvars"},
		{name: "a module that calls itself twice", files: map[string]string{"loop.tf": "module \"a\" {\n  source = \"./\"\n}\nmodule \"b\" {\n  source = \"../" + "self\"\n}\n"}, wantErr: "loop.tf:1:1: Module cycle: module \"a\" calls ", errFile: "loop.tf"},
		{name: "a module call with no source", files: map[string]string{"m.tf": "module \"a\" {}\nmodule \"b\" {\n  source = 42\n}\nmodule \"c\" {\n  source = \"./absent\"\n}\n"}},
		{name: "blocks with missing labels", files: map[string]string{"m.tf": "resource \"aws_sqs_queue\" {}\nvariable {}\nmodule {}\n"}, wantErr: "m.tf:1:", errFile: "m.tf"},
		// A file a build step makes before `terraform plan` (a Lambda
		// package, a rendered template) is absent from a pull request's
		// tree: its value is unknown, not an error (tflint's #1688).
		{name: "files a build step makes", files: map[string]string{"m.tf": `resource "aws_lambda_function" "f" {
  source_code_hash = filebase64sha256("${path.module}/build/lambda.zip")
  timeout          = length(file("build/timeout.txt"))
}
resource "aws_sqs_queue" "q" {
  redrive_policy = templatefile("${path.module}/redrive_policy.json.tpl", { max = 5 })
}
`}},
		// A template that is there but renders badly fails Terraform's
		// plan wherever it runs.
		{name: "a template that fails", files: map[string]string{"m.tf": `resource "aws_sqs_queue" "q" {
  redrive_policy = templatefile("${path.module}/t.tpl", {})
}
`, "t.tpl": "${nope}"}, wantErr: `m.tf:2:57: Invalid function argument: Invalid value for "vars" parameter: vars has no "nope"`, errFile: "m.tf"},
		{name: "self-referencing locals", files: map[string]string{"m.tf": "locals {\n  a = local.b\n  b = local.a\n}\nresource \"aws_autoscaling_group\" \"x\" {\n  max_size = local.a\n}\n"},
			wantErr: "m.tf:3:7: Cycle: local.a depends on itself: local.a → local.b → local.a", errFile: "m.tf"},
		{name: "references of every shape", files: map[string]string{"m.tf": `resource "aws_autoscaling_group" "x" {
  max_size = var.a[0].b["c"] + local.x[*].y + module.m + module.m.out[0] + data.x + data.x.y.z + path.module + terraform.workspace + count.index + each.key + self.id + aws_sqs_queue.q[0].arn + ["a"][5] + {}.x + null
  tag {
    key   = "queuecap:queue"
    value = 42
  }
}
module "m" {
  source = "./"
}
`}, wantErr: "m.tf:8:1: Module cycle", errFile: "m.tf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			// The self-calling module case names its own directory.
			for k, v := range c.files {
				c.files[k] = strings.ReplaceAll(v, "../self", "../"+filepath.Base(dir))
			}
			c.files["good.tf"] = goodTF
			writeFiles(t, dir, c.files)
			done := make(chan *lint.Result, 1)
			go func() { done <- lintDir(t, lint.Options{Dirs: []string{dir}}) }()
			var res *lint.Result
			select {
			case res = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the run did not finish")
			}
			errs := checkErrors(t, res)
			if c.wantErr == "" && errs != "" {
				t.Errorf("errors: %s", errs)
			}
			if !strings.Contains(errs, c.wantErr) {
				t.Errorf("errors %q do not contain %q", errs, c.wantErr)
			}
			for _, e := range res.Errors {
				if e.Range == nil || e.Range.Start.Line < 1 || e.Range.Start.Column < 1 {
					t.Errorf("error without a position: %s", e)
					continue
				}
				if c.errFile != "" && filepath.Base(e.Range.Filename) != c.errFile {
					t.Errorf("error in %s, want %s: %s", e.Range.Filename, c.errFile, e)
				}
			}
			found := false
			for _, is := range res.Issues {
				found = found || is.Rule == "queuecap_depth_alarm_after_sla" && filepath.Base(is.Range.Filename) == "good.tf"
			}
			if !found {
				t.Errorf("good.tf was not linted: %+v", res.Issues)
			}
		})
	}
}

// TestLargeFile: a 50 MB file is refused from its size, without reading
// it, and the run goes on.
func TestLargeFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"good.tf": goodTF})
	f, err := os.Create(filepath.Join(dir, "huge.tf"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	line := "resource \"aws_sqs_queue\" \"q\" { name = \"0123456789012345678901234567890123456789\" }\n"
	for written := 0; written < 50<<20; written += len(line) {
		if _, err := w.WriteString(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	info, _ := os.Stat(f.Name())

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d bytes for a file that should not be read", alloc)
	}
	want := f.Name() + ":1:1: File too large: " + itoa(info.Size()) + " bytes is more than the 16777216 bytes a configuration file may have"
	if len(res.Errors) != 1 || res.Errors[0].String() != want {
		t.Errorf("errors %v, want %q", res.Errors, want)
	}
	if len(res.Issues) != 1 {
		t.Errorf("good.tf not linted: %v", res.Issues)
	}
}

func itoa(n int64) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// restoreMode makes a directory the test locked writable again when it
// ends, before t.TempDir removes it.
func restoreMode(t *testing.T, dir string) {
	t.Helper()
	t.Cleanup(func() {
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Error(err)
		}
	})
}

func TestDirectories(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		dir := t.TempDir()
		for _, recursive := range []bool{false, true} {
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: recursive})
			if len(res.Issues)+len(res.Errors)+len(res.Skipped) != 0 {
				t.Errorf("recursive %v: %+v", recursive, res)
			}
		}
	})

	t.Run("symlink loop with --recursive", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"app/main.tf": goodTF})
		if err := os.Symlink("..", filepath.Join(dir, "app", "loop")); err != nil {
			t.Skip("no symlinks:", err)
		}
		if err := os.Symlink(".", filepath.Join(dir, "app", "self")); err != nil {
			t.Fatal(err)
		}
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
		if len(res.Errors) != 0 || len(res.Issues) != 1 {
			t.Errorf("errors %v, issues %v", res.Errors, res.Issues)
		}
		// Linting the loop itself as a directory also terminates.
		res = lintDir(t, lint.Options{Dirs: []string{filepath.Join(dir, "app", "loop", "app", "self")}})
		if len(res.Issues) != 1 {
			t.Errorf("issues %v", res.Issues)
		}
	})

	t.Run("dangling and looping file symlinks", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": goodTF})
		for target, link := range map[string]string{"absent.tf": "dangling.tf", "loop.tf": "loop.tf"} {
			if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
		}
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
		if len(res.Errors) != 0 || len(res.Issues) != 1 {
			t.Errorf("errors %v, issues %v", res.Errors, res.Issues)
		}
	})

	t.Run("unreadable directory", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"ok/main.tf": goodTF, "locked/main.tf": goodTF})
		locked := filepath.Join(dir, "locked")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		restoreMode(t, locked)
		if _, err := os.ReadDir(locked); err == nil {
			t.Skip("chmod 000 does not stop this user from reading (running as root)")
		}
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
		if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "cannot read "+locked) {
			t.Errorf("errors %v", res.Errors)
		}
		if len(res.Issues) != 1 {
			t.Errorf("issues %v", res.Issues)
		}
		res = lintDir(t, lint.Options{Dirs: []string{locked, filepath.Join(dir, "ok")}})
		if len(res.Errors) != 1 || len(res.Issues) != 1 {
			t.Errorf("errors %v, issues %v", res.Errors, res.Issues)
		}
	})

	t.Run("unreadable file", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": goodTF, "secret.tf": "locals {}\n"})
		secret := filepath.Join(dir, "secret.tf")
		if err := os.Chmod(secret, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := os.ReadFile(secret); err == nil {
			t.Skip("chmod 000 does not stop this user from reading (running as root)")
		}
		res := lintDir(t, lint.Options{Dirs: []string{dir}})
		if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].String(), secret+":1:1: Cannot read file") {
			t.Errorf("errors %v", res.Errors)
		}
	})

	t.Run("recursive skips hidden directories and finds nested roots", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"a/main.tf": goodTF, "a/b/main.tf": goodTF, ".git/main.tf": goodTF, "a/.terraform/x/main.tf": goodTF})
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
		if len(res.Issues) != 2 {
			t.Errorf("issues %v", res.Issues)
		}
	})

	t.Run("a module shared by two roots is reported once", func(t *testing.T) {
		dir := t.TempDir()
		call := "module \"shared\" {\n  source = \"../shared\"\n}\n"
		// A repository, which holds the module both roots call.
		writeFiles(t, dir, map[string]string{"a/main.tf": call, "b/main.tf": call, "shared/main.tf": goodTF, ".git/HEAD": "ref: refs/heads/main\n"})
		res := lintDir(t, lint.Options{Dirs: []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}})
		if len(res.Issues) != 1 {
			t.Errorf("issues %v", res.Issues)
		}
	})
}

func TestNeverWritesIntoLintedDirectories(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": goodTF, "m/main.tf": goodTF})
	if err := os.Chmod(filepath.Join(dir, "m"), 0o555); err != nil {
		t.Fatal(err)
	}
	restoreMode(t, filepath.Join(dir, "m"))
	snapshot := func() string {
		var b strings.Builder
		err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			b.WriteString(p + " " + info.ModTime().String() + " " + itoa(info.Size()) + "\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	before := snapshot()
	lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
	if after := snapshot(); after != before {
		t.Errorf("the tree changed:\n%s\n%s", before, after)
	}
}
