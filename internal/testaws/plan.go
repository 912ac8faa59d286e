// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// CLI is a Terraform or OpenTofu executable that tests plan with.
type CLI struct {
	Name string // terraform-1.5.7, tofu-1.12.6, terraform (the one on PATH)
	Path string
}

// CLIs are the CLIs of the project's machines, present or not: the
// Terraform 1.5.7 and OpenTofu 1.12.6 that tools/install-cli.sh caches in
// $QUEUECAP_CACHE/bin (default $HOME/.cache/queuecap/bin), and the
// terraform on PATH. Plan and NewWorkdir skip the test for one that is
// missing.
func CLIs() []CLI {
	cache := os.Getenv("QUEUECAP_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "queuecap")
	}
	onPath, _ := exec.LookPath("terraform")
	return []CLI{
		{Name: "terraform-1.5.7", Path: filepath.Join(cache, "bin", "terraform-1.5.7")},
		{Name: "tofu-1.12.6", Path: filepath.Join(cache, "bin", "tofu-1.12.6")},
		{Name: "terraform", Path: onPath},
	}
}

// Plan plans the configuration in dir with cli against the test-only AWS
// provider and the real queuecap provider, and returns the plan's JSON
// (`show -json`). args are passed to plan after its own flags:
// -var=NAME=VALUE, -var-file=FILE (relative to dir), -destroy. The test is
// skipped when cli is not installed.
func Plan(t testing.TB, cli, dir string, args ...string) []byte {
	t.Helper()
	return NewWorkdir(t, cli, dir).Plan(args...)
}

// A Workdir is a copy of a configuration that one CLI plans and applies,
// with its own CLI configuration, data directory and state, so that tests
// can run in parallel. Module sources must lie inside the copied directory.
type Workdir struct {
	t   testing.TB
	cli string
	// Dir is the copy: a test edits it between a plan and the next, as a
	// change to the configuration would.
	Dir string
	env []string
	got bool // modules installed
}

// NewWorkdir copies dir into a temporary directory to run cli in, skipping
// the test when cli is not installed.
func NewWorkdir(t testing.TB, cli, dir string) *Workdir {
	t.Helper()
	if cli == "" {
		t.Skip("the CLI is not installed")
	}
	path, err := exec.LookPath(cli)
	if err != nil {
		t.Skipf("%s is not installed", cli)
	}
	awsDir, queuecapDir, err := providerBinaries()
	if err != nil {
		t.Fatalf("testaws: build the providers: %v", err)
	}
	tmp := t.TempDir()
	w := &Workdir{t: t, cli: path, Dir: filepath.Join(tmp, "config")}
	if err := CopyDir(dir, w.Dir); err != nil {
		t.Fatalf("testaws: copy %s: %v", dir, err)
	}
	rc := filepath.Join(tmp, "cli.tfrc")
	// Both registries' addresses: `source = "hashicorp/aws"` is
	// registry.terraform.io's to Terraform and registry.opentofu.org's to
	// OpenTofu, and a configuration may name either outright. The same
	// for queuecap/queuecap, the real provider.
	if err := os.WriteFile(rc, fmt.Appendf(nil, `provider_installation {
  dev_overrides {
    "registry.terraform.io/hashicorp/aws" = %[1]q
    "registry.opentofu.org/hashicorp/aws" = %[1]q
    "registry.terraform.io/queuecap/queuecap" = %[2]q
    "registry.opentofu.org/queuecap/queuecap" = %[2]q
  }
  direct {}
}
`, awsDir, queuecapDir), 0o600); err != nil {
		t.Fatalf("testaws: %v", err)
	}
	w.env = append(CleanEnv(),
		"TF_CLI_CONFIG_FILE="+rc,
		// Where a checkout has it, so modules.json is where the linter
		// looks; the copy is the test's own.
		"TF_DATA_DIR="+filepath.Join(w.Dir, ".terraform"),
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"CHECKPOINT_DISABLE=1",
	)
	return w
}

// Setenv sets an environment variable for the CLI's later runs, such as
// TF_VAR_name or TF_WORKSPACE.
func (w *Workdir) Setenv(name, value string) { w.env = append(w.env, name+"="+value) }

// AddFile copies the file at path into the configuration, beside what
// NewWorkdir copied: a versions.tf that several test configurations share.
func (w *Workdir) AddFile(path string) {
	w.t.Helper()
	data, err := os.ReadFile(path)
	if err == nil {
		err = os.WriteFile(filepath.Join(w.Dir, filepath.Base(path)), data, 0o644)
	}
	if err != nil {
		w.t.Fatalf("testaws: %v", err)
	}
}

