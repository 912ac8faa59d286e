// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package model is what `queuecap lint` knows about a configuration once
// it is linked: queues, consumer fleets, scaling policies, alarms and
// event source mappings, the rates declared for them and where each came
// from, and each queue's supply; and what a run reports: findings, skipped
// checks and errors. It is a leaf: the front ends (HCL, plan) and the
// linker in package lint build it, and the rules and the formatters read
// it and nothing else of the engine.
package model

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// Num is a number a rule may need: declared (Set), and known before apply
// (Known) or not. From names where it came from, for messages.
type Num struct {
	V     float64
	Set   bool
	Known bool
	Range hcl.Range
	From  string
	// Origins are the resources and data sources the value was derived
	// from: a size computed by a queuecap data source declares its rates.
	Origins []string
	// Via names what declared a queue's rate when it is not the queue
	// itself: "SNS topic aws_sns_topic.orders", for messages.
	Via string
	// Why says, for a value set but not known, what makes it so when a
	// reference explains it ("comes from var.max_size, which has no value
	// here (…)"); see Unknown.
	Why string
}

// Unknown says why a value set but not known is not: Why, else "is not
// known before apply".
func (n Num) Unknown() string { return unknownBecause(n.Why) }

func unknownBecause(why string) string {
	if why != "" {
		return why
	}
	return "is not known before apply"
}

// Setting is a string or bool argument: unset (AWS's default applies),
// set but not known before apply (Why says why when a reference explains
// it), or known.
type Setting[T string | bool] struct {
	V     T
	Set   bool
	Known bool
	Range hcl.Range
	Why   string
}

// Unknown says why a setting set but not known is not, as Num.Unknown.
func (s Setting[T]) Unknown() string { return unknownBecause(s.Why) }

// Is reports whether the setting is known to be v, AWS's default def
// standing for it when unset.
func (s Setting[T]) Is(v, def T) bool {
	if !s.Set {
		return v == def
	}
	return s.Known && s.V == v
}

// KnownNum is a value known before apply, read at rng from from.
func KnownNum(v float64, rng hcl.Range, from string) Num {
	return Num{V: v, Set: true, Known: true, Range: rng, From: from}
}

// Rates are the declared rates of a queue and its consumers.
type Rates struct {
	ArrivalRate     Num
	PerConsumerRate Num
	MaxBacklog      Num
	RTOSeconds      Num
	SLASeconds      Num
	RetryRate       Num
	AvgRetries      Num
	MinHeadroom     Num
	// RetriesPerTimeout is how many times a producer retries a message
	// that waited longer than TimeoutWindowSeconds (the retry storm of
	// capacity.SimulateStorm); the window defaults to 30 s in the rule.
	RetriesPerTimeout    Num
	TimeoutWindowSeconds Num
	// MessageGroups is how many message groups of a FIFO queue have
	// messages at once: SQS hands each to one consumer at a time, so at
	// most that many consumers work. MessageSizeBytes is the average
	// message payload, which a provisioned mapping's pollers carry at a
	// published rate.
	MessageGroups    Num
	MessageSizeBytes Num
}

// RateFields are the declared rates by the names they have in queuecap:*
// tags, .queuecap.hcl queue blocks and queuecap data sources, in the order
// of the fields of Rates: a new rate is a field there and one line here.
var RateFields = []struct {
	Name string
	Of   func(*Rates) *Num
	// Default is what the rules take when the rate is not declared, nil
	// when they need it declared; --explain shows it.
	Default *float64
}{
	{"arrival_rate", func(r *Rates) *Num { return &r.ArrivalRate }, nil},
	{"per_consumer_rate", func(r *Rates) *Num { return &r.PerConsumerRate }, nil},
	{"max_backlog", func(r *Rates) *Num { return &r.MaxBacklog }, nil},
	{"rto_seconds", func(r *Rates) *Num { return &r.RTOSeconds }, nil},
	{"sla_seconds", func(r *Rates) *Num { return &r.SLASeconds }, nil},
	{"retry_rate", func(r *Rates) *Num { return &r.RetryRate }, new(0.0)},
	{"avg_retries", func(r *Rates) *Num { return &r.AvgRetries }, new(0.0)},
	{"min_headroom", func(r *Rates) *Num { return &r.MinHeadroom }, new(float64(capacity.DefaultMinHeadroom))},
	{"retries_per_timeout", func(r *Rates) *Num { return &r.RetriesPerTimeout }, nil},
	{"timeout_window_seconds", func(r *Rates) *Num { return &r.TimeoutWindowSeconds }, new(float64(capacity.DefaultTimeoutWindowSeconds))},
	{capacity.FieldMessageGroups, func(r *Rates) *Num { return &r.MessageGroups }, nil},
	{capacity.FieldMessageSizeBytes, func(r *Rates) *Num { return &r.MessageSizeBytes }, nil},
}

