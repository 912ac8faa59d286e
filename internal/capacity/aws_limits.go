// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
)

// The numbers AWS publishes and queuecap's arithmetic rests on (Lambda's SQS
// ramp, pollers, batch sizes, SQS FIFO quotas, instance refresh and ECS
// deployment defaults) live in this one table, each with the page it comes
// from, the words on that page, and the day they were read. AWS changes
// them, so every one can be overridden by name.

// AWSLimitsChecked is the day the table's numbers were read against their
// pages; an entry read again on another day says so in its own Checked.
const AWSLimitsChecked = "2026-12-02"

// AWSLimitEntry is one published number.
type AWSLimitEntry struct {
	// Name is the stable snake_case key an override uses.
	Name  string
	Value float64
	// Unit is what the number counts: "concurrent invocations per minute",
	// "seconds", "percent".
	Unit string
	// Meaning says what the number is, in one line.
	Meaning string
	// Source is the AWS documentation page the number comes from.
	Source string
	// Quote is the sentence or table row on that page the number rests on,
	// for a reviewer to find it.
	Quote string
	// Checked is the day (YYYY-MM-DD) the number was read on the page.
	Checked string
	// Note says how the reading was made when it was not plain, such as
	// through a translation or a mirror of the page, or what an older
	// version of the page said.
	Note string
	// Range bounds an override: a value outside it is a typo, not a change
	// AWS made.
	Range Range
	// ByRegion holds a value that differs by AWS Region; Value then applies
	// to every Region not listed.
	ByRegion map[string]float64
	// Overridden is true once WithOverrides has replaced Value or a value
	// of ByRegion.
	Overridden bool
}

// In is the entry's value in an AWS Region: the Region's own when the
// entry lists it, else Value.
func (e AWSLimitEntry) In(region string) float64 {
	if v, ok := e.ByRegion[region]; ok {
		return v
	}
	return e.Value
}

// AWSLimits is the table, with any overrides applied. Its zero value is
// empty; DefaultAWSLimits is the published table.
type AWSLimits struct {
	entries []AWSLimitEntry
}

// The pages the table cites.
const (
	srcSQSScaling        = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html"
	srcSQSParameters     = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-parameters.html"
	srcSQSConfigure      = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html"
	srcScalingConfig     = "https://docs.aws.amazon.com/lambda/latest/api/API_ScalingConfig.html"
	srcPollerConfig      = "https://docs.aws.amazon.com/lambda/latest/api/API_ProvisionedPollerConfig.html"
	srcProvisionedBlog   = "https://aws.amazon.com/blogs/aws/aws-lambda-enhances-sqs-processing-with-new-provisioned-mode-3x-faster-scaling-16x-higher-capacity"
	srcSQSQuotas         = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-messages.html"
	srcFIFOThrottling    = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/troubleshooting-fifo-throttling-issues.html"
	srcPayloadBlog       = "https://aws.amazon.com/blogs/compute/more-room-to-build-serverless-services-now-support-payloads-up-to-1-mb"
	srcRefreshDefaults   = "https://docs.aws.amazon.com/autoscaling/ec2/userguide/understand-instance-refresh-default-values.html"
	srcTargetTrackingHR  = "https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TargetTrackingMetricStat.html"
	srcECSDeployment     = "https://docs.aws.amazon.com/securityhub/1.0/APIReference/API_AwsEcsServiceDeploymentConfigurationDetails.html"
	srcManagedInstConfig = "https://docs.aws.amazon.com/lambda/latest/api/API_LambdaManagedInstancesCapacityProviderConfig.html"
	srcManagedInstScale  = "https://docs.aws.amazon.com/lambda/latest/dg/lambda-managed-instances-scaling.html"
	srcManagedInstBest   = "https://docs.aws.amazon.com/lambda/latest/dg/lambda-managed-instances-best-practices.html"
	srcESMBatchSize      = "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/lambda/aws.sdk.kotlin.services.lambda.model/-get-event-source-mapping-response/batch-size.html"
	srcESMBatchWindow    = "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/lambda/aws.sdk.kotlin.services.lambda.model/-get-event-source-mapping-response/maximum-batching-window-in-seconds.html"
	srcMaintenancePolicy = "https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_InstanceMaintenancePolicy.html"
	srcDefaultWarmup     = "https://docs.aws.amazon.com/autoscaling/ec2/userguide/enable-default-instance-warmup.html"
	srcECSManagedScaling = "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/ecs/aws.sdk.kotlin.services.ecs.model/-managed-scaling/instance-warmup-period.html"
)

