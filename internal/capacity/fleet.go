// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"math"
	"math/big"
)

// Sizing inputs for the provisioning lag, shared by queuecap_consumers and
// queuecap_fleet.
var (
	inProvisioningLag = Input{Name: "provisioning_lag_seconds", Type: Number, Unit: "seconds", Range: AtLeastZero, Default: 0.0,
		Description: "Time for a new consumer to start taking work once the scale-out starts (instances boot, tasks pull images), in seconds, L.",
		Note: "While it lasts only `min_consumers` drain the backlog, and the full fleet has `rto_seconds − provisioning_lag_seconds` for the rest; " +
			"it must be less than `rto_seconds`. `0` is the headroom formula. " + warmupDoc}
	inMinConsumers = Input{Name: "min_consumers", Type: Whole, Unit: "consumers", Range: AtLeastZero,
		Description: "Fleet that runs before the scale-out, c_min: it alone drains the backlog during `provisioning_lag_seconds`, at its surplus `max(0, min_consumers × μ − λ_eff)`.",
		Note: "Defaults to `steady_state_consumers`, whose surplus is at most one consumer's. A smaller fleet is counted as draining nothing " +
			"(the backlog it lets grow during the lag is not counted: include it in `max_backlog`)."}
)

// lagDoc is how the provisioning lag enters the sizing, for descriptions.
const lagDoc = "With `provisioning_lag_seconds` L, the fleet reaches its full size only L seconds into the recovery, " +
	"so `required_consumers = ceil(λ_eff / μ + max(0, max_backlog − S_min × L) / (μ × (rto_seconds − L)))`, " +
	"where `S_min = max(0, min_consumers × μ − λ_eff)` is what the minimum fleet drains meanwhile " +
	"(`0` more when the minimum fleet clears the backlog within the lag and nothing arrives): " +
	"10,000 msg/s at 400 msg/s per consumer, a backlog of 5,000,000 and an RTO of 1,800 s need 32 consumers without a lag and 33 with a lag of 180 s."

const drainWithLagDoc = "Time to clear `max_backlog`, in seconds: `max_backlog / surplus` without a provisioning lag; with one, " +
	"`provisioning_lag_seconds` at the minimum fleet's surplus and the rest at the full fleet's (or `max_backlog / S_min` when the minimum fleet clears it within the lag). " +
	"At most `rto_seconds`; `0` without a backlog."

// sizingInput reads the headroom formula's inputs.
func sizingInput(a Args) SizingInput {
	in := SizingInput{ArrivalRate: a.Num("arrival_rate"), PerConsumerRate: a.Num("per_consumer_rate"), MaxBacklog: a.Num("max_backlog"),
		RTOSeconds: a.Num("rto_seconds"), Retries: retriesOf(a), MinHeadroom: a.Num("min_headroom"),
		ProvisioningLagSeconds: a.Num("provisioning_lag_seconds")}
	if a.Has("min_consumers") {
		c := a.Count("min_consumers")
		in.MinConsumers = &c
	}
	return in
}

// Lambda's scaling_config accepts a maximum_concurrency from 2 to 1,000.
const (
	minLambdaConcurrency = 2
	maxLambdaConcurrency = 1000
)

// FleetPlan is an auto-scaled fleet: its sizes and the target tracking
// that keeps it between them.
type FleetPlan struct {
	Sizing
	MinSize, DesiredCapacity, MaxSize int64
	BacklogPerConsumerTarget          float64
	// LambdaMaximumConcurrency is max(2, MaxSize); 0 when MaxSize is
	// beyond what one event source mapping allows, or in provisioned
	// mode, where AWS refuses a maximum_concurrency beside pollers.
	LambdaMaximumConcurrency int64
	// Pollers is the provisioned_poller_config in provisioned mode.
	Pollers *LambdaPollers
	// HealthyDuringDeploy is the consumers a deployment keeps in service
	// at MaxSize: ceil(min_healthy_percent / 100 × MaxSize).
	HealthyDuringDeploy int64
}

// FleetOptions are a fleet plan's settings beyond the sizing.
type FleetOptions struct {
	// MinHealthyPercent is the share of the fleet a deployment keeps in
	// service; max_size is raised until that share meets the RTO.
	MinHealthyPercent float64
	// LambdaMode is "", LambdaModeStandard or LambdaModeProvisioned.
	LambdaMode string
	// Limits are AWS's published limits the Lambda modes read.
	Limits AWSLimits
}

