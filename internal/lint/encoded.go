// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// jsonencodeObject is the value jsonencode(...) encodes in an expression
// that is such a call, or the document a JSON template writes
// (templateObject), or a local value or a module input that is one;
// cty.NilVal for any other.
func jsonencodeObject(in *instance, expr hcl.Expression, hops int) cty.Value {
	if hops > maxPolicyHops {
		return cty.NilVal
	}
	switch e := expr.(type) {
	case *hclsyntax.FunctionCallExpr:
		if e.Name == "jsonencode" && len(e.Args) == 1 && !e.ExpandFinal {
			return in.eval(e.Args[0])
		}
	case *hclsyntax.TemplateWrapExpr:
		return jsonencodeObject(in, e.Wrapped, hops+1)
	case *hclsyntax.TemplateExpr:
		return templateObject(in, e)
	case *hclsyntax.ScopeTraversalExpr:
		name, ok := attrName(e.Traversal, 1)
		if !ok || len(e.Traversal) != 2 {
			return cty.NilVal
		}
		switch e.Traversal.RootName() {
		case "local":
			if a := in.mod.Locals[name]; a != nil {
				return jsonencodeObject(in, a.Expr, hops+1)
			}
		case "var":
			if in.parent == nil {
				return cty.NilVal
			}
			if a, ok := in.call.Args[name]; ok {
				outer := in.parent.rep
				in.parent.rep = in.callRep
				defer func() { in.parent.rep = outer }()
				return jsonencodeObject(in.parent, a.Expr, hops+1)
			}
		}
	}
	return cty.NilVal
}

// templateObject is the document a JSON template writes, a heredoc or a
// quoted string with interpolations, as policies were written before
// jsonencode: "Resource": "${aws_sqs_queue.q.arn}". An interpolation not
// known before apply makes the whole string unknown, so each is written
// as a placeholder, the JSON is parsed, and each placeholder is put back
// as the value it stands for: a string that is one placeholder is that
// value (the queue's ARN, with its origin), a string holding one among
// other text is unknown as HCL's template would be (not null, its text
// up to the first interpolation known), with the origins of what it
// holds. cty.NilVal
// when the template is known as a whole (the caller reads it as a string)
// or is not JSON with its placeholders in place (one outside a JSON
// string, as in "Resource": ${jsonencode(local.arns)}).
func templateObject(in *instance, e *hclsyntax.TemplateExpr) cty.Value {
	var text strings.Builder
	var parts []cty.Value
	for _, p := range e.Parts {
		v := in.eval(p)
		if uv, _ := v.UnmarkDeep(); uv.IsWhollyKnown() && !uv.IsNull() && uv.Type().IsPrimitiveType() {
			if sv, err := convert.Convert(uv, cty.String); err == nil {
				text.WriteString(sv.AsString())
				continue
			}
		}
		text.WriteString(templatePlaceholder(len(parts)))
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return cty.NilVal
	}
	doc := parseJSON(text.String())
	if doc == cty.NilVal {
		return cty.NilVal
	}
	return fillPlaceholders(doc, parts)
}

// templatePlaceholder stands for the i-th unknown interpolation of a
// template: characters of Unicode's private use area, which no policy
// holds and JSON and normalization leave as they are.
func templatePlaceholder(i int) string {
	return "\ue000" + strconv.Itoa(i) + "\ue001"
}

// fillPlaceholders puts the interpolations back in a parsed template.
func fillPlaceholders(v cty.Value, parts []cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case v.IsNull() || !v.IsKnown():
		return v
	case ty == cty.String:
		s := v.AsString()
		if !strings.ContainsRune(s, '\ue000') {
			return v
		}
		built := cty.UnknownVal(cty.String).Refine().NotNull()
		if before, _, _ := strings.Cut(s, "\ue000"); before != "" {
			built = built.StringPrefix(before)
		}
		marks := cty.ValueMarks{}
		for i, p := range parts {
			ph := templatePlaceholder(i)
			if s == ph {
				return p
			}
			if strings.Contains(s, ph) {
				_, pvm := p.UnmarkDeepWithPaths()
				for _, pm := range pvm {
					for m := range pm.Marks {
						marks[m] = struct{}{}
					}
				}
			}
		}
		return built.NewValue().WithMarks(marks)
	case ty.IsObjectType():
		attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
		for k, av := range v.AsValueMap() {
			attrs[k] = fillPlaceholders(av, parts)
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		elems := make([]cty.Value, 0, v.LengthInt())
		for _, ev := range v.AsValueSlice() {
			elems = append(elems, fillPlaceholders(ev, parts))
		}
		return cty.TupleVal(elems)
	}
	return v
}

// maxPolicyHops bounds how far a policy argument is followed through
// local values and module inputs to the jsonencode() that writes it.
const maxPolicyHops = 8

// parseJSON is a JSON document as a value, cty.NilVal when it is not JSON.
func parseJSON(s string) cty.Value {
	if _, why := jsonNesting([]byte(s), false, maxNesting); why != fits {
		return cty.NilVal
	}
	ty, err := ctyjson.ImpliedType([]byte(s))
	if err != nil {
		return cty.NilVal
	}
	v, err := ctyjson.Unmarshal([]byte(s), ty)
	if err != nil {
		return cty.NilVal
	}
	return v
}
