// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// readmeSection returns README.md's section under the heading.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q", heading)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	return section
}

// codeBlocks returns the bodies of the section's fenced blocks in lang.
func codeBlocks(section, lang string) []string {
	var blocks []string
	for _, part := range strings.Split(section, "```"+lang+"\n")[1:] {
		body, _, _ := strings.Cut(part, "```")
		blocks = append(blocks, body)
	}
	return blocks
}

// cliWithFunctions is a CLI the test runs: the README's configuration
// calls a provider function, so Terraform 1.8+ or OpenTofu 1.7+.
type cliWithFunctions struct {
	name, path string
	host       string // the registry queuecap/queuecap is at for it
	min        [2]int
}

// atLeast reports whether version (1.11.4, 1.12.6-dev) is least or later.
func atLeast(version string, least [2]int) bool {
	parts := strings.SplitN(strings.SplitN(version, "-", 2)[0], ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return major > least[0] || major == least[0] && minor >= least[1]
}

// TestUsingItBeforeTheRegistryRelease runs README.md's "Using it before the
// Registry release" as written: `make install` into a plugins directory,
// then its configuration planned with `init` from that directory as a
// local mirror, and with dev_overrides and `get` in a configuration that
// calls it as a child module. Under the terraform on PATH (skipped without
// one) and the OpenTofu 1.12.6 that tools/install-cli.sh caches (skipped
// without it).
//
// The implicit mirror is ~/.terraform.d/plugins: the test must not write
// into the real home, so the CLIs run with HOME set to a directory of the
// test's own. The first case installs there and runs with an empty CLI
// configuration, as a user does; the second names the same layout in an
// explicit filesystem_mirror, the README's block for a CLI configuration
// that has a provider_installation block (with yet another empty HOME, so
// that only the explicit mirror can serve it).
func TestUsingItBeforeTheRegistryRelease(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	section := readmeSection(t, "## Using it before the Registry release")
	configs, hcl := codeBlocks(section, "terraform"), codeBlocks(section, "hcl")
	if len(configs) != 1 || len(hcl) != 2 {
		t.Fatalf("the README section has %d terraform blocks and %d hcl blocks, want 1 and 2 (the mirror, dev_overrides)", len(configs), len(hcl))
	}
	config, mirrorRC, overridesRC := configs[0], hcl[0], hcl[1]
	const documentedDir = "/home/you/.terraform.d/plugins"
	platform := runtime.GOOS + "_" + runtime.GOARCH
	for _, rc := range []string{mirrorRC, overridesRC} {
		if !strings.Contains(rc, documentedDir) {
			t.Fatalf("the README's CLI configuration does not name %s:\n%s", documentedDir, rc)
		}
	}

	cache := os.Getenv("QUEUECAP_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "queuecap")
	}
	terraform, _ := exec.LookPath("terraform")
	clis := []cliWithFunctions{
		{name: "terraform", path: terraform, host: "registry.terraform.io", min: [2]int{1, 8}},
		{name: "tofu-1.12.6", path: filepath.Join(cache, "bin", "tofu-1.12.6"), host: "registry.opentofu.org", min: [2]int{1, 7}},
	}
	if terraform == "" {
		t.Log("no terraform on PATH: its cases skip")
	}

	// make install, once, into the home the first case gives the CLIs.
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	plugins := filepath.Join(home, ".terraform.d", "plugins")
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	installed := false
	install := func(t *testing.T) {
		t.Helper()
		if installed {
			return
		}
		cmd := exec.Command("make", "-C", root, "install", "PLUGIN_DIR="+plugins)
		cmd.Env = withoutMake(os.Environ())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make install: %v\n%s", err, out)
		}
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			bin := filepath.Join(plugins, host, "queuecap", "queuecap", "0.1.0", platform, "terraform-provider-queuecap_v0.1.0")
			if runtime.GOOS == "windows" {
				bin += ".exe"
			}
			if _, err := os.Stat(bin); err != nil {
				t.Fatalf("make install did not install %s: %v\n%s", bin, err, out)
			}
		}
		installed = true
	}

	for _, cli := range clis {
		t.Run(cli.name, func(t *testing.T) {
			if cli.path == "" {
				t.Skip("not installed")
			}
			if _, err := os.Stat(cli.path); err != nil {
				t.Skip("not installed")
			}
			// With a CLI configuration that exists: OpenTofu writes its
			// warning about a missing one to standard output.
			version := exec.Command(cli.path, "version", "-json")
			version.Env = newRun(t, cli.path, t.TempDir(), "").env
			out, _ := version.Output()
			var v struct {
				Version string `json:"terraform_version"`
			}
			if json.Unmarshal(out, &v) != nil || !atLeast(v.Version, cli.min) {
				t.Skipf("%s reports version %q, older than %d.%d: no provider functions", cli.path, v.Version, cli.min[0], cli.min[1])
			}
			install(t)
			forCLI := strings.NewReplacer(documentedDir, plugins, "registry.terraform.io", cli.host, "linux_amd64", platform)

			t.Run("implicit mirror", func(t *testing.T) {
				run := newRun(t, cli.path, home, "")
				dir := run.config(map[string]string{"main.tf": config})
				run.ok(dir, "init", "-input=false", "-no-color")
				run.plan(dir, map[string]float64{"max_size": 32, "max_size_from_the_function": 32})
			})

			t.Run("filesystem_mirror", func(t *testing.T) {
				run := newRun(t, cli.path, t.TempDir(), forCLI.Replace(mirrorRC))
				dir := run.config(map[string]string{"main.tf": config})
				run.ok(dir, "init", "-input=false", "-no-color")
				run.plan(dir, map[string]float64{"max_size": 32, "max_size_from_the_function": 32})
			})

			t.Run("dev_overrides with a child module", func(t *testing.T) {
				run := newRun(t, cli.path, t.TempDir(), forCLI.Replace(overridesRC))
				dir := run.config(map[string]string{
					"sizing/main.tf": config,
					"main.tf": `module "sizing" {
  source = "./sizing"
}

output "max_size" {
  value = module.sizing.max_size
}

output "max_size_from_the_function" {
  value = module.sizing.max_size_from_the_function
}
`,
				})
				// What the README says: no init, and plan wants the
				// module installed, which get does.
				if got := run.fails(dir, "plan", "-input=false", "-no-color"); !strings.Contains(got, "Module not installed") {
					t.Errorf("plan before get failed, but not for the module:\n%s", got)
				}
				run.ok(dir, "get", "-no-color")
				run.plan(dir, map[string]float64{"max_size": 32, "max_size_from_the_function": 32})
			})
		})
	}
}

