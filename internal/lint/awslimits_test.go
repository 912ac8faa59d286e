// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestAWSLimitsBlock: an aws_limits block in .queuecap.hcl replaces AWS's
// published limits by their names, a Region's value of one that differs
// by Region as a map, and the rules check against them; a mistake is an
// error at its attribute.
func TestAWSLimitsBlock(t *testing.T) {
	const queue = `resource "aws_sqs_queue" "ledger" {
  name       = "ledger.fifo"
  fifo_queue = true
  tags       = { "queuecap:arrival_rate" = 2500 }
}
`
	for _, c := range []struct {
		name, limits string
		findings     int
		err          string
	}{
		{name: "AWS's limits: 2,500 msg/s is within 3,000"},
		{name: "a lower transaction limit", limits: "sqs_fifo_transactions_per_second = 200", findings: 1},
		{name: "a Region's value", limits: "sqs_fifo_high_throughput_transactions_per_second = { \"ap-south-1\" = 9000 }"},
		{name: "an unknown name", limits: "sqs_fifo_transactions_per_sec = 200", err: `:2,35-38: Invalid aws_limits block; `},
		{name: "not a number", limits: "sqs_batch_max_messages = \"ten\"", err: `Invalid value for sqs_batch_max_messages; sqs_batch_max_messages must be a number, or a map of Regions to numbers`},
		{name: "out of range", limits: "sqs_batch_max_messages = -1", err: `Invalid aws_limits block`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			config := ""
			if c.limits != "" {
				config = "aws_limits {\n  " + c.limits + "\n}\n"
			}
			writeFiles(t, dir, map[string]string{"main.tf": queue, ".queuecap.hcl": config})
			cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
			if c.err != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), c.err) {
					t.Errorf("diagnostics %v, want %q", diags, c.err)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg})
			n := 0
			for _, is := range res.Issues {
				if is.Rule == "queuecap_fifo_throughput_ceiling" {
					n++
					if !strings.Contains(is.Message, "200 API calls/s") {
						t.Errorf("message %q does not use the overridden limit", is.Message)
					}
				}
			}
			if n != c.findings {
				t.Errorf("%d findings, want %d: %+v", n, c.findings, res.Issues)
			}
		})
	}
}