// PlanFleet sizes an auto-scaled fleet: min_size the steady state (or
// min_consumers), desired_capacity with the headroom asked for, max_size
// the headroom formula with the provisioning lag.
func PlanFleet(in SizingInput, slaSeconds float64) (FleetPlan, error) {
	return PlanFleetWith(in, slaSeconds, FleetOptions{MinHealthyPercent: 100})
}

// PlanFleetWith is PlanFleet with a deployment's healthy share and a
// Lambda concurrency mode: max_size is at least the least fleet whose
// healthy share still meets the RTO, and a mode's cap on one event source
// mapping is an error at lambda_concurrency_mode.
func PlanFleetWith(in SizingInput, slaSeconds float64, opts FleetOptions) (FleetPlan, error) {
	var p FleetPlan
	s, err := Size(in)
	if err != nil {
		return p, err
	}
	p.Sizing = s
	p.MinSize = s.MinConsumers
	p.DesiredCapacity = s.SteadyStateConsumers
	if in.MinHeadroom > 0 {
		// Size has checked this ratio and its ceiling.
		p.DesiredCapacity, _ = ceilRat("min_headroom", "desired_capacity", mul(quo(in.Retries.effective(in.ArrivalRate), dec(in.PerConsumerRate)), add(ratOne, dec(in.MinHeadroom))))
	}
	p.DesiredCapacity = max(p.DesiredCapacity, p.MinSize)
	deploy, err := DeployHealthyMaxSize(s.RequiredConsumers, opts.MinHealthyPercent)
	if err != nil {
		return p, err
	}
	p.MaxSize = max(s.RequiredConsumers, p.DesiredCapacity, deploy)
	if p.HealthyDuringDeploy, err = ConsumersDuringDeploy(p.MaxSize, opts.MinHealthyPercent, "min_healthy_percent"); err != nil {
		return p, err
	}
	if p.MaxSize > s.RequiredConsumers {
		// min_consumers above what the recovery needs (the fleet never
		// scales out, and its own surplus drains the backlog), or a
		// deployment's healthy share that must meet the RTO (the full
		// fleet, larger than the recovery needs, arrives after the lag).
		// From the exact c·μ and λ_eff, rounded once: not from the
		// capacity and λ_eff already written to 15 digits.
		sup, err := SupplyAgainst([]FleetSize{{Count: p.MaxSize, PerConsumerRate: in.PerConsumerRate}}, in.ArrivalRate, in.Retries, in.MaxBacklog)
		if err != nil {
			return p, err
		}
		p.Capacity, p.Surplus = sup.Capacity, sup.Surplus
		p.Overhead = overhead(p.MaxSize, s.SteadyStateConsumers)
		p.DrainSeconds = nil
		switch {
		case p.MaxSize > p.MinSize && in.ProvisioningLagSeconds > 0:
			effR := in.Retries.effective(in.ArrivalRate)
			muR := dec(in.PerConsumerRate)
			minSurplus := new(big.Rat)
			if in.RTOSeconds > 0 {
				minSurplus = minFleetSurplus(p.MinSize, muR, effR)
			}
			if p.DrainSeconds, err = lagDrainSeconds(dec(in.MaxBacklog), minSurplus, sub(mul(ratInt(p.MaxSize), muR), effR), dec(in.ProvisioningLagSeconds)); err != nil {
				return p, err
			}
		case sup.Drains:
			p.DrainSeconds = &sup.DrainSeconds
		}
	}
	if p.BacklogPerConsumerTarget, err = BacklogPerConsumerTarget(slaSeconds, in.PerConsumerRate); err != nil {
		return p, err
	}
	if opts.LambdaMode != "" {
		limit, name, err := opts.Limits.LambdaModeCap(opts.LambdaMode)
		if err != nil {
			return p, err
		}
		if float64(p.MaxSize) > limit {
			return p, inputErr("lambda_concurrency_mode", "%s mode reaches at most %s concurrent invocations on one SQS event source mapping (%s), but max_size is %d: "+
				"spread the queue over several mappings or functions, or give each invocation more work (a larger batch)",
				opts.LambdaMode, GroupDigits(Decimal(limit)), name, p.MaxSize)
		}
	}
	if opts.LambdaMode == LambdaModeProvisioned {
		pollers, err := opts.Limits.PlanPollers("lambda_concurrency_mode", p.MinSize, p.MaxSize)
		if err != nil {
			return p, err
		}
		p.Pollers = &pollers
		return p, nil
	}
	if p.MaxSize <= maxLambdaConcurrency {
		p.LambdaMaximumConcurrency = max(p.MaxSize, minLambdaConcurrency)
	}
	return p, nil
}

