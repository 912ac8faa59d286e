// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

// Explanation is what `queuecap lint --explain` shows: per root module,
// each queue with what the linker tied to it and where each of its rates
// came from, and what it could not link and why. A user learns there that
// a link failed, instead of from a finding that never came. The JSON tags
// are the schema of --explain --format json (docs/rules/README.md).
type Explanation struct {
	Roots []RootExplanation `json:"roots"`
	// Skipped are the .queuecap.hcl blocks that match no root module
	// reading them (rule "config"): a file may serve several roots.
	Skipped []Skip `json:"skipped"`
}

// RootExplanation is one root module and the modules it calls.
type RootExplanation struct {
	Dir string `json:"dir"`
	// Config is the .queuecap.hcl the root reads, "" for none.
	Config string             `json:"config,omitempty"`
	Queues []QueueExplanation `json:"queues"`
	// Unattached are the fleets, scaling policies and alarms shown under
	// no queue.
	Unattached []ResourceRef `json:"unattached"`
	// Skipped is what building the root could not link or read, and
	// why: the skips of rules "link", "module", "coverage" (a queue the
	// capacity rules cannot check) and "variables"; none of a rule's.
	Skipped []Skip `json:"skipped"`
}

// ResourceRef is a resource instance's address and where it is declared.
type ResourceRef struct {
	Address string `json:"address"`
	Range   Range  `json:"range"`
}

// QueueExplanation is an aws_sqs_queue and what was linked to it.
type QueueExplanation struct {
	Address string `json:"address"`
	Name    string `json:"name"` // "" when not known before apply
	// NameWhy says why Name is "".
	NameWhy string `json:"name_why,omitempty"`
	Range   Range  `json:"range"`
	// Redrive is "none", "set" or "unknown" (an inline redrive_policy not
	// known before apply); DeadLetterQueue is the queue it targets when
	// that is a queue of the configuration, "" otherwise.
	Redrive         string `json:"redrive"`
	DeadLetterQueue string `json:"dead_letter_queue"`
	// IsDeadLetter is true when a redrive policy targets this queue.
	IsDeadLetter bool                  `json:"is_dead_letter"`
	Rates        []RateExplanation     `json:"rates"`
	Consumers    []ConsumerExplanation `json:"consumers"`
	// IgnoredConsumers are fleets an IAM role implies consume the queue,
	// left out because its consumers are declared.
	IgnoredConsumers []IgnoredConsumerExplanation `json:"ignored_consumers"`
	// Alarms are the alarms on the queue's metrics.
	Alarms []AlarmExplanation `json:"alarms"`
}

// IgnoredConsumerExplanation is a fleet left out of a queue's consumers.
type IgnoredConsumerExplanation struct {
	Address string `json:"address"`
	Range   Range  `json:"range"`
	Reason  string `json:"reason"`
}

// RateExplanation is one rate as the rules read it.
type RateExplanation struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"` // null when not known before apply
	// Source is the place of Precedence that won the rate ("tags",
	// "config", "producers", "data_source", "target_tags", "consumers",
	// "queue"), or
	// "default" for a rate that is not declared and that the rules take
	// as Value.
	Source string `json:"source"`
	// From says which declaration it is: the tag, the configuration
	// file's block, the data source or provider function; "" for a
	// default.
	From  string `json:"from"`
	Range *Range `json:"range"` // null for a default
}

// ConsumerExplanation is a fleet consuming a queue.
type ConsumerExplanation struct {
	Kind    FleetKind `json:"kind"`
	Address string    `json:"address"`
	Name    string    `json:"name"`
	// NameWhy says why Name is ""; Cluster is an ECS service's cluster
	// name and ClusterWhy why it is "".
	NameWhy    string          `json:"name_why,omitempty"`
	Cluster    string          `json:"cluster,omitempty"`
	ClusterWhy string          `json:"cluster_why,omitempty"`
	Range      Range           `json:"range"`
	MaxSize    SizeExplanation `json:"max_size"`
	// PerConsumerRate is its per_consumer_rate as a consumer of the
	// queue, null when undeclared.
	PerConsumerRate *RateExplanation    `json:"per_consumer_rate"`
	Policies        []PolicyExplanation `json:"policies"`
	// LinkedThrough says how a consumer that only its configuration
	// implies is linked ("IAM role aws_iam_role.worker", "pipe
	// aws_pipes_pipe.orders"); absent for a declared one.
	LinkedThrough string `json:"linked_through,omitempty"`
	// Deployment is what replaces its consumers (an instance refresh, an
	// instance maintenance policy, an ECS deployment) and what it keeps
	// in service; null when nothing in the configuration does.
	Deployment *DeploymentExplanation `json:"deployment"`
	// Growth is what AWS says of how fast a function on Lambda Managed
	// Instances grows, absent for any other consumer.
	Growth string `json:"growth,omitempty"`
	// ProvisioningLag is the lower bound on the fleet's provisioning lag
	// its configuration gives (Fleet.ProvisioningLag), absent without
	// one.
	ProvisioningLag *LagExplanation `json:"provisioning_lag,omitempty"`
	// Warmup are the settings read that say how a new consumer warms up,
	// none of which counts in the lag (Warmup); absent without any.
	Warmup []WarmupExplanation `json:"warmup,omitempty"`
}

