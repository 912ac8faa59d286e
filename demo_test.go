// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeCLI writes an executable named name into dir that answers `version`
// and `version -json` as a Terraform or OpenTofu of the given version does
// (reportsJSON false: as Terraform 0.12, which has no -json), and `apply`
// with a line that is coloured unless -no-color is among its arguments.
func fakeCLI(t *testing.T, dir, name, product, version string, reportsJSON bool) string {
	t.Helper()
	jsonCase := `printf '{\n  "terraform_version": "%[2]s",\n  "platform": "linux_amd64"\n}\n'`
	if !reportsJSON {
		jsonCase = `echo "%[1]s v%[2]s"`
	}
	script := strings.NewReplacer("%[1]s", product, "%[2]s", version).Replace(`#!/bin/sh
case "$1 $2" in
"version -json") ` + jsonCase + ` ;;
"version "*) echo "%[1]s v%[2]s"; echo "on linux_amd64" ;;
esac
`)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// scriptPath is a PATH holding the fakes in fakes, then links to the
// commands the tools/ scripts run, and nothing else: no terraform or tofu
// but the fakes.
func scriptPath(t *testing.T, fakes string, commands ...string) string {
	t.Helper()
	sys := t.TempDir()
	for _, name := range append([]string{"bash", "sed", "head", "dirname", "mkdir", "mktemp", "mv", "rm", "env", "sleep", "cat"}, commands...) {
		target, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is not installed", name)
		}
		if err := os.Symlink(target, filepath.Join(sys, name)); err != nil {
			t.Fatal(err)
		}
	}
	return fakes + string(os.PathListSeparator) + sys
}

// scriptEnv is the environment without the variables that would steer the
// scripts, with vars added.
func scriptEnv(vars ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "TF_"), strings.HasPrefix(name, "TOFU_"), strings.HasPrefix(name, "QUEUECAP_"),
			name == "PATH", name == "TERRAFORM", name == "NO_COLOR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, vars...)
}

// TestDemoCLIChoice runs tools/demo-cli.sh, the demo's choice of CLI, with
// fake terraform and tofu executables on PATH: the terraform on PATH when
// it is 1.0 or newer, else the tofu on PATH, else the Terraform 1.5.7 that
// tools/install-cli.sh caches (here a fake, already cached, so nothing is
// built), each named with its version in one line.
func TestDemoCLIChoice(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	type fake struct {
		name, product, version string
		json                   bool
	}
	tests := []struct {
		name      string
		fakes     []fake
		terraform bool   // set TERRAFORM to a fake of its own
		want      string // the chosen fake: terraform, tofu, cached or TERRAFORM
		say       string // in the line naming it
		note      string // also on standard error
	}{
		{
			name:  "terraform 1.9 on PATH",
			fakes: []fake{{"terraform", "Terraform", "1.9.0", true}, {"tofu", "OpenTofu", "1.8.0", true}},
			want:  "terraform", say: "==> using Terraform 1.9.0: FAKES/terraform (the terraform on PATH)",
		},
		{
			name:  "terraform 1.0 on PATH",
			fakes: []fake{{"terraform", "Terraform", "1.0.0", true}},
			want:  "terraform", say: "==> using Terraform 1.0.0: FAKES/terraform (the terraform on PATH)",
		},
		{
			name:  "only tofu on PATH",
			fakes: []fake{{"tofu", "OpenTofu", "1.8.0", true}},
			want:  "tofu", say: "==> using OpenTofu 1.8.0: FAKES/tofu (the tofu on PATH)",
		},
		{
			name:  "terraform 0.14 and tofu on PATH",
			fakes: []fake{{"terraform", "Terraform", "0.14.11", true}, {"tofu", "OpenTofu", "1.6.0-beta1", true}},
			want:  "tofu", say: "==> using OpenTofu 1.6.0-beta1: FAKES/tofu (the tofu on PATH)",
			note: "==> not using FAKES/terraform: it reports version '0.14.11', and the demo needs Terraform 1.0 or newer",
		},
		{
			name:  "terraform 0.12 without version -json",
			fakes: []fake{{"terraform", "Terraform", "0.12.31", false}},
			want:  "cached", say: "==> using Terraform 1.5.7: CACHE/bin/terraform-1.5.7 (built by tools/install-cli.sh)",
			note: "==> not using FAKES/terraform: it reports version '0.12.31'",
		},
		{
			name: "neither on PATH",
			want: "cached", say: "==> using Terraform 1.5.7: CACHE/bin/terraform-1.5.7 (built by tools/install-cli.sh)",
			note: "==> no Terraform 1.0+ or OpenTofu on PATH",
		},
		{
			name:      "TERRAFORM set",
			fakes:     []fake{{"terraform", "Terraform", "1.9.0", true}},
			terraform: true,
			want:      "TERRAFORM", say: "==> using OTHER/terraform 1.4.0 (from TERRAFORM)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fakes, cache, other := t.TempDir(), t.TempDir(), t.TempDir()
			paths := map[string]string{}
			for _, f := range tt.fakes {
				paths[f.name] = fakeCLI(t, fakes, f.name, f.product, f.version, f.json)
			}
			if err := os.MkdirAll(filepath.Join(cache, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			paths["cached"] = fakeCLI(t, filepath.Join(cache, "bin"), "terraform-1.5.7", "Terraform", "1.5.7", true)
			env := scriptEnv("PATH="+scriptPath(t, fakes), "QUEUECAP_CACHE="+cache)
			if tt.terraform {
				paths["TERRAFORM"] = fakeCLI(t, other, "terraform", "Terraform", "1.4.0", true)
				env = append(env, "TERRAFORM="+paths["TERRAFORM"])
			}
			cmd := exec.Command("bash", filepath.Join(root, "tools/demo-cli.sh"))
			cmd.Env = env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("tools/demo-cli.sh: %v\n%s", err, stderr.String())
			}
			if got := strings.TrimSpace(stdout.String()); got != paths[tt.want] {
				t.Errorf("chose %q, want %q (%s)\nstderr:\n%s", got, paths[tt.want], tt.want, stderr.String())
			}
			dirs := strings.NewReplacer("FAKES", fakes, "CACHE", cache, "OTHER", other)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if say := dirs.Replace(tt.say); lines[len(lines)-1] != say {
				t.Errorf("last line on stderr:\n  %s\nwant\n  %s", lines[len(lines)-1], say)
			}
			if using := strings.Count(stderr.String(), "==> using "); using != 1 {
				t.Errorf("%d lines name the CLI used, want 1:\n%s", using, stderr.String())
			}
			if tt.note != "" && !strings.Contains(stderr.String(), dirs.Replace(tt.note)) {
				t.Errorf("stderr does not say %q:\n%s", dirs.Replace(tt.note), stderr.String())
			}
		})
	}
}

