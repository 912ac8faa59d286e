// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

// aws_ecs_service: schema of AWS provider v6.47.0; Defaults and ForceNew
// from internal/service/ecs/service.go.
func init() {
	register(resourceType{
		name:    "aws_ecs_service",
		version: 1,
		body: block{
			attrs: attrs{
				"arn":                                computed(str),
				"availability_zone_rebalancing":      optionalComputed(str),
				"cluster":                            optionalComputed(str).replaces(),
				"deployment_maximum_percent":         optional(num).withDefault(200),
				"deployment_minimum_healthy_percent": optional(num).withDefault(100),
				"desired_count":                      optional(num),
				"enable_ecs_managed_tags":            optional(boolean).withDefault(false),
				"enable_execute_command":             optional(boolean).withDefault(false),
				"force_delete":                       optional(boolean),
				"force_new_deployment":               optional(boolean),
				"health_check_grace_period_seconds":  optional(num),
				"iam_role":                           optionalComputed(str).replaces(),
				"id":                                 idAttr,
				"launch_type":                        optionalComputed(str).replaces(),
				"name":                               required(str).replaces(),
				"platform_version":                   optionalComputed(str),
				"propagate_tags":                     optional(str),
				"region":                             regionAttr,
				"scheduling_strategy":                optional(str).withDefault("REPLICA").replaces(),
				"sigint_rollback":                    optional(boolean),
				"tags":                               tagsAttr,
				"tags_all":                           tagsAllAttr,
				"task_definition":                    optional(str),
				"triggers":                           optionalComputed(mapOf(str)),
				"wait_for_steady_state":              optional(boolean).withDefault(false),
			},
			blocks: blocks{
				"alarms": list(0, 1, block{attrs: attrs{
					"alarm_names": required(setOf(str)),
					"enable":      required(boolean),
					"rollback":    required(boolean),
				}}),
				"capacity_provider_strategy": set(0, block{attrs: attrs{
					"base":              optional(num),
					"capacity_provider": required(str),
					"weight":            optional(num),
				}}),
				"deployment_circuit_breaker": list(0, 1, block{attrs: attrs{
					"enable":   required(boolean),
					"rollback": required(boolean),
				}}),
				"deployment_configuration": list(0, 1, block{
					attrs: attrs{
						"bake_time_in_minutes": optionalComputed(str),
						"strategy":             optionalComputed(str),
					},
					blocks: blocks{
						"canary_configuration": list(0, 1, block{attrs: attrs{
							"canary_bake_time_in_minutes": optionalComputed(str),
							"canary_percent":              optionalComputed(num),
						}}),
						"lifecycle_hook": set(0, block{attrs: attrs{
							"hook_details":     optional(str),
							"hook_target_arn":  required(str),
							"lifecycle_stages": required(listOf(str)),
							"role_arn":         required(str),
						}}),
						"linear_configuration": list(0, 1, block{attrs: attrs{
							"step_bake_time_in_minutes": optionalComputed(str),
							"step_percent":              optionalComputed(num),
						}}),
					},
				}),
				"deployment_controller": list(0, 1, block{attrs: attrs{
					"type": optional(str).withDefault("ECS"),
				}}),
				"load_balancer": set(0, block{
					attrs: attrs{
						"container_name":   required(str),
						"container_port":   required(num),
						"elb_name":         optional(str),
						"target_group_arn": optional(str),
					},
					blocks: blocks{"advanced_configuration": list(0, 1, block{attrs: attrs{
						"alternate_target_group_arn": required(str),
						"production_listener_rule":   required(str),
						"role_arn":                   required(str),
						"test_listener_rule":         optional(str),
					}})},
				}),
				"network_configuration": list(0, 1, block{attrs: attrs{
					"assign_public_ip": optional(boolean).withDefault(false),
					"security_groups":  optional(setOf(str)),
					"subnets":          required(setOf(str)),
				}}),
				"ordered_placement_strategy": list(0, 5, block{attrs: attrs{
					"field": optional(str),
					"type":  required(str),
				}}),
				"placement_constraints": set(10, block{attrs: attrs{
					"expression": optional(str),
					"type":       required(str),
				}}),
				"service_connect_configuration": list(0, 1, block{
					attrs: attrs{
						"enabled":   required(boolean),
						"namespace": optionalComputed(str),
					},
					blocks: blocks{
						"access_log_configuration": list(0, 1, block{attrs: attrs{
							"format":                   required(str),
							"include_query_parameters": optionalComputed(str),
						}}),
						"log_configuration": list(0, 1, block{
							attrs: attrs{
								"log_driver": required(str),
								"options":    optionalComputed(mapOf(str)),
							},
							blocks: blocks{"secret_option": list(0, 0, block{attrs: attrs{
								"name":       required(str),
								"value_from": required(str),
							}})},
						}),
						"service": list(0, 0, block{
							attrs: attrs{
								"discovery_name":        optionalComputed(str),
								"ingress_port_override": optional(num),
								"port_name":             required(str),
							},
							blocks: blocks{
								"client_alias": list(0, 1, block{
									attrs: attrs{
										"dns_name": optionalComputed(str),
										"port":     required(num),
									},
									blocks: blocks{"test_traffic_rules": list(0, 0, block{blocks: blocks{
										"header": list(0, 1, block{
											attrs: attrs{"name": required(str)},
											blocks: blocks{"value": list(1, 1, block{attrs: attrs{
												"exact": required(str),
											}})},
										}),
									}})},
								}),
								"timeout": list(0, 1, block{attrs: attrs{
									"idle_timeout_seconds":        optional(num),
									"per_request_timeout_seconds": optional(num),
								}}),
								"tls": list(0, 1, block{
									attrs: attrs{
										"kms_key":  optional(str),
										"role_arn": optional(str),
									},
									blocks: blocks{"issuer_cert_authority": list(1, 1, block{attrs: attrs{
										"aws_pca_authority_arn": required(str),
									}})},
								}),
							},
						}),
					},
				}),
				"service_registries": list(0, 1, block{attrs: attrs{
					"container_name": optional(str),
					"container_port": optional(num),
					"port":           optional(num),
					"registry_arn":   required(str),
				}}),
				"timeouts": timeouts("create", "delete", "update"),
				"volume_configuration": list(0, 1, block{
					attrs: attrs{"name": required(str)},
					blocks: blocks{"managed_ebs_volume": list(1, 1, block{
						attrs: attrs{
							"encrypted":                  optional(boolean),
							"file_system_type":           optional(str),
							"iops":                       optional(num),
							"kms_key_id":                 optional(str),
							"role_arn":                   required(str),
							"size_in_gb":                 optional(num),
							"snapshot_id":                optional(str),
							"throughput":                 optional(num),
							"volume_initialization_rate": optional(num),
							"volume_type":                optional(str),
						},
						blocks: blocks{"tag_specifications": list(0, 0, block{attrs: attrs{
							"propagate_tags": optional(str),
							"resource_type":  required(str),
							"tags":           optional(mapOf(str)),
						}})},
					})},
				}),
				"vpc_lattice_configurations": set(0, block{attrs: attrs{
					"port_name":        required(str),
					"role_arn":         required(str),
					"target_group_arn": required(str),
				}}),
			},
		},
		created: func(c created) map[string]string {
			cluster := c.str("cluster")
			if cluster == "" {
				cluster = c.arn("ecs", "cluster/default")
			}
			arn := c.arn("ecs", "service/"+lastSegment(cluster)+"/"+c.str("name"))
			return map[string]string{"id": arn, "arn": arn, "cluster": cluster}
		},
	})
}

