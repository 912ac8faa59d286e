// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

// aws_pipes_pipe: schema of AWS provider v6.47.0.

var (
	pipeBasicAuth        = list(1, 1, block{attrs: attrs{"basic_auth": required(str)}})
	pipeDeadLetterConfig = list(0, 1, block{attrs: attrs{"arn": optional(str)}})
	pipeHTTPParameters   = list(0, 1, block{attrs: attrs{
		"header_parameters":       optional(mapOf(str)),
		"path_parameter_values":   optional(listOf(str)),
		"query_string_parameters": optional(mapOf(str)),
	}})
	pipeEnvironment = list(0, 0, block{attrs: attrs{
		"name":  optional(str),
		"value": optional(str),
	}})
	pipeTypeValue = list(0, 0, block{attrs: attrs{
		"type":  required(str),
		"value": required(str),
	}})
)

// pipeStreamParameters are the DynamoDB and Kinesis stream sources'.
func pipeStreamParameters(extra attrs) nestedBlock {
	a := attrs{
		"batch_size":                         optionalComputed(num),
		"maximum_batching_window_in_seconds": optionalComputed(num),
		"maximum_record_age_in_seconds":      optionalComputed(num),
		"maximum_retry_attempts":             optional(num),
		"on_partial_batch_item_failure":      optional(str),
		"parallelization_factor":             optionalComputed(num),
		"starting_position":                  required(str),
	}
	for k, v := range extra {
		a[k] = v
	}
	return list(0, 1, block{attrs: a, blocks: blocks{"dead_letter_config": pipeDeadLetterConfig}})
}

var pipeSourceParameters = block{blocks: blocks{
	"activemq_broker_parameters": list(0, 1, block{
		attrs: attrs{
			"batch_size":                         optionalComputed(num),
			"maximum_batching_window_in_seconds": optionalComputed(num),
			"queue_name":                         required(str),
		},
		blocks: blocks{"credentials": pipeBasicAuth},
	}),
	"dynamodb_stream_parameters": pipeStreamParameters(nil),
	"filter_criteria": list(0, 1, block{blocks: blocks{
		"filter": list(0, 5, block{attrs: attrs{"pattern": required(str)}}),
	}}),
	"kinesis_stream_parameters": pipeStreamParameters(attrs{"starting_position_timestamp": optional(str)}),
	"managed_streaming_kafka_parameters": list(0, 1, block{
		attrs: attrs{
			"batch_size":                         optionalComputed(num),
			"consumer_group_id":                  optional(str),
			"maximum_batching_window_in_seconds": optionalComputed(num),
			"starting_position":                  optional(str),
			"topic_name":                         required(str),
		},
		blocks: blocks{"credentials": list(0, 1, block{attrs: attrs{
			"client_certificate_tls_auth": optional(str),
			"sasl_scram_512_auth":         optional(str),
		}})},
	}),
	"rabbitmq_broker_parameters": list(0, 1, block{
		attrs: attrs{
			"batch_size":                         optionalComputed(num),
			"maximum_batching_window_in_seconds": optionalComputed(num),
			"queue_name":                         required(str),
			"virtual_host":                       optional(str),
		},
		blocks: blocks{"credentials": pipeBasicAuth},
	}),
	"self_managed_kafka_parameters": list(0, 1, block{
		attrs: attrs{
			"additional_bootstrap_servers":       optional(setOf(str)),
			"batch_size":                         optionalComputed(num),
			"consumer_group_id":                  optional(str),
			"maximum_batching_window_in_seconds": optionalComputed(num),
			"server_root_ca_certificate":         optional(str),
			"starting_position":                  optional(str),
			"topic_name":                         required(str),
		},
		blocks: blocks{
			"credentials": list(0, 1, block{attrs: attrs{
				"basic_auth":                  optional(str),
				"client_certificate_tls_auth": optional(str),
				"sasl_scram_256_auth":         optional(str),
				"sasl_scram_512_auth":         optional(str),
			}}),
			"vpc": list(0, 1, block{attrs: attrs{
				"security_groups": optional(setOf(str)),
				"subnets":         optional(setOf(str)),
			}}),
		},
	}),
	"sqs_queue_parameters": list(0, 1, block{attrs: attrs{
		"batch_size":                         optionalComputed(num),
		"maximum_batching_window_in_seconds": optionalComputed(num),
	}}),
}}

