// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

// AWS Lambda: schemas of AWS provider v6.47.0; the function's Defaults and
// ForceNew from internal/service/lambda/function.go.

func init() {
	register(resourceType{
		name: "aws_lambda_function",
		body: block{
			attrs: attrs{
				"architectures":                      optionalComputed(listOf(str)),
				"arn":                                computed(str),
				"code_sha256":                        optionalComputed(str),
				"code_signing_config_arn":            optional(str),
				"description":                        optional(str),
				"filename":                           optional(str),
				"function_name":                      required(str).replaces(),
				"handler":                            optional(str),
				"id":                                 idAttr,
				"image_uri":                          optional(str),
				"invoke_arn":                         computed(str),
				"kms_key_arn":                        optional(str),
				"last_modified":                      computed(str),
				"layers":                             optional(listOf(str)),
				"memory_size":                        optional(num).withDefault(128),
				"package_type":                       optional(str).withDefault("Zip").replaces(),
				"publish":                            optional(boolean).withDefault(false),
				"publish_to":                         optional(str),
				"qualified_arn":                      computed(str),
				"qualified_invoke_arn":               computed(str),
				"region":                             regionAttr,
				"replace_security_groups_on_destroy": optional(boolean),
				"replacement_security_group_ids":     optional(setOf(str)),
				"reserved_concurrent_executions":     optional(num).withDefault(-1),
				"response_streaming_invoke_arn":      computed(str),
				"role":                               required(str),
				"runtime":                            optional(str),
				"s3_bucket":                          optional(str),
				"s3_key":                             optional(str),
				"s3_object_version":                  optional(str),
				"signing_job_arn":                    computed(str),
				"signing_profile_version_arn":        computed(str),
				"skip_destroy":                       optional(boolean).withDefault(false),
				"source_code_hash":                   optionalComputed(str),
				"source_code_size":                   computed(num),
				"source_kms_key_arn":                 optional(str),
				"tags":                               tagsAttr,
				"tags_all":                           tagsAllAttr,
				"timeout":                            optional(num).withDefault(3),
				"version":                            computed(str),
			},
			blocks: blocks{
				"capacity_provider_config": list(0, 1, block{blocks: blocks{
					"lambda_managed_instances_capacity_provider_config": list(1, 1, block{attrs: attrs{
						"capacity_provider_arn":                     required(str),
						"execution_environment_memory_gib_per_vcpu": optionalComputed(num),
						"per_execution_environment_max_concurrency": optionalComputed(num),
					}}),
				}}),
				"dead_letter_config": list(0, 1, block{attrs: attrs{"target_arn": required(str)}}),
				"durable_config": list(0, 1, block{attrs: attrs{
					"execution_timeout": required(num),
					"retention_period":  optional(num).withDefault(14),
				}}),
				"environment":       list(0, 1, block{attrs: attrs{"variables": optional(mapOf(str))}}),
				"ephemeral_storage": list(0, 1, block{attrs: attrs{"size": optionalComputed(num)}}),
				"file_system_config": list(0, 1, block{attrs: attrs{
					"arn":              required(str),
					"local_mount_path": required(str),
				}}),
				"image_config": list(0, 1, block{attrs: attrs{
					"command":           optional(listOf(str)),
					"entry_point":       optional(listOf(str)),
					"working_directory": optional(str),
				}}),
				"logging_config": list(0, 1, block{attrs: attrs{
					"application_log_level": optional(str).withDefault(""),
					"log_format":            required(str),
					"log_group":             optionalComputed(str),
					"system_log_level":      optional(str).withDefault(""),
				}}),
				"snap_start": list(0, 1, block{attrs: attrs{
					"apply_on":            required(str),
					"optimization_status": computed(str),
				}}),
				"tenancy_config": list(0, 1, block{attrs: attrs{"tenant_isolation_mode": required(str)}}),
				"timeouts":       timeouts("create", "delete", "update"),
				"tracing_config": list(0, 1, block{attrs: attrs{"mode": required(str)}}),
				"vpc_config": list(0, 1, block{attrs: attrs{
					"ipv6_allowed_for_dual_stack": optional(boolean).withDefault(false),
					"security_group_ids":          required(setOf(str)),
					"subnet_ids":                  required(setOf(str)),
					"vpc_id":                      computed(str),
				}}),
			},
		},
		created: func(c created) map[string]string {
			name := c.str("function_name")
			arn := c.arn("lambda", "function:"+name)
			invoke := "arn:aws:apigateway:" + c.region + ":lambda:path/2015-03-31/functions/" + arn + "/invocations"
			return map[string]string{
				"id":                            name,
				"arn":                           arn,
				"qualified_arn":                 arn + ":$LATEST",
				"invoke_arn":                    invoke,
				"qualified_invoke_arn":          "arn:aws:apigateway:" + c.region + ":lambda:path/2015-03-31/functions/" + arn + ":$LATEST/invocations",
				"response_streaming_invoke_arn": "arn:aws:apigateway:" + c.region + ":lambda:path/2021-11-15/functions/" + arn + "/response-streaming-invocations",
				"version":                       "$LATEST",
				"last_modified":                 "2026-01-01T00:00:00.000+0000",
			}
		},
	})
}

