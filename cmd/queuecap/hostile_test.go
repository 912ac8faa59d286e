// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// The linter lints pull requests from strangers, in CI jobs whose logs
// others read: what a repository commits must not make it read, or print,
// anything outside the repository, nor run without end, nor write what
// a CI runner reads as a command. Each case runs the CLI in a process of
// its own (helperCLI), so that one that would hang or grow without end
// is stopped at its timeout.

// envSecret is an environment variable of the CLI's process, which
// /proc/self/environ would show.
const envSecret = "QUEUECAP_TEST_SECRET"

// helperCLIEnv makes the test binary run the CLI: TestHelperCLI.
const helperCLIEnv = "QUEUECAP_HELPER_CLI"

// TestHelperCLI is the CLI when the test binary is started by helperCLI;
// otherwise it is skipped.
func TestHelperCLI(t *testing.T) {
	if os.Getenv(helperCLIEnv) != "1" {
		t.Skip("run by helperCLI in a child process")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

// cliRun is what one run of the CLI did.
type cliRun struct {
	code   int
	output string // standard output, then standard error
}

// helperCLI runs the CLI with args in dir, in a process of its own that
// has secret in its environment and stdin as its standard input (nil for
// none), and fails the test when it takes longer than a minute.
func helperCLI(t *testing.T, dir, secret string, stdin *os.File, args ...string) cliRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{"-test.run=^TestHelperCLI$", "--"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), helperCLIEnv+"=1", envSecret+"="+secret)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("queuecap %s did not finish within a minute", strings.Join(args, " "))
	}
	return cliRun{code: exitCode(t, err), output: stdout.String() + stderr.String()}
}

// hostileRepo is a repository under review (it has .git) beside a
// directory outside it that holds a secret in a file whose parse error
// would show it.
type hostileRepo struct {
	dir, outside, secret string
}

