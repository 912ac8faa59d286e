// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import "fmt"

// EC2 Auto Scaling: schemas of AWS provider v6.47.0.

var (
	nameValue = block{attrs: attrs{
		"name":  required(str),
		"value": required(str),
	}}
	minMax = list(0, 1, block{attrs: attrs{
		"max": optional(num),
		"min": optional(num),
	}})
	predefinedMetric = list(0, 1, block{attrs: attrs{
		"predefined_metric_type": required(str),
		"resource_label":         optional(str),
	}})
	launchTemplateSpecification = block{attrs: attrs{
		"launch_template_id":   optionalComputed(str),
		"launch_template_name": optionalComputed(str),
		"version":              optionalComputed(str),
	}}
)

func init() {
	register(resourceType{
		name:    "aws_autoscaling_group",
		version: 1,
		body: block{
			attrs: attrs{
				"arn":                              computed(str),
				"availability_zones":               optionalComputed(setOf(str)),
				"capacity_rebalance":               optional(boolean),
				"context":                          optional(str),
				"default_cooldown":                 optionalComputed(num),
				"default_instance_warmup":          optional(num),
				"desired_capacity":                 optionalComputed(num),
				"desired_capacity_type":            optional(str),
				"enabled_metrics":                  optional(setOf(str)),
				"force_delete":                     optional(boolean).withDefault(false),
				"force_delete_warm_pool":           optional(boolean).withDefault(false),
				"health_check_grace_period":        optional(num).withDefault(300),
				"health_check_type":                optionalComputed(str),
				"id":                               idAttr,
				"ignore_failed_scaling_activities": optional(boolean).withDefault(false),
				"launch_configuration":             optional(str),
				"load_balancers":                   optionalComputed(setOf(str)),
				"max_instance_lifetime":            optional(num),
				"max_size":                         required(num),
				"metrics_granularity":              optional(str).withDefault("1Minute"),
				"min_elb_capacity":                 optional(num),
				"min_size":                         required(num),
				"name":                             optionalComputed(str).replaces(),
				"name_prefix":                      optionalComputed(str).replaces(),
				"placement_group":                  optional(str),
				"predicted_capacity":               computed(num),
				"protect_from_scale_in":            optional(boolean).withDefault(false),
				"region":                           regionAttr,
				"service_linked_role_arn":          optionalComputed(str),
				"suspended_processes":              optional(setOf(str)),
				"target_group_arns":                optionalComputed(setOf(str)),
				"termination_policies":             optional(listOf(str)),
				"vpc_zone_identifier":              optionalComputed(setOf(str)),
				"wait_for_capacity_timeout":        optional(str).withDefault("10m"),
				"wait_for_elb_capacity":            optional(num),
				"warm_pool_size":                   computed(num),
			},
			blocks: blocks{
				"availability_zone_distribution": list(0, 1, block{attrs: attrs{
					"capacity_distribution_strategy": optional(str),
				}}),
				"capacity_reservation_specification": list(0, 1, block{
					attrs: attrs{"capacity_reservation_preference": optionalComputed(str)},
					blocks: blocks{"capacity_reservation_target": list(0, 1, block{attrs: attrs{
						"capacity_reservation_ids":                 optional(listOf(str)),
						"capacity_reservation_resource_group_arns": optional(listOf(str)),
					}})},
				}),
				"initial_lifecycle_hook": set(0, block{attrs: attrs{
					"default_result":          optionalComputed(str),
					"heartbeat_timeout":       optional(num),
					"lifecycle_transition":    required(str),
					"name":                    required(str),
					"notification_metadata":   optional(str),
					"notification_target_arn": optional(str),
					"role_arn":                optional(str),
				}}),
				"instance_maintenance_policy": list(0, 1, block{attrs: attrs{
					"max_healthy_percentage": required(num),
					"min_healthy_percentage": required(num),
				}}),
				"instance_refresh": list(0, 1, block{
					attrs: attrs{
						"strategy": required(str),
						"triggers": optional(setOf(str)),
					},
					blocks: blocks{"preferences": list(0, 1, block{
						attrs: attrs{
							"auto_rollback":                optional(boolean),
							"checkpoint_delay":             optional(str),
							"checkpoint_percentages":       optional(listOf(num)),
							"instance_warmup":              optional(str),
							"max_healthy_percentage":       optional(num),
							"min_healthy_percentage":       optional(num),
							"scale_in_protected_instances": optional(str),
							"skip_matching":                optional(boolean),
							"standby_instances":            optional(str),
						},
						blocks: blocks{"alarm_specification": list(0, 1, block{attrs: attrs{
							"alarms": optional(listOf(str)),
						}})},
					})},
				}),
				"launch_template": list(0, 1, block{attrs: attrs{
					"id":      optionalComputed(str),
					"name":    optionalComputed(str),
					"version": optionalComputed(str),
				}}),
				"mixed_instances_policy": list(0, 1, block{blocks: blocks{
					"instances_distribution": list(0, 1, block{attrs: attrs{
						"on_demand_allocation_strategy":            optionalComputed(str),
						"on_demand_base_capacity":                  optionalComputed(num),
						"on_demand_percentage_above_base_capacity": optionalComputed(num),
						"spot_allocation_strategy":                 optionalComputed(str),
						"spot_instance_pools":                      optionalComputed(num),
						"spot_max_price":                           optional(str),
					}}),
					"launch_template": list(1, 1, block{blocks: blocks{
						"launch_template_specification": list(1, 1, launchTemplateSpecification),
						"override": list(0, 0, block{
							attrs: attrs{
								"instance_type":     optional(str),
								"weighted_capacity": optional(str),
							},
							blocks: blocks{
								"instance_requirements":         list(0, 1, instanceRequirements),
								"launch_template_specification": list(0, 1, launchTemplateSpecification),
							},
						}),
					}}),
				}}),
				"tag": set(0, block{attrs: attrs{
					"key":                 required(str),
					"propagate_at_launch": required(boolean),
					"value":               required(str),
				}}),
				"timeouts": timeouts("delete", "update"),
				"traffic_source": set(0, block{attrs: attrs{
					"identifier": required(str),
					"type":       optional(str),
				}}),
				"warm_pool": list(0, 1, block{
					attrs: attrs{
						"max_group_prepared_capacity": optional(num),
						"min_size":                    optional(num),
						"pool_state":                  optional(str),
					},
					blocks: blocks{"instance_reuse_policy": list(0, 1, block{attrs: attrs{
						"reuse_on_scale_in": optional(boolean),
					}})},
				}),
			},
		},
		created: func(c created) map[string]string {
			name := c.name()
			return map[string]string{
				"name": name,
				"id":   name,
				"arn":  c.arn("autoscaling", fmt.Sprintf("autoScalingGroup:%s:autoScalingGroupName/%s", c.uuid(), name)),
			}
		},
	})
}