// Field is the rate of that name, or nil for a name that is not a rate.
func (r *Rates) Field(name string) *Num {
	for _, f := range RateFields {
		if f.Name == name {
			return f.Of(r)
		}
	}
	return nil
}

// Merge fills rates not yet set from other.
func (r *Rates) Merge(other Rates) {
	for _, f := range RateFields {
		if dst, src := f.Of(r), f.Of(&other); !dst.Set && src.Set {
			*dst = *src
		}
	}
}

// Queue is an aws_sqs_queue.
type Queue struct {
	Addr     string
	DefRange hcl.Range
	Name     string // known name, or ""
	// NameWhy says why Name is "": "name comes from var.x, which has no
	// value here (...)"; "" when it is known.
	NameWhy string
	// Rates are the queue's declared rates, resolved by Precedence.
	Rates Rates
	// Declared are its rates as each source declares them.
	Declared DeclaredRates
	// Retention and Visibility are the configured values, or AWS's
	// defaults (345,600 s and 30 s) when the attribute is absent.
	Retention  Num
	Visibility Num
	// HasRedrive is true when a redrive policy is configured inline or
	// through aws_sqs_queue_redrive_policy.
	HasRedrive bool
	// RedriveUnknown is true when the only redrive policy is an inline
	// one (at RedriveRange) whose value is not known before apply.
	RedriveUnknown bool
	RedriveRange   hcl.Range
	// MaxReceiveCount is the redrive policy's maxReceiveCount: the
	// receives of a message before SQS moves it to the dead-letter queue.
	// Unset without a redrive policy, or one whose count cannot be read.
	MaxReceiveCount Num
	// FIFO is fifo_queue; FIFOThroughputLimit (perQueue, or
	// perMessageGroupId for high throughput) and DeduplicationScope
	// (queue or messageGroup) are fifo_throughput_limit and
	// deduplication_scope, unset when AWS's defaults (perQueue, queue)
	// apply. High throughput takes both perMessageGroupId and
	// messageGroup.
	FIFO                Setting[bool]
	FIFOThroughputLimit Setting[string]
	DeduplicationScope  Setting[string]
	// MaxMessageBytes is max_message_size, or the AWS provider's default
	// (262,144 bytes) when absent; SQS takes up to 1 MiB.
	MaxMessageBytes Num
	// Limits are AWS's published limits (capacity.AWSLimits) as the
	// configuration's aws_limits block overrides them.
	Limits capacity.AWSLimits
	// Region is the queue's own region argument (AWS provider v6): unset
	// in a configuration that leaves it to the provider block, which the
	// linter does not read; in a plan the provider has filled it in.
	Region Setting[string]
	// IsDeadLetter is true when another queue's redrive policy targets it.
	IsDeadLetter bool
	// Mappings are the Lambda event source mappings that read it, their
	// functions in the configuration or not.
	Mappings []*EventSourceMapping
	// FailureDestination is true when Lambda sends the events it fails to
	// process there (a function's dead_letter_config, an event source
	// mapping's on_failure destination): like a dead-letter queue, it is
	// drained by a replay, not by a fleet.
	FailureDestination bool
	// DeadLetterQueue is the queue its redrive policy targets, when that
	// is a queue of the model.
	DeadLetterQueue *Queue
	Consumers       []*Fleet
	// ConsumedThrough says how a consumer is linked when its
	// configuration only implies it: "IAM role aws_iam_role.worker", "pipe
	// aws_pipes_pipe.orders".
	ConsumedThrough map[*Fleet]string
	// IgnoredConsumers are fleets an IAM role implies consume the queue
	// that are not its consumers, and why: the queue's consumers are
	// declared, and a declared consumer takes precedence.
	IgnoredConsumers []IgnoredConsumer
	Alarms           []*Alarm
	// Supply is what the consumers can do against the declared arrivals,
	// computed once the queue is linked; nil when the queue has no
	// consumer or declares no arrival rate, or, with SupplyGap saying
	// which and where, when a value it needs is unknown or undeclared.
	// Every rule reads the same Supply: it is read-only.
	Supply    *Supply
	SupplyGap *Unchecked
	// Groups is the bound its declared message_groups put on its
	// consumers (MessageGroupsBound), settled with the supply, or
	// GroupsGap says why it cannot be known; both nil without one.
	Groups    *GroupsBound
	GroupsGap *Unchecked
}

