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
	formula *capacity.Formula
	schema  schema.Schema
	objType tftypes.Type
}

func newDataSource(f *capacity.Formula) *formulaDataSource {
	s := dataSourceSchema(f)
	return &formulaDataSource{formula: f, schema: s, objType: s.Type().TerraformType(context.Background())}
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
	if len(d.formula.Rules) == 0 {
		return nil
	}
	return []datasource.ConfigValidator{rulesValidator{d.formula}}
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

// rulesValidator checks a formula's rules across inputs at plan, on what
// is known.
type rulesValidator struct{ formula *capacity.Formula }

var _ datasource.ConfigValidator = rulesValidator{}

func (v rulesValidator) Description(ctx context.Context) string { return v.MarkdownDescription(ctx) }

func (v rulesValidator) MarkdownDescription(context.Context) string {
	docs := make([]string, len(v.formula.Rules))
	for i, r := range v.formula.Rules {
		docs[i] = r.Doc()
	}
	return joinSentences(docs)
}

func (v rulesValidator) ValidateDataSource(_ context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var config map[string]tftypes.Value
	if err := req.Config.Raw.As(&config); err != nil {
		return
	}
	for _, r := range v.formula.Rules {
		if err := r.Check(presence(config)); err != nil {
			addInputError(&resp.Diagnostics, err)
		}
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