// newHostileRepo writes files into a new repository, "OUTSIDE" in them
// standing for the outside directory.
func newHostileRepo(t *testing.T, files map[string]string) hostileRepo {
	t.Helper()
	r := hostileRepo{dir: t.TempDir(), outside: t.TempDir(), secret: "s3cr3t-" + strings.ReplaceAll(t.Name(), "/", "-")}
	write(t, r.outside, map[string]string{
		"secret.tf":   "locals {\n  token = \"" + r.secret + "\n}\n",
		"secret.json": `{"token": "` + r.secret + `",`,
	})
	write(t, r.dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	for name, content := range files {
		write(t, r.dir, map[string]string{name: strings.ReplaceAll(content, "OUTSIDE", r.outside)})
	}
	return r
}

// link makes a symbolic link at name (in the repository) to target.
func (r hostileRepo) link(t *testing.T, name, target string) {
	t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

// fifo makes a named pipe at name, which nothing writes to.
func (r hostileRepo) fifo(t *testing.T, name string) {
	t.Helper()
	if err := syscall.Mkfifo(filepath.Join(r.dir, name), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
}

// TestReadingBoundary: nothing outside the repository is read, symbolic
// links to it are errors naming the link, and a link inside it is read.
func TestReadingBoundary(t *testing.T) {
	plan, err := os.ReadFile("../../internal/lint/testdata/plans/zero_surplus.json")
	if err != nil {
		t.Fatal(err)
	}
	passwd, _ := os.ReadFile("/etc/passwd")
	passwdLine, _, _ := strings.Cut(string(passwd), "\n")
	cases := []struct {
		name  string
		files map[string]string
		links map[string]string // name → target; "OUTSIDE/" stands for the outside directory
		args  []string
		code  int
		want  []string // in the output
	}{
		{name: "a .tf file linked to /proc/self/environ", files: map[string]string{"main.tf": warningTF}, links: map[string]string{"env.tf": "/proc/self/environ"},
			args: []string{"lint", "."}, code: exitError, want: []string{"Error: Cannot read file: it resolves to /proc/", "on env.tf line 1:"}},
		{name: "a .tf file linked to /etc/passwd", files: map[string]string{"main.tf": warningTF}, links: map[string]string{"passwd.tf": "/etc/passwd"},
			args: []string{"lint", "."}, code: exitError, want: []string{"Error: Cannot read file: it resolves to /etc/passwd, outside", "on passwd.tf line 1:"}},
		{name: "a .tf file linked outside", files: map[string]string{"main.tf": warningTF}, links: map[string]string{"x.tf": "OUTSIDE/secret.tf"},
			args: []string{"lint", "--format", "compact", "."}, code: exitError, want: []string{"x.tf:1:1: Error - Cannot read file: it resolves to", "outside"}},
		{name: "terraform.tfvars.json linked outside", files: map[string]string{"main.tf": "variable \"token\" {}\n" + warningTF},
			links: map[string]string{"terraform.tfvars.json": "OUTSIDE/secret.json"},
			args:  []string{"lint", "."}, code: exitError, want: []string{"Error: Cannot read file: it resolves to", "on terraform.tfvars.json line 1:"}},
		{name: "a --var-file in the repository linked outside", files: map[string]string{"main.tf": "variable \"token\" {}\n" + warningTF},
			links: map[string]string{"prod.tfvars.json": "OUTSIDE/secret.json"},
			args:  []string{"lint", "--var-file", "prod.tfvars.json", "."}, code: exitError, want: []string{"Error: Cannot read file: it resolves to", "on prod.tfvars.json line 1:"}},
		{name: "--plan --chdir with a .tf file linked to /proc/self/environ", files: map[string]string{"main.tf": warningTF, "plan.json": string(plan)},
			links: map[string]string{"env.tf": "/proc/self/environ"},
			args:  []string{"lint", "--plan", "plan.json", "--chdir", "."}, code: exitError, want: []string{"Error: Cannot read file: it resolves to /proc/", "on env.tf line 1:"}},
		{name: "modules.json installs a module from another checkout", files: map[string]string{
			"main.tf":                         "module \"m\" {\n  source = \"example.com/acme/m/aws\"\n}\n" + warningTF,
			".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"example.com/acme/m/aws","Dir":"OUTSIDE"}]}`},
			args: []string{"lint", "--show-skipped", "."}, code: exitFindings, want: []string{"module.m (source \"example.com/acme/m/aws\") was not loaded: its directory", "outside"}},
		{name: "modules.json installs a module from /etc", files: map[string]string{
			"main.tf":                         "module \"m\" {\n  source = \"example.com/acme/m/aws\"\n}\n" + warningTF,
			".terraform/modules/modules.json": `{"Modules":[{"Key":"m","Source":"example.com/acme/m/aws","Dir":"/etc"}]}`},
			args: []string{"lint", "--show-skipped", "."}, code: exitFindings, want: []string{"module.m (source \"example.com/acme/m/aws\") was not loaded: its directory /etc resolves to /etc, outside"}},
		{name: "a local module linked outside", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\n" + warningTF},
			links: map[string]string{"m": "OUTSIDE"},
			args:  []string{"lint", "--show-skipped", "."}, code: exitFindings, want: []string{"module.m (source \"./m\") was not loaded: its directory m resolves to"}},
		// Real repositories link files to share them: a file and a
		// module, linked from a root below the repository's top.
		{name: "links inside the repository", files: map[string]string{
			"shared/queue.tf":     warningTF,
			"shared/mod/main.tf":  warningTF,
			"envs/prod/module.tf": "module \"m\" {\n  source = \"./mod\"\n}\n"},
			links: map[string]string{"envs/prod/queue.tf": "../../shared/queue.tf", "envs/prod/mod": "../../shared/mod"},
			args:  []string{"lint", "envs/prod"}, code: exitFindings, want: []string{"on envs/prod/queue.tf line 1, in aws_sqs_queue.orders:", "on envs/prod/mod/main.tf line 1, in module.m.aws_sqs_queue.orders:", "2 issue(s) found"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newHostileRepo(t, tc.files)
			for name, target := range tc.links {
				r.link(t, name, strings.Replace(target, "OUTSIDE", r.outside, 1))
			}
			// As the case says, and as JSON: no format shows more.
			runs := [][]string{tc.args}
			if !slices.Contains(tc.args, "--format") {
				runs = append(runs, append([]string{"lint", "--format", "json"}, tc.args[1:]...))
			}
			for i, args := range runs {
				got := helperCLI(t, r.dir, r.secret, nil, args...)
				if got.code != tc.code {
					t.Errorf("%q: exit %d, want %d:\n%s", args, got.code, tc.code, got.output)
				}
				if strings.Contains(got.output, r.secret) || (passwdLine != "" && strings.Contains(got.output, passwdLine)) {
					t.Errorf("%q: the output shows what lies outside the repository:\n%s", args, got.output)
				}
				for _, w := range tc.want {
					if i == 0 && !strings.Contains(got.output, w) {
						t.Errorf("%q: the output lacks %q:\n%s", args, w, got.output)
					}
				}
			}
		})
	}
}

// TestUnboundedReads: what never ends (/dev/zero, a named pipe nothing
// writes to) is never read to its end, and what is too large is an
// error at the cap, each naming the file.
func TestUnboundedReads(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero:", err)
	}
	defer zero.Close()
	cases := []struct {
		name  string
		links map[string]string
		fifos []string
		args  []string
		stdin *os.File
		want  string
	}{
		{name: "a.auto.tfvars linked to /dev/zero", links: map[string]string{"a.auto.tfvars": "/dev/zero"}, args: []string{"lint", "--format", "compact", "."},
			want: "a.auto.tfvars:1:1: Error - Cannot read file: it resolves to /dev/zero, which is the system's"},
		{name: ".queuecap.hcl linked to /dev/zero", links: map[string]string{".queuecap.hcl": "/dev/zero"}, args: []string{"lint", "."},
			want: ".queuecap.hcl:1,1-1: Cannot read file; it resolves to /dev/zero"},
		{name: "modules.json linked to /dev/zero", links: map[string]string{".terraform/modules/modules.json": "/dev/zero"}, args: []string{"lint", "--format", "compact", "."},
			want: "modules.json:1:1: Error - Cannot read file: it resolves to /dev/zero"},
		{name: "--plan /dev/zero", args: []string{"lint", "--plan", "/dev/zero"}, want: "Error: /dev/zero: cannot read the plan: it is not JSON: it begins with the byte 0x00"},
		{name: "--plan - from /dev/zero", args: []string{"lint", "--plan", "-"}, stdin: zero, want: "Error: -: cannot read the plan: it is not JSON"},
		{name: "--var-file /dev/zero", args: []string{"lint", "--format", "compact", "--var-file", "/dev/zero", "."},
			want: "/dev/zero:1:1: Error - File too large: it is more than the 16777216 bytes a variables file may have"},
		{name: "a named pipe named pipe.tf", fifos: []string{"pipe.tf"}, args: []string{"lint", "--format", "compact", "."},
			want: "pipe.tf:1:1: Error - Cannot read file: it is a named pipe, not a regular file: not read"},
		{name: "a named pipe named x.auto.tfvars", fifos: []string{"x.auto.tfvars"}, args: []string{"lint", "--format", "compact", "."},
			want: "x.auto.tfvars:1:1: Error - Cannot read file: it is a named pipe"},
		{name: "a named pipe named .queuecap.hcl", fifos: []string{".queuecap.hcl"}, args: []string{"lint", "."}, want: ".queuecap.hcl:1,1-1: Cannot read file; it is a named pipe"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newHostileRepo(t, map[string]string{"main.tf": warningTF})
			for name, target := range tc.links {
				r.link(t, name, target)
			}
			for _, name := range tc.fifos {
				r.fifo(t, name)
			}
			got := helperCLI(t, r.dir, r.secret, tc.stdin, tc.args...)
			if got.code != exitError || !strings.Contains(got.output, tc.want) {
				t.Errorf("exit %d, want 1 and %q:\n%s", got.code, tc.want, got.output)
			}
		})
	}
}

// commandLines are the lines of out that a GitHub Actions runner reads as
// workflow commands: those starting with "::" after white space, and
// those holding "##[" anywhere.
func commandLines(out string) []string {
	var cmds []string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") || strings.Contains(l, "##[") {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// TestOutputIsSafe: text from the configuration reaches the output as
// text: no escape sequence, no line of its own, no workflow command; no
// source line is printed whole when it is huge, nor a binary file at all.
func TestOutputIsSafe(t *testing.T) {
	// A tag value with a line break, a workflow command, an escape
	// sequence and the legacy command form: a skip reason quotes it.
	hostileTag := `resource "aws_autoscaling_group" "w" {
  max_size = 2
  tag {
    key   = "queuecap:queue"
    value = "nothing\n::error title=pwned::owned \u001b[31mred ##[add-mask]x\u202egnp.exe"
  }
}
`
	long := strings.Replace(warningTF, "{\n", "{ # "+strings.Repeat("x", 1<<20)+"\n", 1)
	binary := strings.Repeat("\x00\x01 = {{ ]\n", 1<<17)
	cases := []struct {
		name  string
		files map[string]string
		args  []string
		want  []string
		// maxBytes bounds the output, when not 0.
		maxBytes int
	}{
		{name: "a tag that writes commands, default", files: map[string]string{"main.tf": hostileTag}, args: []string{"lint", "--no-color", "--show-skipped", "."},
			want: []string{`names nothing ::error title=pwned::owned \x1b[31mred #\x23[add-mask]x\u202egnp.exe, which is no aws_sqs_queue`}},
		{name: "a tag that writes commands, explain", files: map[string]string{"main.tf": hostileTag}, args: []string{"lint", "--explain", "."},
			want: []string{`names nothing ::error title=pwned::owned \x1b[31mred #\x23[add-mask]x\u202egnp.exe, which is no aws_sqs_queue`}},
		{name: "a tag that writes commands, mermaid", files: map[string]string{"main.tf": hostileTag}, args: []string{"lint", "--explain", "--format", "mermaid", "."},
			want: []string{`names nothing ::error title=pwned::owned \x1b[31mred #\x23[add-mask]x\u202egnp.exe, which is no aws_sqs_queue`}},
		{name: "a tag that writes commands, json", files: map[string]string{"main.tf": hostileTag}, args: []string{"lint", "--format", "json", "."},
			want: []string{`names nothing\n::error title=pwned::owned \u001b[31mred #\u0023[add-mask]x\u202egnp.exe, which is no aws_sqs_queue`}},
		{name: "a tag that writes commands, sarif", files: map[string]string{"main.tf": hostileTag + warningTF}, args: []string{"lint", "--format", "sarif", "."}},
		{name: "a tag that writes commands, junit", files: map[string]string{"main.tf": hostileTag + warningTF, "broken.tf": "locals {\n  x = \"\u001b[2J\n##[add-mask]\n::error::x\n}\n"},
			args: []string{"lint", "--format", "junit", "."}},
		{name: "a binary file named .tf", files: map[string]string{"main.tf": warningTF, "blob.tf": binary}, args: []string{"lint", "--no-color", "."},
			want: []string{"Error: Binary file: it holds a NUL byte (at byte 1), so it is not configuration: not parsed", "on blob.tf line 1:\n   (binary file: not shown)"}, maxBytes: 4 << 10},
		{name: "a finding on a line of a megabyte", files: map[string]string{"main.tf": long}, args: []string{"lint", "--no-color", "."},
			want: []string{`   1: resource "aws_sqs_queue" "orders" { # xxxxxxxx`, "xxx…\n"}, maxBytes: 4 << 10},
		{name: "a line that is not UTF-8", files: map[string]string{"main.tf": warningTF, "latin1.tf": "resource \"aws_sqs_queue\" \"a\" {\n  name = \"caf\xe9\"\n}\n"},
			args: []string{"lint", "--no-color", "."}, want: []string{"on latin1.tf line 2:\n   2:   name = \"caf\\xe9\"\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newHostileRepo(t, tc.files)
			got := helperCLI(t, r.dir, r.secret, nil, tc.args...)
			if cmds := commandLines(got.output); len(cmds) > 0 {
				t.Errorf("lines a CI runner reads as commands: %q", cmds)
			}
			if strings.ContainsAny(got.output, "\x1b\x00\u202e") || !utf8.ValidString(got.output) {
				t.Errorf("the output holds an escape, a NUL, a bidirectional control or bytes that are not UTF-8:\n%q", got.output)
			}
			if tc.maxBytes > 0 && len(got.output) > tc.maxBytes {
				t.Errorf("%d bytes of output, want at most %d:\n%.2000s", len(got.output), tc.maxBytes, got.output)
			}
			for _, w := range tc.want {
				if !strings.Contains(got.output, w) {
					t.Errorf("the output lacks %q:\n%.4000s", w, got.output)
				}
			}
		})
	}
	// GitHub's own format: each line one command, its data and
	// properties escaped, a file's name included.
	t.Run("a file name that writes commands, github", func(t *testing.T) {
		r := newHostileRepo(t, map[string]string{"main.tf": warningTF, "a\x1b[2J\u202eb.tf": "locals {\n  x = \n}\n"})
		got := helperCLI(t, r.dir, r.secret, nil, "lint", "--format", "github", ".")
		for l := range strings.SplitSeq(strings.TrimSuffix(got.output, "\n"), "\n") {
			if !strings.HasPrefix(l, "::warning ") && !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::notice ") {
				t.Errorf("a line that is not one of the format's commands: %q", l)
			}
		}
		if strings.ContainsAny(got.output, "\x1b\u202e") || !strings.Contains(got.output, `::error file=a\x1b[2J\u202eb.tf,line=2`) {
			t.Errorf("an escape sequence in the commands, or no error for the file:\n%q", got.output)
		}
	})
}

// TestPlanWithByteOrderMark: a plan's JSON saved by a tool that starts it
// with a byte order mark is read.
func TestPlanWithByteOrderMark(t *testing.T) {
	plan, err := os.ReadFile("../../internal/lint/testdata/plans/zero_surplus.json")
	if err != nil {
		t.Fatal(err)
	}
	r := newHostileRepo(t, map[string]string{"plan.json": "\ufeff" + string(plan)})
	got := helperCLI(t, r.dir, r.secret, nil, "lint", "--format", "compact", "--plan", "plan.json")
	if got.code != exitFindings || !strings.Contains(got.output, "queuecap_zero_surplus") {
		t.Errorf("exit %d, want 2 and the plan's finding:\n%s", got.code, got.output)
	}
}

// TestTruncatedModuleManifest: a modules.json cut short is an error at
// the place it ends, not a reason to run terraform init.
func TestTruncatedModuleManifest(t *testing.T) {
	r := newHostileRepo(t, map[string]string{
		"main.tf":                         "module \"m\" {\n  source = \"example.com/acme/m/aws\"\n}\n" + warningTF,
		".terraform/modules/modules.json": "{\"Modules\":[\n  {\"Key\":\"m\",\"Dir\":\".terraform/mod",
	})
	got := helperCLI(t, r.dir, r.secret, nil, "lint", "--format", "compact", ".")
	want := filepath.Join(".terraform", "modules", "modules.json") + ":2:34: Error - Malformed modules.json: it is not the JSON terraform init writes (unexpected end of JSON input)"
	if got.code != exitError || !strings.Contains(got.output, want) || strings.Contains(got.output, "run terraform init") {
		t.Errorf("exit %d, want 1 and %q, not %q:\n%s", got.code, want, "run terraform init", got.output)
	}
}

// TestConfigNumbersFinite: a .queuecap.hcl number beyond float64 is an
// error at its place, not +Inf.
func TestConfigNumbersFinite(t *testing.T) {
	config := "queue \"aws_sqs_queue.orders\" {\n  arrival_rate = 10\n  max_backlog  = 1e400\n}\n"
	r := newHostileRepo(t, map[string]string{".queuecap.hcl": config, "sub/main.tf": warningTF, "sub/.queuecap.hcl": config})
	// The working directory's, which the CLI reads first.
	got := helperCLI(t, r.dir, r.secret, nil, "lint", ".")
	if want := ".queuecap.hcl:3,18-23: Invalid value for max_backlog; max_backlog must be a finite number"; got.code != exitError || !strings.Contains(got.output, want) {
		t.Errorf("exit %d, want 1 and %q:\n%s", got.code, want, got.output)
	}
	// A root's own, which the run reads.
	got = helperCLI(t, filepath.Join(r.dir, "sub"), r.secret, nil, "lint", "--config", os.DevNull, "--format", "compact", ".")
	if want := ".queuecap.hcl:3:18: Error - Invalid value for max_backlog: max_backlog must be a finite number"; got.code != exitError || !strings.Contains(got.output, want) {
		t.Errorf("exit %d, want 1 and %q:\n%s", got.code, want, got.output)
	}
}

// panicWriter panics when written to, as a bug would.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("a bug") }

// TestInternalErrorExitsOne: a panic is an internal error, exit 1, never
// the 2 of findings (which --force and the Action's fail-on-findings:
// false let pass) that an unrecovered panic exits with.
func TestInternalErrorExitsOne(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": warningTF})
	t.Chdir(dir)
	var stderr bytes.Buffer
	code := func() (code int) {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("the panic reached the caller: %v", p)
				code = -1
			}
		}()
		return run([]string{"lint", "--force", "."}, panicWriter{}, &stderr)
	}()
	if code != exitError || stderr.String() != "Error: internal error: a bug\n" {
		t.Errorf("exit %d, stderr %q; want 1 and one line", code, stderr.String())
	}
}