var instanceRequirements = block{
	attrs: attrs{
		"accelerator_manufacturers": optional(setOf(str)),
		"accelerator_names":         optional(setOf(str)),
		"accelerator_types":         optional(setOf(str)),
		"allowed_instance_types":    optional(setOf(str)),
		"bare_metal":                optional(str),
		"burstable_performance":     optional(str),
		"cpu_manufacturers":         optional(setOf(str)),
		"excluded_instance_types":   optional(setOf(str)),
		"instance_generations":      optional(setOf(str)),
		"local_storage":             optional(str),
		"local_storage_types":       optional(setOf(str)),
		"max_spot_price_as_percentage_of_optimal_on_demand_price": optional(num),
		"on_demand_max_price_percentage_over_lowest_price":        optional(num),
		"require_hibernate_support":                               optional(boolean),
		"spot_max_price_percentage_over_lowest_price":             optional(num),
	},
	blocks: blocks{
		"accelerator_count":            minMax,
		"accelerator_total_memory_mib": minMax,
		"baseline_ebs_bandwidth_mbps":  minMax,
		"memory_gib_per_vcpu":          minMax,
		"memory_mib":                   minMax,
		"network_bandwidth_gbps":       minMax,
		"network_interface_count":      minMax,
		"total_local_storage_gb":       minMax,
		"vcpu_count":                   minMax,
	},
}

// The metric data queries of EC2 Auto Scaling predictive scaling.
var autoscalingMetricDataQueries = list(1, 10, block{
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
})

