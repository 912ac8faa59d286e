// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
)

// Address is where the provider is registered: the AWS provider's own, so
// that configurations written for AWS plan against it unchanged.
const Address = "registry.terraform.io/hashicorp/aws"

// NewServer serves the provider over protocol 5, the AWS provider's.
//
// The framework server is wrapped twice over to behave as the AWS
// provider's SDKv2 server does: its schema carries the AWS blocks' item
// limits, which the framework does not serve, and its plans and applies
// say they come from the legacy type system, as SDKv2's do, so that
// Terraform accepts the Defaults planned for attributes left null (which
// the framework forbids, Defaults being for computed attributes there).
func NewServer() func() tfprotov5.ProviderServer {
	fw := providerserver.NewProtocol5(New())
	return func() tfprotov5.ProviderServer { return sdkv2Like{fw()} }
}

type sdkv2Like struct{ tfprotov5.ProviderServer }

func (s sdkv2Like) GetProviderSchema(ctx context.Context, req *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if err != nil || resp == nil {
		return resp, err
	}
	if resp.Provider != nil {
		providerBody.patchItemLimits(resp.Provider.Block)
	}
	for name, sch := range resp.ResourceSchemas {
		if rt, ok := resourceTypes[name]; ok && sch != nil {
			rt.body.patchItemLimits(sch.Block)
		}
	}
	for name, sch := range resp.DataSourceSchemas {
		if name == iamPolicyDocumentName && sch != nil {
			iamPolicyDocumentBody.patchItemLimits(sch.Block)
		}
	}
	return resp, nil
}

// PlanResourceChange plans Defaults into the proposed state before the
// framework compares it with the prior state, as SDKv2 does: a Default is
// then no change, and the framework keeps every computed value it would
// otherwise mark unknown for a change.
func (s sdkv2Like) PlanResourceChange(ctx context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	if rt, ok := resourceTypes[req.TypeName]; ok && req.ProposedNewState != nil {
		typ := rt.body.resourceSchema(rt.version).Type().TerraformType(ctx)
		if proposed, err := req.ProposedNewState.Unmarshal(typ); err == nil {
			if dv, err := tfprotov5.NewDynamicValue(typ, rt.body.withDefaults(proposed)); err == nil {
				req.ProposedNewState = &dv
			}
		}
	}
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		resp.UnsafeToUseLegacyTypeSystem = true //nolint:staticcheck // SDKv2's behaviour is the point.
	}
	return resp, err
}

func (s sdkv2Like) ApplyResourceChange(ctx context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		resp.UnsafeToUseLegacyTypeSystem = true //nolint:staticcheck // SDKv2's behaviour is the point.
	}
	return resp, err
}