// The metric math of backlog per consumer, over these query IDs.
const (
	idVisible   = "visible"
	idInService = "in_service"
	idRunning   = "running_tasks"
)

var (
	tfDimension = ObjectOf(
		Attr{Name: "name", Type: String, Description: "Dimension name."},
		Attr{Name: "value", Type: String, Description: "Dimension value."},
	)
	tfMetric = ObjectOf(
		Attr{Name: "metric_name", Type: String, Description: "`metric_name` of the `metric` block."},
		Attr{Name: "namespace", Type: String, Description: "`namespace` of the `metric` block."},
		Attr{Name: "dimensions", Type: ListOf(tfDimension), Description: "The `dimensions` blocks; empty when the name they need was not given."},
	)
	tfMetricStat = ObjectOf(
		Attr{Name: "metric", Type: ListOf(tfMetric), Description: "The one `metric` block."},
		Attr{Name: "stat", Type: String, Description: "`stat` of the `metric_stat` block."},
	)
	tfMetrics = ObjectOf(
		Attr{Name: "id", Type: String, Description: "`id` of the query."},
		Attr{Name: "label", Type: String, Description: "`label` of the query."},
		Attr{Name: "expression", Type: String, Description: "`expression` of the query; null for a metric."},
		Attr{Name: "return_data", Type: Bool, Description: "`return_data`: true only for the backlog per consumer."},
		Attr{Name: "metric_stat", Type: ListOf(tfMetricStat), Description: "The `metric_stat` block of a metric; empty for the expression."},
	)
	tfTargetTracking = ObjectOf(
		Attr{Name: "target_value", Type: Number, Description: "`target_value`: backlog per consumer, `sla_seconds × per_consumer_rate`."},
		Attr{Name: "disable_scale_in", Type: Bool, Description: "`disable_scale_in`: false."},
		Attr{Name: "customized_metric_specification", Type: ListOf(ObjectOf(
			Attr{Name: "metrics", Type: ListOf(tfMetrics), Description: "The `metrics` blocks: visible messages, consumers, and their ratio."},
		)), Description: "The one `customized_metric_specification` block."},
	)
	ec2PolicyType = ObjectOf(
		Attr{Name: "policy_type", Type: String, Description: "`policy_type`: `TargetTrackingScaling`."},
		Attr{Name: "estimated_instance_warmup", Type: Whole, Description: "`estimated_instance_warmup`: `provisioning_lag_seconds` rounded up; null without a lag."},
		Attr{Name: "target_tracking_configuration", Type: ListOf(tfTargetTracking), Description: "The one `target_tracking_configuration` block."},
	)
	ecsPolicyType = ObjectOf(
		Attr{Name: "policy_type", Type: String, Description: "`policy_type`: `TargetTrackingScaling`."},
		Attr{Name: "service_namespace", Type: String, Description: "`service_namespace`: `ecs`."},
		Attr{Name: "scalable_dimension", Type: String, Description: "`scalable_dimension`: `ecs:service:DesiredCount`."},
		Attr{Name: "target_tracking_scaling_policy_configuration", Type: ListOf(tfTargetTracking), Description: "The one `target_tracking_scaling_policy_configuration` block."},
	)
	lambdaScalingType = ListOf(ObjectOf(
		Attr{Name: "maximum_concurrency", Type: Whole, Description: "`maximum_concurrency`: `max_size`, at least 2."},
	))
	lambdaPollerType = ListOf(ObjectOf(
		Attr{Name: "minimum_pollers", Type: Whole, Description: "`minimum_pollers`: the `minimum_pollers` output."},
		Attr{Name: "maximum_pollers", Type: Whole, Description: "`maximum_pollers`: the `maximum_pollers` output."},
	))
)

