// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import "fmt"

// Application Auto Scaling: schemas of AWS provider v6.47.0.

func init() {
	register(resourceType{
		name: "aws_appautoscaling_target",
		body: block{
			attrs: attrs{
				"arn":                computed(str),
				"id":                 idAttr,
				"max_capacity":       required(num),
				"min_capacity":       required(num),
				"region":             regionAttr,
				"resource_id":        required(str).replaces(),
				"role_arn":           optionalComputed(str),
				"scalable_dimension": required(str).replaces(),
				"service_namespace":  required(str).replaces(),
				"tags":               tagsAttr,
				"tags_all":           tagsAllAttr,
			},
			blocks: blocks{"suspended_state": list(0, 1, block{attrs: attrs{
				"dynamic_scaling_in_suspended":  optional(boolean),
				"dynamic_scaling_out_suspended": optional(boolean),
				"scheduled_scaling_suspended":   optional(boolean),
			}})},
		},
		created: func(c created) map[string]string {
			return map[string]string{
				"id":       c.str("resource_id"),
				"arn":      c.arn("application-autoscaling", "scalable-target/"+c.uuid()),
				"role_arn": c.iamARN("role/aws-service-role/ecs.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_ECSService"),
			}
		},
	})
}

// The metric data queries of Application Auto Scaling predictive scaling.
var appautoscalingMetricDataQuery = list(1, 0, block{
	attrs: attrs{
		"expression":  optional(str),
		"id":          required(str),
		"label":       optional(str),
		"return_data": optional(boolean),
	},
	blocks: blocks{"metric_stat": list(0, 1, block{
		attrs: attrs{
			"stat": required(str),
			"unit": optional(str),
		},
		blocks: blocks{"metric": list(1, 1, block{
			attrs: attrs{
				"metric_name": optional(str),
				"namespace":   optional(str),
			},
			blocks: blocks{"dimension": set(0, nameValue)},
		})},
	})},
})

func init() {
	register(resourceType{
		name: "aws_appautoscaling_policy",
		body: block{
			attrs: attrs{
				"alarm_arns":         computed(listOf(str)),
				"arn":                computed(str),
				"id":                 idAttr,
				"name":               required(str).replaces(),
				"policy_type":        optional(str).withDefault("StepScaling"),
				"region":             regionAttr,
				"resource_id":        required(str).replaces(),
				"scalable_dimension": required(str).replaces(),
				"service_namespace":  required(str).replaces(),
			},
			blocks: blocks{
				"predictive_scaling_policy_configuration": list(0, 1, block{
					attrs: attrs{
						"max_capacity_breach_behavior": optional(str),
						"max_capacity_buffer":          optional(num),
						"mode":                         optionalComputed(str),
						"scheduling_buffer_time":       optionalComputed(num),
					},
					blocks: blocks{"metric_specification": list(1, 0, block{
						attrs: attrs{"target_value": required(str)},
						blocks: blocks{
							"customized_capacity_metric_specification": list(0, 1, block{blocks: blocks{"metric_data_query": appautoscalingMetricDataQuery}}),
							"customized_load_metric_specification":     list(0, 1, block{blocks: blocks{"metric_data_query": appautoscalingMetricDataQuery}}),
							"customized_scaling_metric_specification":  list(0, 1, block{blocks: blocks{"metric_data_query": appautoscalingMetricDataQuery}}),
							"predefined_load_metric_specification":     predefinedMetric,
							"predefined_metric_pair_specification":     predefinedMetric,
							"predefined_scaling_metric_specification":  predefinedMetric,
						},
					})},
				}),
				"step_scaling_policy_configuration": list(0, 1, block{
					attrs: attrs{
						"adjustment_type":          optional(str),
						"cooldown":                 optional(num),
						"metric_aggregation_type":  optional(str),
						"min_adjustment_magnitude": optional(num),
					},
					blocks: blocks{"step_adjustment": set(0, stepAdjustment)},
				}),
				"target_tracking_scaling_policy_configuration": list(0, 1, block{
					attrs: attrs{
						"disable_scale_in":   optional(boolean).withDefault(false),
						"scale_in_cooldown":  optional(num),
						"scale_out_cooldown": optional(num),
						"target_value":       required(num),
					},
					blocks: blocks{
						"customized_metric_specification": list(0, 1, block{
							attrs: attrs{
								"metric_name": optional(str),
								"namespace":   optional(str),
								"statistic":   optional(str),
								"unit":        optional(str),
							},
							blocks: blocks{
								"dimensions": set(0, nameValue),
								"metrics": set(0, block{
									attrs: attrs{
										"expression":  optional(str),
										"id":          required(str),
										"label":       optional(str),
										"return_data": optional(boolean),
									},
									blocks: blocks{"metric_stat": list(0, 1, block{
										attrs: attrs{
											"stat": required(str),
											"unit": optional(str),
										},
										blocks: blocks{"metric": list(1, 1, block{
											attrs: attrs{
												"metric_name": required(str),
												"namespace":   required(str),
											},
											blocks: blocks{"dimensions": set(0, nameValue)},
										})},
									})},
								}),
							},
						}),
						"predefined_metric_specification": predefinedMetric,
					},
				}),
			},
		},
		created: func(c created) map[string]string {
			name := c.str("name")
			return map[string]string{
				"id": name,
				"arn": c.arn("autoscaling", fmt.Sprintf("scalingPolicy:%s:resource/%s/%s:policyName/%s",
					c.uuid(), c.str("service_namespace"), c.str("resource_id"), name)),
			}
		},
	})
}
