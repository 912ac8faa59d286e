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
		want       string // the advice, where a case states it
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
			// 427,074.63939506 × (1 + 0.611 × 3.0046875763221) msg/s ×
			// 5,454,623 s is an SLA depth of 6,606,233,781,549.9579…,
			// 6,606,233,781,549.96 to 15 digits (was: 6,606,233,781,549.93,
			// from λ_eff written to 15 digits first).
			name: "a depth threshold lowered to an SLA depth with retries", rule: "queuecap_depth_alarm_after_sla",
			config: func(v string) string {
				return depthAlarmOn(`"queuecap:arrival_rate" = 427074.63939506, "queuecap:sla_seconds" = 5454623, "queuecap:retry_rate" = 0.611, "queuecap:avg_retries" = 3.0046875763221`, "GreaterThanThreshold", v, "aws_sqs_queue.orders.name")
			},
			first: "6606233781556.76", want: "6606233781549.96",
			short: func(string) string { return "6606233781549.97" },
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
		// A capacity c·μ of more than 15 digits written to 15 before the
		// surplus was taken moved each of these verdicts by a hair.
		{
			// 46 × 2,277.1777692559 − 70,000 msg/s drains 173,750.886928857
			// messages in exactly 5 s (was: 5.00000000000012 s, over it).
			name: "a fleet raised to drain its backlog in exactly rto_seconds", rule: "queuecap_insufficient_headroom",
			config: func(v string) string {
				return decimalQueue(`"queuecap:arrival_rate" = 70000, "queuecap:max_backlog" = 173750.886928857, "queuecap:rto_seconds" = 5`, "1209600", v, "2277.1777692559")
			},
			first: "45", want: "46",
			short: func(string) string { return "45" },
		},
		{
			// 171 × 0.0765787023540972 msg/s exceeds 9 × 1.454995344727845
			// msg/s by 1.62e-14; written to 15 digits, 13.0949581025506,
			// it fell short of it.
			name: "a fleet raised for its min_headroom by a hair", rule: "queuecap_insufficient_headroom",
			config: func(v string) string {
				return decimalQueue(`"queuecap:arrival_rate" = 9, "queuecap:min_headroom" = 0.454995344727845`, "1209600", v, "0.0765787023540972")
			},
			first: "139", want: "171",
			short: func(string) string { return "170" },
		},
		{
			// 35 × 5.84912580831429 msg/s exceeds 36 × (1 + 0.809 ×
			// 5.79313979161516) msg/s by 2.3e-13; both written to 15
			// digits are 204.719403291.
			name: "a fleet raised to drain by a hair", rule: "queuecap_zero_surplus",
			config: func(v string) string {
				return decimalQueue(`"queuecap:arrival_rate" = 36, "queuecap:retry_rate" = 0.809, "queuecap:avg_retries" = 5.79313979161516`, "1209600", v, "5.84912580831429")
			},
			first: "34", want: "35",
			short: func(string) string { return "34" },
		},
		{
			// 99 × 8,213.6863587928 − 813,148 msg/s is 6.9495204872 msg/s,
			// which drains 20.8485614616 messages in exactly 3 s (was: 4).
			name: "a retention raised to a drain of exactly whole seconds", rule: "queuecap_retention_shorter_than_drain",
			config: func(v string) string {
				return decimalQueue(`"queuecap:arrival_rate" = 813148, "queuecap:max_backlog" = 20.8485614616`, v, "99", "8213.6863587928")
			},
			first: "2", want: "3",
			short: func(string) string { return "2" },
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
			if c.want != "" && advised != c.want {
				t.Errorf("%q: advice %s, want %s", found[0], advised, c.want)
			}
			if got := issues(advised); len(got) != 0 {
				t.Errorf("%q: at the advised %s still %q", found[0], advised, got)
			}
			if got := issues(c.short(advised)); len(got) == 0 {
				t.Errorf("%q: at %s, short of the advice, no finding", found[0], c.short(advised))
			}
		})
	}
}
