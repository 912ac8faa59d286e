// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"strings"
	"testing"
)

// queueTF is a queue nothing consumes: one coverage skip, no finding.
const queueTF = `resource "aws_sqs_queue" "q" {
  name = "q"
}
`

// TestVarValueErrorAlone: a --var value that does not fit its variable's
// type is the run's message; the root module declares a queue, so no line
// says that the configuration declares none.
func TestVarValueErrorAlone(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": "variable \"max\" {\n  type = number\n}\n\n" + queueTF})
	const want = `main.tf:1:1: Error - Invalid value for input variable: unsuitable value for var.max set using --var="max=..." (declared at main.tf:1): a number is required; the root module is not checked until the value fits` + "\n"
	code, stdout, stderr := cli(t, dir, "lint", "--format", "compact", "--var", "max=abc")
	if code != exitError || stdout != want || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and stdout %q", code, stdout, stderr, want)
	}
	_, stdout, _ = cli(t, "", "lint", "--no-color", "--var", "max=abc")
	if strings.Contains(stdout, "No aws_sqs_queue was checked") {
		t.Errorf("the default format says no queue was declared:\n%s", stdout)
	}
}

// TestCompactShowSkipped: --show-skipped lists the skipped checks in the
// compact format too, one line each, and the count no longer points at
// the flag given.
func TestCompactShowSkipped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": queueTF})
	code, stdout, _ := cli(t, dir, "lint", "--format", "compact", "--show-skipped")
	if code != exitOK {
		t.Errorf("exit %d, want 0", code)
	}
	const skip = "main.tf:1:1: Skipped - in aws_sqs_queue.q: no consumer of aws_sqs_queue.q is linked"
	if !strings.HasPrefix(stdout, skip) || !strings.HasSuffix(stdout, "(coverage)\n1 check skipped\n") {
		t.Errorf("compact --show-skipped output:\n%s\nwant it to start %q and end with the count alone", stdout, skip)
	}
	_, stdout, _ = cli(t, "", "lint", "--format", "compact")
	if stdout != "1 check skipped: --show-skipped lists them\n" {
		t.Errorf("compact output without --show-skipped: %q", stdout)
	}
}
