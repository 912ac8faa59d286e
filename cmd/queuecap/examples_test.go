// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// badFindings is how many findings examples/lint/bad gives: one per rule.
var badFindings = len(rules.All())

// TestExamplesLint holds the bundled examples to what their READMEs
// promise: the provider examples and examples/lint/good lint clean with
// nothing skipped, and examples/lint/bad has exactly one finding per rule.
func TestExamplesLint(t *testing.T) {
	type result struct {
		Issues  []struct{ Rule string }
		Errors  []struct{ Message string }
		Skipped []struct{ Rule, Reason string }
	}
	lint := func(t *testing.T, args ...string) (result, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"lint", "--format", "json"}, args...), &stdout, &stderr)
		var r result
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatalf("output is not JSON: %v\n%s%s", err, stdout.String(), stderr.String())
		}
		return r, code
	}
	for _, args := range [][]string{
		{"../../examples/alarms"},
		{"../../examples/sizing"},
		{"../../examples/sizing-asg"},
		{"../../examples/prometheus"},
		{"../../examples/queue-settings"},
		{"../../examples/fleet"},
		{"../../examples/tests"},
		{"--config", "../../examples/lint/queuecap.hcl", "../../examples/lint/good"},
	} {
		t.Run(args[len(args)-1], func(t *testing.T) {
			r, code := lint(t, args...)
			if code != 0 || len(r.Issues) != 0 || len(r.Errors) != 0 || len(r.Skipped) != 0 {
				t.Errorf("exit %d, issues %v, errors %v, skipped %v; want a clean run", code, r.Issues, r.Errors, r.Skipped)
			}
		})
	}
	t.Run("examples/lint/bad", func(t *testing.T) {
		r, code := lint(t, "--config", "../../examples/lint/queuecap.hcl", "../../examples/lint/bad")
		if code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
		var rules []string
		for _, is := range r.Issues {
			rules = append(rules, is.Rule)
		}
		slices.Sort(rules)
		want := []string{"queuecap_batch_retry_amplification", "queuecap_conflicting_concurrency", "queuecap_depth_alarm_after_sla", "queuecap_depth_only_scaling", "queuecap_fifo_throughput_ceiling", "queuecap_insufficient_headroom",
			"queuecap_metastable_retry_storm", "queuecap_missing_dead_letter_queue", "queuecap_retention_shorter_than_drain", "queuecap_surplus_during_deploy", "queuecap_unreachable_within_rto", "queuecap_visibility_timeout_too_short", "queuecap_zero_surplus"}
		if !slices.Equal(rules, want) {
			t.Errorf("findings by rule %v, want one each of %v", rules, want)
		}
		// The one thing not checked is the very bug of bad/: payments has
		// no redrive policy, so nothing makes payments_dlq its dead-letter
		// queue, and nothing consumes it.
		if len(r.Errors) != 0 || len(r.Skipped) != 1 || r.Skipped[0].Rule != "coverage" || !strings.Contains(r.Skipped[0].Reason, "no consumer of aws_sqs_queue.payments_dlq is linked") {
			t.Errorf("errors %v, skipped %v; want only payments_dlq's coverage skip", r.Errors, r.Skipped)
		}
	})
}
