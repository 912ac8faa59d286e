// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

// predictive is a predictive scaling policy on the workers group with the
// settings given (one per line, indented).
func predictive(settings string) string {
	return fmt.Sprintf(`
resource "aws_autoscaling_policy" "forecast" {
  name                   = "forecast"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "PredictiveScaling"
  predictive_scaling_configuration {
%s
    metric_specification {
      target_value = 50
      predefined_metric_pair_specification {
        predefined_metric_type = "ASGCPUUtilization"
      }
    }
  }
}
`, settings)
}

// A policy that may raise the group past max_size leaves the fleet's
// largest size unknown: a rule that takes max_size as the most the fleet
// runs skips it, naming the policy.
func TestPredictiveScalingBeyondMaxSize(t *testing.T) {
	zero := tagged(`"queuecap:arrival_rate" = 10000`, "", "25")
	noSurplus := issue{Message: "max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains", Start: at(9, 3), End: at(9, 16), Facts: facts("arrival_rate", 10000, "effective_arrival_rate", 10000, "per_consumer_rate", 400, "max_consumers", 25, "capacity", 10000, "surplus", 0)}
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			name:  "IncreaseMaxCapacity with ForecastAndScale",
			files: map[string]string{"main.tf": zero + predictive("    mode                         = \"ForecastAndScale\"\n    max_capacity_breach_behavior = \"IncreaseMaxCapacity\"\n    max_capacity_buffer          = 10")},
			skips: []skip{{Reason: "predictive scaling policy aws_autoscaling_policy.forecast forecasts and scales with max_capacity_breach_behavior IncreaseMaxCapacity: it may raise aws_autoscaling_group.workers past max_size 25 (up to the forecast plus max_capacity_buffer 10 %), so the fleet's largest size is not known; with HonorMaxCapacity it is max_size", Line: 28}},
		},
		{
			name:   "HonorMaxCapacity keeps max_size the bound",
			files:  map[string]string{"main.tf": zero + predictive("    mode                         = \"ForecastAndScale\"\n    max_capacity_breach_behavior = \"HonorMaxCapacity\"")},
			issues: []issue{noSurplus},
		},
		{
			name:   "a forecast alone scales nothing",
			files:  map[string]string{"main.tf": zero + predictive("    max_capacity_breach_behavior = \"IncreaseMaxCapacity\"")},
			issues: []issue{noSurplus},
		},
		{
			name:  "mode unknown before apply",
			files: map[string]string{"main.tf": "variable \"mode\" {}\n" + zero + predictive("    mode                         = var.mode\n    max_capacity_breach_behavior = \"IncreaseMaxCapacity\"")},
			skips: []skip{{Reason: "mode of predictive scaling policy aws_autoscaling_policy.forecast comes from var.mode, which has no value here (set it with --var, a tfvars file or TF_VAR_mode): as ForecastAndScale with max_capacity_breach_behavior IncreaseMaxCapacity it may raise aws_autoscaling_group.workers past max_size 25", Line: 28}},
		},
		{
			// The configuration block exists only for some values of
			// var.p: it may forecast and scale past max_size.
			name: "the configuration from a dynamic block over an unknown for_each",
			files: map[string]string{"main.tf": "variable \"p\" {}\n" + zero + `
resource "aws_autoscaling_policy" "forecast" {
  name                   = "forecast"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "PredictiveScaling"
  dynamic "predictive_scaling_configuration" {
    for_each = var.p
    content {
      max_capacity_buffer = 10
    }
  }
}
`},
			skips: []skip{{Reason: "mode of predictive scaling policy aws_autoscaling_policy.forecast comes from a dynamic block whose for_each is not known before apply: as ForecastAndScale with max_capacity_breach_behavior IncreaseMaxCapacity it may raise aws_autoscaling_group.workers past max_size 25", Line: 27}},
		},
	})
}

// A forecast-only policy (AWS's default mode) is no scale-out policy:
// queuecap_depth_only_scaling judges the fleet's other policies as if it
// were absent; one that forecasts and scales is a policy it does not judge.
func TestPredictiveScalingForecastOnly(t *testing.T) {
	depth := stepScaled(simpleAlarm("depth", `"ApproximateNumberOfMessagesVisible"`, "GreaterThanThreshold", "100"))
	depthOnly := issue{Message: "every scale-out trigger of aws_autoscaling_group.workers reads only the absolute depth of its queue: aws_cloudwatch_metric_alarm.depth (ApproximateNumberOfMessagesVisible > 100). A depth of 100 messages is 100 / 50 = 2 s of arrivals whether the backlog is growing or draining" + depthFix, Start: at(23, 1), End: at(23, 47), Facts: facts("triggers", 1, "threshold", 100, "arrival_rate", 50, "threshold_seconds_of_arrivals", 2, "min_consumers", 1)}
	runRuleCases(t, "queuecap_depth_only_scaling", []ruleCase{
		{
			name:   "without a predictive policy",
			files:  map[string]string{"main.tf": depth},
			issues: []issue{depthOnly},
		},
		{
			name:   "with a forecast-only policy",
			files:  map[string]string{"main.tf": depth + predictive(`    mode = "ForecastOnly"`)},
			issues: []issue{depthOnly},
		},
		{
			name:   "with a predictive policy in AWS's default mode",
			files:  map[string]string{"main.tf": depth + predictive(`    max_capacity_buffer = 0`)},
			issues: []issue{depthOnly},
		},
		{
			name:  "with a policy that forecasts and scales",
			files: map[string]string{"main.tf": depth + predictive(`    mode = "ForecastAndScale"`)},
			skips: []skip{{Reason: "the policy type of aws_autoscaling_policy.forecast is not known before apply or not one the rule judges", Line: 38}},
		},
	})
}