// IgnoredConsumer is a fleet left out of a queue's consumers, and why.
type IgnoredConsumer struct {
	Fleet  *Fleet
	Reason string
}

// FleetKind is the compute behind a fleet.
type FleetKind string

const (
	FleetASG    FleetKind = "aws_autoscaling_group"
	FleetECS    FleetKind = "aws_ecs_service"
	FleetLambda FleetKind = "aws_lambda_function"
	// FleetPipe is an EventBridge pipe whose target is not a fleet of the
	// model: one consumer, whose queuecap:per_consumer_rate tag declares
	// what the whole pipe delivers.
	FleetPipe FleetKind = "aws_pipes_pipe"
)

// Fleet is a consumer fleet: an auto scaling group, an ECS service, a
// Lambda function or an EventBridge pipe.
type Fleet struct {
	Kind     FleetKind
	Addr     string
	DefRange hcl.Range
	Name     string
	// NameWhy says why Name is "", as Queue.NameWhy does.
	NameWhy string
	// Cluster is an ECS service's cluster name, when known; ClusterWhy
	// says why it is not.
	Cluster    string
	ClusterWhy string
	// MaxSize is the fleet's largest size, with SizeAttr naming the
	// attribute it came from (max_size, max_capacity, desired_count,
	// maximum_concurrency, reserved_concurrent_executions).
	MaxSize  Num
	SizeAttr string
	// MinSize is the fleet's smallest size: an auto scaling group's
	// min_size, an ECS service's scaling target min_capacity; unset for a
	// Lambda function.
	MinSize Num
	// Rates holds per_consumer_rate (and anything else) declared for the
	// fleet, resolved by Precedence; RatesFor adds a queue's.
	Rates Rates
	// Declared are its rates as each source declares them.
	Declared DeclaredRates
	// QueueAddr is the queuecap:queue tag, made absolute, written at
	// QueueTagRange.
	QueueAddr     string
	QueueTagRange hcl.Range
	Queues        []*Queue
	Policies      []*Policy
	// TimeoutSeconds is a Lambda function's timeout (default 3 s).
	TimeoutSeconds Num
	// Replacement is how deployments or maintenance replace the fleet's
	// consumers, nil when the configuration says nothing does: an auto
	// scaling group without instance_refresh or
	// instance_maintenance_policy, a Lambda function, a pipe.
	Replacement *Replacement
	// Reserved is a Lambda function's reserved_concurrent_executions, one
	// of the caps its event source mappings take the smallest of.
	Reserved Num
	// SizeTerms, when not "", says how MaxSize is made because it is not
	// SizeAttr's own value: a Lambda function bounded by its mapping's
	// pollers, by a cap AWS publishes, or by its Lambda Managed
	// Instances capacity provider (Fleet.SizeText).
	SizeTerms string
	// SizeOf is the address SizeAttr is an argument of when it is not the
	// fleet's own (an event source mapping's), for messages.
	SizeOf string
	// ManagedInstances is true for a Lambda function on Lambda Managed
	// Instances (capacity_provider_config): AWS may throttle its traffic
	// when it more than doubles within
	// lambda_managed_instances_doubling_window_seconds.
	ManagedInstances bool
	// Warmup is how long the configuration says a new consumer warms up
	// (lag.go): shown by --explain, never a bound on the lag.
	Warmup Warmup
}

// ReplacementKind names what replaces a fleet's consumers.
type ReplacementKind string

