// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

// Amazon SNS: schemas of AWS provider v6.47.0; the topic's Defaults and
// ForceNew from internal/service/sns/topic.go.

func init() {
	register(resourceType{
		name: "aws_sns_topic",
		body: block{attrs: attrs{
			"application_failure_feedback_role_arn":    optional(str),
			"application_success_feedback_role_arn":    optional(str),
			"application_success_feedback_sample_rate": optional(num),
			"archive_policy":                           optional(str),
			"arn":                                      computed(str),
			"beginning_archive_time":                   computed(str),
			"content_based_deduplication":              optional(boolean).withDefault(false),
			"delivery_policy":                          optional(str),
			"display_name":                             optional(str),
			"fifo_throughput_scope":                    optionalComputed(str),
			"fifo_topic":                               optional(boolean).withDefault(false).replaces(),
			"firehose_failure_feedback_role_arn":       optional(str),
			"firehose_success_feedback_role_arn":       optional(str),
			"firehose_success_feedback_sample_rate":    optional(num),
			"http_failure_feedback_role_arn":           optional(str),
			"http_success_feedback_role_arn":           optional(str),
			"http_success_feedback_sample_rate":        optional(num),
			"id":                                       idAttr,
			"kms_master_key_id":                        optional(str),
			"lambda_failure_feedback_role_arn":         optional(str),
			"lambda_success_feedback_role_arn":         optional(str),
			"lambda_success_feedback_sample_rate":      optional(num),
			"name":                                     optionalComputed(str).replaces(),
			"name_prefix":                              optionalComputed(str).replaces(),
			"owner":                                    computed(str),
			"policy":                                   optionalComputed(str),
			"region":                                   regionAttr,
			"signature_version":                        optionalComputed(num),
			"sqs_failure_feedback_role_arn":            optional(str),
			"sqs_success_feedback_role_arn":            optional(str),
			"sqs_success_feedback_sample_rate":         optional(num),
			"tags":                                     tagsAttr,
			"tags_all":                                 tagsAllAttr,
			"tracing_config":                           optionalComputed(str),
		}},
		created: func(c created) map[string]string {
			name := c.name()
			if c.attrs["fifo_topic"].Equal(defaultValue(true)) && c.str("name") == "" {
				name += ".fifo"
			}
			arn := c.arn("sns", name)
			return map[string]string{"name": name, "id": arn, "arn": arn, "owner": account}
		},
	})
}

func init() {
	register(resourceType{
		name: "aws_sns_topic_subscription",
		body: block{attrs: attrs{
			"arn":                             computed(str),
			"confirmation_timeout_in_minutes": optional(num).withDefault(1),
			"confirmation_was_authenticated":  computed(boolean),
			"delivery_policy":                 optional(str),
			"endpoint":                        required(str).replaces(),
			"endpoint_auto_confirms":          optional(boolean).withDefault(false),
			"filter_policy":                   optional(str),
			"filter_policy_scope":             optionalComputed(str),
			"id":                              idAttr,
			"owner_id":                        computed(str),
			"pending_confirmation":            computed(boolean),
			"protocol":                        required(str).replaces(),
			"raw_message_delivery":            optional(boolean).withDefault(false),
			"redrive_policy":                  optional(str),
			"region":                          regionAttr,
			"replay_policy":                   optional(str),
			"subscription_role_arn":           optional(str),
			"topic_arn":                       required(str).replaces(),
		}},
		created: func(c created) map[string]string {
			arn := c.str("topic_arn") + ":" + c.uuid()
			return map[string]string{"id": arn, "arn": arn, "owner_id": account}
		},
	})
}
