// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions are Terraform's built-in functions: those of Terraform 1.5.7
// and those added since (issensitive, templatestring, ephemeralasnull) and
// OpenTofu's own (base64gunzip, cidrcontains, urldecode) as OpenTofu
// defines them, except those that read files, which each root
// builds with its own directory (fileFunctions); each is also core::<name>
// (withCoreNames). Where Terraform uses cty's stdlib function the entry is
// that function; where it has its own, so does the linter, written here.
// docs/provenance.md says what each follows, and TestFunctionsAgainstCLIs
// compares them with the real CLIs. A call to a function that is not here
// fails, and the value that depends on it is unknown: the linter never
// guesses.
var functions = map[string]function.Function{
	"abs":              stdlib.AbsoluteFunc,
	"alltrue":          allTrueFunc,
	"anytrue":          anyTrueFunc,
	"base64decode":     base64DecodeFunc,
	"base64encode":     base64EncodeFunc,
	"base64gunzip":     base64GunzipFunc,
	"base64gzip":       base64GzipFunc,
	"base64sha256":     base64SHA256Func,
	"base64sha512":     base64SHA512Func,
	"basename":         basenameFunc,
	"bcrypt":           unknownFunc(cty.String, "str", "cost..."),
	"can":              tryfunc.CanFunc,
	"ceil":             stdlib.CeilFunc,
	"chomp":            stdlib.ChompFunc,
	"chunklist":        stdlib.ChunklistFunc,
	"cidrcontains":     cidrContainsFunc,
	"cidrhost":         cidrHostFunc,
	"cidrnetmask":      cidrNetmaskFunc,
	"cidrsubnet":       cidrSubnetFunc,
	"cidrsubnets":      cidrSubnetsFunc,
	"coalesce":         coalesceFunc,
	"coalescelist":     stdlib.CoalesceListFunc,
	"compact":          stdlib.CompactFunc,
	"concat":           stdlib.ConcatFunc,
	"contains":         stdlib.ContainsFunc,
	"csvdecode":        stdlib.CSVDecodeFunc,
	"dirname":          dirnameFunc,
	"distinct":         stdlib.DistinctFunc,
	"element":          stdlib.ElementFunc,
	"endswith":         stringPredicateFunc("suffix", strings.HasSuffix),
	"ephemeralasnull":  identityFunc,
	"flatten":          stdlib.FlattenFunc,
	"floor":            stdlib.FloorFunc,
	"format":           stdlib.FormatFunc,
	"formatdate":       stdlib.FormatDateFunc,
	"formatlist":       stdlib.FormatListFunc,
	"indent":           stdlib.IndentFunc,
	"index":            indexFunc,
	"issensitive":      unknownFunc(cty.Bool, "value"),
	"join":             stdlib.JoinFunc,
	"jsondecode":       stdlib.JSONDecodeFunc,
	"jsonencode":       stdlib.JSONEncodeFunc,
	"keys":             stdlib.KeysFunc,
	"length":           lengthFunc,
	"log":              stdlib.LogFunc,
	"lookup":           lookupFunc,
	"lower":            stdlib.LowerFunc,
	"matchkeys":        matchkeysFunc,
	"max":              stdlib.MaxFunc,
	"md5":              md5Func,
	"merge":            stdlib.MergeFunc,
	"min":              stdlib.MinFunc,
	"nonsensitive":     identityFunc,
	"one":              oneFunc,
	"parseint":         stdlib.ParseIntFunc,
	"pathexpand":       pathExpandFunc,
	"plantimestamp":    unknownFunc(cty.String),
	"pow":              stdlib.PowFunc,
	"range":            stdlib.RangeFunc,
	"regex":            stdlib.RegexFunc,
	"regexall":         stdlib.RegexAllFunc,
	"replace":          replaceFunc,
	"reverse":          stdlib.ReverseListFunc,
	"rsadecrypt":       unknownFunc(cty.String, "ciphertext", "privatekey"),
	"sensitive":        identityFunc,
	"setintersection":  stdlib.SetIntersectionFunc,
	"setproduct":       stdlib.SetProductFunc,
	"setsubtract":      stdlib.SetSubtractFunc,
	"setunion":         stdlib.SetUnionFunc,
	"sha1":             sha1Func,
	"sha256":           sha256Func,
	"sha512":           sha512Func,
	"signum":           stdlib.SignumFunc,
	"slice":            stdlib.SliceFunc,
	"sort":             stdlib.SortFunc,
	"split":            stdlib.SplitFunc,
	"startswith":       stringPredicateFunc("prefix", strings.HasPrefix),
	"strcontains":      stringPredicateFunc("substr", strings.Contains),
	"strrev":           stdlib.ReverseFunc,
	"substr":           stdlib.SubstrFunc,
	"sum":              sumFunc,
	"textdecodebase64": textDecodeBase64Func,
	"textencodebase64": textEncodeBase64Func,
	"timeadd":          stdlib.TimeAddFunc,
	"timecmp":          timeCmpFunc,
	"timestamp":        unknownFunc(cty.String),
	"title":            stdlib.TitleFunc,
	"tobool":           convertFunc(cty.Bool),
	"tolist":           convertFunc(cty.List(cty.DynamicPseudoType)),
	"tomap":            convertFunc(cty.Map(cty.DynamicPseudoType)),
	"tonumber":         convertFunc(cty.Number),
	"toset":            convertFunc(cty.Set(cty.DynamicPseudoType)),
	"tostring":         convertFunc(cty.String),
	"transpose":        transposeFunc,
	"trim":             stdlib.TrimFunc,
	"trimprefix":       stdlib.TrimPrefixFunc,
	"trimspace":        stdlib.TrimSpaceFunc,
	"trimsuffix":       stdlib.TrimSuffixFunc,
	"try":              tryFunc,
	"upper":            stdlib.UpperFunc,
	"urldecode":        urlDecodeFunc,
	"urlencode":        urlEncodeFunc,
	"uuid":             unknownFunc(cty.String),
	"uuidv5":           uuidV5Func,
	"values":           stdlib.ValuesFunc,
	"yamldecode":       ctyyaml.YAMLDecodeFunc,
	"yamlencode":       ctyyaml.YAMLEncodeFunc,
	"zipmap":           stdlib.ZipmapFunc,
}

