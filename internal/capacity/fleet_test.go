// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"reflect"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestFleetFormula(t *testing.T) {
	base := func(extra map[string]any) map[string]any {
		raw := map[string]any{"arrival_rate": 10000.0, "per_consumer_rate": 400.0, "sla_seconds": 10.0, "max_backlog": 5e6, "rto_seconds": 1800.0}
		for k, v := range extra {
			raw[k] = v
		}
		return raw
	}
	for _, tt := range []struct {
		name                  string
		raw                   map[string]any
		minSize, desired, max int64
		drain                 float64
		lambda                []any
		pollers               []any // lambda_provisioned_poller_config; nil for empty
		warnings              int
	}{
		// MATH.md's worked example: 25 steady, 30 with 20 % headroom, 33
		// with a 180 s lag. 180 s at 0 surplus, then 5 M at 3,200 msg/s.
		{name: "worked example", raw: base(map[string]any{"min_headroom": 0.2, "provisioning_lag_seconds": 180.0}),
			minSize: 25, desired: 30, max: 33, drain: 180 + 5e6/3200, lambda: []any{map[string]any{"maximum_concurrency": int64(33)}}},
		// Without a lag, max_size is queuecap_consumers' required_consumers.
		{name: "no lag", raw: base(nil), minSize: 25, desired: 25, max: 32, drain: 5e6 / 2800,
			lambda: []any{map[string]any{"maximum_concurrency": int64(32)}}},
		// min_consumers 40 clears 5 M at 6,000 msg/s in 833 s: no scale-out.
		{name: "min_consumers above the recovery's need", raw: base(map[string]any{"min_consumers": 40.0, "provisioning_lag_seconds": 180.0}),
			minSize: 40, desired: 40, max: 40, drain: 5e6 / 6000, lambda: []any{map[string]any{"maximum_concurrency": int64(40)}}},
		// One consumer still gets a concurrency of 2, Lambda's least.
		{name: "lambda's least concurrency", raw: map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0},
			minSize: 1, desired: 1, max: 1, drain: 0, lambda: []any{map[string]any{"maximum_concurrency": int64(2)}}},
		// 2,000 consumers are beyond one event source mapping.
		{name: "beyond one event source mapping", raw: map[string]any{"arrival_rate": 19995.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0},
			minSize: 2000, desired: 2000, max: 2000, drain: 0, lambda: []any{}, warnings: 1},
		// The steady state with nothing else has zero surplus: the warning of queuecap_consumers.
		{name: "zero surplus", raw: map[string]any{"arrival_rate": 10000.0, "per_consumer_rate": 400.0, "sla_seconds": 10.0},
			minSize: 25, desired: 25, max: 25, drain: 0, lambda: []any{map[string]any{"maximum_concurrency": int64(25)}}, warnings: 1},
		// A deployment keeping 90 %: 36 keep ceil(32.4) = 33 in service,
		// 35 only ceil(31.5) = 32. The 36 arrive after the lag: 180 s at
		// the minimum fleet's 0 surplus, then 5 M at 36 × 400 − 10,000.
		{name: "deploy health with a lag", raw: base(map[string]any{"min_healthy_percent": 90.0, "provisioning_lag_seconds": 180.0}),
			minSize: 25, desired: 25, max: 36, drain: 180 + 5e6/4400, lambda: []any{map[string]any{"maximum_concurrency": int64(36)}}},
		// Provisioned: ceil(25 / 10) = 3 pollers warm, ceil(32 / 10) = 4 at
		// most, and no maximum_concurrency beside them.
		{name: "provisioned pollers", raw: base(map[string]any{"lambda_concurrency_mode": "provisioned"}),
			minSize: 25, desired: 25, max: 32, drain: 5e6 / 2800, lambda: []any{},
			pollers: []any{map[string]any{"minimum_pollers": int64(3), "maximum_pollers": int64(4)}}},
		// One consumer still gets AWS's least 2 pollers.
		{name: "provisioned least pollers", raw: map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0, "lambda_concurrency_mode": "provisioned"},
			minSize: 1, desired: 1, max: 1, drain: 0, lambda: []any{},
			pollers: []any{map[string]any{"minimum_pollers": int64(2), "maximum_pollers": int64(2)}}},
		// 2,500 warm consumers need 250 pollers, above the 200
		// minimum_pollers accepts: 200, with a warning.
		{name: "provisioned warm floor capped", raw: map[string]any{"arrival_rate": 24995.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0, "lambda_concurrency_mode": "provisioned"},
			minSize: 2500, desired: 2500, max: 2500, drain: 0, lambda: []any{},
			pollers: []any{map[string]any{"minimum_pollers": int64(200), "maximum_pollers": int64(250)}}, warnings: 1},
		// Standard mode, 1,100 consumers: within the mapping's 1,250, but
		// beyond a maximum_concurrency.
		{name: "standard beyond maximum_concurrency", raw: map[string]any{"arrival_rate": 10995.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0, "lambda_concurrency_mode": "standard"},
			minSize: 1100, desired: 1100, max: 1100, drain: 0, lambda: []any{}, warnings: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, _, err := capacity.FleetFormula.Run(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			v := r.Values
			if v["min_size"] != tt.minSize || v["desired_capacity"] != tt.desired || v["max_size"] != tt.max {
				t.Errorf("sizes = %v, %v, %v; want %d, %d, %d", v["min_size"], v["desired_capacity"], v["max_size"], tt.minSize, tt.desired, tt.max)
			}
			drain, _ := v["drain_seconds"].(float64)
			assertClose(t, "drain_seconds", drain, tt.drain)
			if !reflect.DeepEqual(v["lambda_scaling_config"], tt.lambda) {
				t.Errorf("lambda_scaling_config = %#v, want %#v", v["lambda_scaling_config"], tt.lambda)
			}
			wantPollers := tt.pollers
			if wantPollers == nil {
				wantPollers = []any{}
			}
			if !reflect.DeepEqual(v["lambda_provisioned_poller_config"], wantPollers) {
				t.Errorf("lambda_provisioned_poller_config = %#v, want %#v", v["lambda_provisioned_poller_config"], wantPollers)
			}
			if len(r.Warnings) != tt.warnings {
				t.Errorf("warnings = %v, want %d", r.Warnings, tt.warnings)
			}
		})
	}
}