// Self-managed and Amazon MSK Kafka sources share their configuration.
var kafkaEventSourceConfig = list(0, 1, block{
	attrs: attrs{"consumer_group_id": optionalComputed(str)},
	blocks: blocks{"schema_registry_config": list(0, 1, block{
		attrs: attrs{
			"event_record_format": optional(str),
			"schema_registry_uri": optional(str),
		},
		blocks: blocks{
			"access_config": set(0, block{attrs: attrs{
				"type": optional(str),
				"uri":  optional(str),
			}}),
			"schema_validation_config": set(0, block{attrs: attrs{"attribute": optional(str)}}),
		},
	})},
})

func init() {
	register(resourceType{
		name: "aws_lambda_event_source_mapping",
		body: block{
			attrs: attrs{
				"arn":                                computed(str),
				"batch_size":                         optional(num),
				"bisect_batch_on_function_error":     optional(boolean),
				"enabled":                            optional(boolean).withDefault(true),
				"event_source_arn":                   optional(str).replaces(),
				"function_arn":                       computed(str),
				"function_name":                      required(str),
				"function_response_types":            optional(setOf(str)),
				"id":                                 idAttr,
				"kms_key_arn":                        optional(str),
				"last_modified":                      computed(str),
				"last_processing_result":             computed(str),
				"maximum_batching_window_in_seconds": optional(num),
				"maximum_record_age_in_seconds":      optionalComputed(num),
				"maximum_retry_attempts":             optionalComputed(num),
				"parallelization_factor":             optionalComputed(num),
				"queues":                             optional(listOf(str)),
				"region":                             regionAttr,
				"starting_position":                  optional(str).replaces(),
				"starting_position_timestamp":        optional(str),
				"state":                              computed(str),
				"state_transition_reason":            computed(str),
				"tags":                               tagsAttr,
				"tags_all":                           tagsAllAttr,
				"topics":                             optional(setOf(str)),
				"tumbling_window_in_seconds":         optional(num),
				"uuid":                               computed(str),
			},
			blocks: blocks{
				"amazon_managed_kafka_event_source_config": kafkaEventSourceConfig,
				"destination_config": list(0, 1, block{blocks: blocks{
					"on_failure": list(0, 1, block{attrs: attrs{"destination_arn": required(str)}}),
				}}),
				"document_db_event_source_config": list(0, 1, block{attrs: attrs{
					"collection_name": optional(str),
					"database_name":   required(str),
					"full_document":   optional(str),
				}}),
				"filter_criteria": list(0, 1, block{blocks: blocks{
					"filter": set(10, block{attrs: attrs{"pattern": optional(str)}}),
				}}),
				"metrics_config": list(0, 1, block{attrs: attrs{"metrics": required(setOf(str))}}),
				"provisioned_poller_config": list(0, 1, block{attrs: attrs{
					"maximum_pollers":   optionalComputed(num),
					"minimum_pollers":   optionalComputed(num),
					"poller_group_name": optionalComputed(str),
				}}),
				"scaling_config":                         list(0, 1, block{attrs: attrs{"maximum_concurrency": optional(num)}}),
				"self_managed_event_source":              list(0, 1, block{attrs: attrs{"endpoints": required(mapOf(str))}}),
				"self_managed_kafka_event_source_config": kafkaEventSourceConfig,
				"source_access_configuration": set(22, block{attrs: attrs{
					"type": required(str),
					"uri":  required(str),
				}}),
			},
		},
		created: func(c created) map[string]string {
			uuid := c.uuid()
			fn := c.str("function_name")
			if !isARN(fn) {
				fn = c.arn("lambda", "function:"+fn)
			}
			return map[string]string{
				"id":                      uuid,
				"uuid":                    uuid,
				"arn":                     c.arn("lambda", "event-source-mapping:"+uuid),
				"function_arn":            fn,
				"state":                   "Enabled",
				"state_transition_reason": "USER_INITIATED",
				"last_modified":           "2026-01-01T00:00:00Z",
			}
		},
	})
}