func init() {
	register(resourceType{
		name: "aws_autoscaling_policy",
		body: block{
			attrs: attrs{
				"adjustment_type":           optional(str),
				"arn":                       computed(str),
				"autoscaling_group_name":    required(str).replaces(),
				"cooldown":                  optional(num),
				"enabled":                   optional(boolean).withDefault(true),
				"estimated_instance_warmup": optional(num),
				"id":                        idAttr,
				"metric_aggregation_type":   optionalComputed(str),
				"min_adjustment_magnitude":  optional(num),
				"name":                      required(str).replaces(),
				"policy_type":               optional(str).withDefault("SimpleScaling"),
				"region":                    regionAttr,
				"scaling_adjustment":        optional(num),
			},
			blocks: blocks{
				"predictive_scaling_configuration": list(0, 1, block{
					attrs: attrs{
						"max_capacity_breach_behavior": optional(str),
						"max_capacity_buffer":          optional(str),
						"mode":                         optional(str),
						"scheduling_buffer_time":       optional(str),
					},
					blocks: blocks{"metric_specification": list(1, 1, block{
						attrs: attrs{"target_value": required(num)},
						blocks: blocks{
							"customized_capacity_metric_specification": list(0, 1, block{blocks: blocks{"metric_data_queries": autoscalingMetricDataQueries}}),
							"customized_load_metric_specification":     list(0, 1, block{blocks: blocks{"metric_data_queries": autoscalingMetricDataQueries}}),
							"customized_scaling_metric_specification":  list(0, 1, block{blocks: blocks{"metric_data_queries": autoscalingMetricDataQueries}}),
							"predefined_load_metric_specification":     predefinedMetric,
							"predefined_metric_pair_specification":     predefinedMetric,
							"predefined_scaling_metric_specification":  predefinedMetric,
						},
					})},
				}),
				"step_adjustment": set(0, stepAdjustment),
				"target_tracking_configuration": list(0, 1, block{
					attrs: attrs{
						"disable_scale_in": optional(boolean).withDefault(false),
						"target_value":     required(num),
					},
					blocks: blocks{
						"customized_metric_specification": list(0, 1, block{
							attrs: attrs{
								"metric_name": optional(str),
								"namespace":   optional(str),
								"period":      optional(num),
								"statistic":   optional(str),
								"unit":        optional(str),
							},
							blocks: blocks{
								"metric_dimension": list(0, 0, nameValue),
								"metrics": set(0, block{
									attrs: attrs{
										"expression":  optional(str),
										"id":          required(str),
										"label":       optional(str),
										"return_data": optional(boolean),
									},
									blocks: blocks{"metric_stat": list(0, 1, block{
										attrs: attrs{
											"period": optional(num),
											"stat":   required(str),
											"unit":   optional(str),
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
				"arn": c.arn("autoscaling", fmt.Sprintf("scalingPolicy:%s:autoScalingGroupName/%s:policyName/%s",
					c.uuid(), c.str("autoscaling_group_name"), name)),
			}
		},
	})
}

var stepAdjustment = block{attrs: attrs{
	"metric_interval_lower_bound": optional(str),
	"metric_interval_upper_bound": optional(str),
	"scaling_adjustment":          required(num),
}}

// aws_launch_configuration has no update: every argument replaces it (its
// blocks' too, which the plan does not check). Defaults and ForceNew from
// internal/service/autoscaling/launch_configuration.go.
func init() {
	register(resourceType{
		name: "aws_launch_configuration",
		body: block{
			attrs: attrs{
				"arn":                         computed(str),
				"associate_public_ip_address": optionalComputed(boolean).replaces(),
				"ebs_optimized":               optionalComputed(boolean).replaces(),
				"enable_monitoring":           optional(boolean).withDefault(true).replaces(),
				"iam_instance_profile":        optional(str).replaces(),
				"id":                          idAttr,
				"image_id":                    required(str).replaces(),
				"instance_type":               required(str).replaces(),
				"key_name":                    optionalComputed(str).replaces(),
				"name":                        optionalComputed(str).replaces(),
				"name_prefix":                 optionalComputed(str).replaces(),
				"placement_tenancy":           optional(str).replaces(),
				"region":                      regionAttr,
				"security_groups":             optional(setOf(str)).replaces(),
				"spot_price":                  optional(str).replaces(),
				"user_data":                   optional(str).replaces(),
				"user_data_base64":            optional(str).replaces(),
			},
			blocks: blocks{
				"ebs_block_device": set(0, block{attrs: attrs{
					"delete_on_termination": optional(boolean).withDefault(true),
					"device_name":           required(str),
					"encrypted":             optionalComputed(boolean),
					"iops":                  optionalComputed(num),
					"no_device":             optional(boolean),
					"snapshot_id":           optionalComputed(str),
					"throughput":            optionalComputed(num),
					"volume_size":           optionalComputed(num),
					"volume_type":           optionalComputed(str),
				}}),
				"ephemeral_block_device": set(0, block{attrs: attrs{
					"device_name":  required(str),
					"no_device":    optional(boolean),
					"virtual_name": optional(str),
				}}),
				"metadata_options": list(0, 1, block{attrs: attrs{
					"http_endpoint":               optionalComputed(str),
					"http_put_response_hop_limit": optionalComputed(num),
					"http_tokens":                 optionalComputed(str),
				}}),
				"root_block_device": list(0, 1, block{attrs: attrs{
					"delete_on_termination": optional(boolean).withDefault(true),
					"encrypted":             optionalComputed(boolean),
					"iops":                  optionalComputed(num),
					"throughput":            optionalComputed(num),
					"volume_size":           optionalComputed(num),
					"volume_type":           optionalComputed(str),
				}}),
			},
		},
		created: func(c created) map[string]string {
			name := c.name()
			return map[string]string{
				"name": name,
				"id":   name,
				"arn":  c.arn("autoscaling", fmt.Sprintf("launchConfiguration:%s:launchConfigurationName/%s", c.uuid(), name)),
			}
		},
	})
}