// tryFunc is HCL's try, but that what it returns while an argument is not
// known before apply keeps that argument's marks, where HCL's drops them:
// "service/${local.cluster}/${try(aws_ecs_service.this[0].name, "")}"
// names the service, though the template's other parts have origins of
// their own (eval marks a value that has none with all it references).
// It evaluates its arguments once where HCL's does twice, for its type
// and its value; when none succeeds, HCL's evaluates them again to say
// why.
var tryFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "expressions", Type: customdecode.ExpressionClosureType},
	Type:     function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for _, arg := range args {
			v, diags := customdecode.ExpressionClosureFromVal(arg).Value()
			switch {
			case diags.HasErrors():
				continue
			case !v.IsWhollyKnown():
				// Which argument it returns is not known until apply, nor
				// its type: it is most likely this one.
				_, marks := v.UnmarkDeep()
				return cty.DynamicVal.WithMarks(marks), nil
			}
			return v, nil
		}
		return tryfunc.TryFunc.Call(args)
	},
})

// unknownFunc is a function whose result the linter cannot or will not
// know: an unknown, non-null value of type ret carrying its arguments'
// marks. timestamp, plantimestamp, uuid and bcrypt differ on every run
// (Terraform too leaves them unknown until apply); issensitive would need
// sensitivity, which the linter does not track; rsadecrypt is a secret, which
// never sizes a queue and must not reach lint output. A parameter name
// ending in "..." takes any number of arguments.
func unknownFunc(ret cty.Type, params ...string) function.Function {
	spec := &function.Spec{
		Type: function.StaticReturnType(ret),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.UnknownVal(ret).RefineNotNull(), nil
		},
	}
	for _, p := range params {
		param := function.Parameter{Name: strings.TrimSuffix(p, "..."), Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true, AllowNull: true}
		if strings.HasSuffix(p, "...") {
			spec.VarParam = &param
		} else {
			spec.Params = append(spec.Params, param)
		}
	}
	return function.New(spec)
}

