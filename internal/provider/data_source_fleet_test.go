// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const fleetAddr = "data.queuecap_fleet.test"

// MATH.md's "Provisioning lag in sizing": 33 consumers, not 32, when new
// ones take 180 s to start; with no lag, the headroom formula exactly.
func TestConsumersDataSourceProvisioningLag(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  max_backlog              = 5000000
  rto_seconds              = 1800
  provisioning_lag_seconds = 180
  min_consumers            = 25
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"steady_state_consumers": knownvalue.Int64Exact(25),
				"required_consumers":     knownvalue.Int64Exact(33),
				"surplus":                num(3200),
				// 180 s at the minimum fleet's zero surplus, then 5 M at 3,200 msg/s.
				"drain_seconds": num(180 + 5e6/3200.0),
			}),
		},
		// min_consumers defaults to the steady state, and is null in state.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  max_backlog              = 5000000
  rto_seconds              = 1800
  provisioning_lag_seconds = 180
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"required_consumers": knownvalue.Int64Exact(33),
				"min_consumers":      knownvalue.Null(),
			}),
		},
		// Without a lag (its default 0), the headroom formula: 32.
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
  min_consumers     = 30
}`,
			ConfigStateChecks: expectValues(consumersAddr, map[string]knownvalue.Check{
				"required_consumers":       knownvalue.Int64Exact(32),
				"provisioning_lag_seconds": num(0),
				"drain_seconds":            num(5e6 / 2800.0),
			}),
		},
		resource.TestStep{
			Config: `data "queuecap_consumers" "test" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  max_backlog              = 5000000
  rto_seconds              = 1800
  provisioning_lag_seconds = 1800
}`,
			ExpectError: errorWords(`provisioning_lag_seconds must be less than rto_seconds (1800), got 1800`),
		},
	)
}

func TestFleetDataSource(t *testing.T) {
	metric := func(name, namespace, stat string, dims ...knownvalue.Check) knownvalue.Check {
		return knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"stat": knownvalue.StringExact(stat),
			"metric": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
				"metric_name": knownvalue.StringExact(name), "namespace": knownvalue.StringExact(namespace), "dimensions": knownvalue.ListExact(dims),
			})}),
		})})
	}
	dim := func(name, value string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact(name), "value": knownvalue.StringExact(value)})
	}
	unitTest(t,
		// The worked example: min 25, desired 30 (20 % headroom), max 33
		// (a 180 s lag); target 10 s × 400 msg/s = 4,000 per instance.
		resource.TestStep{
			Config: `data "queuecap_fleet" "test" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  sla_seconds              = 10
  max_backlog              = 5000000
  rto_seconds              = 1800
  min_headroom             = 0.2
  provisioning_lag_seconds = 180
  queue_name               = "orders"
  autoscaling_group_name   = "workers"
}`,
			ConfigStateChecks: append(expectValues(fleetAddr, map[string]knownvalue.Check{
				"min_size":                    knownvalue.Int64Exact(25),
				"desired_capacity":            knownvalue.Int64Exact(30),
				"max_size":                    knownvalue.Int64Exact(33),
				"surplus":                     num(3200),
				"drain_seconds":               num(180 + 5e6/3200.0),
				"overhead":                    num(0.32),
				"backlog_per_consumer_target": num(4000),
				"min_consumers":               knownvalue.Null(),
				"lambda_scaling_config": knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"maximum_concurrency": knownvalue.Int64Exact(33)}),
				}),
			}),
				statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("ec2_scaling_policy"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"policy_type":               knownvalue.StringExact("TargetTrackingScaling"),
					"estimated_instance_warmup": knownvalue.Int64Exact(180),
					"target_tracking_configuration": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
						"target_value":     num(4000),
						"disable_scale_in": knownvalue.Bool(false),
						"customized_metric_specification": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
							"metrics": knownvalue.ListExact([]knownvalue.Check{
								knownvalue.ObjectExact(map[string]knownvalue.Check{"id": knownvalue.StringExact("visible"), "label": knownvalue.StringExact("Visible messages"),
									"expression": knownvalue.Null(), "return_data": knownvalue.Bool(false),
									"metric_stat": metric("ApproximateNumberOfMessagesVisible", "AWS/SQS", "Sum", dim("QueueName", "orders"))}),
								knownvalue.ObjectExact(map[string]knownvalue.Check{"id": knownvalue.StringExact("in_service"), "label": knownvalue.StringExact("Instances in service"),
									"expression": knownvalue.Null(), "return_data": knownvalue.Bool(false),
									"metric_stat": metric("GroupInServiceInstances", "AWS/AutoScaling", "Average", dim("AutoScalingGroupName", "workers"))}),
								knownvalue.ObjectExact(map[string]knownvalue.Check{"id": knownvalue.StringExact("backlog_per_instance"), "label": knownvalue.StringExact("Backlog per instance"),
									"expression": knownvalue.StringExact("visible / in_service"), "return_data": knownvalue.Bool(true),
									"metric_stat": knownvalue.ListExact([]knownvalue.Check{})}),
							}),
						})}),
					})}),
				})),
				statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("ecs_scaling_policy").AtMapKey("target_tracking_scaling_policy_configuration").AtSliceIndex(0).
					AtMapKey("customized_metric_specification").AtSliceIndex(0).AtMapKey("metrics").AtSliceIndex(1).AtMapKey("metric_stat"),
					// No cluster or service given: no dimensions.
					metric("RunningTaskCount", "ECS/ContainerInsights", "Average")),
			),
		},
		// The steady state alone has zero surplus: the warning of
		// queuecap_consumers, and a Lambda concurrency of at least 2.
		resource.TestStep{
			Config: `data "queuecap_fleet" "test" {
  arrival_rate      = 1
  per_consumer_rate = 10
  sla_seconds       = 10
}`,
			ConfigStateChecks: append(expectValues(fleetAddr, map[string]knownvalue.Check{
				"min_size": knownvalue.Int64Exact(1), "desired_capacity": knownvalue.Int64Exact(1), "max_size": knownvalue.Int64Exact(1),
				"lambda_scaling_config": knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"maximum_concurrency": knownvalue.Int64Exact(2)}),
				}),
			}), statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("ec2_scaling_policy").AtMapKey("estimated_instance_warmup"), knownvalue.Null())),
		},
	)
}

// The settings of issue 27: a deployment keeping 90 % needs 36 (ceil(32.4)
// = 33 in service) where the recovery needs 33; provisioned mode gives
// pollers and no maximum_concurrency beside them.
func TestFleetDataSourceDeployAndPollers(t *testing.T) {
	pollers := func(lo, hi int64) knownvalue.Check {
		return knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"minimum_pollers": knownvalue.Int64Exact(lo), "maximum_pollers": knownvalue.Int64Exact(hi),
		})})
	}
	unitTest(t,
		resource.TestStep{
			Config: `data "queuecap_fleet" "test" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  sla_seconds              = 10
  max_backlog              = 5000000
  rto_seconds              = 1800
  provisioning_lag_seconds = 180
  min_healthy_percent      = 90
  lambda_concurrency_mode  = "provisioned"
}`,
			ConfigStateChecks: expectValues(fleetAddr, map[string]knownvalue.Check{
				"min_size":              knownvalue.Int64Exact(25),
				"max_size":              knownvalue.Int64Exact(36),
				"healthy_during_deploy": knownvalue.Int64Exact(33),
				// 180 s at the minimum fleet's zero surplus, then 5 M at 36 × 400 − 10,000.
				"drain_seconds":                    num(180 + 5e6/4400.0),
				"minimum_pollers":                  knownvalue.Int64Exact(3),
				"maximum_pollers":                  knownvalue.Int64Exact(4),
				"lambda_provisioned_poller_config": pollers(3, 4),
				"lambda_scaling_config":            knownvalue.ListExact([]knownvalue.Check{}),
			}),
		},
		// Unset, a deployment keeps everything and no mode is assumed.
		resource.TestStep{
			Config: `data "queuecap_fleet" "test" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  sla_seconds       = 10
  max_backlog       = 5000000
  rto_seconds       = 1800
}`,
			ConfigStateChecks: expectValues(fleetAddr, map[string]knownvalue.Check{
				"max_size":                         knownvalue.Int64Exact(32),
				"min_healthy_percent":              num(100),
				"healthy_during_deploy":            knownvalue.Int64Exact(32),
				"lambda_concurrency_mode":          knownvalue.Null(),
				"minimum_pollers":                  knownvalue.Null(),
				"maximum_pollers":                  knownvalue.Null(),
				"lambda_provisioned_poller_config": knownvalue.ListExact([]knownvalue.Check{}),
			}),
		},
	)
}

func TestFleetDataSourceInvalid(t *testing.T) {
	for name, tc := range map[string]struct{ config, err string }{
		"lag at the RTO": {`max_backlog = 5000000
  rto_seconds = 1800
  provisioning_lag_seconds = 1800`, `provisioning_lag_seconds must be less than rto_seconds (1800), got 1800`},
		"fractional min_consumers": {`min_consumers = 2.5`, `Attribute min_consumers must be a whole number, got: 2.5`},
		"cluster without service":  {`ecs_cluster_name = "main"`, `Attribute ecs_cluster_name requires ecs_service_name`},
		"no healthy share":         {`min_healthy_percent = 0`, `min_healthy_percent 0 keeps no consumer in service during a deployment, so no max_size meets the RTO during one`},
		"healthy share above 100":  {`min_healthy_percent = 101`, `Attribute min_healthy_percent value must be between 0 and 100, got: 101`},
		"unknown mode":             {`lambda_concurrency_mode = "fast"`, `Attribute lambda_concurrency_mode value must be one of: ["standard" "provisioned"], got: "fast"`},
		"max_backlog without rto_seconds": {`max_backlog = 5000000`,
			`Attribute rto_seconds is required when max_backlog is greater than 0 (it is 5000000): the time allowed to clear that backlog`},
	} {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_fleet\" \"test\" {\n  arrival_rate = 10000\n  per_consumer_rate = 400\n  sla_seconds = 10\n  " + tc.config + "\n}\n",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}

// A max_size beyond what one mapping reaches in the mode asked for is an
// error at lambda_concurrency_mode: 2,000 consumers are beyond standard
// mode's 1,250 but within provisioned mode's 20,000.
func TestFleetDataSourceLambdaModeCap(t *testing.T) {
	config := func(mode string) string {
		return "data \"queuecap_fleet\" \"test\" {\n  arrival_rate = 19995\n  per_consumer_rate = 10\n  sla_seconds = 10\n  lambda_concurrency_mode = \"" + mode + "\"\n}\n"
	}
	unitTest(t,
		resource.TestStep{
			Config: config("standard"),
			ExpectError: errorWords(`lambda_concurrency_mode standard mode reaches at most 1,250 concurrent invocations on one SQS event source mapping ` +
				`(lambda_sqs_standard_max_concurrency), but max_size is 2000`),
		},
		resource.TestStep{
			Config: config("provisioned"),
			ConfigStateChecks: expectValues(fleetAddr, map[string]knownvalue.Check{
				"max_size": knownvalue.Int64Exact(2000), "minimum_pollers": knownvalue.Int64Exact(200), "maximum_pollers": knownvalue.Int64Exact(200),
			}),
		},
	)
}

// An argument known only after apply defers the read: the sizes are
// unknown at plan.
func TestFleetDataSourceUnknown(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "lag" {
  input = 180
}

data "queuecap_fleet" "test" {
  arrival_rate             = 10000
  per_consumer_rate        = 400
  sla_seconds              = 10
  provisioning_lag_seconds = terraform_data.lag.output
}

output "max_size" {
  value = data.queuecap_fleet.test.max_size
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("max_size")}},
	})
}

func TestFunctionFleetPlan(t *testing.T) {
	functionTest(t,
		resource.TestStep{
			Config: outputCall(`fleet_plan({
    arrival_rate             = 10000
    per_consumer_rate        = 400
    sla_seconds              = 10
    max_backlog              = 5000000
    rto_seconds              = 1800
    min_headroom             = 0.2
    provisioning_lag_seconds = "180"
  })`),
			ConfigStateChecks: expectOutput(knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"min_size":                    knownvalue.Int64Exact(25),
				"desired_capacity":            knownvalue.Int64Exact(30),
				"max_size":                    knownvalue.Int64Exact(33),
				"backlog_per_consumer_target": num(4000),
				"min_consumers":               knownvalue.Null(),
				"lambda_scaling_config": knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"maximum_concurrency": knownvalue.Int64Exact(33)}),
				}),
			})),
		},
		// capacity_plan takes the lag as queuecap_consumers does.
		resource.TestStep{
			Config: outputCall(`capacity_plan({ arrival_rate = 10000, per_consumer_rate = 400, max_backlog = 5e6, rto_seconds = 1800, provisioning_lag_seconds = 180, min_consumers = 25 })`),
			ConfigStateChecks: expectOutput(knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"required_consumers": knownvalue.Int64Exact(33),
				"min_consumers":      knownvalue.Int64Exact(25),
			})),
		},
		resource.TestStep{
			Config:      outputCall(`fleet_plan({ arrival_rate = 10000, per_consumer_rate = 400, sla_seconds = 10, max_backlog = 5e6, rto_seconds = 60, provisioning_lag_seconds = 180 })`),
			ExpectError: errorWords(`provisioning_lag_seconds must be less than rto_seconds (60), got 180`),
		},
		resource.TestStep{
			Config: "resource \"terraform_data\" \"n\" {\n  input = 180\n}\n\n" +
				outputCall(`fleet_plan({ arrival_rate = 10000, per_consumer_rate = 400, sla_seconds = 10, provisioning_lag_seconds = terraform_data.n.output })`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("result")}},
		},
	)
}
