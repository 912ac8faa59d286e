// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/queuecap/terraform-provider-queuecap/internal/tflintplugin"
)

// TestDocumentedSnippet: the first .tflint.hcl the docs give, copied word
// for word, keeps a tflint job that passed passing on a clean
// configuration, and fails it (exit 2) with queuecap's findings on
// examples/lint/bad. The snippet is read from the Markdown, so the docs
// and this test cannot drift. The plugin is installed where `tflint
// --init` would put it for the snippet's source and version, which is the
// one step this test does not run: it downloads from GitHub.
func TestDocumentedSnippet(t *testing.T) {
	t.Parallel()
	noQueues := t.TempDir()
	if err := os.WriteFile(filepath.Join(noQueues, "main.tf"), []byte(`terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}

resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	clean := []string{noQueues, "../../examples/lint/good"}
	bad, _ := filepath.Abs("../../examples/lint/bad")
	var want []string // queuecap lint's rules on bad without a .queuecap.hcl, as the snippet has none
	for _, f := range runQueuecap(t, bad, "", false) {
		if f.Rule != tflintplugin.NotChecked && !slices.Contains(want, f.Rule) {
			want = append(want, f.Rule)
		}
	}
	slices.Sort(want)
	if len(want) == 0 {
		t.Fatal("queuecap lint finds nothing in examples/lint/bad")
	}

	for _, doc := range []struct{ file, heading string }{
		{"../../docs/tflint.md", "## Installing"},
		{"../../docs/guides/linting.md", "## Inside tflint"},
		{"../../README.md", "### tflint"},
	} {
		t.Run(filepath.Base(doc.file), func(t *testing.T) {
			snippet := docSnippet(t, doc.file, doc.heading)
			plugins := installAsInit(t, snippet)
			for _, dir := range clean {
				// The job passed before the snippet: the configuration is
				// clean for tflint's own rules.
				if code, rules, out := tflintJob(t, dir, "", plugins); code != 0 {
					t.Fatalf("tflint without the plugin exits %d on %s (%v), want 0:\n%s", code, dir, rules, out)
				}
				if code, rules, out := tflintJob(t, dir, snippet, plugins); code != 0 {
					t.Errorf("tflint with the snippet of %s exits %d on %s (%v), want 0:\n%s", doc.file, code, dir, rules, out)
				}
			}
			code, rules, out := tflintJob(t, bad, snippet, plugins)
			if code != 2 || !slices.Equal(rules, want) {
				t.Errorf("tflint with the snippet of %s on %s exits %d with queuecap rules %v, want 2 and %v:\n%s", doc.file, bad, code, rules, want, out)
			}
		})
	}
}

// docSnippet is the first ```hcl block after the line heading in the
// Markdown file path.
func docSnippet(t *testing.T, path, heading string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var block []string
	seen, in := false, false
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !seen:
			seen = line == heading
		case !in:
			in = line == "```hcl"
		case strings.HasPrefix(line, "```"):
			return strings.Join(block, "\n") + "\n"
		default:
			block = append(block, line)
		}
	}
	t.Fatalf("%s has no ```hcl block after %q", path, heading)
	return ""
}

// installAsInit returns a plugin directory holding this tree's plugin
// where tflint looks for the snippet's plugin block: under its source and
// version, as `tflint --init` installs it, or at the top for a block
// without them, as for a local build.
func installAsInit(t *testing.T, snippet string) string {
	t.Helper()
	_, built := tflint(t)
	f, diags := hclsyntax.ParseConfig([]byte(snippet), ".tflint.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("the snippet does not parse: %v\n%s", diags, snippet)
	}
	var source, version string
	for _, b := range f.Body.(*hclsyntax.Body).Blocks { //nolint:forcetypeassert // a native-syntax file's body
		if b.Type != "plugin" || len(b.Labels) != 1 || b.Labels[0] != tflintplugin.Name {
			continue
		}
		for name, dst := range map[string]*string{"source": &source, "version": &version} {
			if a, ok := b.Body.Attributes[name]; ok {
				v, d := a.Expr.Value(nil)
				if d.HasErrors() {
					t.Fatalf("the snippet's %s: %v", name, d)
				}
				*dst = v.AsString()
			}
		}
	}
	dir := t.TempDir()
	at := filepath.Join(dir, source, version)
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(built, "tflint-ruleset-queuecap"), filepath.Join(at, "tflint-ruleset-queuecap")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tflintJob runs tflint as a CI job does, in a copy of dir with config as
// its .tflint.hcl (none when empty), and returns the exit code, the
// queuecap rules it reports (sorted, once each) and its output.
func tflintJob(t *testing.T, dir, config, plugins string) (code int, rules []string, out string) {
	t.Helper()
	cli, _ := tflint(t)
	work := filepath.Join(t.TempDir(), "root")
	if b, err := exec.Command("cp", "-r", dir, work).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, b)
	}
	if config != "" {
		if err := os.WriteFile(filepath.Join(work, ".tflint.hcl"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The exit code does not depend on the format; JSON lists the rules.
	cmd := exec.Command(cli, "--format", "json")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins, "TFLINT_LOG=", "TFLINT_CONFIG_FILE=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("tflint in %s: %v", dir, err)
	}
	var rep tflintReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("tflint in %s: %v\nstdout: %s\nstderr: %s", dir, err, stdout.String(), stderr.String())
	}
	for _, is := range rep.Issues {
		if strings.HasPrefix(is.Rule.Name, "queuecap_") && !slices.Contains(rules, is.Rule.Name) {
			rules = append(rules, is.Rule.Name)
		}
	}
	slices.Sort(rules)
	return code, rules, stdout.String() + stderr.String()
}

// TestDocumentedConsole: the tflint session docs/tflint.md shows under
// "What was not checked" is what the real tflint prints with the plugin,
// the page's rule block and the command the session names, on the
// configuration the page names: the page is output, not prose.
func TestDocumentedConsole(t *testing.T) {
	t.Parallel()
	const page, heading = "../../docs/tflint.md", "## What was not checked"
	rule := docSnippet(t, page, heading)
	cmdLine, want := docConsole(t, page, heading)
	args := strings.Fields(cmdLine)
	if len(args) == 0 || args[0] != "tflint" {
		t.Fatalf("the session's command %q is not a tflint command", cmdLine)
	}
	cli, plugins := tflint(t)
	work := filepath.Join(t.TempDir(), "root")
	if b, err := exec.Command("cp", "-r", "testdata/not_checked", work).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, b)
	}
	config := "plugin \"queuecap\" {\n  enabled = true\n}\n\n" + rule
	if err := os.WriteFile(filepath.Join(work, ".tflint.hcl"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cli, args[1:]...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins, "TFLINT_LOG=", "TFLINT_CONFIG_FILE=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmdLine, err, out)
	}
	if got := strings.TrimRight(string(out), "\n"); got != want {
		t.Errorf("%s prints, on %s:\n%s\n\nwhere %s shows:\n%s", cmdLine, work, got, page, want)
	}
}

// docConsole is the first ```console block after heading in the Markdown
// file path: its command (the first line, without "$ ") and the output
// that follows it.
func docConsole(t *testing.T, path, heading string) (command, output string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(src), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no %q", path, heading)
	}
	_, block, ok := strings.Cut(after, "\n```console\n")
	if !ok {
		t.Fatalf("%s has no ```console block after %q", path, heading)
	}
	block, _, _ = strings.Cut(block, "\n```")
	first, rest, _ := strings.Cut(block, "\n")
	command, ok = strings.CutPrefix(first, "$ ")
	if !ok {
		t.Fatalf("%s: the ```console block after %q does not start with a command: %q", path, heading, first)
	}
	return command, rest
}