const (
	ReplaceInstanceRefresh     ReplacementKind = "instance refresh"
	ReplaceInstanceMaintenance ReplacementKind = "instance maintenance"
	ReplaceECSRolling          ReplacementKind = "ECS rolling deployment"
	// ReplaceECSBlueGreen is a deployment that starts the new tasks beside
	// the old (deployment_controller CODE_DEPLOY or EXTERNAL, or a
	// deployment_configuration strategy other than ROLLING): the fleet
	// keeps its size.
	ReplaceECSBlueGreen ReplacementKind = "ECS blue/green deployment"
)

// Replacement is what a fleet keeps in service while its consumers are
// replaced: percentages of its size, unset where AWS's default applies
// (the AWS limits table holds the defaults).
type Replacement struct {
	Kind ReplacementKind
	// MinHealthy and MaxHealthy are the percentages: an instance
	// refresh's preferences, else the instance maintenance policy's;
	// deployment_minimum_healthy_percent and deployment_maximum_percent
	// of an ECS service.
	MinHealthy, MaxHealthy Num
	// MinAttr and MaxAttr name them as the configuration does
	// ("instance_refresh.preferences.min_healthy_percentage").
	MinAttr, MaxAttr string
	// Range is the block that asks for the replacement (instance_refresh,
	// instance_maintenance_policy, the ECS service), where a finding on
	// a default lies.
	Range hcl.Range
	// Strategy is what decides the kind when it is not known before
	// apply (an ECS service's deployment_controller type or
	// deployment_configuration strategy): Set and not Known.
	Strategy Setting[string]
	// StrategyAttr names it.
	StrategyAttr string
}

// DefaultLimits name the AWS limits whose values stand for the
// replacement's percentages when they are unset: "" where AWS requires
// the setting (an instance maintenance policy's), and for a blue/green
// deployment, which keeps the fleet's size.
func (r *Replacement) DefaultLimits() (minHealthy, maxHealthy string) {
	switch r.Kind {
	case ReplaceInstanceRefresh:
		return "asg_instance_refresh_min_healthy_percentage_default", "asg_instance_refresh_max_healthy_percentage_default"
	case ReplaceECSRolling:
		return "ecs_deployment_minimum_healthy_percent_default", "ecs_deployment_maximum_percent_default"
	}
	return "", ""
}

// Kept is the fewest of size consumers the replacement keeps in service
// at the percentages minPct and maxPct (maxPct is read for an auto scaling
// group only): a blue/green deployment, or a group that launches before it
// terminates (maxPct above 100), keeps them all; an ECS rolling deployment
// ceil(size × minPct / 100) (capacity.ConsumersDuringDeploy); any other
// group at most size − 1, replacing at least one instance at a time
// (capacity.InstancesDuringReplacement), and oneAtATime says when that,
// not the percentage, sets the count.
func (r *Replacement) Kept(size int64, minPct, maxPct float64) (kept int64, oneAtATime bool, err error) {
	switch {
	case r.Kind == ReplaceECSBlueGreen:
		return size, false, nil
	case r.Kind == ReplaceECSRolling:
		kept, err = capacity.ConsumersDuringDeploy(size, minPct, r.MinAttr)
		return kept, false, err
	case maxPct > 100:
		return size, false, nil
	}
	return capacity.InstancesDuringReplacement(size, minPct, r.MinAttr)
}

// Unreserved reports a Lambda function whose size is its
// reserved_concurrent_executions of -1: its concurrency is bounded only by
// the account's, so its size is not known (build reads it so; a mapping's
// maximum_concurrency replaces it).
func (f *Fleet) Unreserved() bool {
	return f.Kind == FleetLambda && f.SizeAttr == "reserved_concurrent_executions" && f.MaxSize.Set && !f.MaxSize.Known && f.MaxSize.V < 0
}

// PolicyKind says how a scaling policy decides.
type PolicyKind string

const (
	PolicyStep           PolicyKind = "StepScaling"
	PolicySimple         PolicyKind = "SimpleScaling"
	PolicyTargetTracking PolicyKind = "TargetTrackingScaling"
	PolicyOther          PolicyKind = "other"
)

