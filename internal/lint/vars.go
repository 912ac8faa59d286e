// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Root module input values, collected as Terraform collects them
// (internal/command/meta_vars.go, collectVariableValues), read by each
// variable's type (internal/configs/named_values.go, decodeVariableType)
// and checked as Terraform checks them (internal/terraform/eval_variable.go
// and internal/backend/backendrun/unparsed_value.go).

// VarFlag is one --var NAME=VALUE or one --var-file FILE.
type VarFlag struct {
	File  bool // --var-file; otherwise --var
	Value string
}

// envVarPrefix starts the name of an environment variable that sets a root
// module variable: TF_VAR_name.
const envVarPrefix = "TF_VAR_"

// sourceKind is where a value was set, which decides what a value for a
// variable the root module does not declare is: Terraform ignores it from
// the environment (set globally for many configurations), warns about it
// in a file (shared by several) and rejects it on the command line.
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
	// expr is a file's value and nameRange where the file names the
	// variable; raw is a --var or TF_VAR_ value, read by the variable's
	// type.
	expr      hcl.Expression
	nameRange hcl.Range
	raw       string
}

// where says where the value was set, for messages.
func (a assignment) where() string {
	switch a.kind {
	case fromEnv:
		return "using the " + envVarPrefix + a.name + " environment variable"
	case fromVar:
		return fmt.Sprintf("using --var=%q", a.name+"=...")
	}
	r := a.expr.Range()
	return fmt.Sprintf("in %s:%d", r.Filename, r.Start.Line)
}

// rootAssignments lists the values set for a root module's variables,
// lowest precedence first, as Terraform reads them: TF_VAR_name
// environment variables, terraform.tfvars, terraform.tfvars.json, the
// *.auto.tfvars and *.auto.tfvars.json files in name order, then flags,
// the --var and --var-file values in command-line order. For each
// variable the last value wins, over its default.
func rootAssignments(bound *Boundary, dir string, env []string, flags []assignment) ([]assignment, hcl.Diagnostics) {
	out := envAssignments(env)
	var diags hcl.Diagnostics
	for _, path := range tfvarsFiles(dir) {
		as, d := fileAssignments(bound.parseFile(path), fromAutoFile)
		out = append(out, as...)
		diags = append(diags, d...)
	}
	return append(out, flags...), diags
}

