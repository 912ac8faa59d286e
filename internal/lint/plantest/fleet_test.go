// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanQueuecapFleet: the fleet plan's scaling specifications drop into
// aws_autoscaling_policy, aws_appautoscaling_policy and the scaling_config
// of aws_lambda_event_source_mapping through dynamic blocks alone, and each
// CLI plans them against the AWS provider's own schemas (the stand-in
// serves them unchanged). The group's sizes come from the same plan, and
// the linter finds nothing wrong with them, from the plan as from the HCL.
func TestPlanQueuecapFleet(t *testing.T) {
	dir := "testdata/queuecap_fleet"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		planJSON := testaws.Plan(t, cli.Path, dir)
		var plan struct {
			PlannedValues struct {
				RootModule struct {
					Resources []struct {
						Address string         `json:"address"`
						Values  map[string]any `json:"values"`
					} `json:"resources"`
				} `json:"root_module"`
			} `json:"planned_values"`
		}
		if err := json.Unmarshal(planJSON, &plan); err != nil {
			t.Fatal(err)
		}
		values := map[string]map[string]any{}
		for _, r := range plan.PlannedValues.RootModule.Resources {
			values[r.Address] = r.Values
		}
		asg := values["aws_autoscaling_group.workers"]
		if asg["min_size"] != 25.0 || asg["desired_capacity"] != 30.0 || asg["max_size"] != 33.0 {
			t.Errorf("group sizes %v, %v, %v; want 25, 30, 33", asg["min_size"], asg["desired_capacity"], asg["max_size"])
		}
		// EC2's metric_stat has a period too, which the plan leaves null.
		metrics := func(countID, countLabel, namespace, name string, dims []any, per string) []any {
			metric := func(id, label, namespace, name, stat string, dims []any) map[string]any {
				stats := map[string]any{"stat": stat, "unit": nil, "metric": []any{map[string]any{"metric_name": name, "namespace": namespace, "dimensions": dims}}}
				if per == "instance" {
					stats["period"] = nil
				}
				return map[string]any{"id": id, "label": label, "expression": nil, "return_data": false, "metric_stat": []any{stats}}
			}
			return []any{
				metric("visible", "Visible messages", "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Sum", []any{map[string]any{"name": "QueueName", "value": "orders"}}),
				metric(countID, countLabel, namespace, name, "Average", dims),
				map[string]any{"id": "backlog_per_" + per, "label": "Backlog per " + per, "expression": "visible / " + countID, "return_data": true, "metric_stat": []any{}},
			}
		}
		ec2 := metrics("in_service", "Instances in service", "AWS/AutoScaling", "GroupInServiceInstances",
			[]any{map[string]any{"name": "AutoScalingGroupName", "value": "workers"}}, "instance")
		policy := values["aws_autoscaling_policy.backlog"]
		if policy["policy_type"] != "TargetTrackingScaling" || policy["estimated_instance_warmup"] != 180.0 {
			t.Errorf("aws_autoscaling_policy: policy_type %v, estimated_instance_warmup %v", policy["policy_type"], policy["estimated_instance_warmup"])
		}
		tt := only(t, "target_tracking_configuration", policy["target_tracking_configuration"])
		if tt["target_value"] != 4000.0 {
			t.Errorf("aws_autoscaling_policy: target_value %v, want 4000", tt["target_value"])
		}
		spec := only(t, "customized_metric_specification", tt["customized_metric_specification"])
		sameMetrics(t, "aws_autoscaling_policy", spec["metrics"], ec2)

		app := values["aws_appautoscaling_policy.consumer"]
		tt = only(t, "target_tracking_scaling_policy_configuration", app["target_tracking_scaling_policy_configuration"])
		if tt["target_value"] != 4000.0 || app["policy_type"] != "TargetTrackingScaling" {
			t.Errorf("aws_appautoscaling_policy: target_value %v, policy_type %v", tt["target_value"], app["policy_type"])
		}
		spec = only(t, "customized_metric_specification", tt["customized_metric_specification"])
		sameMetrics(t, "aws_appautoscaling_policy", spec["metrics"], metrics("running_tasks", "Running tasks", "ECS/ContainerInsights", "RunningTaskCount",
			[]any{map[string]any{"name": "ClusterName", "value": "main"}, map[string]any{"name": "ServiceName", "value": "orders-consumer"}}, "task"))
		target := values["aws_appautoscaling_target.consumer"]
		if target["min_capacity"] != 25.0 || target["max_capacity"] != 33.0 || target["scalable_dimension"] != "ecs:service:DesiredCount" {
			t.Errorf("aws_appautoscaling_target: %v", target)
		}

		esm := values["aws_lambda_event_source_mapping.orders"]
		if sc := only(t, "scaling_config", esm["scaling_config"]); sc["maximum_concurrency"] != 33.0 {
			t.Errorf("scaling_config %v, want maximum_concurrency 33", sc)
		}

		res := lintPlan(t, planJSON, dir)
		sameFindings(t, res, lintHCL(t, dir))
		for _, f := range findings(res) {
			if f.rule == "queuecap_zero_surplus" || f.rule == "queuecap_insufficient_headroom" {
				t.Errorf("finding on a fleet sized by queuecap_fleet: %+v", f)
			}
		}
	})
}

// only is the one element of a block list.
func only(t *testing.T, name string, v any) map[string]any {
	t.Helper()
	l, ok := v.([]any)
	if !ok || len(l) != 1 {
		t.Fatalf("%s = %#v, want one block", name, v)
	}
	m, ok := l[0].(map[string]any)
	if !ok {
		t.Fatalf("%s = %#v, want a block", name, v)
	}
	return m
}

// sameMetrics compares a set of metrics blocks, in any order.
func sameMetrics(t *testing.T, what string, got any, want []any) {
	t.Helper()
	l, _ := got.([]any)
	if len(l) != len(want) {
		t.Fatalf("%s: metrics %#v, want %#v", what, got, want)
	}
	for _, w := range want {
		found := false
		for _, g := range l {
			found = found || reflect.DeepEqual(g, w)
		}
		if !found {
			t.Errorf("%s: no metrics block %#v in %#v", what, w, l)
		}
	}
}
