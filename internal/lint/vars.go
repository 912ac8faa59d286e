package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Root module input values, collected as Terraform collects them
// (internal/command/meta_vars.go, collectVariableValues) and read by each
// variable's type (internal/configs/named_values.go, decodeVariableType).

// VarFlag is one --var NAME=VALUE or one --var-file FILE.
type VarFlag struct {
	File  bool // --var-file; otherwise --var
	Value string
}

// envVarPrefix starts the name of an environment variable that sets a root
// module variable: TF_VAR_name.
const envVarPrefix = "TF_VAR_"

// sourceKind is where a value was set.
type sourceKind uint8

const (
	fromEnv sourceKind = iota
	fromAutoFile
	fromVarFile
	fromVar
)

// assignment is one value set for one variable.
type assignment struct {
	name string
	kind sourceKind
	// expr is a file's value; raw is a --var or TF_VAR_ value, read by
	// the variable's type.
	expr hcl.Expression
	raw  string
}

// rootAssignments lists the values set for a root module's variables,
// lowest precedence first, as Terraform reads them: TF_VAR_name
// environment variables, terraform.tfvars, terraform.tfvars.json, the
// *.auto.tfvars and *.auto.tfvars.json files in name order, then flags,
// the --var and --var-file values in command-line order. For each
// variable the last value wins, over its default.
func rootAssignments(dir string, env []string, flags []assignment) ([]assignment, hcl.Diagnostics) {
	out := envAssignments(env)
	var diags hcl.Diagnostics
	for _, path := range tfvarsFiles(dir) {
		as, d := fileAssignments(path, fromAutoFile)
		out = append(out, as...)
		diags = append(diags, d...)
	}
	return append(out, flags...), diags
}

// parseVarFlags reads the --var and --var-file flags once for every root
// module. A malformed --var is a usage error; a --var-file that cannot be
// read or parsed is reported and its values are not used.
func parseVarFlags(flags []VarFlag) ([]assignment, hcl.Diagnostics, error) {
	var out []assignment
	var diags hcl.Diagnostics
	for _, f := range flags {
		if f.File {
			as, d := fileAssignments(f.Value, fromVarFile)
			out = append(out, as...)
			diags = append(diags, d...)
			continue
		}
		name, value, ok := strings.Cut(f.Value, "=")
		if !ok || !hclsyntax.ValidIdentifier(strings.TrimSpace(name)) {
			return nil, nil, &UsageError{Msg: fmt.Sprintf("invalid --var %q: want NAME=VALUE", f.Value)}
		}
		out = append(out, assignment{name: strings.TrimSpace(name), kind: fromVar, raw: value})
	}
	return out, diags, nil
}

func envAssignments(env []string) []assignment {
	var out []assignment
	for _, kv := range env {
		if rest, ok := strings.CutPrefix(kv, envVarPrefix); ok {
			name, value, _ := strings.Cut(rest, "=")
			out = append(out, assignment{name: name, kind: fromEnv, raw: value})
		}
	}
	return out
}

// fileAssignments reads a .tfvars or .tfvars.json file; its values are
// in name order, as a file sets each name once.
func fileAssignments(path string, kind sourceKind) ([]assignment, hcl.Diagnostics) {
	pf := parseFile(path) // small: each root's own files are read for it
	if pf.file == nil || pf.diags.HasErrors() {
		return nil, pf.diags
	}
	attrs, diags := pf.file.Body.JustAttributes()
	out := make([]assignment, 0, len(attrs))
	for _, name := range sortedKeys(attrs) {
		out = append(out, assignment{name: name, kind: kind, expr: attrs[name].Expr})
	}
	return out, diags
}

// lastAssignments keeps the value that wins for each variable.
func lastAssignments(as []assignment) map[string]assignment {
	last := make(map[string]assignment, len(as))
	for _, a := range as {
		last[a.name] = a
	}
	return last
}

// rootVariables are a root module's input values: each variable's default,
// replaced by the last value set for it. A value that does not evaluate
// is an error and leaves its variable unknown. Values for variables the
// root does not declare are not used.
func rootVariables(mod *Module, as []assignment) (map[string]cty.Value, hcl.Diagnostics) {
	vals := make(map[string]cty.Value, len(mod.Variables))
	for name, v := range mod.Variables {
		vals[name] = variableDefault(v)
	}
	var diags hcl.Diagnostics
	last := lastAssignments(as)
	for _, name := range sortedKeys(last) {
		if decl, ok := mod.Variables[name]; ok {
			v, d := last[name].value(decl)
			vals[name] = v
			diags = append(diags, d...)
		}
	}
	return vals, diags
}

// variableType is a variable's type constraint, the defaults of its
// optional attributes, and whether a --var or TF_VAR_ value for it is read
// literally (no type, or a primitive one) rather than as an HCL
// expression, as Terraform decides. A type constraint that is not valid,
// which Terraform itself rejects, constrains nothing here.
func variableType(v *Variable) (ty cty.Type, defaults *typeexpr.Defaults, literal bool) {
	if v.Type == nil {
		return cty.DynamicPseudoType, nil, true
	}
	switch hcl.ExprAsKeyword(v.Type) { // Terraform's shorthands for list(any) and map(any)
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, false
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, false
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(v.Type)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil, true
	}
	return ty, defaults, ty.IsPrimitiveType()
}

// value reads an assignment for its variable and converts it to the
// declared type where it can (convertVariable).
func (a assignment) value(decl *Variable) (cty.Value, hcl.Diagnostics) {
	_, _, literal := variableType(decl)
	switch {
	case a.expr != nil:
		v, diags := a.expr.Value(nil)
		if diags.HasErrors() {
			return cty.DynamicVal, diags // the file's error, placed in it, as for any file
		}
		return convertVariable(decl, v), diags
	case literal:
		return convertVariable(decl, cty.StringVal(a.raw)), nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(a.raw), "<value for var."+a.name+">", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.DynamicVal, nil
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.DynamicVal, nil
	}
	return convertVariable(decl, v), nil
}

func diagText(d *hcl.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}
