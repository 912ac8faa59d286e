// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import "fmt"

// aws_launch_template: schema of AWS provider v6.47.0; ForceNew from
// internal/service/ec2/ec2_launch_template.go, which has no Defaults. A
// change makes a new version of the template, not a new template, but for
// its name.
func init() {
	register(resourceType{
		name:    "aws_launch_template",
		version: 1,
		body: block{
			attrs: attrs{
				"arn":                                  computed(str),
				"default_version":                      optionalComputed(num),
				"description":                          optional(str),
				"disable_api_stop":                     optional(boolean),
				"disable_api_termination":              optional(boolean),
				"ebs_optimized":                        optional(str),
				"id":                                   idAttr,
				"image_id":                             optional(str),
				"instance_initiated_shutdown_behavior": optional(str),
				"instance_type":                        optional(str),
				"kernel_id":                            optional(str),
				"key_name":                             optional(str),
				"latest_version":                       computed(num),
				"name":                                 optionalComputed(str).replaces(),
				"name_prefix":                          optionalComputed(str).replaces(),
				"ram_disk_id":                          optional(str),
				"region":                               regionAttr,
				"security_group_names":                 optional(setOf(str)),
				"tags":                                 tagsAttr,
				"tags_all":                             tagsAllAttr,
				"update_default_version":               optional(boolean),
				"user_data":                            optional(str),
				"vpc_security_group_ids":               optional(setOf(str)),
			},
			blocks: blocks{
				"block_device_mappings": list(0, 0, block{
					attrs: attrs{
						"device_name":  optional(str),
						"no_device":    optional(str),
						"virtual_name": optional(str),
					},
					blocks: blocks{"ebs": list(0, 1, block{attrs: attrs{
						"delete_on_termination":      optional(str),
						"encrypted":                  optional(str),
						"iops":                       optionalComputed(num),
						"kms_key_id":                 optional(str),
						"snapshot_id":                optional(str),
						"throughput":                 optionalComputed(num),
						"volume_initialization_rate": optionalComputed(num),
						"volume_size":                optionalComputed(num),
						"volume_type":                optionalComputed(str),
					}})},
				}),
				"capacity_reservation_specification": list(0, 1, block{
					attrs: attrs{"capacity_reservation_preference": optional(str)},
					blocks: blocks{"capacity_reservation_target": list(0, 1, block{attrs: attrs{
						"capacity_reservation_id":                 optional(str),
						"capacity_reservation_resource_group_arn": optional(str),
					}})},
				}),
				"cpu_options": list(0, 1, block{attrs: attrs{
					"amd_sev_snp":           optional(str),
					"core_count":            optional(num),
					"nested_virtualization": optional(str),
					"threads_per_core":      optional(num),
				}}),
				"credit_specification": list(0, 1, block{attrs: attrs{
					"cpu_credits": optional(str),
				}}),
				"enclave_options": list(0, 1, block{attrs: attrs{
					"enabled": optional(boolean),
				}}),
				"hibernation_options": list(0, 1, block{attrs: attrs{
					"configured": required(boolean),
				}}),
				"iam_instance_profile": list(0, 1, block{attrs: attrs{
					"arn":  optional(str),
					"name": optional(str),
				}}),
				"instance_market_options": list(0, 1, block{
					attrs: attrs{"market_type": optional(str)},
					blocks: blocks{"spot_options": list(0, 1, block{attrs: attrs{
						"block_duration_minutes":         optional(num),
						"instance_interruption_behavior": optional(str),
						"max_price":                      optional(str),
						"spot_instance_type":             optional(str),
						"valid_until":                    optionalComputed(str),
					}})},
				}),
				"instance_requirements": list(0, 1, launchTemplateInstanceRequirements),
				"license_specification": set(0, block{attrs: attrs{
					"license_configuration_arn": required(str),
				}}),
				"maintenance_options": list(0, 1, block{attrs: attrs{
					"auto_recovery": optional(str),
				}}),
				"metadata_options": list(0, 1, block{attrs: attrs{
					"http_endpoint":               optionalComputed(str),
					"http_protocol_ipv6":          optionalComputed(str),
					"http_put_response_hop_limit": optionalComputed(num),
					"http_tokens":                 optionalComputed(str),
					"instance_metadata_tags":      optionalComputed(str),
				}}),
				"monitoring": list(0, 1, block{attrs: attrs{
					"enabled": optional(boolean),
				}}),
				"network_interfaces": list(0, 0, block{
					attrs: attrs{
						"associate_carrier_ip_address": optional(str),
						"associate_public_ip_address":  optional(str),
						"delete_on_termination":        optional(str),
						"description":                  optional(str),
						"device_index":                 optional(num),
						"interface_type":               optional(str),
						"ipv4_address_count":           optional(num),
						"ipv4_addresses":               optional(setOf(str)),
						"ipv4_prefix_count":            optional(num),
						"ipv4_prefixes":                optional(setOf(str)),
						"ipv6_address_count":           optional(num),
						"ipv6_addresses":               optional(setOf(str)),
						"ipv6_prefix_count":            optional(num),
						"ipv6_prefixes":                optional(setOf(str)),
						"network_card_index":           optional(num),
						"network_interface_id":         optional(str),
						"primary_ipv6":                 optional(str),
						"private_ip_address":           optional(str),
						"security_groups":              optional(setOf(str)),
						"subnet_id":                    optional(str),
					},
					blocks: blocks{
						"connection_tracking_specification": list(0, 1, block{attrs: attrs{
							"tcp_established_timeout": optional(num),
							"udp_stream_timeout":      optional(num),
							"udp_timeout":             optional(num),
						}}),
						"ena_srd_specification": list(0, 1, block{
							attrs: attrs{"ena_srd_enabled": optional(boolean)},
							blocks: blocks{"ena_srd_udp_specification": list(0, 1, block{attrs: attrs{
								"ena_srd_udp_enabled": optional(boolean),
							}})},
						}),
					},
				}),
				"network_performance_options": list(0, 1, block{attrs: attrs{
					"bandwidth_weighting": optional(str),
				}}),
				"placement": list(0, 1, block{attrs: attrs{
					"affinity":                optional(str),
					"availability_zone":       optional(str),
					"group_id":                optional(str),
					"group_name":              optional(str),
					"host_id":                 optional(str),
					"host_resource_group_arn": optional(str),
					"partition_number":        optional(num),
					"spread_domain":           optional(str),
					"tenancy":                 optional(str),
				}}),
				"private_dns_name_options": list(0, 1, block{attrs: attrs{
					"enable_resource_name_dns_a_record":    optional(boolean),
					"enable_resource_name_dns_aaaa_record": optional(boolean),
					"hostname_type":                        optional(str),
				}}),
				"secondary_interfaces": list(0, 0, block{attrs: attrs{
					"delete_on_termination":    optional(boolean),
					"device_index":             optional(num),
					"interface_type":           optional(str),
					"network_card_index":       optional(num),
					"private_ip_address_count": optional(num),
					"private_ip_addresses":     optional(setOf(str)),
					"secondary_subnet_id":      optional(str),
				}}),
				"tag_specifications": list(0, 0, block{attrs: attrs{
					"resource_type": optional(str),
					"tags":          optional(mapOf(str)),
				}}),
			},
		},
		created: func(c created) map[string]string {
			id := fmt.Sprintf("lt-%017x", generated.Add(1))
			return map[string]string{
				"name":            c.name(),
				"id":              id,
				"arn":             c.arn("ec2", "launch-template/"+id),
				"default_version": "1",
				"latest_version":  "1",
			}
		},
	})
}

// launchTemplateInstanceRequirements is the launch template's
// instance_requirements: the Auto Scaling group's, but that memory_mib and
// vcpu_count, each with its min, are required.
var launchTemplateInstanceRequirements = func() block {
	b := block{attrs: instanceRequirements.attrs, blocks: blocks{}}
	for name, n := range instanceRequirements.blocks {
		b.blocks[name] = n
	}
	requiredMin := list(1, 1, block{attrs: attrs{
		"max": optional(num),
		"min": required(num),
	}})
	b.blocks["memory_mib"], b.blocks["vcpu_count"] = requiredMin, requiredMin
	return b
}()