// Policy is an aws_autoscaling_policy or aws_appautoscaling_policy.
type Policy struct {
	Addr     string
	DefRange hcl.Range
	Kind     PolicyKind
	Fleet    *Fleet
	Alarms   []*Alarm
	// ScaleOut is false for a policy known to only remove capacity.
	ScaleOut bool
	// AdjustmentType is how a step or simple policy's adjustments apply
	// (ChangeInCapacity, ExactCapacity, PercentChangeInCapacity): "" when
	// absent, "unknown" when not known before apply.
	AdjustmentType string
	// Steps are a step policy's step adjustments. DynamicSteps is true
	// when a dynamic block generates some: those are not expanded, so
	// Steps are incomplete.
	Steps        []Step
	DynamicSteps bool
	// Metrics is what a target tracking policy tracks; Predefined is its
	// predefined metric type (CPU, request count...) if it uses one.
	Metrics    MetricSet
	Predefined string
	// Predictive is a predictive scaling policy's configuration, nil for
	// any other policy.
	Predictive *Predictive
	// MetricPeriods are the periods a target tracking policy's customized
	// metric sets (its period, its metric_stat periods); none when it
	// sets none and AWS's default applies.
	MetricPeriods []Num
	// EstimatedInstanceWarmup is an auto scaling policy's
	// estimated_instance_warmup, which overrides the group's
	// default_instance_warmup for the instances it launches.
	EstimatedInstanceWarmup Num
}

// Predictive is a predictive scaling policy's configuration: Mode
// (ForecastOnly, AWS's default, scales nothing; ForecastAndScale) and
// what it does when the forecast exceeds the maximum size
// (MaxCapacityBreachBehavior, HonorMaxCapacity by default; with
// IncreaseMaxCapacity the maximum rises up to the forecast plus
// MaxCapacityBuffer percent).
type Predictive struct {
	Mode                      Setting[string]
	MaxCapacityBreachBehavior Setting[string]
	MaxCapacityBuffer         Num
	Range                     hcl.Range
}

// The predictive scaling values the rules compare, and AWS's defaults.
const (
	PredictiveForecastOnly        = "ForecastOnly"
	PredictiveForecastAndScale    = "ForecastAndScale"
	PredictiveHonorMaxCapacity    = "HonorMaxCapacity"
	PredictiveIncreaseMaxCapacity = "IncreaseMaxCapacity"
)

// MayExceedMax reports whether the predictive policy may raise its fleet
// past the maximum size: it forecasts and scales with
// IncreaseMaxCapacity, or a setting deciding it is not known before
// apply (Unknown says which, where).
func (p *Predictive) MayExceedMax() bool {
	if p == nil {
		return false
	}
	// Unset, the mode is ForecastOnly and the behavior HonorMaxCapacity.
	scales := p.Mode.Set && (!p.Mode.Known || p.Mode.V == PredictiveForecastAndScale)
	breach := p.MaxCapacityBreachBehavior
	increases := breach.Set && (!breach.Known || breach.V == PredictiveIncreaseMaxCapacity)
	return scales && increases
}

// Step is a step adjustment: while the alarm's metric lies between
// threshold + Lower and threshold + Upper, the policy applies Adjustment.
// An unset bound is open.
type Step struct {
	Lower, Upper, Adjustment Num
}

// MetricSet is what an alarm or a target tracking policy reads.
type MetricSet struct {
	Names       []string // metric names, e.g. ApproximateNumberOfMessagesVisible
	Namespaces  []string
	Expressions []string // metric math
	// Known is false when a metric name or expression is not known
	// before apply: the set cannot then be judged.
	Known bool
	// NamesKnown is true when every metric name is known, so that only
	// an expression is not: what it returns is built from those metrics.
	NamesKnown bool
}

// ReadsNoDepth reports whether, though an expression is not known before
// apply, no metric the set reads is an SQS depth metric, so that whatever
// the expression, it returns no depth (unless it searches for metrics
// itself, which an expression known only after apply rarely does).
func (m MetricSet) ReadsNoDepth() bool {
	if m.Known || !m.NamesKnown || len(m.Names) == 0 {
		return false
	}
	return !slices.ContainsFunc(m.Names, func(n string) bool { return n == MetricVisible || n == MetricNotVisible })
}

// Reads reports whether the set reads the named metric.
func (m MetricSet) Reads(name string) bool { return slices.Contains(m.Names, name) }