// TestBoundaryFlag: --boundary names a directory to read within instead
// of the repository, which must hold every directory linted.
func TestBoundaryFlag(t *testing.T) {
	top := t.TempDir()
	write(t, top, map[string]string{
		"repo/.git/HEAD": "ref: refs/heads/main\n",
		"repo/main.tf":   "module \"m\" {\n  source = \"../modules/m\"\n}\n",
		"modules/m/q.tf": warningTF,
	})
	repo := filepath.Join(top, "repo")
	if got := helperCLI(t, repo, "", nil, "lint", "--format", "compact", "--show-skipped", "."); got.code != exitOK || !strings.Contains(got.output, "1 check skipped") {
		t.Errorf("without --boundary: exit %d, want 0 and the module skipped:\n%s", got.code, got.output)
	}
	if got := helperCLI(t, repo, "", nil, "lint", "--format", "compact", "--boundary", "..", "."); got.code != exitFindings || !strings.Contains(got.output, "modules/m/q.tf:1:1: Warning") {
		t.Errorf("with --boundary ..: exit %d, want 2 and the module's finding:\n%s", got.code, got.output)
	}
	if got := helperCLI(t, repo, "", nil, "lint", "--boundary", "../modules", "."); got.code != exitError || got.output != "Error: . is outside --boundary ../modules: the linter reads nothing outside it\n" {
		t.Errorf("a directory outside --boundary: exit %d, want 1 and one error:\n%s", got.code, got.output)
	}
}
