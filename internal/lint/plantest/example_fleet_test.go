// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanExampleFleet plans examples/fleet, the fleet plan, queue settings
// and alarms wired into AWS resources, against the test-only AWS provider
// under each CLI with provider functions: the group's sizes, the scaling
// policy's target, the queue's settings and one alarm per recommended
// alarm are known at plan, and the linter finds nothing to report.
func TestPlanExampleFleet(t *testing.T) {
	dir := "../../../examples/fleet"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		skipWithoutProviderFunctions(t, cli)
		planJSON := testaws.Plan(t, cli.Path, dir, `-var=launch_template_id=lt-0123456789abcdef0`,
			`-var=subnet_ids=["subnet-a","subnet-b"]`, `-var=alarm_topic_arn=arn:aws:sns:eu-west-1:123456789012:alarms`)
		var plan struct {
			PlannedValues struct {
				RootModule struct {
					Resources []struct {
						Address string         `json:"address"`
						Type    string         `json:"type"`
						Values  map[string]any `json:"values"`
					} `json:"resources"`
				} `json:"root_module"`
			} `json:"planned_values"`
		}
		if err := json.Unmarshal(planJSON, &plan); err != nil {
			t.Fatal(err)
		}
		values := map[string]map[string]any{}
		alarms := 0
		for _, r := range plan.PlannedValues.RootModule.Resources {
			values[r.Address] = r.Values
			if r.Type == "aws_cloudwatch_metric_alarm" {
				alarms++
				if _, ok := r.Values["threshold"].(float64); !ok || !strings.HasPrefix(r.Address, `aws_cloudwatch_metric_alarm.orders["`) {
					t.Errorf("%s: threshold %v, want a number known at plan", r.Address, r.Values["threshold"])
				}
			}
		}
		// λ_eff 11,000 msg/s at 400: 28 keep up, 33 give 20 % headroom,
		// 36 clear 5 M within 30 min when new instances take 3 min.
		asg := values["aws_autoscaling_group.workers"]
		if asg["min_size"] != 28.0 || asg["desired_capacity"] != 33.0 || asg["max_size"] != 36.0 {
			t.Errorf("group sizes %v, %v, %v; want 28, 33, 36", asg["min_size"], asg["desired_capacity"], asg["max_size"])
		}
		policy := values["aws_autoscaling_policy.backlog"]
		tt, _ := policy["target_tracking_configuration"].([]any)
		var target any
		if len(tt) == 1 {
			if m, ok := tt[0].(map[string]any); ok {
				target = m["target_value"]
			}
		}
		if target != 4000.0 || policy["estimated_instance_warmup"] != 180.0 {
			t.Errorf("scaling policy %v, want target 10 s × 400 msg/s = 4,000 and warmup 180", policy)
		}
		q := values["aws_sqs_queue.orders"]
		if v, _ := q["visibility_timeout_seconds"].(float64); v < 5 {
			t.Errorf("visibility timeout %v, want at least the 5 s a message takes", q["visibility_timeout_seconds"])
		}
		r, _ := q["message_retention_seconds"].(float64)
		d, _ := values["aws_sqs_queue.orders_dlq"]["message_retention_seconds"].(float64)
		if r == 0 || d <= r {
			t.Errorf("dead-letter retention %v is not longer than the queue's %v", d, r)
		}
		if alarms == 0 {
			t.Error("no alarm planned")
		}
		res := lintPlan(t, planJSON, dir)
		if len(res.Issues) != 0 {
			t.Errorf("findings %+v", findings(res))
		}
	})
}
