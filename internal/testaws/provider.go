// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package testaws is a stand-in for the AWS provider that exists only for
// tests. Registered as hashicorp/aws through dev_overrides, it lets the real
// Terraform and OpenTofu CLIs plan configurations of the AWS resources
// queuecap reads, offline: it declares those resources with the attribute
// names, types and nesting of the AWS provider's schema, plans their
// defaults, and leaves what AWS computes (ARNs, IDs, URLs) unknown until
// apply, where it makes up plausible values without calling AWS. The real
// queuecap provider, built from the repository root, is served beside the
// stand-in as queuecap/queuecap, so that a configuration may size a fleet
// with its data sources and functions.
package testaws

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// account is the AWS account every made-up ARN belongs to.
const account = "123456789012"

// providerBody is the part of the AWS provider's configuration that a test
// configuration may set; everything but region and default_tags is
// accepted and ignored.
var providerBody = block{
	attrs: attrs{
		"access_key":                         optional(str),
		"allowed_account_ids":                optional(setOf(str)),
		"custom_ca_bundle":                   optional(str),
		"ec2_metadata_service_endpoint":      optional(str),
		"ec2_metadata_service_endpoint_mode": optional(str),
		"forbidden_account_ids":              optional(setOf(str)),
		"http_proxy":                         optional(str),
		"https_proxy":                        optional(str),
		"insecure":                           optional(boolean),
		"max_retries":                        optional(num),
		"no_proxy":                           optional(str),
		"profile":                            optional(str),
		"region":                             optional(str),
		"retry_mode":                         optional(str),
		"s3_us_east_1_regional_endpoint":     optional(str),
		"s3_use_path_style":                  optional(boolean),
		"secret_key":                         optional(str),
		"shared_config_files":                optional(listOf(str)),
		"shared_credentials_files":           optional(listOf(str)),
		"skip_credentials_validation":        optional(boolean),
		"skip_metadata_api_check":            optional(str),
		"skip_region_validation":             optional(boolean),
		"skip_requesting_account_id":         optional(boolean),
		"sts_region":                         optional(str),
		"token":                              optional(str),
		"use_dualstack_endpoint":             optional(boolean),
		"use_fips_endpoint":                  optional(boolean),
	},
	blocks: blocks{
		"assume_role": list(0, 0, block{attrs: attrs{
			"duration":            optional(str),
			"external_id":         optional(str),
			"policy":              optional(str),
			"policy_arns":         optional(setOf(str)),
			"role_arn":            optional(str),
			"session_name":        optional(str),
			"source_identity":     optional(str),
			"tags":                optional(mapOf(str)),
			"transitive_tag_keys": optional(setOf(str)),
		}}),
		"default_tags": list(0, 1, block{attrs: attrs{"tags": optional(mapOf(str))}}),
		"ignore_tags": list(0, 1, block{attrs: attrs{
			"key_prefixes": optional(setOf(str)),
			"keys":         optional(setOf(str)),
		}}),
	},
}

type awsProvider struct{}

// New returns the test-only AWS provider.
func New() provider.Provider { return awsProvider{} }

func (awsProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "aws"
}

func (awsProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	b := providerBody.providerBlock()
	resp.Schema.Attributes, resp.Schema.Blocks = b.Attributes, b.Blocks
}

// configured is what resources read of the provider's configuration.
type configured struct {
	region      tftypes.Value // a string, unknown when the configuration's is
	defaultTags map[string]string
	tagsUnknown bool
}

func (awsProvider) Configure(_ context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	c := &configured{region: stringValue(envRegion())}
	if m, ok := object(req.Config.Raw); ok {
		if r := m["region"]; !r.IsKnown() || !r.IsNull() {
			c.region = r
		}
		if dts, ok := elements(m["default_tags"]); ok && len(dts) > 0 {
			dt, _ := object(dts[0])
			c.defaultTags = stringMap(dt["tags"])
			c.tagsUnknown = !dt["tags"].IsFullyKnown()
		} else if !m["default_tags"].IsKnown() {
			c.tagsUnknown = true
		}
	}
	resp.ResourceData, resp.DataSourceData = c, c
}

// envRegion is the region when the configuration sets none: the real
// provider's environment variables, then us-east-1 (the real provider
// would fail instead; a test provider has no reason to).
func envRegion() string {
	for _, name := range []string{"AWS_REGION", "AWS_DEFAULT_REGION"} {
		if r := os.Getenv(name); r != "" {
			return r
		}
	}
	return "us-east-1"
}

func (awsProvider) Resources(context.Context) []func() resource.Resource {
	out := make([]func() resource.Resource, 0, len(resourceTypes))
	for _, rt := range resourceTypes {
		out = append(out, func() resource.Resource { return &awsResource{resourceType: rt} })
	}
	return out
}

func (awsProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newIAMPolicyDocument}
}