// The ranges an override may take.
var (
	percentRange      = Between(0, 100)
	healthyPercentTop = Between(100, 200)
	overPercentRange  = Range{Min: 100, Max: math.Inf(1)}
)

// publishedAWSLimits is the table as AWS publishes it. Every entry was read
// on an AWS page on the day in its Checked; a number that could not be is
// not in the table but in awsLimitsUnverified. A number the formulas
// already hold as a constant is that constant, so the two cannot differ.
var publishedAWSLimits = []AWSLimitEntry{
	// Lambda with SQS, standard (default) scaling.
	{
		Name: "lambda_sqs_standard_initial_concurrency", Value: 5, Unit: "concurrent invocations",
		Meaning: "Concurrent invocations a standard-mode SQS event source mapping starts with when messages arrive.",
		Source:  srcSQSScaling,
		Quote:   "When messages are available, Lambda starts processing five batches at a time with five concurrent invocations of your function.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_standard_ramp_per_minute", Value: 300, Unit: "concurrent invocations per minute",
		Meaning: "How fast a standard-mode SQS event source mapping adds concurrency while messages remain.",
		Source:  srcSQSScaling,
		Quote:   "Lambda increases the number of processes that are reading batches by up to 300 more concurrent invokes per minute.",
		Note:    "Up to 60 per minute before AWS's faster polling scale-up (AWS Compute Blog, 'Introducing faster polling scale-up').",
		Range:   AboveZero,
	},
	{
		Name: "lambda_sqs_standard_max_concurrency", Value: 1250, Unit: "concurrent invocations",
		Meaning: "Most concurrent invocations one standard-mode SQS event source mapping runs.",
		Source:  srcSQSScaling,
		Quote:   "The maximum number of invokes that an event source mapping can process simultaneously is 1,250.",
		Note:    "Older versions of the page said 1,000 batches; the current English page (read through a mirror) and AWS Knowledge Center say 1,250.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_maximum_concurrency_min", Value: 2, Unit: "concurrent invocations",
		Meaning: "Least value of an SQS event source mapping's maximum_concurrency.",
		Source:  srcScalingConfig,
		Quote:   "MaximumConcurrency ... Valid Range: Minimum value of 2. Maximum value of 1000.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_maximum_concurrency_max", Value: 1000, Unit: "concurrent invocations",
		Meaning: "Greatest value of an SQS event source mapping's maximum_concurrency.",
		Source:  srcScalingConfig,
		Quote:   "MaximumConcurrency ... Valid Range: Minimum value of 2. Maximum value of 1000.",
		Range:   AtLeastOne,
	},
	// Lambda with SQS, provisioned mode.
	{
		Name: "lambda_sqs_provisioned_ramp_per_minute", Value: 1000, Unit: "concurrent invocations per minute",
		Meaning: "How fast a provisioned-mode SQS event source mapping adds concurrency.",
		Source:  srcProvisionedBlog,
		Quote:   "These event pollers can auto scale up to 1000 per concurrent executions per minute, more than three times faster than before.",
		Note:    "The Lambda guide's scaling page says the same (read in its Chinese translation on docs.amazonaws.cn).",
		Range:   AboveZero,
	},
	{
		Name: "lambda_sqs_provisioned_max_concurrency", Value: 20000, Unit: "concurrent invocations",
		Meaning: "Most concurrency AWS states a provisioned-mode SQS event source mapping reaches.",
		Source:  srcProvisionedBlog,
		Quote:   "provide up to 20,000 concurrency–16 times higher capacity to process millions of events",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_poller_concurrent_invocations", Value: 10, Unit: "concurrent invocations per poller",
		Meaning: "Concurrent invocations one provisioned SQS event poller drives.",
		Source:  srcSQSParameters,
		Quote:   "ProvisionedPollerConfig ... Each poller can handle up to 1 MB/sec of throughput and 10 concurrent invokes.",
		Note:    "Read on the English page as mirrored on docs.amazonaws.cn.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_poller_throughput_mb_per_second", Value: 1, Unit: "MB per second per poller",
		Meaning: "Payload throughput one provisioned SQS event poller handles.",
		Source:  srcSQSParameters,
		Quote:   "ProvisionedPollerConfig ... Each poller can handle up to 1 MB/sec of throughput and 10 concurrent invokes.",
		Note:    "Read on the English page as mirrored on docs.amazonaws.cn. A Kafka poller handles 5 MB/sec; older API pages give SQS pollers 'approximately 5 MBps'. The page does not say which megabyte: the linter's payload bound takes 1,000,000 bytes (capacity.BytesPerMB).",
		Range:   AboveZero,
	},
	{
		Name: "lambda_sqs_poller_polls_per_second", Value: 10, Unit: "ReceiveMessage calls per second per poller",
		Meaning: "SQS polling API calls one provisioned event poller makes at most.",
		Source:  srcSQSScaling,
		Quote:   "each event poller can handle up to 1 MB/sec of throughput, up to 10 concurrent invokes, or up to 10 Amazon SQS polling API calls per second",
		Note:    "Read in the page's Chinese translation on docs.amazonaws.cn; the quote is translated back.",
		Range:   AboveZero,
	},
	{
		Name: "lambda_sqs_minimum_pollers_default", Value: 2, Unit: "pollers",
		Meaning: "minimum_pollers of a provisioned SQS event source mapping when unset; also its least value.",
		Source:  srcPollerConfig,
		Quote:   "MinimumPollers ... For Amazon SQS events source mappings, default is 2, and minimum 2 required.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_minimum_pollers_max", Value: 200, Unit: "pollers",
		Meaning: "Greatest minimum_pollers of a provisioned SQS event source mapping.",
		Source:  srcPollerConfig,
		Quote:   "MinimumPollers ... Valid Range: Minimum value of 1. Maximum value of 200.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_maximum_pollers_default", Value: 200, Unit: "pollers",
		Meaning: "maximum_pollers of a provisioned SQS event source mapping when unset.",
		Source:  srcPollerConfig,
		Quote:   "For Amazon SQS event source mappings, the accepted range is between 2 and 10,000, with a default of 200.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_maximum_pollers_max", Value: 10000, Unit: "pollers",
		Meaning: "Greatest maximum_pollers of a provisioned SQS event source mapping.",
		Source:  srcPollerConfig,
		Quote:   "For Amazon SQS event source mappings, the accepted range is between 2 and 10,000, with a default of 200.",
		Note:    "Read in the current API reference (Indonesian edition) and the AWS SDK for Python v4 reference; older editions said 2,000.",
		Range:   AtLeastOne,
	},
	// Lambda with SQS, batching and visibility.
	{
		Name: "lambda_sqs_batch_size_default", Value: DefaultSQSBatchSize, Unit: "messages",
		Meaning: "batch_size of an SQS event source mapping when unset.",
		Source:  srcSQSParameters,
		Quote:   "BatchSize | N | 10 | For standard queues, the maximum is 10,000. For FIFO queues, the maximum is 10.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_batch_size_max_standard", Value: 10000, Unit: "messages",
		Meaning: "Greatest batch_size for a standard queue.",
		Source:  srcSQSParameters,
		Quote:   "BatchSize | N | 10 | For standard queues, the maximum is 10,000. For FIFO queues, the maximum is 10.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_batch_size_max_fifo", Value: 10, Unit: "messages",
		Meaning: "Greatest batch_size for a FIFO queue.",
		Source:  srcSQSParameters,
		Quote:   "BatchSize | N | 10 | For standard queues, the maximum is 10,000. For FIFO queues, the maximum is 10.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_batch_size_max_without_window", Value: 10, Unit: "messages",
		Meaning: "Greatest batch_size an SQS event source mapping takes with no batching window; beyond it maximum_batching_window_in_seconds must be at least 1.",
		Source:  srcESMBatchSize,
		Quote:   "Related setting: When you set BatchSize to a value greater than 10, you must set MaximumBatchingWindowInSeconds to at least 1.",
		Note:    "Read in the AWS SDK for Kotlin reference, which carries the Lambda API reference's words.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_sqs_batching_window_max_seconds", Value: 300, Unit: "seconds",
		Meaning: "Longest maximum_batching_window_in_seconds of an event source mapping.",
		Source:  srcESMBatchWindow,
		Quote:   "You can configure MaximumBatchingWindowInSeconds to any value from 0 seconds to 300 seconds in increments of seconds.",
		Note:    "Read in the AWS SDK for Kotlin reference, which carries the Lambda API reference's words.",
		Range:   AboveZero,
	},
	{
		Name: "lambda_sqs_batching_window_default_seconds", Value: DefaultSQSBatchingWindowSeconds, Unit: "seconds",
		Meaning: "maximum_batching_window_in_seconds of an SQS event source mapping when unset.",
		Source:  srcSQSParameters,
		Quote:   "MaximumBatchingWindowInSeconds | N | 0 | Batching window is not supported for FIFO queues",
		Range:   AtLeastZero,
	},
	{
		Name: "lambda_sqs_visibility_timeout_multiple", Value: LambdaVisibilityFactor, Unit: "times the function timeout",
		Meaning: "Least ratio of a source queue's visibility timeout to its Lambda function's timeout that AWS recommends.",
		Source:  srcSQSConfigure,
		Quote:   "set the source queue's visibility timeout to at least six times the configuration timeout on your function.",
		Note:    "Adding maximum_batching_window_in_seconds to it is not in the sentence read; only the factor is verified.",
		Range:   AtLeastOne,
	},
	// SQS.
	{
		Name: "sqs_fifo_transactions_per_second", Value: 300, Unit: "API calls per second per action",
		Meaning: "SendMessage, ReceiveMessage or DeleteMessage calls a FIFO queue (or partition) takes per second without high throughput.",
		Source:  srcFIFOThrottling,
		Quote:   "By default, FIFO queues support 300 transactions per second, per API action for SendMessage, ReceiveMessage, and DeleteMessage.",
		Range:   AboveZero,
	},
	{
		Name: "sqs_fifo_batched_messages_per_second", Value: 3000, Unit: "messages per second per action",
		Meaning: "Messages a FIFO queue without high throughput takes per second per action when every call carries a batch of 10.",
		Source:  srcSQSQuotas,
		Quote:   "If you use batching, non-high throughput FIFO queues support up to 3,000 messages per second, per API action ... 300 API calls, each with a batch of 10 messages.",
		Range:   AboveZero,
	},
	{
		Name: "sqs_fifo_high_throughput_transactions_per_second", Value: 300, Unit: "API calls per second per action",
		Meaning: "Non-batched calls per second per action a high-throughput FIFO queue takes, by Region.",
		Source:  srcSQSQuotas,
		Quote:   "US East (N. Virginia), US West (Oregon), and Europe (Ireland): Up to 70,000 transactions per second (TPS). US East (Ohio) and Europe (Frankfurt): Up to 19,000 TPS.",
		Note:    "Only these five Regions' figures were read; every other Region falls back to 300, the quota without high throughput, a floor rather than AWS's figure for the Region. Override it for yours.",
		Range:   AboveZero,
		ByRegion: map[string]float64{
			"us-east-1":    70000,
			"us-west-2":    70000,
			"eu-west-1":    70000,
			"us-east-2":    19000,
			"eu-central-1": 19000,
		},
	},
	{
		Name: "sqs_batch_max_messages", Value: 10, Unit: "messages",
		Meaning: "Most messages one SQS batch request carries.",
		Source:  srcSQSQuotas,
		Quote:   "A single message batch request can include a maximum of 10 messages.",
		Range:   AtLeastOne,
	},
	{
		Name: "sqs_max_message_size_bytes", Value: 1048576, Unit: "bytes",
		Meaning: "Largest SQS message payload (1 MiB since 2025, 256 KiB before).",
		Source:  srcPayloadBlog,
		Quote:   "AWS has raised the maximum payload size from 256 KB to 1 MB for asynchronous AWS Lambda function invocations, Amazon Simple Queue Service (Amazon SQS), and Amazon EventBridge.",
		Note:    "The byte count, 1,048,576, is the queue attribute's upper bound as the AWS provider documents it ('up to 1048576 bytes (1024 KiB)').",
		Range:   AtLeastOne,
	},
	{
		Name: "sqs_visibility_timeout_default_seconds", Value: 30, Unit: "seconds",
		Meaning: "A queue's visibility timeout when unset.",
		Source:  srcSQSQuotas,
		Quote:   "The default visibility timeout for a message is 30 seconds. The minimum is 0 seconds. The maximum is 12 hours.",
		Range:   AtLeastZero,
	},
	{
		Name: "sqs_visibility_timeout_max_seconds", Value: MaxVisibilityTimeoutSeconds, Unit: "seconds",
		Meaning: "Longest visibility timeout a queue takes (12 hours).",
		Source:  srcSQSQuotas,
		Quote:   "The default visibility timeout for a message is 30 seconds. The minimum is 0 seconds. The maximum is 12 hours.",
		Range:   AboveZero,
	},
	{
		Name: "sqs_message_retention_default_seconds", Value: DefaultRetentionSeconds, Unit: "seconds",
		Meaning: "How long a queue keeps a message when its retention is unset (4 days).",
		Source:  srcSQSQuotas,
		Quote:   "By default, a message is retained for 4 days. The minimum is 60 seconds (1 minute). The maximum is 1,209,600 seconds (14 days).",
		Range:   AboveZero,
	},
	{
		Name: "sqs_message_retention_min_seconds", Value: MinRetentionSeconds, Unit: "seconds",
		Meaning: "Shortest retention a queue takes (1 minute).",
		Source:  srcSQSQuotas,
		Quote:   "By default, a message is retained for 4 days. The minimum is 60 seconds (1 minute). The maximum is 1,209,600 seconds (14 days).",
		Range:   AboveZero,
	},
	{
		Name: "sqs_message_retention_max_seconds", Value: MaxRetentionSeconds, Unit: "seconds",
		Meaning: "Longest retention a queue takes (14 days).",
		Source:  srcSQSQuotas,
		Quote:   "By default, a message is retained for 4 days. The minimum is 60 seconds (1 minute). The maximum is 1,209,600 seconds (14 days).",
		Range:   AboveZero,
	},
	// EC2 Auto Scaling.
	{
		Name: "asg_instance_refresh_min_healthy_percentage_default", Value: 90, Unit: "percent",
		Meaning: "min_healthy_percentage of an instance refresh when neither it nor an instance maintenance policy sets one.",
		Source:  srcRefreshDefaults,
		Quote:   "Minimum healthy percentage | Varies based on your instance maintenance policy. If no instance maintenance policy, this defaults to 90 percent.",
		Range:   percentRange,
	},
	{
		Name: "asg_instance_refresh_max_healthy_percentage_default", Value: 100, Unit: "percent",
		Meaning: "max_healthy_percentage of an instance refresh when neither it nor an instance maintenance policy sets one (terminate before launch).",
		Source:  srcRefreshDefaults,
		Quote:   "Maximum healthy percentage | Varies based on your instance maintenance policy. If no instance maintenance policy, this defaults to 100 percent (null).",
		Range:   healthyPercentTop,
	},
	{
		Name: "asg_instance_refresh_checkpoint_delay_default_seconds", Value: 3600, Unit: "seconds",
		Meaning: "How long an instance refresh waits at a checkpoint when no delay is set.",
		Source:  srcRefreshDefaults,
		Quote:   "Checkpoint delay | 1 hour (3600 seconds) | 1 hour",
		Range:   AtLeastZero,
	},
	{
		Name: "asg_instance_maintenance_max_healthy_percentage_max", Value: 200, Unit: "percent",
		Meaning: "Greatest max_healthy_percentage of an instance maintenance policy (launch before terminate above 100).",
		Source:  srcMaintenancePolicy,
		Quote:   "MaxHealthyPercentage ... Value range is 100 to 200.",
		Range:   overPercentRange,
	},
	{
		Name: "asg_instance_maintenance_healthy_percentage_spread_max", Value: 100, Unit: "percentage points",
		Meaning: "Greatest difference between an instance maintenance policy's max_healthy_percentage and min_healthy_percentage.",
		Source:  srcMaintenancePolicy,
		Quote:   "Both MinHealthyPercentage and MaxHealthyPercentage must be specified, and the difference between them cannot be greater than 100.",
		Range:   AboveZero,
	},
	{
		Name: "asg_default_instance_warmup_max_seconds", Value: 3600, Unit: "seconds",
		Meaning: "Longest default instance warmup of an Auto Scaling group. It has no default: unset, an instance refresh waits the health check grace period instead.",
		Source:  srcDefaultWarmup,
		Quote:   "add the --default-instance-warmup option and specify a value, in seconds, from 0 to 3600.",
		Range:   AboveZero,
	},
	{
		Name: "target_tracking_metric_period_default_seconds", Value: 60, Unit: "seconds",
		Meaning: "Period of a target tracking policy's metric when unset.",
		Source:  srcTargetTrackingHR,
		Quote:   "The period of the metric in seconds. The default value is 60. Accepted values are 10, 30, and 60.",
		Range:   AboveZero,
	},
	{
		Name: "target_tracking_metric_period_high_resolution_seconds", Value: 10, Unit: "seconds",
		Meaning: "Shortest period a target tracking policy accepts, for a high-resolution metric.",
		Source:  srcTargetTrackingHR,
		Quote:   "The period of the metric in seconds. The default value is 60. Accepted values are 10, 30, and 60. For high resolution metric, set the value to less than 60.",
		Range:   AboveZero,
	},
	// ECS.
	{
		Name: "ecs_deployment_minimum_healthy_percent_default", Value: 100, Unit: "percent",
		Meaning: "deployment_minimum_healthy_percent of a REPLICA service's rolling update when unset.",
		Source:  srcECSDeployment,
		Quote:   "MinimumHealthyPercent: For a service that uses the rolling update (ECS) deployment type, the minimum number of tasks in a service that must remain in the RUNNING state during a deployment ... The default value is 100%.",
		Note:    "Security Hub's copy of ECS's DeploymentConfiguration; ECS's own API page was not read.",
		Range:   percentRange,
	},
	{
		Name: "ecs_deployment_maximum_percent_default", Value: 200, Unit: "percent",
		Meaning: "deployment_maximum_percent of a REPLICA service's rolling update when unset.",
		Source:  srcECSDeployment,
		Quote:   "MaximumPercent: For a service that uses the rolling update (ECS) deployment type, the maximum number of tasks in a service that are allowed in the RUNNING or PENDING state during a deployment ... The default value is 200%.",
		Note:    "Security Hub's copy of ECS's DeploymentConfiguration; ECS's own API page was not read.",
		Range:   overPercentRange,
	},
	{
		Name: "ecs_managed_scaling_instance_warmup_default_seconds", Value: 300, Unit: "seconds",
		Meaning: "instance_warmup_period of an ECS capacity provider's managed scaling when unset: how long a new instance waits before its metrics count.",
		Source:  srcECSManagedScaling,
		Quote:   "instanceWarmupPeriod: The period of time, in seconds, after a newly launched Amazon EC2 instance can contribute to CloudWatch metrics for Auto Scaling group. If this parameter is omitted, the default value of 300 seconds is used.",
		Note:    "Read in the AWS SDK for Kotlin reference, which carries the ECS API reference's words.",
		Range:   AtLeastZero,
	},
	// Lambda Managed Instances.
	{
		Name: "lambda_managed_instances_per_environment_max_concurrency_max", Value: 1600, Unit: "concurrent invocations",
		Meaning: "Greatest per_execution_environment_max_concurrency of a function on a Lambda Managed Instances capacity provider.",
		Source:  srcManagedInstConfig,
		Quote:   "PerExecutionEnvironmentMaxConcurrency ... Valid Range: Minimum value of 1. Maximum value of 1600.",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_managed_instances_doubling_window_seconds", Value: 300, Unit: "seconds",
		Meaning: "Traffic that more than doubles within this window may be throttled while Lambda Managed Instances scale.",
		Source:  srcManagedInstScale,
		Quote:   "If your traffic more than doubles within 5 minutes, you may see throttles as Lambda scales up instances and execution environments to meet demand.",
		Range:   AboveZero,
	},
	{
		Name: "lambda_managed_instances_initial_instances", Value: 3, Unit: "instances",
		Meaning: "Managed instances Lambda launches when a function version is published to a capacity provider.",
		Source:  srcManagedInstScale,
		Quote:   "Lambda launches Managed Instances in your account. It launches three by default for AZ resiliency and starts three execution environments",
		Range:   AtLeastOne,
	},
	{
		Name: "lambda_managed_instances_min_vcpus_per_environment", Value: 1, Unit: "vCPUs",
		Meaning: "Fewest vCPUs an execution environment of a function on Lambda Managed Instances has: a capacity provider's max_vcpu_count runs at most that many environments per vCPU.",
		Source:  srcManagedInstBest,
		Quote:   "Choose appropriate memory and vCPU settings. ... The minimum supported function size is 2GB and 1 vCPU.",
		Note:    "Read on the English page as mirrored on docs.amazonaws.cn.",
		Range:   AboveZero,
	},
}