// identityFunc is sensitive, nonsensitive and ephemeralasnull. Terraform
// marks or unmarks a value as sensitive (nonsensitive takes a value that is
// not sensitive too, as OpenTofu's does) or nulls its ephemeral parts; the
// linter tracks neither, so the value passes through with its own marks.
var identityFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowNull: true, AllowMarked: true, AllowDynamicType: true}},
	Type:   func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl:   func(args []cty.Value, _ cty.Type) (cty.Value, error) { return args[0], nil },
})

// convertFunc is Terraform's to* family: a type conversion as a function.
// Marks stay where they are, so that toset([aws_sqs_queue.a.arn,
// aws_sqs_queue.b.arn]) still tells each element's queue.
func convertFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowMarked: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			got := args[0].Type()
			if got.Equals(want) || convert.GetConversionUnsafe(got, want) != nil {
				if want.HasDynamicTypes() {
					// The element type is the argument's, unified.
					v, err := convert.Convert(args[0], want)
					if err != nil {
						return cty.NilType, function.NewArgError(0, err)
					}
					return v.Type(), nil
				}
				return want, nil
			}
			return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
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

// sumFunc is Terraform's sum: the numbers of a non-empty list, set or
// tuple added up; unknown while any of them is.
var sumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		list := args[0]
		ty := list.Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple, got %s", ty.FriendlyName())
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		if !list.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		// big.Float panics on +Inf + -Inf.
		defer func() {
			if r := recover(); r != nil {
				ret, err = cty.NilVal, errors.New("cannot sum opposing infinities")
			}
		}()
		total := cty.Zero
		for it := list.ElementIterator(); it.Next(); {
			_, v := it.Element()
			n, err := convert.Convert(v, cty.Number)
			if err != nil || n.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			total = total.Add(n)
		}
		return total, nil
	},
})

// lookupFunc is Terraform's lookup(map, key[, default]). cty's takes
// exactly three arguments; Terraform's default is optional, and a missing
// key without one is an error. The element keeps its own marks, plus the
// map's and the key's, so lookup(local.queues, "orders") names only the
// orders queue.
var lookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			key, _ := args[1].Unmark()
			if !key.IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			if name := key.AsString(); ty.HasAttribute(name) {
				return ty.AttributeType(name), nil
			}
			if len(args) == 3 {
				return args[2].Type(), nil
			}
			return cty.NilType, function.NewArgErrorf(0, "the given object has no attribute %q", key.AsString())
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, collMarks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		name := key.AsString()
		switch {
		case coll.Type().IsObjectType() && coll.Type().HasAttribute(name):
			return coll.GetAttr(name).WithMarks(collMarks, keyMarks), nil
		case coll.Type().IsMapType() && coll.HasIndex(cty.StringVal(name)).True():
			return coll.Index(cty.StringVal(name)).WithMarks(collMarks, keyMarks), nil
		case len(args) == 3:
			def, err := convert.Convert(args[2], retType)
			if err != nil {
				return cty.NilVal, function.NewArgError(2, err)
			}
			return def.WithMarks(collMarks, keyMarks), nil
		}
		return cty.NilVal, fmt.Errorf("lookup failed to find key %q", name)
	},
})

// oneFunc is Terraform's one: the element of a list, set or tuple of one,
// null for none, an error for more. one(aws_sqs_queue.q[*].arn) is how a
// module reads a resource it creates with count = 0 or 1.
var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 0:
			return cty.DynamicPseudoType, nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 1:
			return ty.TupleElementType(0), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		list := args[0]
		if n := list.Length(); !n.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch list.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := list.ElementIterator()
			it.Next()
			_, v := it.Element()
			return v, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
})