// parseVarFlags reads the --var and --var-file flags once for every root
// module. A malformed --var is a usage error; a --var-file that cannot be
// read or parsed is reported and its values are not used. A --var-file is
// read as the user named it (Boundary.readNamed).
func parseVarFlags(bound *Boundary, flags []VarFlag) ([]assignment, hcl.Diagnostics, error) {
	var out []assignment
	var diags hcl.Diagnostics
	for _, f := range flags {
		if f.File {
			src, err := bound.readNamed(f.Value, maxFileBytes, "a variables file")
			as, d := fileAssignments(parseRead(f.Value, src, err), fromVarFile)
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

// fileAssignments are the values of a .tfvars or .tfvars.json file as
// parsed, in the order it writes them (a file sets each name once).
func fileAssignments(pf *parsedFile, kind sourceKind) ([]assignment, hcl.Diagnostics) {
	if pf.file == nil || pf.diags.HasErrors() {
		return nil, pf.diags
	}
	attrs, diags := pf.file.Body.JustAttributes()
	out := make([]assignment, 0, len(attrs))
	for name, attr := range attrs {
		out = append(out, assignment{name: name, kind: kind, expr: attr.Expr, nameRange: attr.NameRange})
	}
	slices.SortFunc(out, func(a, b assignment) int { return cmp.Compare(a.nameRange.Start.Byte, b.nameRange.Start.Byte) })
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

// rootVariables are a root module's input values: the last value set for
// each variable that is set (one left unset reads as its default, worked
// out by instance.variable when an expression reads it). A value that does not evaluate
// is an error and leaves its variable unknown. A value that does not fit
// its variable's type is an error too, and fits is false: Terraform stops
// there, and so does the root's check, rather than report what depends on
// the variable as not known before apply. A value from one of the root's
// own variable files for a variable it does not declare is a skip, as
// Terraform warns about it; values from the flags for undeclared variables
// are judged once for all roots (undeclaredFlags).
func rootVariables(mod *Module, as []assignment) (vals map[string]cty.Value, diags hcl.Diagnostics, skips []Skip, fits bool) {
	// Defaults are not converted here: most of a large module's variables
	// are read by nothing the rules look at.
	vals = map[string]cty.Value{}
	fits = true
	var undeclared []assignment
	last := lastAssignments(as)
	for _, name := range sortedKeys(last) {
		a := last[name]
		decl, ok := mod.Variables[name]
		switch {
		case ok:
			v, d, vfits := a.value(decl)
			vals[name] = v
			diags = append(diags, d...)
			fits = fits && vfits
		case a.kind == fromAutoFile:
			undeclared = append(undeclared, a)
		}
	}
	return vals, diags, undeclaredInFiles(undeclared, "the root module does not declare"), fits
}

// undeclaredInFiles is one skip per variable file for its values of
// undeclared variables, at the first of them, naming three: Terraform
// likewise names two and counts the rest, as a file shared by several
// configurations may set many. nobody says who does not declare them.
func undeclaredInFiles(as []assignment, nobody string) []Skip {
	byFile := map[string][]assignment{}
	for _, a := range as {
		byFile[a.nameRange.Filename] = append(byFile[a.nameRange.Filename], a)
	}
	var skips []Skip
	for _, file := range sortedKeys(byFile) {
		as := byFile[file]
		slices.SortFunc(as, func(a, b assignment) int { return cmp.Compare(a.nameRange.Start.Byte, b.nameRange.Start.Byte) })
		reason := fmt.Sprintf("%s sets var.%s, but %s it: the value is not used; declare the variable with a variable block, or remove the value", file, as[0].name, nobody)
		if len(as) > 1 {
			var names []string
			for _, a := range as[:min(len(as), 3)] {
				names = append(names, "var."+a.name)
			}
			if more := len(as) - len(names); more > 0 {
				names = append(names, fmt.Sprintf("%d more", more))
			}
			reason = fmt.Sprintf("%s sets %s and %s, but %s them: the values are not used; declare the variables with variable blocks, or remove the values",
				file, strings.Join(names[:len(names)-1], ", "), names[len(names)-1], nobody)
		}
		skips = append(skips, Skip{Rule: "variables", Range: toRange(as[0].nameRange), Reason: reason})
	}
	return skips
}

// undeclaredFlags judges the --var and --var-file values that win for a
// variable none of the root modules read declares (declared holds the
// names each declares; with none there is nothing to judge by): a --var is a
// usage error, as in Terraform and tflint; a --var-file value is a skip,
// as Terraform only warns. With --recursive a flag need not name a
// variable of every root, only of one.
func undeclaredFlags(flags []assignment, declared []map[string]bool) ([]Skip, error) {
	if len(declared) == 0 {
		return nil, nil
	}
	nobody := "no linted root module declares"
	if len(declared) == 1 {
		nobody = "the root module does not declare"
	}
	var inFiles []assignment
	var names []string // of the --var values
	last := lastAssignments(flags)
	for _, name := range sortedKeys(last) {
		a := last[name]
		switch {
		case slices.ContainsFunc(declared, func(vars map[string]bool) bool { return vars[name] }):
		case a.kind == fromVar:
			names = append(names, "var."+name)
		default:
			inFiles = append(inFiles, a)
		}
	}
	switch len(names) {
	case 0:
		return undeclaredInFiles(inFiles, nobody), nil
	case 1:
		return nil, &UsageError{Msg: fmt.Sprintf("Value for undeclared variable: --var sets %s, but %s it; to use this value, add a variable block to the configuration", names[0], nobody)}
	}
	return nil, &UsageError{Msg: fmt.Sprintf("Values for undeclared variables: --var sets %s, but %s them; to use these values, add variable blocks to the configuration", strings.Join(names, ", "), nobody)}
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
// declared type. A value that does not parse or convert does not fit: an
// error names the variable, where the value was set and why, and the
// variable is unknown.
func (a assignment) value(decl *Variable) (v cty.Value, diags hcl.Diagnostics, fits bool) {
	ty, defaults, literal := variableType(decl)
	unknown := cty.UnknownVal(ty.WithoutOptionalAttributesDeep())
	switch {
	case a.expr != nil:
		if v, diags = a.expr.Value(nil); diags.HasErrors() {
			return unknown, diags, true // the file's error, placed in it, as for any file
		}
	case literal:
		v = cty.StringVal(a.raw)
	default:
		expr, d := parseExpression([]byte(a.raw), "<value for var."+a.name+">")
		if !d.HasErrors() {
			v, d = expr.Value(nil)
		}
		if d.HasErrors() {
			return unknown, a.invalid(decl, "it is not a valid expression: "+diagText(d[0])), false
		}
	}
	if defaults != nil && !v.IsNull() {
		v = defaults.Apply(v)
	}
	out, err := convert.Convert(v, ty)
	if err != nil {
		return unknown, a.invalid(decl, conversionError(err)), false
	}
	return out, diags, true
}

// conversionError says where in the value a conversion failed, in cty's
// words: `attribute "max": a number is required`.
func conversionError(err error) string {
	var pe cty.PathError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	var b strings.Builder
	for _, step := range pe.Path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			fmt.Fprintf(&b, "attribute %q: ", s.Name)
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "element %q: ", s.Key.AsString())
			} else if s.Key.Type() == cty.Number {
				fmt.Fprintf(&b, "element %s: ", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return b.String() + pe.Error()
}

// invalid is Terraform's "Invalid value for input variable", placed at the
// value in a file and at the declaration for a --var or TF_VAR_ value.
func (a assignment) invalid(decl *Variable, reason string) hcl.Diagnostics {
	subject := decl.Range
	if a.expr != nil {
		subject = a.expr.Range()
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid value for input variable",
		Detail: fmt.Sprintf("unsuitable value for var.%s set %s (declared at %s:%d): %s; the root module is not checked until the value fits",
			a.name, a.where(), decl.Range.Filename, decl.Range.Start.Line, reason),
		Subject: &subject,
	}}
}

func diagText(d *hcl.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}
