// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// blockSchema is the part of a resource type's schema the rules read.
// Bodies are decoded against it with PartialContent, which reads native
// syntax and JSON alike and ignores everything else in the block.
type blockSchema struct {
	attrs  []string
	blocks map[string]*blockSchema
	// linkOnly marks a type read only to link others (a role, a topic):
	// it is read only when the model has a queue to link, and with count
	// or for_each not known before apply it stands for all its instances,
	// which would tell the user nothing to act on.
	linkOnly bool

	once sync.Once
	hcl  *hcl.BodySchema
}

func (s *blockSchema) bodySchema() *hcl.BodySchema {
	s.once.Do(func() {
		s.hcl = &hcl.BodySchema{}
		for _, a := range s.attrs {
			s.hcl.Attributes = append(s.hcl.Attributes, hcl.AttributeSchema{Name: a})
		}
		for b := range s.blocks {
			s.hcl.Blocks = append(s.hcl.Blocks, hcl.BlockHeaderSchema{Type: b})
		}
	})
	return s.hcl
}

// node is a decoded block: its attributes and nested blocks by type.
type node struct {
	attrs  map[string]*hcl.Attribute
	blocks map[string][]*node
	rng    hcl.Range // the block's header, or the body for the resource itself
	// unknown is true for a block a dynamic block generates from a
	// for_each not known before apply: whether it exists, and how many
	// there are, is not known.
	unknown bool
}

func decode(body hcl.Body, s *blockSchema, rng hcl.Range) *node {
	n := &node{attrs: map[string]*hcl.Attribute{}, blocks: map[string][]*node{}, rng: rng}
	if u, ok := body.(hcldec.UnknownBody); ok && u.Unknown() {
		n.unknown = true
	}
	content, _, _ := body.PartialContent(s.bodySchema())
	if content == nil {
		return n
	}
	n.attrs = content.Attributes
	for _, b := range content.Blocks {
		n.blocks[b.Type] = append(n.blocks[b.Type], decode(b.Body, s.blocks[b.Type], b.DefRange))
	}
	return n
}

func attrs(names ...string) *blockSchema { return &blockSchema{attrs: names} }

func withBlocks(s *blockSchema, blocks map[string]*blockSchema) *blockSchema {
	s.blocks = blocks
	return s
}

func linkOnly(s *blockSchema) *blockSchema {
	s.linkOnly = true
	return s
}

var (
	dimensionSchema  = attrs("name", "value")
	metricStatSchema = withBlocks(attrs("stat", "unit", "period"), map[string]*blockSchema{
		"metric": withBlocks(attrs("metric_name", "namespace"), map[string]*blockSchema{"dimensions": dimensionSchema}),
	})
	// The customized metric of target tracking, in both the EC2 Auto
	// Scaling and Application Auto Scaling spellings.
	customizedMetricSchema = withBlocks(attrs("metric_name", "namespace", "statistic", "period"), map[string]*blockSchema{
		"metric_dimension": dimensionSchema,
		"dimensions":       dimensionSchema,
		"metrics": withBlocks(attrs("id", "expression", "return_data", "label"), map[string]*blockSchema{
			"metric_stat": metricStatSchema,
		}),
	})
	targetTrackingSchema = withBlocks(attrs("target_value"), map[string]*blockSchema{
		"predefined_metric_specification": attrs("predefined_metric_type", "resource_label"),
		"customized_metric_specification": customizedMetricSchema,
	})
	// A Lambda function's Lambda Managed Instances settings (lmi.go).
	lmiConfigSchema = withBlocks(attrs(), map[string]*blockSchema{
		"lambda_managed_instances_capacity_provider_config": attrs("capacity_provider_arn",
			"per_execution_environment_max_concurrency", "execution_environment_memory_gib_per_vcpu"),
	})
	// An auto scaling group's launch template, directly or in a mixed
	// instances policy.
	launchTemplateRefSchema = attrs("id", "name")
	mixedInstancesSchema    = withBlocks(attrs(), map[string]*blockSchema{
		"launch_template": withBlocks(attrs(), map[string]*blockSchema{
			"launch_template_specification": attrs("launch_template_id", "launch_template_name"),
		}),
	})
	// What an auto scaling group keeps in service while it replaces
	// instances.
	healthyPercentagesSchema = attrs("min_healthy_percentage", "max_healthy_percentage")
	// Predictive scaling, in both the EC2 Auto Scaling and Application
	// Auto Scaling spellings.
	predictiveSchema = attrs("mode", "max_capacity_breach_behavior", "max_capacity_buffer")
	stepSchema       = withBlocks(attrs("adjustment_type"), map[string]*blockSchema{
		"step_adjustment": attrs("scaling_adjustment", "metric_interval_lower_bound", "metric_interval_upper_bound"),
	})
)