var pipeTargetParameters = block{
	attrs: attrs{"input_template": optional(str)},
	blocks: blocks{
		"batch_job_parameters": list(0, 1, block{
			attrs: attrs{
				"job_definition": required(str),
				"job_name":       required(str),
				"parameters":     optional(mapOf(str)),
			},
			blocks: blocks{
				"array_properties": list(0, 1, block{attrs: attrs{"size": optional(num)}}),
				"container_overrides": list(0, 1, block{
					attrs: attrs{
						"command":       optional(listOf(str)),
						"instance_type": optional(str),
					},
					blocks: blocks{
						"environment":          pipeEnvironment,
						"resource_requirement": pipeTypeValue,
					},
				}),
				"depends_on": list(0, 20, block{attrs: attrs{
					"job_id": optional(str),
					"type":   optional(str),
				}}),
				"retry_strategy": list(0, 1, block{attrs: attrs{"attempts": optional(num)}}),
			},
		}),
		"cloudwatch_logs_parameters": list(0, 1, block{attrs: attrs{
			"log_stream_name": optional(str),
			"timestamp":       optional(str),
		}}),
		"ecs_task_parameters": list(0, 1, block{
			attrs: attrs{
				"enable_ecs_managed_tags": optional(boolean),
				"enable_execute_command":  optional(boolean),
				"group":                   optional(str),
				"launch_type":             optional(str),
				"platform_version":        optional(str),
				"propagate_tags":          optional(str),
				"reference_id":            optional(str),
				"tags":                    optional(mapOf(str)),
				"task_count":              optional(num),
				"task_definition_arn":     required(str),
			},
			blocks: blocks{
				"capacity_provider_strategy": list(0, 6, block{attrs: attrs{
					"base":              optional(num),
					"capacity_provider": required(str),
					"weight":            optional(num),
				}}),
				"network_configuration": list(0, 1, block{blocks: blocks{
					"aws_vpc_configuration": list(0, 1, block{attrs: attrs{
						"assign_public_ip": optional(str),
						"security_groups":  optional(setOf(str)),
						"subnets":          optional(setOf(str)),
					}}),
				}}),
				"overrides": list(0, 1, block{
					attrs: attrs{
						"cpu":                optional(str),
						"execution_role_arn": optional(str),
						"memory":             optional(str),
						"task_role_arn":      optional(str),
					},
					blocks: blocks{
						"container_override": list(0, 0, block{
							attrs: attrs{
								"command":            optional(listOf(str)),
								"cpu":                optional(num),
								"memory":             optional(num),
								"memory_reservation": optional(num),
								"name":               optional(str),
							},
							blocks: blocks{
								"environment":          pipeEnvironment,
								"environment_file":     pipeTypeValue,
								"resource_requirement": pipeTypeValue,
							},
						}),
						"ephemeral_storage": list(0, 1, block{attrs: attrs{"size_in_gib": required(num)}}),
						"inference_accelerator_override": list(0, 0, block{attrs: attrs{
							"device_name": optional(str),
							"device_type": optional(str),
						}}),
					},
				}),
				"placement_constraint": list(0, 10, block{attrs: attrs{
					"expression": optional(str),
					"type":       optional(str),
				}}),
				"placement_strategy": list(0, 5, block{attrs: attrs{
					"field": optional(str),
					"type":  optional(str),
				}}),
			},
		}),
		"eventbridge_event_bus_parameters": list(0, 1, block{attrs: attrs{
			"detail_type": optional(str),
			"endpoint_id": optional(str),
			"resources":   optional(setOf(str)),
			"source":      optional(str),
			"time":        optional(str),
		}}),
		"http_parameters":            pipeHTTPParameters,
		"kinesis_stream_parameters":  list(0, 1, block{attrs: attrs{"partition_key": required(str)}}),
		"lambda_function_parameters": list(0, 1, block{attrs: attrs{"invocation_type": required(str)}}),
		"redshift_data_parameters": list(0, 1, block{attrs: attrs{
			"database":           required(str),
			"db_user":            optional(str),
			"secret_manager_arn": optional(str),
			"sqls":               required(setOf(str)),
			"statement_name":     optional(str),
			"with_event":         optional(boolean),
		}}),
		"sagemaker_pipeline_parameters": list(0, 1, block{blocks: blocks{
			"pipeline_parameter": list(0, 200, block{attrs: attrs{
				"name":  required(str),
				"value": required(str),
			}}),
		}}),
		"sqs_queue_parameters": list(0, 1, block{attrs: attrs{
			"message_deduplication_id": optional(str),
			"message_group_id":         optional(str),
		}}),
		"step_function_state_machine_parameters": list(0, 1, block{attrs: attrs{"invocation_type": required(str)}}),
	},
}

func init() {
	register(resourceType{
		name: "aws_pipes_pipe",
		body: block{
			attrs: attrs{
				"arn":                computed(str),
				"description":        optional(str),
				"desired_state":      optional(str).withDefault("RUNNING"),
				"enrichment":         optional(str),
				"id":                 idAttr,
				"kms_key_identifier": optional(str),
				"name":               optionalComputed(str).replaces(),
				"name_prefix":        optionalComputed(str).replaces(),
				"region":             regionAttr,
				"role_arn":           required(str),
				"source":             required(str).replaces(),
				"tags":               tagsAttr,
				"tags_all":           tagsAllAttr,
				"target":             required(str),
			},
			blocks: blocks{
				"enrichment_parameters": list(0, 1, block{
					attrs:  attrs{"input_template": optional(str)},
					blocks: blocks{"http_parameters": pipeHTTPParameters},
				}),
				"log_configuration": list(0, 1, block{
					attrs: attrs{
						"include_execution_data": optional(setOf(str)),
						"level":                  required(str),
					},
					blocks: blocks{
						"cloudwatch_logs_log_destination": list(0, 1, block{attrs: attrs{"log_group_arn": required(str)}}),
						"firehose_log_destination":        list(0, 1, block{attrs: attrs{"delivery_stream_arn": required(str)}}),
						"s3_log_destination": list(0, 1, block{attrs: attrs{
							"bucket_name":   required(str),
							"bucket_owner":  required(str),
							"output_format": optional(str),
							"prefix":        optional(str),
						}}),
					},
				}),
				"source_parameters": list(0, 1, pipeSourceParameters),
				"target_parameters": list(0, 1, pipeTargetParameters),
				"timeouts":          timeouts("create", "delete", "update"),
			},
		},
		created: func(c created) map[string]string {
			name := c.name()
			return map[string]string{"name": name, "id": name, "arn": c.arn("pipes", "pipe/"+name)}
		},
	})
}