// withoutMake is env without what a make running the tests passes to its
// children, so that make install reads only its own command line.
func withoutMake(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name != "MAKEFLAGS" && name != "MFLAGS" && name != "MAKELEVEL" && name != "PLUGIN_DIR" && name != "VERSION" {
			out = append(out, kv)
		}
	}
	return out
}

// cliRun runs one CLI with a home and a CLI configuration of the test's
// own, and none of the caller's TF_ variables (no plugin cache among them).
type cliRun struct {
	t   *testing.T
	cli string
	env []string
}

func newRun(t *testing.T, cli, home, rc string) *cliRun {
	t.Helper()
	rcFile := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(rcFile, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "TF_") && !strings.HasPrefix(name, "TOFU_") && name != "HOME" {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "TF_CLI_CONFIG_FILE="+rcFile, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	return &cliRun{t: t, cli: cli, env: env}
}

// config writes files into a new directory and returns it.
func (r *cliRun) config(files map[string]string) string {
	r.t.Helper()
	dir := r.t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	return dir
}

// run runs the CLI in dir and returns its standard output, and its
// standard error after it.
func (r *cliRun) run(dir string, args ...string) (stdout, all string, err error) {
	cmd := exec.Command(r.cli, append([]string{"-chdir=" + dir}, args...)...)
	cmd.Env = r.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), out.String() + errOut.String(), err
}

func (r *cliRun) ok(dir string, args ...string) string {
	r.t.Helper()
	stdout, all, err := r.run(dir, args...)
	if err != nil {
		r.t.Fatalf("%s %s: %v\n%s", filepath.Base(r.cli), strings.Join(args, " "), err, all)
	}
	return stdout
}

func (r *cliRun) fails(dir string, args ...string) string {
	r.t.Helper()
	_, all, err := r.run(dir, args...)
	if err == nil {
		r.t.Fatalf("%s %s succeeded, want it to fail:\n%s", filepath.Base(r.cli), strings.Join(args, " "), all)
	}
	return all
}

// plan plans into a file and checks the planned outputs.
func (r *cliRun) plan(dir string, want map[string]float64) {
	r.t.Helper()
	r.ok(dir, "plan", "-input=false", "-no-color", "-out=tfplan")
	var plan struct {
		OutputChanges map[string]struct {
			After any `json:"after"`
		} `json:"output_changes"`
	}
	if err := json.Unmarshal([]byte(r.ok(dir, "show", "-json", "tfplan")), &plan); err != nil {
		r.t.Fatalf("show -json: %v", err)
	}
	for name, value := range want {
		if got := fmt.Sprint(plan.OutputChanges[name].After); got != fmt.Sprint(value) {
			r.t.Errorf("output %s = %s, want %v", name, got, value)
		}
	}
}