// AWSUnverified is a number queuecap would use but could not read on an
// AWS page, so it is not in the table: the docs list it beside the table.
type AWSUnverified struct {
	What   string
	Source string // the page looked at
}

// awsLimitsUnverified are the numbers left out of the table.
var awsLimitsUnverified = []AWSUnverified{
	{"SQS FIFO high-throughput transactions per second in Regions other than us-east-1, us-west-2, eu-west-1, us-east-2 and eu-central-1: the page lists further tiers that were not read, so those Regions fall back to 300.", srcSQSQuotas},
	{"Adding maximum_batching_window_in_seconds to six times the function timeout for a queue's visibility timeout: the Lambda guide's sentence read names only the factor.", srcSQSConfigure},
	{"A default for the Auto Scaling group's default instance warmup: AWS sets none (an instance refresh then waits the health check grace period), so there is no number to hold.", "https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-default-instance-warmup.html"},
	{"Lambda Managed Instances scaling rates beyond the five-minute doubling window (how fast instances and execution environments are added): no such number was found on the scaling page.", srcManagedInstScale},
}

// AWSLimitsUnverified are the numbers the table leaves out because no AWS
// page read states them.
func AWSLimitsUnverified() []AWSUnverified { return slices.Clone(awsLimitsUnverified) }