// Fleet inputs for Lambda's concurrency modes and deployments.
var (
	inLambdaMode = Input{Name: "lambda_concurrency_mode", Type: String, OneOf: []string{LambdaModeStandard, LambdaModeProvisioned},
		Description: "How the fleet's Lambda SQS event source mapping scales: `standard` (AWS adds pollers itself) or `provisioned` (its `provisioned_poller_config` sets them).",
		Note: "Unset, the plan is not held to either mode's cap and `lambda_scaling_config` is filled as for `standard`. " +
			"A `max_size` above the mode's cap on one mapping (AWS's `lambda_sqs_standard_max_concurrency`, 1,250, or `lambda_sqs_provisioned_max_concurrency`, 20,000, in [docs/aws-limits.md](https://github.com/queuecap/terraform-provider-queuecap/blob/main/docs/aws-limits.md)) is an error here. " +
			"`provisioned` fills `minimum_pollers`, `maximum_pollers` and `lambda_provisioned_poller_config` and leaves `lambda_scaling_config` empty, since AWS refuses a `maximum_concurrency` beside pollers."}
	inMinHealthyPercent = Input{Name: "min_healthy_percent", Type: Number, Unit: "percent", Range: Between(0, 100), Default: 100.0,
		Description: "Share of the fleet a deployment keeps in service, in percent: an instance refresh's `min_healthy_percentage`, an ECS service's `deployment_minimum_healthy_percent`.",
		Note: "`max_size` is raised until `ceil(min_healthy_percent / 100 × max_size)` consumers still meet the RTO, so that a deployment during the worst backlog does not stall its recovery. " +
			"That buys consumers that run only during a deployment; leave it at `100` when a deployment launches before it terminates (`max_healthy_percentage` or `deployment_maximum_percent` above 100), " +
			"or when deployments are paused during an incident."}
)

func dimensions(pairs ...string) []any {
	out := []any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			out = append(out, map[string]any{"name": pairs[i], "value": pairs[i+1]})
		}
	}
	return out
}

func metricQuery(id, label, namespace, name, stat string, dims []any) map[string]any {
	return map[string]any{"id": id, "label": label, "expression": nil, "return_data": false, "metric_stat": []any{map[string]any{
		"stat": stat, "metric": []any{map[string]any{"metric_name": name, "namespace": namespace, "dimensions": dims}},
	}}}
}

// targetTracking is the target tracking block on visible messages over
// consumers, AWS's backlog per instance.
func targetTracking(target float64, queueName, countID string, consumers map[string]any, per string) []any {
	visible := metricQuery(idVisible, "Visible messages", namespaceSQS, metricVisible, "Sum", dimensions("QueueName", queueName))
	ratio := map[string]any{"id": "backlog_per_" + per, "label": "Backlog per " + per, "expression": idVisible + " / " + countID,
		"return_data": true, "metric_stat": []any{}}
	return []any{map[string]any{"target_value": target, "disable_scale_in": false,
		"customized_metric_specification": []any{map[string]any{"metrics": []any{visible, consumers, ratio}}}}}
}