// DeploymentExplanation is what replaces a fleet's consumers, as
// queuecap_surplus_during_deploy reads it.
type DeploymentExplanation struct {
	// Kind is "instance refresh", "instance maintenance", "ECS rolling
	// deployment" or "ECS blue/green deployment".
	Kind  string `json:"kind"`
	Range Range  `json:"range"`
	// MinHealthy and MaxHealthy are its percentages; null for a
	// blue/green deployment, which keeps the fleet's size.
	MinHealthy *PercentExplanation `json:"min_healthy"`
	MaxHealthy *PercentExplanation `json:"max_healthy"`
	// Strategy says why the kind is not known, when a setting deciding
	// it is not known before apply ("" otherwise).
	Strategy string `json:"strategy,omitempty"`
	// InService is the consumers it keeps in service at the fleet's
	// maximum size, ceil(size × min healthy / 100), or the whole size when
	// it launches before it terminates (max healthy above 100) or is
	// blue/green; null when a value it needs is not known.
	InService *float64 `json:"in_service"`
}

// PercentExplanation is a deployment percentage: the attribute's value,
// or AWS's default (Source "default", Limit the AWS limit it is) when it
// is unset.
type PercentExplanation struct {
	Attribute string   `json:"attribute"`
	Value     *float64 `json:"value"` // null when not known before apply or without a default
	// Source is "config" for the attribute's value, "default" for AWS's,
	// "required" when AWS requires it and it is unset.
	Source string `json:"source"`
	Limit  string `json:"limit,omitempty"`
	Range  *Range `json:"range"` // null for a default
}

// LagExplanation is a lower bound on a fleet's provisioning lag.
type LagExplanation struct {
	// Seconds is null when a value the bound is made of is not known
	// before apply; Why then says which.
	Seconds *float64 `json:"seconds"`
	Why     string   `json:"why"`
	Range   Range    `json:"range"`
}

// WarmupExplanation is one warmup setting of a consumer.
type WarmupExplanation struct {
	// Attribute is the argument ("default_instance_warmup",
	// "health_check_grace_period", "health_check_grace_period_seconds",
	// "estimated_instance_warmup", "warm_pool", "warm_pool.pool_state",
	// "warm_pool.min_size", "warm_pool.max_group_prepared_capacity"),
	// Address the resource it is an argument of.
	Attribute string `json:"attribute"`
	Address   string `json:"address"`
	// Value is a number's value (seconds, or instances for a warm pool's
	// sizes), Text pool_state's; null and "" when not known before apply
	// or not of that kind.
	Value *float64 `json:"value"`
	Text  string   `json:"text,omitempty"`
	Range Range    `json:"range"`
}

// SizeExplanation is a fleet's maximum size and the attribute it is read from.
type SizeExplanation struct {
	Attribute string `json:"attribute"`
	// Set is false when the attribute is not written; Value is null then,
	// and when it is not known before apply.
	Set   bool     `json:"set"`
	Value *float64 `json:"value"`
	Range *Range   `json:"range"`
	// Terms says how Value is made when it is not the attribute's own
	// value: a Lambda function bounded by its mapping's pollers or by a
	// cap AWS publishes.
	Terms string `json:"terms,omitempty"`
}

// PolicyExplanation is a scaling policy of a consumer.
type PolicyExplanation struct {
	Kind     PolicyKind `json:"kind"`
	Address  string     `json:"address"`
	Range    Range      `json:"range"`
	ScaleOut bool       `json:"scale_out"`
	// Metrics is what a target tracking policy tracks: its predefined
	// metric type, or its metric names and expressions.
	Metrics []string           `json:"metrics"`
	Alarms  []AlarmExplanation `json:"alarms"`
	// Predictive is a predictive scaling policy's settings; null for
	// any other policy.
	Predictive *PredictiveExplanation `json:"predictive"`
}

// PredictiveExplanation is a predictive scaling policy's settings, each
// "" (or null) when not known before apply and AWS's default when unset.
type PredictiveExplanation struct {
	Mode                      string `json:"mode"`
	MaxCapacityBreachBehavior string `json:"max_capacity_breach_behavior"`
	// MaxCapacityBuffer is the percentage over the forecast it may raise
	// the maximum to, with IncreaseMaxCapacity; null when unset or not
	// known.
	MaxCapacityBuffer *float64 `json:"max_capacity_buffer"`
	// MayExceedMax is true when the policy may raise its fleet past its
	// maximum size (it forecasts and scales with IncreaseMaxCapacity, or
	// a setting deciding it is not known): the capacity rules then take
	// no maximum for the fleet.
	MayExceedMax bool  `json:"may_exceed_max"`
	Range        Range `json:"range"`
}

// AlarmExplanation is a CloudWatch alarm.
type AlarmExplanation struct {
	Address string `json:"address"`
	Range   Range  `json:"range"`
	// Metrics are its metric names, then its metric math expressions.
	Metrics    []string `json:"metrics"`
	Comparison string   `json:"comparison"`
	Threshold  *float64 `json:"threshold"` // null when unset or not known before apply
	// Policies are the scaling policies its alarm_actions trigger.
	Policies []string `json:"policies"`
}

// Redrive states of QueueExplanation.
const (
	RedriveNone    = "none"
	RedriveSet     = "set"
	RedriveUnknown = "unknown"
)

// RateDefault is the Source of a rate the rules take without its being
// declared.
const RateDefault = "default"
