// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import "fmt"

// aws_sqs_queue: schema of AWS provider v6.47.0; Defaults from
// internal/service/sqs/consts.go.
func init() {
	register(resourceType{
		name: "aws_sqs_queue",
		body: block{
			attrs: attrs{
				"arn":                               computed(str),
				"content_based_deduplication":       optional(boolean).withDefault(false),
				"deduplication_scope":               optionalComputed(str),
				"delay_seconds":                     optional(num).withDefault(0),
				"fifo_queue":                        optional(boolean).withDefault(false).replaces(),
				"fifo_throughput_limit":             optionalComputed(str),
				"id":                                idAttr,
				"kms_data_key_reuse_period_seconds": optionalComputed(num),
				"kms_master_key_id":                 optional(str),
				"max_message_size":                  optional(num).withDefault(262_144),
				"message_retention_seconds":         optional(num).withDefault(345_600),
				"name":                              optionalComputed(str).replaces(),
				"name_prefix":                       optionalComputed(str).replaces(),
				"policy":                            optionalComputed(str),
				"receive_wait_time_seconds":         optional(num).withDefault(0),
				"redrive_allow_policy":              optionalComputed(str),
				"redrive_policy":                    optionalComputed(str),
				"region":                            regionAttr,
				"sqs_managed_sse_enabled":           optionalComputed(boolean),
				"tags":                              tagsAttr,
				"tags_all":                          tagsAllAttr,
				"url":                               computed(str),
				"visibility_timeout_seconds":        optional(num).withDefault(30),
			},
			blocks: blocks{"timeouts": timeouts("create", "delete", "update")},
		},
		created: func(c created) map[string]string {
			name := c.name()
			if c.attrs["fifo_queue"].Equal(defaultValue(true)) && c.str("name") == "" {
				name += ".fifo"
			}
			url := fmt.Sprintf("https://sqs.%s.amazonaws.com/%s/%s", c.region, account, name)
			return map[string]string{"name": name, "arn": c.arn("sqs", name), "url": url, "id": url}
		},
	})
}

// aws_sqs_queue_redrive_policy: schema of AWS provider v6.47.0.
func init() {
	register(resourceType{
		name: "aws_sqs_queue_redrive_policy",
		body: block{attrs: attrs{
			"id":             idAttr,
			"queue_url":      required(str).replaces(),
			"redrive_policy": required(str),
			"region":         regionAttr,
		}},
		created: func(c created) map[string]string { return map[string]string{"id": c.str("queue_url")} },
	})
}
