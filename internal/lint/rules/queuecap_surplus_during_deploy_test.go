// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"strings"
	"testing"
)

// refreshed is tagged's queue and group of max_size 25, the group with
// more arguments and blocks (an instance refresh, a maintenance policy) at
// its end.
func refreshed(tags, extra string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { %s }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 25
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
%s
}
`, tags, extra)
}

// ecsService is a queue of 9,000 msg/s consumed by an ECS service of
// desired_count 25 at 400 msg/s a task, with more arguments.
func ecsService(extra string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 9000 }
}

resource "aws_ecs_service" "workers" {
  name          = "workers"
  desired_count = 25
  tags = {
    "queuecap:per_consumer_rate" = 400
    "queuecap:queue"             = "aws_sqs_queue.orders"
  }
%s
}
`, extra)
}

func TestSurplusDuringDeploy(t *testing.T) {
	arrival := `"queuecap:arrival_rate" = 9000`
	backlog := `"queuecap:arrival_rate" = 9000, "queuecap:max_backlog" = 1800000, "queuecap:rto_seconds" = 1800`
	refresh := "  instance_refresh {\n    strategy = \"Rolling\"\n  }"
	withPrefs := func(prefs string) string {
		return "  instance_refresh {\n    strategy = \"Rolling\"\n    preferences {\n" + prefs + "\n    }\n  }"
	}
	runRuleCases(t, "queuecap_surplus_during_deploy", []ruleCase{
		{
			// 25 × 400 = 10,000 msg/s has a surplus of 1,000 over 9,000;
			// AWS's default refresh keeps ceil(25 × 90 %) = 23, 9,200
			// msg/s: 200 to spare. At 22, 8,800 msg/s, it has none.
			name:  "the default refresh keeps a surplus",
			files: map[string]string{"main.tf": refreshed(arrival, refresh)},
		},
		{
			name:  "a refresh down to 80 %",
			files: map[string]string{"main.tf": refreshed(arrival, withPrefs("      min_healthy_percentage = 80"))},
			issues: []issue{{Summary: "during a refresh 20 of 25 consumers take 8,000 msg/s of 9,000 arriving: set max_healthy_percentage over 100",
				Message: "an instance refresh of aws_autoscaling_group.workers keeps ceil(25 × 80 %) = 20 of its 25 consumers in service (instance_refresh.preferences.min_healthy_percentage 80 %): 20 × 400 msg/s = 8,000 msg/s leaves a deficit of 1,000 msg/s over the declared arrival rate 9,000 msg/s, so a backlog grows during every instance refresh instead of draining",
				Start:   at(22, 7), End: at(22, 34),
				Facts: facts("arrival_rate", 9000, "effective_arrival_rate", 9000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 1000,
					"min_healthy_percent", 80, "deploy_consumers", 20, "deploy_capacity", 8000, "deploy_surplus", -1000)}},
		},
		{
			// 22.5 consumers round up to 23: 9,200 msg/s against 9,200.
			name:  "AWS's default leaves exactly no surplus",
			files: map[string]string{"main.tf": refreshed(`"queuecap:arrival_rate" = 9200`, refresh)},
			issues: []issue{{Summary: "during a refresh 23 of 25 consumers take 9,200 msg/s of 9,200 arriving: set max_healthy_percentage over 100",
				Message: "an instance refresh of aws_autoscaling_group.workers keeps ceil(25 × 90 %) = 23 of its 25 consumers in service (instance_refresh.preferences.min_healthy_percentage unset: AWS's default 90 % (asg_instance_refresh_min_healthy_percentage_default)): 23 × 400 msg/s = 9,200 msg/s leaves no surplus over the declared arrival rate 9,200 msg/s, so a backlog grows during every instance refresh instead of draining",
				Start:   at(19, 3), End: at(19, 19),
				Facts: facts("arrival_rate", 9200, "effective_arrival_rate", 9200, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 800,
					"min_healthy_percent", 90, "deploy_consumers", 23, "deploy_capacity", 9200, "deploy_surplus", 0)}},
		},
		{
			name:  "launching before terminating keeps the fleet",
			files: map[string]string{"main.tf": refreshed(arrival, withPrefs("      min_healthy_percentage = 80\n      max_healthy_percentage = 110"))},
		},
		{
			name: "the instance maintenance policy's percentages",
			files: map[string]string{"main.tf": refreshed(arrival, `  instance_maintenance_policy {
    min_healthy_percentage = 80
    max_healthy_percentage = 100
  }`)},
			issues: []issue{{Summary: "during instance maintenance 20 of 25 consumers take 8,000 msg/s of 9,000 arriving: set max_healthy_percentage over 100",
				Message: "instance maintenance of aws_autoscaling_group.workers keeps ceil(25 × 80 %) = 20 of its 25 consumers in service (instance_maintenance_policy.min_healthy_percentage 80 %): 20 × 400 msg/s = 8,000 msg/s leaves a deficit of 1,000 msg/s over the declared arrival rate 9,000 msg/s, so a backlog grows during every instance replacement instead of draining",
				Start:   at(20, 5), End: at(20, 32),
				Facts: facts("arrival_rate", 9000, "effective_arrival_rate", 9000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 1000,
					"min_healthy_percent", 80, "deploy_consumers", 20, "deploy_capacity", 8000, "deploy_surplus", -1000)}},
		},
		{
			// The service runs at its size while the group is replaced:
			// 20 × 400 + 10 × 50 = 8,500 msg/s of 9,000.
			name: "another consumer keeps running",
			files: map[string]string{"main.tf": refreshed(arrival, withPrefs("      min_healthy_percentage = 80")) + `
resource "aws_ecs_service" "helpers" {
  name          = "helpers"
  desired_count = 10
  tags = {
    "queuecap:per_consumer_rate" = 50
    "queuecap:queue"             = "aws_sqs_queue.orders"
  }
}
`},
			issues: []issue{{Summary: "during a refresh the consumers take 8,500 msg/s of 9,000 arriving: set max_healthy_percentage over 100",
				Message: "an instance refresh of aws_autoscaling_group.workers keeps ceil(25 × 80 %) = 20 of its 25 consumers in service (instance_refresh.preferences.min_healthy_percentage 80 %): aws_autoscaling_group.workers 20 × 400 msg/s + aws_ecs_service.helpers 10 × 50 msg/s = 8,500 msg/s leaves a deficit of 500 msg/s over the declared arrival rate 9,000 msg/s, so a backlog grows during every instance refresh instead of draining",
				Start:   at(22, 7), End: at(22, 34),
				Facts: facts("arrival_rate", 9000, "effective_arrival_rate", 9000, "max_consumers", 35, "capacity", 10500, "surplus", 1500,
					"min_healthy_percent", 80, "deploy_consumers", 20, "deploy_capacity", 8500, "deploy_surplus", -500)}},
		},
		{
			name:  "no refresh and no maintenance policy: nothing replaces instances",
			files: map[string]string{"main.tf": refreshed(`"queuecap:arrival_rate" = 9900`, "")},
		},
		{
			// 23 consumers clear 1,800,000 at 200 msg/s in 9,000 s; the
			// full 25 at 1,000 msg/s in 1,800 s.
			name:  "the refresh cannot meet the RTO",
			files: map[string]string{"main.tf": refreshed(backlog, refresh)},
			issues: []issue{{Summary: "during a refresh the backlog clears in 9,000 s, over rto_seconds 1,800: set max_healthy_percentage over 100",
				Message: "an instance refresh of aws_autoscaling_group.workers keeps ceil(25 × 90 %) = 23 of its 25 consumers in service (instance_refresh.preferences.min_healthy_percentage unset: AWS's default 90 % (asg_instance_refresh_min_healthy_percentage_default)): 23 × 400 msg/s = 9,200 msg/s leaves a surplus of 200 msg/s over the declared arrival rate 9,000 msg/s, which clears max_backlog 1,800,000 in 9,000 s, more than rto_seconds 1,800 (the full fleet clears it in 1,800 s)",
				Start:   at(19, 3), End: at(19, 19),
				Facts: facts("arrival_rate", 9000, "effective_arrival_rate", 9000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 1000,
					"min_healthy_percent", 90, "deploy_consumers", 23, "deploy_capacity", 9200, "deploy_surplus", 200, "max_backlog", 1800000, "rto_seconds", 1800, "deploy_drain_seconds", 9000)}},
		},
		{
			// The full fleet misses the RTO too: queuecap_insufficient_headroom's.
			name:  "the full fleet misses the RTO already",
			files: map[string]string{"main.tf": refreshed(`"queuecap:arrival_rate" = 9000, "queuecap:max_backlog" = 1800000, "queuecap:rto_seconds" = 1000`, refresh)},
		},
		{
			name:  "zero surplus at full size is another rule's",
			files: map[string]string{"main.tf": refreshed(`"queuecap:arrival_rate" = 10000`, refresh)},
		},
		{
			// ceil(25 × 100 %) is the whole group, but AWS replaces one
			// instance at a time: 24 × 400 = 9,600 msg/s of 9,800.
			name:  "at 100 % one instance at a time",
			files: map[string]string{"main.tf": refreshed(`"queuecap:arrival_rate" = 9800`, withPrefs("      min_healthy_percentage = 100"))},
			issues: []issue{{Summary: "during a refresh 24 of 25 consumers take 9,600 msg/s of 9,800 arriving: set max_healthy_percentage over 100",
				Message: "an instance refresh of aws_autoscaling_group.workers keeps 24 of its 25 consumers in service: ceil(25 × 100 %) is all of them, but AWS replaces at least one instance at a time (instance_refresh.preferences.min_healthy_percentage 100 %): 24 × 400 msg/s = 9,600 msg/s leaves a deficit of 200 msg/s over the declared arrival rate 9,800 msg/s, so a backlog grows during every instance refresh instead of draining",
				Start:   at(22, 7), End: at(22, 35),
				Facts: facts("arrival_rate", 9800, "effective_arrival_rate", 9800, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 200,
					"min_healthy_percent", 100, "deploy_consumers", 24, "deploy_capacity", 9600, "deploy_surplus", -200)}},
		},
		{
			// A single instance at 80 %: ceil(0.8) = 1 is the group, and
			// the one instance is replaced with none in service.
			name: "a single instance keeps none",
			files: map[string]string{"main.tf": strings.Replace(refreshed(`"queuecap:arrival_rate" = 300`, `  instance_maintenance_policy {
    min_healthy_percentage = 80
    max_healthy_percentage = 100
  }`), "max_size = 25", "max_size = 1", 1)},
			issues: []issue{{Summary: "during instance maintenance 0 of 1 consumers take 0 msg/s of 300 arriving: set max_healthy_percentage over 100",
				Message: "instance maintenance of aws_autoscaling_group.workers keeps 0 of its 1 consumers in service: ceil(1 × 80 %) is all of them, but AWS replaces at least one instance at a time (instance_maintenance_policy.min_healthy_percentage 80 %): 0 × 400 msg/s = 0 msg/s leaves a deficit of 300 msg/s over the declared arrival rate 300 msg/s, so a backlog grows during every instance replacement instead of draining",
				Start:   at(20, 5), End: at(20, 32),
				Facts: facts("arrival_rate", 300, "effective_arrival_rate", 300, "per_consumer_rate", 400, "max_consumers", 1, "capacity", 400, "surplus", 100,
					"min_healthy_percent", 80, "deploy_consumers", 0, "deploy_capacity", 0, "deploy_surplus", -300)}},
		},
		{
			// Whether the refresh exists is not known: no finding on
			// AWS's default percentage.
			name: "a refresh from a dynamic block over an unknown for_each",
			files: map[string]string{"main.tf": "variable \"r\" {}\n" + refreshed(`"queuecap:arrival_rate" = 9200`, `  dynamic "instance_refresh" {
    for_each = var.r
    content {
      strategy = "Rolling"
    }
  }`)},
			skips: []skip{{Reason: "instance_refresh of aws_autoscaling_group.workers comes from a dynamic block whose for_each is not known before apply: whether it replaces instances, and how many it keeps in service, is not known", Line: 20}},
		},
		{
			name:  "minimum healthy percentage unknown",
			files: map[string]string{"main.tf": "variable \"h\" {}\n" + refreshed(arrival, withPrefs("      min_healthy_percentage = var.h"))},
			skips: []skip{{Reason: "instance_refresh.preferences.min_healthy_percentage of aws_autoscaling_group.workers comes from var.h, which has no value here (set it with --var, a tfvars file or TF_VAR_h)", Line: 23}},
		},
		{
			name:  "an ECS rolling deployment at 50 %",
			files: map[string]string{"main.tf": ecsService("  deployment_minimum_healthy_percent = 50")},
			issues: []issue{{Summary: "during a deployment 13 of 25 consumers take 5,200 msg/s of 9,000 arriving: raise deployment_minimum_healthy_percent",
				Message: "an ECS rolling deployment of aws_ecs_service.workers keeps ceil(25 × 50 %) = 13 of its 25 consumers in service (deployment_minimum_healthy_percent 50 %): 13 × 400 msg/s = 5,200 msg/s leaves a deficit of 3,800 msg/s over the declared arrival rate 9,000 msg/s, so a backlog grows during every deployment instead of draining",
				Start:   at(13, 3), End: at(13, 42),
				Facts: facts("arrival_rate", 9000, "effective_arrival_rate", 9000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 1000,
					"min_healthy_percent", 50, "deploy_consumers", 13, "deploy_capacity", 5200, "deploy_surplus", -3800)}},
		},
		{
			name:  "ECS's default keeps every task",
			files: map[string]string{"main.tf": ecsService("")},
		},
		{
			name: "an ECS blue/green deployment keeps every task",
			files: map[string]string{"main.tf": ecsService(`  deployment_minimum_healthy_percent = 50
  deployment_configuration {
    strategy = "BLUE_GREEN"
  }`)},
		},
		{
			name: "a CodeDeploy controller keeps every task",
			files: map[string]string{"main.tf": ecsService(`  deployment_minimum_healthy_percent = 50
  deployment_controller {
    type = "CODE_DEPLOY"
  }`)},
		},
		{
			name: "a strategy unknown before apply",
			files: map[string]string{"main.tf": "variable \"s\" {}\n" + ecsService(`  deployment_minimum_healthy_percent = 50
  deployment_configuration {
    strategy = var.s
  }`)},
			skips: []skip{{Reason: "deployment_configuration.strategy of aws_ecs_service.workers comes from var.s, which has no value here (set it with --var, a tfvars file or TF_VAR_s): a rolling deployment keeps only deployment_minimum_healthy_percent of its consumers in service, a blue/green one all of them", Line: 16}},
		},
	})
}
