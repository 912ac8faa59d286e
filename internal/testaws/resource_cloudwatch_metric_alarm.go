// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

// aws_cloudwatch_metric_alarm: schema of AWS provider v6.47.0.
func init() {
	register(resourceType{
		name:    "aws_cloudwatch_metric_alarm",
		version: 1,
		body: block{
			attrs: attrs{
				"actions_enabled":                       optional(boolean).withDefault(true),
				"alarm_actions":                         optional(setOf(str)),
				"alarm_description":                     optional(str),
				"alarm_name":                            required(str).replaces(),
				"arn":                                   computed(str),
				"comparison_operator":                   optional(str),
				"datapoints_to_alarm":                   optional(num),
				"dimensions":                            optional(mapOf(str)),
				"evaluate_low_sample_count_percentiles": optionalComputed(str),
				"evaluation_interval":                   optional(num),
				"evaluation_periods":                    optional(num),
				"extended_statistic":                    optional(str),
				"id":                                    idAttr,
				"insufficient_data_actions":             optional(setOf(str)),
				"metric_name":                           optional(str),
				"namespace":                             optional(str),
				"ok_actions":                            optional(setOf(str)),
				"period":                                optional(num),
				"region":                                regionAttr,
				"statistic":                             optional(str),
				"tags":                                  tagsAttr,
				"tags_all":                              tagsAllAttr,
				"threshold":                             optional(num),
				"threshold_metric_id":                   optional(str),
				"treat_missing_data":                    optional(str).withDefault("missing"),
				"unit":                                  optional(str),
			},
			blocks: blocks{
				"evaluation_criteria": list(0, 1, block{blocks: blocks{"promql_criteria": list(1, 1, block{attrs: attrs{
					"pending_period":  optional(num),
					"query":           required(str),
					"recovery_period": optional(num),
				}})}}),
				"metric_query": set(0, block{
					attrs: attrs{
						"account_id":  optional(str),
						"expression":  optional(str),
						"id":          required(str),
						"label":       optional(str),
						"period":      optional(num),
						"return_data": optional(boolean),
					},
					blocks: blocks{"metric": list(0, 1, block{attrs: attrs{
						"dimensions":  optional(mapOf(str)),
						"metric_name": required(str),
						"namespace":   optional(str),
						"period":      required(num),
						"stat":        required(str),
						"unit":        optional(str),
					}})},
				}),
			},
		},
		created: func(c created) map[string]string {
			name := c.str("alarm_name")
			return map[string]string{"id": name, "arn": c.arn("cloudwatch", "alarm:"+name)}
		},
	})
}