// aws_ecs_task_definition: schema of AWS provider v6.47.0; Defaults and
// ForceNew from internal/service/ecs/task_definition.go. A task definition
// is registered once and never updated: every argument but skip_destroy,
// track_latest and tags replaces it (those of its blocks too, which the
// plan does not check).
func init() {
	register(resourceType{
		name:    "aws_ecs_task_definition",
		version: 1,
		body: block{
			attrs: attrs{
				"arn":                      computed(str),
				"arn_without_revision":     computed(str),
				"container_definitions":    required(str).replaces(),
				"cpu":                      optional(str).replaces(),
				"enable_fault_injection":   optionalComputed(boolean).replaces(),
				"execution_role_arn":       optional(str).replaces(),
				"family":                   required(str).replaces(),
				"id":                       idAttr,
				"ipc_mode":                 optional(str).replaces(),
				"memory":                   optional(str).replaces(),
				"network_mode":             optionalComputed(str).replaces(),
				"pid_mode":                 optional(str).replaces(),
				"region":                   regionAttr,
				"requires_compatibilities": optional(setOf(str)).replaces(),
				"revision":                 computed(num),
				"skip_destroy":             optional(boolean).withDefault(false),
				"tags":                     tagsAttr,
				"tags_all":                 tagsAllAttr,
				"task_role_arn":            optional(str).replaces(),
				"track_latest":             optional(boolean).withDefault(false),
			},
			blocks: blocks{
				"ephemeral_storage": list(0, 1, block{attrs: attrs{
					"size_in_gib": required(num),
				}}),
				"placement_constraints": set(10, block{attrs: attrs{
					"expression": optional(str),
					"type":       required(str),
				}}),
				"proxy_configuration": list(0, 1, block{attrs: attrs{
					"container_name": required(str),
					"properties":     optional(mapOf(str)),
					"type":           optional(str).withDefault("APPMESH"),
				}}),
				"runtime_platform": list(0, 1, block{attrs: attrs{
					"cpu_architecture":        optional(str),
					"operating_system_family": optional(str),
				}}),
				"volume": set(0, block{
					attrs: attrs{
						"configure_at_launch": optionalComputed(boolean),
						"host_path":           optional(str),
						"name":                required(str),
					},
					blocks: blocks{
						"docker_volume_configuration": list(0, 1, block{attrs: attrs{
							"autoprovision": optional(boolean).withDefault(false),
							"driver":        optionalComputed(str),
							"driver_opts":   optional(mapOf(str)),
							"labels":        optional(mapOf(str)),
							"scope":         optionalComputed(str),
						}}),
						"efs_volume_configuration": list(0, 1, block{
							attrs: attrs{
								"file_system_id":          required(str),
								"root_directory":          optional(str).withDefault("/"),
								"transit_encryption":      optional(str),
								"transit_encryption_port": optional(num).withDefault(0),
							},
							blocks: blocks{"authorization_config": list(0, 1, block{attrs: attrs{
								"access_point_id": optional(str),
								"iam":             optional(str),
							}})},
						}),
						"fsx_windows_file_server_volume_configuration": list(0, 1, block{
							attrs: attrs{
								"file_system_id": required(str),
								"root_directory": required(str),
							},
							blocks: blocks{"authorization_config": list(1, 1, block{attrs: attrs{
								"credentials_parameter": required(str),
								"domain":                required(str),
							}})},
						}),
						"s3files_volume_configuration": list(0, 1, block{attrs: attrs{
							"access_point_arn":        optional(str),
							"file_system_arn":         required(str),
							"root_directory":          optional(str).withDefault("/"),
							"transit_encryption_port": optional(num).withDefault(0),
						}}),
					},
				}),
			},
		},
		created: func(c created) map[string]string {
			family := c.str("family")
			return map[string]string{
				"id":                   family,
				"arn":                  c.arn("ecs", "task-definition/"+family+":1"),
				"arn_without_revision": c.arn("ecs", "task-definition/"+family),
				"revision":             "1",
			}
		},
	})
}
