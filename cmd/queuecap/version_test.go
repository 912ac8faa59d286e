// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionStamped builds the CLI as the release build does, with
// -X main.version and -X main.commit, and checks that --version prints
// both and that the rule links point at that release's docs.
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	bin := buildCLI(t, "-X main.version=v9.8.7 -X main.commit=0123456789abcdef0123456789abcdef01234567")
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("queuecap --version: %v", err)
	}
	if got, want := string(out), "queuecap v9.8.7 (commit 0123456789abcdef0123456789abcdef01234567)\n"; got != want {
		t.Errorf("queuecap --version = %q, want %q", got, want)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`resource "aws_sqs_queue" "q" {}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// SARIF lists every rule run, with its link.
	if out, err = exec.Command(bin, "lint", "--format", "sarif", dir).Output(); err != nil {
		t.Fatalf("queuecap lint: %v", err)
	}
	if want := "/blob/v9.8.7/docs/rules/"; !strings.Contains(string(out), want) {
		t.Errorf("no rule link with %s in:\n%s", want, out)
	}
}