// Workspace creates the workspace name and selects it for the later runs,
// as `terraform workspace new` does, writing its name where the CLI and the
// linter read terraform.workspace from.
func (w *Workdir) Workspace(name string) {
	w.t.Helper()
	w.run("workspace", "new", "-no-color", name)
}

// Plan plans (without refreshing or locking) and returns the plan's JSON.
func (w *Workdir) Plan(args ...string) []byte {
	w.t.Helper()
	w.run(append([]string{"plan", "-input=false", "-lock=false", "-refresh=false", "-out=tfplan", "-no-color"}, args...)...)
	return []byte(w.run("show", "-json", "tfplan"))
}

// PlanFails plans, as Plan does, a configuration the CLI must reject, and
// returns what it printed; the test fails when the plan succeeds.
func (w *Workdir) PlanFails(args ...string) string {
	w.t.Helper()
	if !w.got {
		w.got = true
		w.run("get", "-no-color")
	}
	cmd := exec.Command(w.cli, append([]string{"-chdir=" + w.Dir, "plan", "-input=false", "-lock=false", "-refresh=false", "-no-color"}, args...)...)
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err == nil {
		w.t.Fatalf("%s plan succeeded, want it to fail:\n%s", filepath.Base(w.cli), out)
	}
	return string(out)
}

// Apply applies the configuration, recording its state in the Workdir;
// the provider makes up what AWS would return.
func (w *Workdir) Apply(args ...string) {
	w.t.Helper()
	w.run(append([]string{"apply", "-input=false", "-lock=false", "-auto-approve", "-no-color"}, args...)...)
}

// Run runs the CLI with args in the copy, installing its modules first:
// `get` installs local modules offline, where `init` would also look the
// overridden provider up in a registry. It returns the standard output and
// error, and the error of a run that fails, for a command whose failure a
// test expects (`test` of a configuration whose assertions fail).
func (w *Workdir) Run(args ...string) (stdout, stderr string, err error) {
	w.t.Helper()
	if !w.got {
		w.got = true
		w.run("get", "-no-color")
	}
	cmd := exec.Command(w.cli, append([]string{"-chdir=" + w.Dir}, args...)...)
	cmd.Env = w.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// run is Run for a command that must succeed: a failure ends the test.
func (w *Workdir) run(args ...string) string {
	w.t.Helper()
	stdout, stderr, err := w.Run(args...)
	if err != nil {
		w.t.Fatalf("%s %s: %v\n%s%s", filepath.Base(w.cli), strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout
}

// CleanEnv is the test's environment without the variables that steer
// Terraform and OpenTofu, so that only what a test sets applies.
func CleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "TOFU_") {
			env = append(env, kv)
		}
	}
	return env
}

// A provider binary built once per test process, into a temporary
// directory of its own named as dev_overrides wants it: dev_overrides maps
// a provider address to a directory, where the CLI runs
// terraform-provider-TYPE.
type providerBuild struct {
	once sync.Once
	dir  string
	err  error
}

var (
	// awsBuild is this package's stand-in for the AWS provider.
	awsBuild providerBuild
	// queuecapBuild is the real queuecap provider, from the repository
	// root, served beside the stand-in so that a configuration may use
	// its data sources and functions.
	queuecapBuild providerBuild
)

// build builds the package pkg as terraform-provider-typ, once; it
// returns the directory. Main removes it at the end.
func (b *providerBuild) build(typ, pkg string) (string, error) {
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "queuecap-testaws-"+typ+"-")
		if b.err != nil {
			return
		}
		name := "terraform-provider-" + typ
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		cmd := exec.Command(goTool(), "build", "-o", filepath.Join(b.dir, name), pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	return b.dir, b.err
}

// providerBinaries builds the AWS stand-in and the queuecap provider, and
// returns their directories.
func providerBinaries() (aws, queuecap string, err error) {
	if aws, err = awsBuild.build("aws", "github.com/queuecap/terraform-provider-queuecap/internal/testaws/cmd/terraform-provider-aws"); err != nil {
		return "", "", err
	}
	if queuecap, err = queuecapBuild.build("queuecap", "github.com/queuecap/terraform-provider-queuecap"); err != nil {
		return "", "", err
	}
	return aws, queuecap, nil
}

// Main runs a package's tests and removes the providers built for them:
// call it from TestMain in a package that uses Plan or NewWorkdir.
func Main(m *testing.M) {
	code := m.Run()
	for _, b := range []*providerBuild{&awsBuild, &queuecapBuild} {
		if b.dir != "" {
			_ = os.RemoveAll(b.dir)
		}
	}
	os.Exit(code)
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if root := runtime.GOROOT(); root != "" { //nolint:staticcheck // the test binary's own toolchain when it knows it.
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// CopyDir copies the configuration, leaving out what a CLI left there.
func CopyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".terraform" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