// allTrueFunc is Terraform's alltrue: true for an empty list, false if any
// element is false or null. Like OpenTofu's, it reads the elements in order
// and is unknown from the first unknown one on, even when a later one is
// false: the linter predicts what plan sees.
var allTrueFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(cty.Bool), nil
			case v.IsNull() || v.False():
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

// anyTrueFunc is Terraform's anytrue: false for an empty list, true if any
// element is true; nulls count as false.
var anyTrueFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		unknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				unknown = true
			case !v.IsNull() && v.True():
				return cty.True, nil
			}
		}
		if unknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// coalesceFunc is Terraform's coalesce, which unlike cty's skips empty
// strings as well as nulls: coalesce(var.queue_name, "orders") with a
// default of "" is "orders". Every argument converts to one type.
var coalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "vals", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true, AllowNull: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, v := range args {
			types[i] = v.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, arg := range args {
			v, err := convert.Convert(arg, retType)
			if err != nil {
				return cty.NilVal, err
			}
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(retType), nil
			case v.IsNull(), retType == cty.String && v.RawEquals(cty.StringVal("")):
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// indexFunc is Terraform's index(list, value): the position of the first
// element equal to value. cty's IndexFunc is a different function (an
// element by key).
var indexFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}, {Name: "value", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list := args[0]
		if ty := list.Type(); !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := list.ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// matchkeysFunc is Terraform's matchkeys(values, keys, searchset): the
// values whose key at the same position is in searchset, in order.
var matchkeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		values, keys, search := args[0], args[1], args[2]
		if values.LengthInt() != keys.LengthInt() {
			return cty.NilVal, errors.New("length of keys and values should be equal")
		}
		empty := cty.ListValEmpty(retType.ElementType())
		if search.LengthInt() == 0 {
			return empty, nil
		}
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() || !search.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		ty, _ := convert.UnifyUnsafe([]cty.Type{keys.Type(), search.Type()})
		keys, _ = convert.Convert(keys, ty)
		search, _ = convert.Convert(search, ty)
		var out []cty.Value
		vals := values.AsValueSlice()
		for i, k := range keys.AsValueSlice() {
			for _, s := range search.AsValueSlice() {
				if eq, err := stdlib.Equal(k, s); err == nil && eq.True() {
					out = append(out, vals[i])
					break
				}
			}
		}
		if len(out) == 0 {
			return empty, nil
		}
		return cty.ListVal(out), nil
	},
})

// transposeFunc is Terraform's transpose: a map of lists of strings with
// keys and values swapped, each list sorted.
var transposeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:   function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		swapped := map[string][]cty.Value{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, list := it.Element()
			if list.IsNull() {
				return cty.NilVal, errors.New("input must be a map of lists of strings")
			}
			for _, v := range list.AsValueSlice() {
				if v.IsNull() {
					return cty.NilVal, errors.New("input must be a map of lists of strings")
				}
				swapped[v.AsString()] = append(swapped[v.AsString()], k)
			}
		}
		if len(swapped) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := make(map[string]cty.Value, len(swapped))
		for k, vs := range swapped {
			// Map keys iterate in lexical order, so each list is sorted.
			out[k] = cty.ListVal(vs)
		}
		return cty.MapVal(out), nil
	},
})

// stringPredicateFunc is startswith, endswith and strcontains: Terraform's
// string tests, each a Go strings function of (str, other).
func stringPredicateFunc(other string, test func(s, other string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}, {Name: other, Type: cty.String}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

// replaceFunc is Terraform's replace, where a substring written /like
// this/ is a regular expression (and $1 in the replacement its group);
// cty's replace only replaces literally.
var replaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}, {Name: "substr", Type: cty.String}, {Name: "replace", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && strings.HasPrefix(substr, "/") && strings.HasSuffix(substr, "/") {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.NilVal, function.NewArgError(1, err)
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})