// DefaultAWSLimits is the table as AWS publishes it.
func DefaultAWSLimits() AWSLimits {
	entries := make([]AWSLimitEntry, len(publishedAWSLimits))
	for i, e := range publishedAWSLimits {
		if e.Checked == "" {
			e.Checked = AWSLimitsChecked
		}
		e.ByRegion = maps.Clone(e.ByRegion)
		entries[i] = e
	}
	return AWSLimits{entries: entries}
}

// AWSLimit is the published entry of that name.
func AWSLimit(name string) (AWSLimitEntry, bool) { return DefaultAWSLimits().Limit(name) }

// Limit is the entry of that name.
func (l AWSLimits) Limit(name string) (AWSLimitEntry, bool) {
	for _, e := range l.entries {
		if e.Name == name {
			e.ByRegion = maps.Clone(e.ByRegion)
			return e, true
		}
	}
	return AWSLimitEntry{}, false
}

// Entries are the table's entries in table order.
func (l AWSLimits) Entries() []AWSLimitEntry {
	out := make([]AWSLimitEntry, len(l.entries))
	for i, e := range l.entries {
		e.ByRegion = maps.Clone(e.ByRegion)
		out[i] = e
	}
	return out
}

// Names are the table's names in table order.
func (l AWSLimits) Names() []string {
	names := make([]string, len(l.entries))
	for i, e := range l.entries {
		names[i] = e.Name
	}
	return names
}

