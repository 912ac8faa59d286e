// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package provider adapts internal/capacity to Terraform: schemas,
// validation at plan time and state. It computes no formula of its own.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ provider.Provider              = (*queuecapProvider)(nil)
	_ provider.ProviderWithFunctions = (*queuecapProvider)(nil)
)

// queuecapProvider needs no configuration, credentials or network: every
// data source is pure arithmetic over its arguments.
type queuecapProvider struct {
	version string
}

// New returns a constructor for the provider at the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &queuecapProvider{version: version} }
}

func (p *queuecapProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "queuecap"
	resp.Version = p.version
}

func (p *queuecapProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The queuecap provider turns the arithmetic of queue backlog recovery into numbers at plan time: " +
			"how many consumers a fleet needs to clear a backlog within its RTO, when a backlog drains, " +
			"the deepest a queue may be under an SLA (Little's law), how a message TTL bounds an incident's backlog, " +
			"whether a fleet survives a retry storm, how long messages wait at steady state (Erlang C) and how fast a dead-letter queue may be replayed. " +
			"It takes no arguments, needs no credentials and makes no network calls.",
	}
}

func (p *queuecapProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

// DataSources are the catalog's formulas, one data source each, built from
// internal/capacity's catalog.
func (p *queuecapProvider) DataSources(context.Context) []func() datasource.DataSource {
	out := make([]func() datasource.DataSource, len(dataSources))
	for i, d := range dataSources {
		out[i] = func() datasource.DataSource { return d }
	}
	return out
}

// Functions are the same formulas as the data sources, for Terraform 1.8+
// and OpenTofu 1.7+.
func (p *queuecapProvider) Functions(context.Context) []func() function.Function {
	out := make([]func() function.Function, len(functions))
	for i, f := range functions {
		out[i] = func() function.Function { return f }
	}
	return out
}

func (p *queuecapProvider) Resources(context.Context) []func() resource.Resource {
	return nil
}