// FleetFormula is a fleet plan in one result.
var FleetFormula = &Formula{
	Name:    "fleet",
	Answers: "a fleet plan in one result: `min_size` (steady state), `desired_capacity` (with `min_headroom`), `max_size` (the headroom formula with `provisioning_lag_seconds`), drain time, overhead, and target tracking on backlog per consumer ready for `dynamic` blocks in `aws_autoscaling_policy`, `aws_appautoscaling_policy` and an event source mapping's `scaling_config`",
	Description: "A fleet plan in one result: the three sizes of an auto-scaled consumer fleet and the target tracking that moves it between them, " +
		"ready for an EC2 Auto Scaling group, an ECS service or a Lambda event source mapping.\n\n" +
		"* `min_size`: the steady state `ceil(λ_eff / μ)`, or `min_consumers`.\n" +
		"* `desired_capacity`: `ceil(λ_eff × (1 + min_headroom) / μ)`, at least `min_size`: the headroom asked for.\n" +
		"* `max_size`: the headroom formula of `queuecap_consumers` with the provisioning lag, `required_consumers`, at least `desired_capacity`. " + lagDoc + "\n\n" +
		"The scaling specifications track backlog per consumer, `ApproximateNumberOfMessagesVisible` over the consumers in service, " +
		"at AWS's target of acceptable latency over processing time, `sla_seconds × per_consumer_rate`. " +
		"Each mirrors its resource's blocks, every nested block a list, so that `dynamic` blocks over them fill in " +
		"`aws_autoscaling_policy` (`ec2_scaling_policy`), `aws_appautoscaling_policy` (`ecs_scaling_policy`) and " +
		"the `scaling_config` of `aws_lambda_event_source_mapping` (`lambda_scaling_config`) without glue. " +
		"The metrics carry the dimensions whose names are given (`queue_name`, `autoscaling_group_name`, `ecs_cluster_name` with `ecs_service_name`); " +
		"give them from the same locals or variables as the resources, since an argument unknown at plan defers the whole read to apply.",
	Inputs: append(append([]Input{inArrivalRate, inPerConsumerRate, withNote(inSLASeconds, "Sets the target of target tracking, `sla_seconds × per_consumer_rate` messages per consumer."),
		inMaxBacklog, inRTOSeconds}, retryRules...),
		inMinHeadroom, inProvisioningLag, inMinConsumers, inMinHealthyPercent, inLambdaMode,
		Input{Name: "queue_name", Type: String, Description: "Name of the SQS queue, the `QueueName` dimension of `ApproximateNumberOfMessagesVisible`."},
		Input{Name: "autoscaling_group_name", Type: String, Description: "Name of the EC2 Auto Scaling group, the `AutoScalingGroupName` dimension of `GroupInServiceInstances`."},
		Input{Name: "ecs_cluster_name", Type: String, Description: "Name of the ECS cluster, the `ClusterName` dimension of `RunningTaskCount`."},
		Input{Name: "ecs_service_name", Type: String, Description: "Name of the ECS service, the `ServiceName` dimension of `RunningTaskCount`."},
	),
	Outputs: []Output{
		{Name: "effective_arrival_rate", Type: Number, Description: effectiveArrivalDoc},
		{Name: "min_size", Type: Whole, Description: "Smallest fleet, a whole number: `min_consumers`, else the steady state `ceil(λ_eff / μ)`. Use it as `min_size` or `min_capacity`."},
		{Name: "desired_capacity", Type: Whole, Description: "Fleet to run normally, a whole number: `ceil(λ_eff × (1 + min_headroom) / μ)`, at least `min_size`."},
		{Name: "max_size", Type: Whole, Description: "Largest fleet, a whole number: the headroom formula with the provisioning lag, at least `desired_capacity`. Use it as `max_size` or `max_capacity`."},
		{Name: "surplus", Type: Number, Description: "Capacity of `max_size` left after arrivals, `max_size × per_consumer_rate − effective_arrival_rate`, in messages per second."},
		{Name: "drain_seconds", Type: Number, Description: drainWithLagDoc},
		{Name: "overhead", Type: Number, Description: "Extra consumers at `max_size` over the steady state, `max_size / ceil(λ_eff / μ) − 1`, a fraction. Null when the steady state needs no consumers."},
		{Name: "backlog_per_consumer_target", Type: Number, Description: "Target of target tracking, `sla_seconds × per_consumer_rate` messages waiting per consumer."},
		{Name: "ec2_scaling_policy", Type: ec2PolicyType, Description: "Arguments of an `aws_autoscaling_policy` tracking backlog per instance, " +
			"`ApproximateNumberOfMessagesVisible` (`AWS/SQS`, `Sum`) over `GroupInServiceInstances` (`AWS/AutoScaling`, `Average`): " +
			"`policy_type`, `estimated_instance_warmup` and the `target_tracking_configuration` block as a list of one."},
		{Name: "ecs_scaling_policy", Type: ecsPolicyType, Description: "Arguments of an `aws_appautoscaling_policy` tracking backlog per task, " +
			"`ApproximateNumberOfMessagesVisible` (`AWS/SQS`, `Sum`) over `RunningTaskCount` (`ECS/ContainerInsights`, `Average`; Container Insights must be on): " +
			"`policy_type`, `service_namespace`, `scalable_dimension` and the `target_tracking_scaling_policy_configuration` block as a list of one."},
		{Name: "lambda_scaling_config", Type: lambdaScalingType, Description: "The `scaling_config` block of an `aws_lambda_event_source_mapping` as a list of one: " +
			"`maximum_concurrency = max(2, max_size)` concurrent invocations. Empty (with a warning) when `max_size` is beyond the 1,000 one mapping allows, " +
			"and in `provisioned` mode."},
		{Name: "healthy_during_deploy", Type: Whole, Description: "Consumers a deployment keeps in service at `max_size`, `ceil(min_healthy_percent / 100 × max_size)`: at least the recovery's `required_consumers`."},
		{Name: "minimum_pollers", Type: Whole, Description: "In `provisioned` mode, `minimum_pollers` of the mapping's `provisioned_poller_config`: " +
			"`ceil(min_size / lambda_sqs_poller_concurrent_invocations)`, within AWS's range (2 to 200; a warning when `min_size` needs more). Null in other modes."},
		{Name: "maximum_pollers", Type: Whole, Description: "In `provisioned` mode, `maximum_pollers` of the mapping's `provisioned_poller_config`: " +
			"`ceil(max_size / lambda_sqs_poller_concurrent_invocations)`, at least `minimum_pollers`. Null in other modes."},
		{Name: "lambda_provisioned_poller_config", Type: lambdaPollerType, Description: "The `provisioned_poller_config` block of an `aws_lambda_event_source_mapping` as a list of one in `provisioned` mode, " +
			"`minimum_pollers` and `maximum_pollers`; empty in other modes."},
	},
	Rules: []Rule{
		RequiredWhenPositive{Trigger: "max_backlog", Required: "rto_seconds", Why: "the time allowed to clear that backlog"},
		AlsoRequires{Input: "ecs_cluster_name", Needs: "ecs_service_name"},
		AlsoRequires{Input: "ecs_service_name", Needs: "ecs_cluster_name"},
	},
	Compute: func(a Args) (Result, error) {
		in := sizingInput(a)
		p, err := PlanFleetWith(in, a.Num("sla_seconds"),
			FleetOptions{MinHealthyPercent: a.Num("min_healthy_percent"), LambdaMode: a.Str("lambda_concurrency_mode"), Limits: DefaultAWSLimits()})
		if err != nil {
			return Result{}, err
		}
		var warmup any
		if in.ProvisioningLagSeconds > 0 {
			warmup = int64(math.Ceil(in.ProvisioningLagSeconds))
		}
		queue := a.Str("queue_name")
		lambda := []any{}
		if p.LambdaMaximumConcurrency > 0 {
			lambda = append(lambda, map[string]any{"maximum_concurrency": p.LambdaMaximumConcurrency})
		}
		var minPollers, maxPollers any
		pollers := []any{}
		if p.Pollers != nil {
			minPollers, maxPollers = p.Pollers.Minimum, p.Pollers.Maximum
			pollers = append(pollers, map[string]any{"minimum_pollers": minPollers, "maximum_pollers": maxPollers})
		}
		r := Result{Values: Values{
			"effective_arrival_rate": p.EffectiveArrivalRate, "min_size": p.MinSize, "desired_capacity": p.DesiredCapacity, "max_size": p.MaxSize,
			"surplus": p.Surplus, "drain_seconds": optional(p.DrainSeconds), "overhead": optional(p.Overhead),
			"backlog_per_consumer_target": p.BacklogPerConsumerTarget,
			"ec2_scaling_policy": map[string]any{"policy_type": "TargetTrackingScaling", "estimated_instance_warmup": warmup,
				"target_tracking_configuration": targetTracking(p.BacklogPerConsumerTarget, queue, idInService,
					metricQuery(idInService, "Instances in service", "AWS/AutoScaling", "GroupInServiceInstances", "Average",
						dimensions("AutoScalingGroupName", a.Str("autoscaling_group_name"))), "instance")},
			"ecs_scaling_policy": map[string]any{"policy_type": "TargetTrackingScaling", "service_namespace": "ecs", "scalable_dimension": "ecs:service:DesiredCount",
				"target_tracking_scaling_policy_configuration": targetTracking(p.BacklogPerConsumerTarget, queue, idRunning,
					metricQuery(idRunning, "Running tasks", "ECS/ContainerInsights", "RunningTaskCount", "Average",
						dimensions("ClusterName", a.Str("ecs_cluster_name"), "ServiceName", a.Str("ecs_service_name"))), "task")},
			"lambda_scaling_config": lambda,
			"healthy_during_deploy": p.HealthyDuringDeploy, "minimum_pollers": minPollers, "maximum_pollers": maxPollers,
			"lambda_provisioned_poller_config": pollers,
		}}
		if w := ZeroSurplusWarning(in, p.Sizing); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		r.Warnings = append(r.Warnings, SizingWarnings(in, p.Sizing)...)
		if w := SLAShorterThanServiceWarning(a.Num("sla_seconds"), in.PerConsumerRate); w != nil {
			r.Warnings = append(r.Warnings, *w)
		}
		switch mode := a.Str("lambda_concurrency_mode"); {
		case p.Pollers != nil && p.Pollers.MinimumCapped:
			r.Warnings = append(r.Warnings, Warning{Summary: "min_size needs more warm pollers than minimum_pollers accepts",
				Detail: fmt.Sprintf("min_size = %d needs ceil(%d / %s) pollers kept warm, but minimum_pollers is at most %d, so minimum_pollers = %d keeps %s concurrent invocations warm.",
					p.MinSize, p.MinSize, formatNumber(pollerConcurrency()), p.Pollers.Minimum, p.Pollers.Minimum, GroupDigits(Decimal(float64(p.Pollers.Minimum)*pollerConcurrency())))})
		case mode == LambdaModeStandard && p.LambdaMaximumConcurrency == 0:
			r.Warnings = append(r.Warnings, Warning{Summary: "max_size is beyond a maximum_concurrency",
				Detail: fmt.Sprintf("max_size = %d, but an SQS event source mapping's scaling_config allows a maximum_concurrency of at most %d, "+
					"so lambda_scaling_config is empty: leave maximum_concurrency unset, and a standard-mode mapping scales up to its own cap on its own.",
					p.MaxSize, maxLambdaConcurrency)})
		case mode == "" && p.LambdaMaximumConcurrency == 0:
			r.Warnings = append(r.Warnings, Warning{Summary: "max_size is beyond one Lambda event source mapping",
				Detail: fmt.Sprintf("max_size = %d, but an SQS event source mapping's scaling_config allows a maximum_concurrency of at most %d, "+
					"so lambda_scaling_config is empty: spread the queue over several mappings or functions, or give each invocation more work (a larger batch).",
					p.MaxSize, maxLambdaConcurrency)})
		}
		return r, nil
	},
}