// resourceSchemas are the resource types the linter models.
var resourceSchemas = map[string]*blockSchema{
	"aws_sqs_queue": withBlocks(attrs("name", "name_prefix", "tags", "message_retention_seconds", "visibility_timeout_seconds", "redrive_policy",
		"fifo_queue", "fifo_throughput_limit", "deduplication_scope", "max_message_size", "region"), nil),
	"aws_sqs_queue_redrive_policy": attrs("queue_url", "redrive_policy"),
	"aws_autoscaling_group": withBlocks(attrs("name", "name_prefix", "max_size", "min_size", "desired_capacity", "launch_configuration",
		"default_instance_warmup", "health_check_grace_period"), map[string]*blockSchema{
		"tag":                    attrs("key", "value", "propagate_at_launch"),
		"launch_template":        launchTemplateRefSchema,
		"mixed_instances_policy": mixedInstancesSchema,
		"instance_refresh": withBlocks(attrs("strategy"), map[string]*blockSchema{
			"preferences": attrs("min_healthy_percentage", "max_healthy_percentage"),
		}),
		"instance_maintenance_policy": healthyPercentagesSchema,
		"warm_pool":                   attrs("pool_state", "min_size", "max_group_prepared_capacity"),
	}),
	"aws_autoscaling_policy": withBlocks(attrs("name", "autoscaling_group_name", "policy_type", "adjustment_type", "scaling_adjustment",
		"estimated_instance_warmup"), map[string]*blockSchema{
		"target_tracking_configuration":    targetTrackingSchema,
		"step_adjustment":                  attrs("scaling_adjustment", "metric_interval_lower_bound", "metric_interval_upper_bound"),
		"predictive_scaling_configuration": predictiveSchema,
	}),
	"aws_appautoscaling_target": attrs("resource_id", "max_capacity", "min_capacity", "scalable_dimension", "service_namespace", "tags"),
	"aws_appautoscaling_policy": withBlocks(attrs("name", "resource_id", "policy_type", "scalable_dimension", "service_namespace"), map[string]*blockSchema{
		"step_scaling_policy_configuration":            stepSchema,
		"target_tracking_scaling_policy_configuration": targetTrackingSchema,
		"predictive_scaling_policy_configuration":      predictiveSchema,
	}),
	"aws_ecs_service": withBlocks(attrs("name", "desired_count", "cluster", "tags", "task_definition",
		"deployment_minimum_healthy_percent", "deployment_maximum_percent", "health_check_grace_period_seconds"), map[string]*blockSchema{
		"deployment_controller":    attrs("type"),
		"deployment_configuration": attrs("strategy"),
	}),
	"aws_lambda_function": withBlocks(attrs("function_name", "timeout", "reserved_concurrent_executions", "tags", "role", "memory_size"), map[string]*blockSchema{
		"dead_letter_config":       attrs("target_arn"),
		"capacity_provider_config": lmiConfigSchema,
	}),
	"aws_lambda_event_source_mapping": withBlocks(attrs("event_source_arn", "function_name", "batch_size", "enabled", "starting_position",
		"maximum_batching_window_in_seconds", "function_response_types"), map[string]*blockSchema{
		"scaling_config":            attrs("maximum_concurrency"),
		"provisioned_poller_config": attrs("minimum_pollers", "maximum_pollers"),
		"destination_config":        withBlocks(attrs(), map[string]*blockSchema{"on_failure": attrs("destination_arn")}),
	}),
	"aws_cloudwatch_metric_alarm": withBlocks(attrs("alarm_name", "metric_name", "namespace", "statistic", "extended_statistic", "dimensions",
		"threshold", "comparison_operator", "evaluation_periods", "period", "alarm_actions", "datapoints_to_alarm"), map[string]*blockSchema{
		"metric_query": withBlocks(attrs("id", "expression", "return_data", "label", "period"), map[string]*blockSchema{
			"metric": attrs("metric_name", "namespace", "period", "stat", "dimensions"),
		}),
	}),
	// What links a fleet to the queues its role may consume (iam.go), a
	// pipe to its source (pipes.go) and a topic to the queues it feeds
	// (sns.go).
	"aws_iam_role": linkOnly(withBlocks(attrs("name", "managed_policy_arns"), map[string]*blockSchema{
		"inline_policy": attrs("name", "policy"),
	})),
	"aws_iam_role_policy":            linkOnly(attrs("role", "policy")),
	"aws_iam_policy":                 linkOnly(attrs("name", "policy")),
	"aws_iam_role_policy_attachment": linkOnly(attrs("role", "policy_arn")),
	"aws_iam_policy_attachment":      linkOnly(attrs("roles", "policy_arn")),
	"aws_iam_instance_profile":       linkOnly(attrs("name", "role")),
	"aws_launch_template": linkOnly(withBlocks(attrs("name"), map[string]*blockSchema{
		"iam_instance_profile": attrs("name", "arn"),
	})),
	"aws_launch_configuration":   linkOnly(attrs("name", "iam_instance_profile")),
	"aws_ecs_task_definition":    linkOnly(attrs("family", "task_role_arn")),
	"aws_ecs_cluster":            linkOnly(attrs("name")),
	"aws_pipes_pipe":             attrs("name", "source", "target", "desired_state", "tags"),
	"aws_sns_topic":              linkOnly(attrs("name", "tags")),
	"aws_sns_topic_subscription": linkOnly(attrs("topic_arn", "protocol", "endpoint", "filter_policy")),

	// Bounds the concurrency of the functions it runs (lmi.go).
	"aws_lambda_capacity_provider": linkOnly(attrs("name", "capacity_provider_scaling_config")),
}

// dataSchemas are the data sources other than queuecap's whose arguments
// the linker reads: their bodies are kept by the loader and decoded when a
// value that comes from them is linked.
var dataSchemas = map[string]*blockSchema{
	"aws_iam_policy_document": withBlocks(attrs("source_policy_documents", "override_policy_documents"), map[string]*blockSchema{
		"statement": attrs("effect", "actions", "not_actions", "resources", "not_resources"),
	}),
}

// hasDynamic reports whether a native-syntax body holds a dynamic block at
// any depth; a body of another syntax (JSON) may, so it is expanded.
func hasDynamic(body hcl.Body) bool {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return true
	}
	for _, b := range sb.Blocks {
		if b.Type == "dynamic" || hasDynamic(b.Body) {
			return true
		}
	}
	return false
}

// repetitionSchema finds a block's count and for_each.
var repetitionSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}}}