func TestFleetScalingPolicies(t *testing.T) {
	r, _, err := capacity.FleetFormula.Run(map[string]any{"arrival_rate": 10000.0, "per_consumer_rate": 400.0, "sla_seconds": 10.0,
		"provisioning_lag_seconds": 90.5, "queue_name": "orders", "autoscaling_group_name": "workers", "ecs_cluster_name": "main", "ecs_service_name": "orders"})
	if err != nil {
		t.Fatal(err)
	}
	metrics := func(countID, countLabel, namespace, name string, dims []any, per string) []any {
		return []any{
			map[string]any{"id": "visible", "label": "Visible messages", "expression": nil, "return_data": false, "metric_stat": []any{map[string]any{"stat": "Sum",
				"metric": []any{map[string]any{"metric_name": "ApproximateNumberOfMessagesVisible", "namespace": "AWS/SQS",
					"dimensions": []any{map[string]any{"name": "QueueName", "value": "orders"}}}}}}},
			map[string]any{"id": countID, "label": countLabel, "expression": nil, "return_data": false, "metric_stat": []any{map[string]any{"stat": "Average",
				"metric": []any{map[string]any{"metric_name": name, "namespace": namespace, "dimensions": dims}}}}},
			map[string]any{"id": "backlog_per_" + per, "label": "Backlog per " + per, "expression": "visible / " + countID, "return_data": true, "metric_stat": []any{}},
		}
	}
	// AWS's example: 10 s acceptable latency at 0.1 s a message is 100
	// messages per instance; 10 s at 400 msg/s is 4,000.
	tracking := func(m []any) []any {
		return []any{map[string]any{"target_value": 4000.0, "disable_scale_in": false, "customized_metric_specification": []any{map[string]any{"metrics": m}}}}
	}
	wantEC2 := map[string]any{"policy_type": "TargetTrackingScaling", "estimated_instance_warmup": int64(91),
		"target_tracking_configuration": tracking(metrics("in_service", "Instances in service", "AWS/AutoScaling", "GroupInServiceInstances",
			[]any{map[string]any{"name": "AutoScalingGroupName", "value": "workers"}}, "instance"))}
	wantECS := map[string]any{"policy_type": "TargetTrackingScaling", "service_namespace": "ecs", "scalable_dimension": "ecs:service:DesiredCount",
		"target_tracking_scaling_policy_configuration": tracking(metrics("running_tasks", "Running tasks", "ECS/ContainerInsights", "RunningTaskCount",
			[]any{map[string]any{"name": "ClusterName", "value": "main"}, map[string]any{"name": "ServiceName", "value": "orders"}}, "task"))}
	if got := r.Values["ec2_scaling_policy"]; !reflect.DeepEqual(got, wantEC2) {
		t.Errorf("ec2_scaling_policy = %#v\nwant %#v", got, wantEC2)
	}
	if got := r.Values["ecs_scaling_policy"]; !reflect.DeepEqual(got, wantECS) {
		t.Errorf("ecs_scaling_policy = %#v\nwant %#v", got, wantECS)
	}
}

