// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package floorprovider is the floor the plan benchmarks measure
// queuecap against: a terraform-plugin-framework provider with the same
// type name and the same shapes as queuecap's queuecap_consumers data
// source and provider::queuecap::required_consumers function, which
// computes nothing. What it costs per call is what the framework (and the
// CLI) force for those shapes; anything queuecap costs beyond it is
// queuecap's own. It is built by the benchmarks only, never shipped.
//
// The data source returns results of the same kinds as queuecap's, since
// what the CLI spends on a result depends on its values: a 15-digit
// decimal, which the provider sends as text and the CLI parses, writes to
// state and parses again at 512 bits, costs it more than a whole number
// does (about 9 % of a plan of the benchmark's 200 data sources). With QUEUECAP_FLOOR_RESULTS=ones in its environment it
// returns 1 for every output instead, and leaves unset inputs null: the
// floor at its cheapest, against which the cost of the decimals shows.
package floorprovider

import (
	"context"
	"math/big"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The attributes of queuecap_consumers, all numbers: required inputs,
// optional ones (with a default or computed value in queuecap, so also
// computed), optional ones without, and the computed outputs.
var (
	requiredInputs         = []string{"arrival_rate", "per_consumer_rate"}
	optionalComputedInputs = []string{"max_backlog", "retry_rate", "avg_retries", "min_headroom", "provisioning_lag_seconds"}
	optionalInputs         = []string{"rto_seconds", "min_consumers"}
	outputs                = []string{"effective_arrival_rate", "steady_state_consumers", "required_consumers", "capacity",
		"surplus", "utilization", "headroom", "overhead", "drain_seconds"}
)

// Parameters of required_consumers, all numbers.
var functionParams = []string{"arrival_rate", "per_consumer_rate", "max_backlog", "rto_seconds"}

// New returns the floor provider's constructor.
func New() provider.Provider { return floorProvider{} }

// Results are the values the floor's queuecap_consumers returns for the
// attributes its configuration leaves unset: queuecap's own results for
// the middle sizing of the plan benchmark (arrival_rate 10100,
// per_consumer_rate 400, max_backlog 5000000, rto_seconds 1800), the
// defaults of the unset inputs included, as decimals queuecap writes them.
// Like most of the benchmark's 200 sizings, four of them are 15-digit
// decimals. TestFloorReturnsQueuecapsResults checks them against
// queuecap's data source.
var Results = map[string]string{
	"retry_rate": "0", "avg_retries": "0", "min_headroom": "0", "provisioning_lag_seconds": "0",
	"effective_arrival_rate": "10100", "steady_state_consumers": "26", "required_consumers": "33", "capacity": "13200",
	"surplus": "3100", "utilization": "0.765151515151515", "headroom": "0.306930693069307",
	"overhead": "0.269230769230769", "drain_seconds": "1612.90322580645",
}

// OnesEnv names the environment variable that makes the floor's data
// source return 1 for every output ("ones").
const OnesEnv = "QUEUECAP_FLOOR_RESULTS"

type floorProvider struct{}

var _ provider.ProviderWithFunctions = floorProvider{}

func (floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "queuecap"
}

func (floorProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (floorProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return theDataSource }}
}

func (floorProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{func() function.Function { return theFunction }}
}

func (floorProvider) Resources(context.Context) []func() resource.Resource { return nil }

// floorDataSource returns its configuration with every attribute it
// leaves unset taken from results, built once.
type floorDataSource struct {
	schema  dsschema.Schema
	objType tftypes.Type
	results map[string]tftypes.Value
}

var theDataSource = func() *floorDataSource {
	attrs := map[string]dsschema.Attribute{}
	for _, n := range requiredInputs {
		attrs[n] = dsschema.NumberAttribute{Required: true}
	}
	for _, n := range optionalComputedInputs {
		attrs[n] = dsschema.NumberAttribute{Optional: true, Computed: true}
	}
	for _, n := range optionalInputs {
		attrs[n] = dsschema.NumberAttribute{Optional: true}
	}
	for _, n := range outputs {
		attrs[n] = dsschema.NumberAttribute{Computed: true}
	}
	s := dsschema.Schema{Attributes: attrs}
	d := &floorDataSource{schema: s, objType: s.Type().TerraformType(context.Background()), results: map[string]tftypes.Value{}}
	if os.Getenv(OnesEnv) == "ones" {
		for _, n := range outputs {
			d.results[n] = tftypes.NewValue(tftypes.Number, big.NewFloat(1))
		}
		return d
	}
	for n, text := range Results {
		// As queuecap and the CLI read decimals: at 512 bits.
		f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
		if err != nil {
			panic("floor result " + n + ": " + err.Error())
		}
		d.results[n] = tftypes.NewValue(tftypes.Number, f)
	}
	return d
}()

func (d *floorDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_consumers"
}

func (d *floorDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schema
}

func (d *floorDataSource) Read(_ context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var vals map[string]tftypes.Value
	if err := req.Config.Raw.As(&vals); err != nil {
		resp.Diagnostics.AddError("Unreadable configuration", err.Error())
		return
	}
	for n, v := range d.results {
		if vals[n].IsNull() {
			vals[n] = v
		}
	}
	resp.State.Raw = tftypes.NewValue(d.objType, vals)
}

// floorFunction returns 1 without reading its arguments.
type floorFunction struct {
	def function.Definition
	one types.Number
}

var theFunction = func() *floorFunction {
	f := &floorFunction{def: function.Definition{Return: function.NumberReturn{}}, one: types.NumberValue(big.NewFloat(1))}
	for _, n := range functionParams {
		// Unknown values allowed, as queuecap's parameters do.
		f.def.Parameters = append(f.def.Parameters, function.NumberParameter{Name: n, AllowUnknownValues: true})
	}
	return f
}()

func (f *floorFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "required_consumers"
}

func (f *floorFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.def
}

func (f *floorFunction) Run(ctx context.Context, _ function.RunRequest, resp *function.RunResponse) {
	resp.Error = resp.Result.Set(ctx, f.one)
}