// UsesRate reports metric math over the rate of change (RATE, DIFF).
func (m MetricSet) UsesRate() bool {
	for _, e := range m.Expressions {
		u := strings.ToUpper(e)
		if strings.Contains(u, "RATE(") || strings.Contains(u, "DIFF(") || strings.Contains(u, "DIFF_TIME(") {
			return true
		}
	}
	return false
}

// Alarm is an aws_cloudwatch_metric_alarm.
type Alarm struct {
	Addr       string
	DefRange   hcl.Range
	Metrics    MetricSet
	Comparison string
	Threshold  Num
	// ThresholdRates are the arguments of the queuecap data sources or
	// provider functions the threshold was computed from: their retries
	// count in the SLA depth when the queue declares none.
	ThresholdRates Rates
	Queues         []*Queue
	Policies       []*Policy
	// Simple is true for an alarm on one metric (metric_name), not metric
	// math: its threshold compares the metric itself.
	Simple bool
	// EvaluationPeriods and DatapointsToAlarm are the alarm's N and M:
	// it enters ALARM once M of its last N datapoints breach. Periods are
	// the periods it sets (its period, its metric queries'); PeriodsWhy
	// says why they may be incomplete (a dynamic metric_query), "" when
	// they are not (Alarm.lag).
	EvaluationPeriods, DatapointsToAlarm Num
	Periods                              []Num
	PeriodsWhy                           string
}

// EventSourceMapping is an aws_lambda_event_source_mapping.
type EventSourceMapping struct {
	Addr               string
	DefRange           hcl.Range
	Queue              *Queue
	Function           *Fleet
	MaximumConcurrency Num
	// BatchSize and BatchingWindow are batch_size and
	// maximum_batching_window_in_seconds, or AWS's defaults for an SQS
	// mapping (10 and 0) when absent.
	BatchSize      Num
	BatchingWindow Num
	// ResponseTypes is function_response_types.
	ResponseTypes ResponseTypes
	// Provisioned is true when provisioned_poller_config is written
	// (provisioned mode, at PollersRange); MinimumPollers and
	// MaximumPollers are its arguments, or AWS's defaults when absent.
	Provisioned    bool
	PollersRange   hcl.Range
	MinimumPollers Num
	MaximumPollers Num
	// ModeUnknown, when not "", says why whether provisioned_poller_config
	// is written is not known before apply (a dynamic block whose
	// for_each is not known generates it, at PollersRange): the mapping's
	// mode, and so its caps, are not known.
	ModeUnknown string
	// Limits are AWS's published limits as the configuration's aws_limits
	// block overrides them.
	Limits capacity.AWSLimits
}

// ResponseTypes is an event source mapping's function_response_types:
// whether it holds ReportBatchItemFailures, so that a function returns
// only the messages of a batch that failed.
type ResponseTypes struct {
	ReportBatchItemFailures bool
	// Known is false when the set is not known before apply, for Why.
	Known bool
	Why   string
	// Range is the attribute, or the mapping when it is absent.
	Range hcl.Range
}

// ReportBatchItemFailures is the response type of partial batch responses.
const ReportBatchItemFailures = "ReportBatchItemFailures"

// Model is every linked resource of one root module and its modules.
type Model struct {
	Queues   []*Queue
	Fleets   []*Fleet
	Policies []*Policy
	Alarms   []*Alarm
	Mappings []*EventSourceMapping
	// Dir is the root module's directory.
	Dir string
	// ConfigFile is the file queue blocks are written in, for messages:
	// .queuecap.hcl, or .tflint.hcl under tflint; see ConfigFileName.
	ConfigFile string
}

// DefaultConfigFile is the file queue blocks are written in, in the
// working directory or above a root module.
const DefaultConfigFile = ".queuecap.hcl"

// ConfigFileName is the file queue blocks are written in: ConfigFile, or
// DefaultConfigFile for a model built without one.
func (m *Model) ConfigFileName() string {
	if m.ConfigFile == "" {
		return DefaultConfigFile
	}
	return m.ConfigFile
}

// Metric names the rules recognise.
const (
	MetricVisible          = "ApproximateNumberOfMessagesVisible"
	MetricNotVisible       = "ApproximateNumberOfMessagesNotVisible"
	MetricAgeOfOldest      = "ApproximateAgeOfOldestMessage"
	MetricInServiceEC2     = "GroupInServiceInstances"
	MetricRunningTaskCount = "RunningTaskCount"
)