func TestFleetFormulaInvalid(t *testing.T) {
	for _, tt := range []struct {
		name  string
		raw   map[string]any
		field string
	}{
		{"lag at the RTO", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0, "sla_seconds": 1.0, "max_backlog": 10.0, "rto_seconds": 60.0, "provisioning_lag_seconds": 60.0}, "provisioning_lag_seconds"},
		{"cluster without service", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0, "sla_seconds": 1.0, "ecs_cluster_name": "main"}, "ecs_cluster_name"},
		{"no sla_seconds", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0}, "sla_seconds"},
		{"fractional min_consumers", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0, "sla_seconds": 1.0, "min_consumers": 1.5}, "min_consumers"},
		// 2,000 consumers: beyond a standard mapping's 1,250, within a
		// provisioned one's 20,000; 20,001 beyond that too.
		{"standard mode's cap", map[string]any{"arrival_rate": 19995.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0, "lambda_concurrency_mode": "standard"}, "lambda_concurrency_mode"},
		{"provisioned mode's cap", map[string]any{"arrival_rate": 200005.0, "per_consumer_rate": 10.0, "sla_seconds": 10.0, "lambda_concurrency_mode": "provisioned"}, "lambda_concurrency_mode"},
		{"unknown mode", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0, "sla_seconds": 1.0, "lambda_concurrency_mode": "fast"}, "lambda_concurrency_mode"},
		{"no healthy share", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0, "sla_seconds": 1.0, "min_healthy_percent": 0.0}, "min_healthy_percent"},
		{"healthy share above 100", map[string]any{"arrival_rate": 1.0, "per_consumer_rate": 1.0, "sla_seconds": 1.0, "min_healthy_percent": 101.0}, "min_healthy_percent"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := capacity.FleetFormula.Run(tt.raw)
			ie, ok := err.(*capacity.InputError)
			if !ok || ie.Field != tt.field {
				t.Fatalf("Run = %v, want an error naming %s", err, tt.field)
			}
		})
	}
}

// TestFleetAboveTheRecoveryIsExact: min_consumers above what the recovery
// needs make max_size, and its surplus and drain time come from the exact
// c·μ and λ_eff, rounded once: 200 × 314.585 − 19,795.0636460173 × 1.836
// drains 23,995.9496377824 messages in 0.90301102676107338… s, not the
// 0.903011026761075 s of the surplus already rounded to 15 digits.
func TestFleetAboveTheRecoveryIsExact(t *testing.T) {
	minConsumers := int64(200)
	p, err := capacity.PlanFleet(capacity.SizingInput{ArrivalRate: 19795.0636460173, PerConsumerRate: 314.585, Retries: capacity.Retries{Rate: 0.76, Average: 1.1},
		MaxBacklog: 23995.9496377824, RTOSeconds: 162, MinConsumers: &minConsumers}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxSize != 200 || p.Capacity != 62917 || p.Surplus != 26573.2631459122 || p.DrainSeconds == nil || *p.DrainSeconds != 0.903011026761073 {
		t.Errorf("max_size %d, capacity %v, surplus %v, drain %v; want 200, 62917, 26573.2631459122, 0.903011026761073", p.MaxSize, p.Capacity, p.Surplus, ptrText(p.DrainSeconds))
	}
}
