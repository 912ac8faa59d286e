// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"strings"
	"testing"
)

// TestIgnoreReports: an ignore that silences nothing is a notice by
// default, which fails the run only at a notice threshold; an ignore
// naming no rule is an error (exit 1) at its place.
func TestIgnoreReports(t *testing.T) {
	const unused = `resource "aws_sqs_queue" "orders" { # queuecap-ignore: queuecap_missing_dead_letter_queue # no consumer yet
  name = "orders"
}
`
	const notice = "main.tf:1:37: Notice - in aws_sqs_queue.orders: ignore of queuecap_missing_dead_letter_queue suppresses nothing: remove it"
	cases := []struct {
		name   string
		tf     string
		args   []string
		code   int
		stdout string // in stdout, "" for no notice
	}{
		{"unused, by default", unused, nil, 0, notice},
		{"unused, at a notice threshold", unused, []string{"--minimum-failure-severity", "notice"}, 2, notice},
		{"unused, not reported", unused, []string{"--report-unused-ignores=false"}, 0, ""},
		{"a misspelled rule", strings.Replace(unused, "dead_letter_queue", "dead_leter_queue", 1), []string{"--report-unused-ignores=false"}, 1,
			`main.tf:1:37: Error - queuecap-ignore names rule "queuecap_missing_dead_leter_queue", which does not exist; did you mean queuecap_missing_dead_letter_queue?`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"main.tf": c.tf})
			code, stdout, stderr := cli(t, dir, append([]string{"lint", "--format", "compact"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if c.stdout != "" && !strings.Contains(stdout, c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, stdout)
			}
			if c.stdout == "" && strings.Contains(stdout, "queuecap_unused_ignore") {
				t.Errorf("stdout has a notice:\n%s", stdout)
			}
		})
	}
}
