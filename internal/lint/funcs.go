package lint

import (
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions are the Terraform built-ins the evaluator knows. A call to any
// other function (file, templatefile, timestamp, ...) fails, and the value
// that depends on it is treated as unknown: the linter never guesses.
var functions = map[string]function.Function{
	"abs":             stdlib.AbsoluteFunc,
	"ceil":            stdlib.CeilFunc,
	"floor":           stdlib.FloorFunc,
	"log":             stdlib.LogFunc,
	"max":             stdlib.MaxFunc,
	"min":             stdlib.MinFunc,
	"parseint":        stdlib.ParseIntFunc,
	"pow":             stdlib.PowFunc,
	"signum":          stdlib.SignumFunc,
	"chomp":           stdlib.ChompFunc,
	"format":          stdlib.FormatFunc,
	"formatlist":      stdlib.FormatListFunc,
	"indent":          stdlib.IndentFunc,
	"join":            stdlib.JoinFunc,
	"lower":           stdlib.LowerFunc,
	"upper":           stdlib.UpperFunc,
	"replace":         stdlib.ReplaceFunc,
	"regex":           stdlib.RegexFunc,
	"regexall":        stdlib.RegexAllFunc,
	"split":           stdlib.SplitFunc,
	"strlen":          stdlib.StrlenFunc,
	"substr":          stdlib.SubstrFunc,
	"title":           stdlib.TitleFunc,
	"trim":            stdlib.TrimFunc,
	"trimprefix":      stdlib.TrimPrefixFunc,
	"trimsuffix":      stdlib.TrimSuffixFunc,
	"trimspace":       stdlib.TrimSpaceFunc,
	"chunklist":       stdlib.ChunklistFunc,
	"coalesce":        stdlib.CoalesceFunc,
	"coalescelist":    stdlib.CoalesceListFunc,
	"compact":         stdlib.CompactFunc,
	"concat":          stdlib.ConcatFunc,
	"contains":        stdlib.ContainsFunc,
	"distinct":        stdlib.DistinctFunc,
	"element":         stdlib.ElementFunc,
	"flatten":         stdlib.FlattenFunc,
	"index":           stdlib.IndexFunc,
	"keys":            stdlib.KeysFunc,
	"length":          lengthFunc,
	"lookup":          stdlib.LookupFunc,
	"merge":           stdlib.MergeFunc,
	"range":           stdlib.RangeFunc,
	"reverse":         stdlib.ReverseListFunc,
	"setintersection": stdlib.SetIntersectionFunc,
	"setproduct":      stdlib.SetProductFunc,
	"setsubtract":     stdlib.SetSubtractFunc,
	"setunion":        stdlib.SetUnionFunc,
	"slice":           stdlib.SliceFunc,
	"sort":            stdlib.SortFunc,
	"values":          stdlib.ValuesFunc,
	"zipmap":          stdlib.ZipmapFunc,
	"jsondecode":      stdlib.JSONDecodeFunc,
	"jsonencode":      stdlib.JSONEncodeFunc,
	"csvdecode":       stdlib.CSVDecodeFunc,
	"try":             tryfunc.TryFunc,
	"can":             tryfunc.CanFunc,
	"tonumber":        convertFunc(cty.Number),
	"tostring":        convertFunc(cty.String),
	"tobool":          convertFunc(cty.Bool),
	"tolist":          convertFunc(cty.List(cty.DynamicPseudoType)),
	"toset":           convertFunc(cty.Set(cty.DynamicPseudoType)),
	"tomap":           convertFunc(cty.Map(cty.DynamicPseudoType)),
	"sum":             sumFunc,
	// The linter reads no files outside the configuration: what these
	// return is unknown, but it is a string, never null, and derived from
	// their arguments (a redrive policy rendered from a template names its
	// dead-letter queue).
	"file":         unknownStringFunc("path"),
	"templatefile": unknownStringFunc("path", "vars"),
}

// unknownStringFunc is a function whose result the linter cannot know: an
// unknown, non-null string carrying its arguments' marks.
func unknownStringFunc(params ...string) function.Function {
	spec := &function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.UnknownVal(cty.String).RefineNotNull(), nil
		},
	}
	for _, p := range params {
		spec.Params = append(spec.Params, function.Parameter{Name: p, Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true, AllowNull: true})
	}
	return function.New(spec)
}

// convertFunc is Terraform's to* family: a type conversion as a function.
func convertFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !want.HasDynamicTypes() {
				return want, nil
			}
			v, err := convert.Convert(args[0], want)
			if err != nil {
				return cty.NilType, function.NewArgError(0, err)
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v, err := convert.Convert(args[0], retType)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return v, nil
		},
	})
}

// lengthFunc is Terraform's length, which unlike cty's also takes objects,
// tuples and strings: `length(var.redrive_policy) > 0` over a default of
// {} is a common count expression.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		ty := v.Type()
		switch {
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))), nil
		case !v.IsKnown():
			return cty.UnknownVal(cty.Number), nil
		case ty == cty.String:
			return stdlib.Strlen(v)
		case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
			return v.Length(), nil
		}
		return cty.NilVal, function.NewArgErrorf(0, "argument must be a string, a collection type, or a structural type")
	},
})

// sumFunc is Terraform's sum over a list or set of numbers.
var sumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list := args[0]
		if !list.CanIterateElements() || list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty or non-collection value")
		}
		total := cty.Zero
		for it := list.ElementIterator(); it.Next(); {
			_, v := it.Element()
			n, err := convert.Convert(v, cty.Number)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if n.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "cannot sum a null value")
			}
			total = total.Add(n)
		}
		return total, nil
	},
})
