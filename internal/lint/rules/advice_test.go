// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"regexp"
	"strings"
	"testing"
)

// advice is the value a finding's first line tells the user to set.
var advice = regexp.MustCompile(`(?:raise|lower) it to (?:at least )?([0-9,.]+)`)

// TestAdviceClearsTheFinding: the value a finding says to set clears it,
// and the next value short of it, as the first line prints numbers, does
// not: advice that rounds past its own bound, or that forgets another
// bound of the same rule, sends the user back for a second fix.
func TestAdviceClearsTheFinding(t *testing.T) {
	for _, c := range []struct {
		name, rule string
		config     func(value string) string
		first      string // the value that is flagged
		short      func(advised string) string
	}{
		{
			// 12.719 msg/s × 125 s is an SLA depth of 1,589.875.
			name: "a depth threshold lowered to the SLA depth", rule: "queuecap_depth_alarm_after_sla",
			config: func(v string) string {
				return depthAlarmOn(`"queuecap:arrival_rate" = 12.719, "queuecap:sla_seconds" = 125`, "GreaterThanThreshold", v, "aws_sqs_queue.orders.name")
			},
			first: "2000",
			short: func(string) string { return "1589.88" },
		},
		{
			// 10,000 / 400 + 5,400,000 / (400 × 1,800) needs 33 consumers
			// for the backlog; min_headroom 50 % needs 38.
			name: "a fleet raised for its backlog and its headroom", rule: "queuecap_insufficient_headroom",
			config: func(v string) string {
				return tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 5400000, "queuecap:rto_seconds" = 1800, "queuecap:min_headroom" = 0.5`, "", v)
			},
			first: "30",
			short: func(advised string) string { return "37" },
		},
		{
			name: "a fleet raised to drain at all", rule: "queuecap_zero_surplus",
			config: func(v string) string { return tagged(`"queuecap:arrival_rate" = 10000`, "", v) },
			first:  "25",
			short:  func(string) string { return "25" },
		},
		{
			// 3,600,000 / (12,800 − 10,000) is 1,285.71 s.
			name: "a retention raised to outlast the drain", rule: "queuecap_retention_shorter_than_drain",
			config: func(v string) string {
				return tagged(`"queuecap:arrival_rate" = 10000, "queuecap:max_backlog" = 3600000`, "message_retention_seconds = "+v, "32")
			},
			first: "1200",
			short: func(string) string { return "1285" },
		},
		{
			name: "a visibility timeout raised to six function timeouts", rule: "queuecap_visibility_timeout_too_short",
			config: func(v string) string {
				return lambdaConsumer("visibility_timeout_seconds = "+v, "timeout = 30", "aws_lambda_function.worker.function_name")
			},
			first: "60",
			short: func(string) string { return "179" },
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			issues := func(v string) []string {
				res, _ := lintCase(t, c.rule, ruleCase{files: map[string]string{"main.tf": c.config(v)}})
				var out []string
				for _, is := range res.Issues {
					out = append(out, is.Summary)
				}
				return out
			}
			found := issues(c.first)
			if len(found) != 1 {
				t.Fatalf("at %s: %q, want one finding", c.first, found)
			}
			m := advice.FindStringSubmatch(found[0])
			if m == nil {
				t.Fatalf("no advice in %q", found[0])
			}
			advised := strings.ReplaceAll(m[1], ",", "")
			if got := issues(advised); len(got) != 0 {
				t.Errorf("%q: at the advised %s still %q", found[0], advised, got)
			}
			if got := issues(c.short(advised)); len(got) == 0 {
				t.Errorf("%q: at %s, short of the advice, no finding", found[0], c.short(advised))
			}
		})
	}
}
