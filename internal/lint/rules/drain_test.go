// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// capacityRules are the rules that state a queue's surplus or drain time.
var capacityRules = []string{
	"queuecap_zero_surplus",
	"queuecap_insufficient_headroom",
	"queuecap_retention_shorter_than_drain",
	"queuecap_depth_alarm_after_sla",
	"queuecap_metastable_retry_storm",
}

// decimalQueue is a queue with decimal rates consumed by an ECS service of
// desired_count consumers at per_consumer_rate msg/s each.
func decimalQueue(tags, retention, consumers, perConsumerRate string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "jobs" {
  name                      = "jobs"
  message_retention_seconds = %s
  tags                      = { %s }
}

resource "aws_ecs_service" "worker" {
  name          = "worker"
  cluster       = "batch"
  desired_count = %s
  tags = {
    "queuecap:per_consumer_rate" = %s
    "queuecap:queue"             = "aws_sqs_queue.jobs"
  }
}
`, retention, tags, consumers, perConsumerRate)
}

// TestOneDrainTimePerQueue lints configurations on which several rules
// report one queue, and checks that every finding states the same drain
// time, in its facts and in its message.
func TestOneDrainTimePerQueue(t *testing.T) {
	for _, tc := range []struct {
		name      string
		main      string
		reporting []string // in the order of their ranges
		// drainSeconds is the drain_seconds fact of every finding (and
		// drain_seconds_without_retries of the retry storm's), drainText
		// the drain time as their messages state it.
		drainSeconds float64
		drainText    string
	}{
		{
			// The retry storm's simulation reached depth 0 at t = 1286 s, and
			// its finding said 1286 s where the two others said 1285.71 s.
			name: "retention, RTO and a retry storm on the seed's fleet",
			main: tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 3600000, "queuecap:rto_seconds" = 1200, "queuecap:retries_per_timeout" = 1.5`,
				"message_retention_seconds = 1200", "32"),
			reporting:    []string{"queuecap_retention_shorter_than_drain", "queuecap_insufficient_headroom", "queuecap_metastable_retry_storm"},
			drainSeconds: 1285.71428571429,
			drainText:    "1,285.71 s",
		},
		{
			// 0.4 − 0.3 × (1 + 0.1 × 3) is 0.010000000000000009 in float64,
			// and 10 / that is 999.9999999999991 s.
			name: "decimal rates: 4 × 0.1 msg/s against 0.3 × (1 + 0.1 × 3) msg/s",
			main: decimalQueue(`"queuecap:arrival_rate" = 0.3, "queuecap:retry_rate" = 0.1, "queuecap:avg_retries" = 3, "queuecap:max_backlog" = 10, "queuecap:rto_seconds" = 20`,
				"60", "4", "0.1"),
			reporting:    []string{"queuecap_retention_shorter_than_drain", "queuecap_insufficient_headroom"},
			drainSeconds: 1000,
			drainText:    "1,000 s",
		},
		{
			// 0.3 − 0.2 is 0.09999999999999998 in float64, and both rules
			// reported a drain of 10 / that = 100.00000000000003 s as longer
			// than a retention and an RTO of 100 s.
			name: "a drain time equal to retention and RTO is within both",
			main: decimalQueue(`"queuecap:arrival_rate" = 0.2, "queuecap:max_backlog" = 10, "queuecap:rto_seconds" = 100`,
				"100", "1", "0.3"),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(tc.main), 0o644); err != nil {
				t.Fatal(err)
			}
			var rs []lint.Rule
			for _, name := range capacityRules {
				rs = append(rs, ruleNamed(t, name))
			}
			res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rs})
			if err != nil {
				t.Fatal(err)
			}
			var reporting []string
			surpluses := map[float64]bool{}
			for _, is := range res.Issues {
				reporting = append(reporting, is.Rule)
				f := is.FactMap()
				surpluses[f["surplus"]] = true
				drain, ok := f["drain_seconds"]
				if !ok {
					drain, ok = f["drain_seconds_without_retries"]
				}
				if !ok || drain != tc.drainSeconds {
					t.Errorf("%s: drain time %v (stated: %v), want %v", is.Rule, drain, ok, tc.drainSeconds)
				}
				if !strings.Contains(is.Message, " "+tc.drainText) {
					t.Errorf("%s: message does not state %s: %s", is.Rule, tc.drainText, is.Message)
				}
			}
			if !reflect.DeepEqual(reporting, tc.reporting) {
				t.Errorf("rules reporting: %v, want %v", reporting, tc.reporting)
			}
			if len(surpluses) > 1 {
				t.Errorf("surpluses %v, want one", surpluses)
			}
		})
	}
}