// warmupDoc says what the lag is made of, as queuecap lint's
// queuecap_insufficient_headroom reads it.
const warmupDoc = "Count from the backlog to a new consumer's first message: the scaling alarm's M breaching datapoints × its period " +
	"(one period of the metric for target tracking), then the launch (an instance's boot, shorter from a warm pool; an ECS task's start and image pull). " +
	"An Auto Scaling group's `default_instance_warmup` and the health check grace periods delay metrics and health checks, not the first message: " +
	"add them only as an estimate of the launch. `queuecap lint` derives the alarm's part from the configuration, a lower bound (queuecap_insufficient_headroom, What the lag is made of)."

// pollerConcurrency is the invocations one provisioned poller drives.
func pollerConcurrency() float64 {
	v, _ := DefaultAWSLimits().limit(LimitLambdaPollerConcurrency)
	return v
}

// fleetPlanFunction is queuecap_fleet as one call.
var fleetPlanFunction = &Function{
	Name: "fleet_plan", Summary: "The whole queuecap_fleet plan as one call",
	Description: "Takes the arguments of the `queuecap_fleet` data source as one object " +
		"(`arrival_rate`, `per_consumer_rate` and `sla_seconds` required; the others optional with the same defaults and rules; " +
		"numbers may be given as strings) and returns its whole result as one object: the inputs with defaults filled in, " +
		"`min_size`, `desired_capacity`, `max_size`, `surplus`, `drain_seconds`, `overhead`, `backlog_per_consumer_target`, " +
		"`healthy_during_deploy`, the pollers of `lambda_concurrency_mode = \"provisioned\"` (`minimum_pollers`, `maximum_pollers`, `lambda_provisioned_poller_config`), " +
		"and the target tracking specifications `ec2_scaling_policy`, `ecs_scaling_policy` and `lambda_scaling_config`, each exactly as the data source computes it. " +
		"A function cannot warn: the data source's warnings (zero surplus, a `max_size` beyond one Lambda event source mapping, a warm floor above `minimum_pollers`' range) are not shown.",
	Object: FleetFormula,
}
