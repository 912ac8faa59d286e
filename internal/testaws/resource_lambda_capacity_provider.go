// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Lambda Managed Instances: the capacity provider's schema as the AWS
// provider v6 serves it (internal/service/lambda/capacity_provider.go, a
// framework resource: its scaling configuration and instance requirements
// are optional and computed lists of objects, written as attributes, and
// it has no id). The function's capacity_provider_config is in
// resource_lambda.go.

func objectOf(attrs map[string]attr.Type) attr.Type { return types.ObjectType{AttrTypes: attrs} }

func init() {
	register(resourceType{
		name: "aws_lambda_capacity_provider",
		body: block{
			attrs: attrs{
				"arn": computed(str),
				"capacity_provider_scaling_config": optionalComputed(listOf(objectOf(map[string]attr.Type{
					"max_vcpu_count": num,
					"scaling_mode":   str,
					"scaling_policies": listOf(objectOf(map[string]attr.Type{
						"predefined_metric_type": str,
						"target_value":           num,
					})),
				}))),
				"instance_requirements": optionalComputed(listOf(objectOf(map[string]attr.Type{
					"allowed_instance_types":  listOf(str),
					"architectures":           listOf(str),
					"excluded_instance_types": listOf(str),
				}))).replaces(),
				"kms_key_arn": optional(str).replaces(),
				"name":        required(str).replaces(),
				"region":      regionAttr,
				"tags":        tagsAttr,
				"tags_all":    computed(mapOf(str)),
			},
			blocks: blocks{
				"permissions_config": list(0, 0, block{attrs: attrs{
					"capacity_provider_operator_role_arn": required(str).replaces(),
				}}),
				"timeouts": timeouts("create", "delete", "update"),
				"vpc_config": list(0, 0, block{attrs: attrs{
					"security_group_ids": required(setOf(str)).replaces(),
					"subnet_ids":         required(setOf(str)).replaces(),
				}}),
			},
		},
		created: func(c created) map[string]string {
			return map[string]string{"arn": c.arn("lambda", "capacity-provider:"+c.str("name"))}
		},
	})
}