// TestInstallCLIProgress builds a CLI with tools/install-cli.sh through a
// fake go that takes 3 s, with a progress line every second: a cold build
// of Terraform says what it builds and then how long it has been at it,
// where go install alone prints nothing for minutes.
func TestInstallCLIProgress(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	fakes, cache := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(fakes, "go"), []byte("#!/bin/sh\nsleep 3\necho built >\"$GOBIN/terraform\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(root, "tools/install-cli.sh"), "terraform")
	cmd.Env = scriptEnv("PATH="+scriptPath(t, fakes), "QUEUECAP_CACHE="+cache, "QUEUECAP_PROGRESS_SECONDS=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("tools/install-cli.sh terraform: %v\n%s", err, stderr.String())
	}
	elapsed := time.Since(start)
	want := filepath.Join(cache, "bin", "terraform-1.5.7")
	if got := strings.TrimSpace(stdout.String()); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	if data, err := os.ReadFile(want); err != nil || string(data) != "built\n" {
		t.Errorf("%s: %q, %v; want what go install built", want, data, err)
	}
	for _, line := range []string{
		"building terraform 1.5.7 from source into " + filepath.Join(cache, "bin"),
		"  ... still building terraform 1.5.7: 0 min 0",
	} {
		if !strings.Contains(stderr.String(), line) {
			t.Errorf("stderr does not say %q:\n%s", line, stderr.String())
		}
	}
	// The ticker is gone with the build: the output closed when it ended,
	// not a tick later.
	if elapsed > 10*time.Second {
		t.Errorf("took %v for a 3 s build", elapsed)
	}
}

// TestDemoPiped runs `make demo`'s script, tools/demo.sh, as a log or a CI
// job does, its output piped, under the terraform on PATH: it names the CLI
// it uses, applies examples/sizing and lints examples/lint, and writes no
// colour escapes.
func TestDemoPiped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the provider and the linter, and runs terraform")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	cli, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("no terraform on PATH")
	}
	out, _ := exec.Command(cli, "version", "-json").Output()
	var v struct {
		Version string `json:"terraform_version"`
	}
	if json.Unmarshal(out, &v) != nil || v.Version == "" || v.Version[0] == '0' {
		// The demo would build Terraform 1.5.7 (or take a tofu on PATH).
		t.Skipf("%s is not Terraform 1.0 or newer", cli)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	// The terraform on PATH is its only source of Terraform.
	cmd := exec.Command("bash", filepath.Join(root, "tools/demo.sh"))
	cmd.Dir = root
	cmd.Env = scriptEnv("PATH="+os.Getenv("PATH"), "QUEUECAP_CACHE="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tools/demo.sh: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for name, text := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
		if i := strings.IndexByte(text, 0x1b); i >= 0 {
			t.Errorf("%s has an escape at byte %d: %q", name, i, text[max(0, i-40):min(len(text), i+40)])
		}
	}
	if say := "==> using Terraform " + v.Version + ": " + cli + " (the terraform on PATH)"; !strings.Contains(stderr.String(), say) {
		t.Errorf("stderr does not say %q:\n%s", say, stderr.String())
	}
	for _, want := range []string{
		"==> terraform apply examples/sizing",
		`"max_size" = 32`,
		"==> queuecap lint examples/lint/good (the fixed twin: no findings)\nChecked 6 of 6 queues with a consumer\nno findings\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout does not have %q:\n%s", want, stdout.String())
		}
	}
}