// regionPattern is an AWS Region code: us-east-1, ap-southeast-4,
// us-gov-west-1.
var regionPattern = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`)

// WithOverrides is the table with some values replaced: by name, or for one
// Region of a value that differs by Region as name[region]
// ("sqs_fifo_high_throughput_transactions_per_second[ap-south-1]"). An
// unknown name is an error that names the closest one; so is a value that
// is not finite or lies outside the entry's range.
func (l AWSLimits) WithOverrides(overrides map[string]float64) (AWSLimits, error) {
	out := AWSLimits{entries: l.Entries()}
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the first error is the same on every run
	for _, key := range keys {
		v := overrides[key]
		name, region, regional := strings.Cut(key, "[")
		if regional {
			if !strings.HasSuffix(region, "]") {
				return AWSLimits{}, &InputError{Field: key, Reason: "is not name or name[region]"}
			}
			region = strings.TrimSuffix(region, "]")
		}
		i := slices.IndexFunc(out.entries, func(e AWSLimitEntry) bool { return e.Name == name })
		if i < 0 {
			reason := "is not a published AWS limit"
			if c := closestName(name, out.Names()); c != "" {
				reason += fmt.Sprintf("; did you mean %q?", c)
			}
			return AWSLimits{}, &InputError{Field: key, Reason: reason}
		}
		e := &out.entries[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return AWSLimits{}, &InputError{Field: key, Reason: fmt.Sprintf("must be a finite number, got: %v", v)}
		}
		if !e.Range.Contains(v) {
			return AWSLimits{}, &InputError{Field: key, Reason: fmt.Sprintf("value must be %s (%s), got: %s", e.Range.Rule(), e.Unit, formatNumber(v))}
		}
		switch {
		case !regional:
			e.Value = v
		case !regionPattern.MatchString(region):
			return AWSLimits{}, &InputError{Field: key, Reason: fmt.Sprintf("names %s, which is not an AWS Region code such as us-east-1", Quote(region))}
		case e.ByRegion == nil:
			return AWSLimits{}, &InputError{Field: key, Reason: fmt.Sprintf("%s does not differ by Region: override it as %s", name, name)}
		default:
			e.ByRegion[region] = v
		}
		e.Overridden = true
	}
	return out, nil
}

// closestName is the candidate nearest to s by edit distance, if it is
// near enough to be a misspelling (at most a third of s's length); else "".
func closestName(s string, candidates []string) string {
	best, bestDist := "", len(s)/3+1
	for _, c := range candidates {
		if d := EditDistance(s, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Markdown is the table as the docs show it: one row per entry, and one
// per Region of an entry that differs by Region, with its source and the
// day it was checked.
func (l AWSLimits) Markdown() string {
	var b strings.Builder
	b.WriteString("| name | value | unit | meaning | source | checked |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	row := func(name string, v float64, e AWSLimitEntry, meaning string) {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | [%s](%s) | %s |\n",
			name, GroupDigits(Decimal(v)), e.Unit, markdownCell(meaning), sourceTitle(e.Source), e.Source, e.Checked)
	}
	for _, e := range l.entries {
		meaning := e.Meaning
		if e.Note != "" {
			meaning += " " + e.Note
		}
		if e.ByRegion != nil {
			meaning += " This value applies in every Region not listed below."
		}
		row(e.Name, e.Value, e, meaning)
		regions := make([]string, 0, len(e.ByRegion))
		for r := range e.ByRegion {
			regions = append(regions, r)
		}
		slices.Sort(regions)
		for _, r := range regions {
			row(e.Name+"["+r+"]", e.ByRegion[r], e, "In "+r+".")
		}
	}
	b.WriteString("\nNot in the table, because no AWS page read gives a number for them:\n\n")
	for _, u := range awsLimitsUnverified {
		fmt.Fprintf(&b, "- %s ([%s](%s))\n", u.What, sourceTitle(u.Source), u.Source)
	}
	return b.String()
}

// markdownCell keeps a cell's text from ending the cell.
func markdownCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// sourceTitle is a short link text for a source page: its host and last
// path segment.
func sourceTitle(url string) string {
	rest := strings.TrimPrefix(url, "https://")
	host, path, _ := strings.Cut(rest, "/")
	segs := strings.Split(strings.TrimSuffix(path, "/"), "/")
	return host + " …/" + strings.TrimSuffix(segs[len(segs)-1], ".html")
}
