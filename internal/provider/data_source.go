// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var (
	_ datasource.DataSource                     = (*formulaDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*formulaDataSource)(nil)
)

// formulaDataSource is the data source of one catalog formula: its schema,
// validation and read all come from the catalog entry. The schema and its
// wire type are built once, when the provider starts.
type formulaDataSource struct {
	formula    *capacity.Formula
	schema     schema.Schema
	objType    tftypes.Type
	validators []datasource.ConfigValidator
}

func newDataSource(f *capacity.Formula) *formulaDataSource {
	s := dataSourceSchema(f)
	return &formulaDataSource{formula: f, schema: s, objType: s.Type().TerraformType(context.Background()),
		validators: []datasource.ConfigValidator{newConfigValidator(f)}}
}

// dataSources are every formula's data source, built once.
var dataSources = func() []*formulaDataSource {
	out := make([]*formulaDataSource, len(capacity.Formulas))
	for i, f := range capacity.Formulas {
		out[i] = newDataSource(f)
	}
	return out
}()

func (d *formulaDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.formula.Name
}

func (d *formulaDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schema
}

func (d *formulaDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return d.validators
}

func (d *formulaDataSource) Read(_ context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config map[string]tftypes.Value
	if err := req.Config.Raw.As(&config); err != nil {
		resp.Diagnostics.AddError("Unreadable configuration", err.Error())
		return
	}
	args := make(capacity.Args, len(d.formula.Inputs))
	for i := range d.formula.Inputs {
		in := &d.formula.Inputs[i]
		v, known, err := readInput(in, config[in.Name])
		if err != nil {
			addInputError(&resp.Diagnostics, err)
			return
		}
		if !known {
			// Terraform defers a data source with unknown arguments to
			// apply; there is nothing to compute yet.
			resp.Diagnostics.AddError("Unknown argument", in.Name+" is not known yet: the data source is read once it is")
			return
		}
		if v != nil {
			args[in.Name] = v
		}
	}
	args = d.formula.WithDefaults(args)
	res, err := d.formula.Compute(args)
	if err != nil {
		addCapacityError(&resp.Diagnostics, err)
		return
	}
	for _, w := range res.Warnings {
		resp.Diagnostics.AddWarning(w.Summary, w.Detail)
	}
	vals := make(map[string]tftypes.Value, len(d.formula.Inputs)+len(d.formula.Outputs))
	for _, in := range d.formula.Inputs {
		v := config[in.Name]
		switch {
		case !v.IsNull():
		case in.Computed:
			v = tfValue(in.Type, res.Values[in.Name])
		case in.Default != nil:
			v = tfValue(in.Type, args[in.Name])
		}
		vals[in.Name] = v
	}
	for _, out := range d.formula.Outputs {
		vals[out.Name] = tfValue(out.Type, res.Values[out.Name])
	}
	resp.State.Raw = tftypes.NewValue(d.objType, vals)
}

// configValidator checks a data source's configuration at plan, on what
// is known: the formula's rules across inputs, then each input
// (checkInput). It is one validator for the whole data source rather than
// one per attribute because the framework writes two trace log entries
// around every validator it calls, which the provider encodes and the CLI
// decodes on every validation even when no log is kept: with one per
// input, that cost more than the checks. Its description is written once.
type configValidator struct {
	formula *capacity.Formula
	desc    string
}

var _ datasource.ConfigValidator = configValidator{}

func newConfigValidator(f *capacity.Formula) configValidator {
	docs := make([]string, 0, len(f.Rules)+len(f.Inputs))
	for _, r := range f.Rules {
		docs = append(docs, r.Doc())
	}
	for i := range f.Inputs {
		docs = append(docs, inputRule(&f.Inputs[i]))
	}
	return configValidator{formula: f, desc: joinSentences(docs)}
}

func (v configValidator) Description(context.Context) string { return v.desc }

func (v configValidator) MarkdownDescription(context.Context) string { return v.desc }

func (v configValidator) ValidateDataSource(_ context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var config map[string]tftypes.Value
	if err := req.Config.Raw.As(&config); err != nil {
		return
	}
	for _, r := range v.formula.Rules {
		if err := r.Check(presence(config)); err != nil {
			addInputError(&resp.Diagnostics, err)
		}
	}
	for i := range v.formula.Inputs {
		in := &v.formula.Inputs[i]
		checkInput(&resp.Diagnostics, in, config[in.Name])
	}
}

func joinSentences(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += "; "
		}
		out += p
	}
	return out
}

// addInputError reports a bad argument on the attribute it names.
func addInputError(diags *diag.Diagnostics, err *capacity.InputError) {
	if p, ok := errorPath(err); ok {
		diags.AddAttributeError(p, "Invalid Attribute Value", "Attribute "+err.Error())
		return
	}
	diags.AddError("Invalid Attribute Combination", err.Reason)
}

// addCapacityError turns an error from internal/capacity into a diagnostic
// on the attribute it names, so that every data source reports bad input
// and overflow the same way.
func addCapacityError(diags *diag.Diagnostics, err error) {
	var in *capacity.InputError
	if errors.As(err, &in) {
		if p, ok := errorPath(in); ok {
			diags.AddAttributeError(p, "Invalid "+in.Field, in.Error()+".")
			return
		}
	}
	diags.AddError("Capacity calculation failed", err.Error())
}
