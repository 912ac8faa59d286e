// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The catalog describes every formula once: its inputs (name, unit, range,
// default, whole number or not, required or not), its outputs (name, kind,
// when null) and its compute. The provider's data sources and functions,
// the linter's evaluation of queuecap data sources and provider function
// calls, and `queuecap size --format json` are all built from it, so an
// attribute cannot exist in one place and be missing from another.

// Kind is the kind of a catalog value.
type Kind int

const (
	KindNumber Kind = iota
	KindBool
	KindString
	KindList
	KindMap
	KindObject
)

// Type is the type of an input or output.
type Type struct {
	Kind Kind
	// Whole is true for a number that is a whole number: a count, or
	// whole seconds.
	Whole bool
	// Elem is the element type of a list or a map.
	Elem *Type
	// Attrs are an object's attributes, in documentation order.
	Attrs []Attr
}

// Attr is one attribute of an object type.
type Attr struct {
	Name        string
	Type        Type
	Description string
}

// The scalar types.
var (
	Number = Type{Kind: KindNumber}
	Whole  = Type{Kind: KindNumber, Whole: true}
	Bool   = Type{Kind: KindBool}
	String = Type{Kind: KindString}
)

// ListOf is a list of elem.
func ListOf(elem Type) Type { return Type{Kind: KindList, Elem: &elem} }

// MapOf is a map of elem.
func MapOf(elem Type) Type { return Type{Kind: KindMap, Elem: &elem} }

// ObjectOf is an object with these attributes.
func ObjectOf(attrs ...Attr) Type { return Type{Kind: KindObject, Attrs: attrs} }

// Range bounds a number input. Max is +Inf for no upper bound.
type Range struct {
	Min, Max         float64
	MinOpen, MaxOpen bool // the bound itself is excluded
}

// The ranges inputs use.
var (
	AtLeastZero  = Range{Min: 0, Max: math.Inf(1)}
	AtLeastOne   = Range{Min: 1, Max: math.Inf(1)}
	AboveZero    = Range{Min: 0, MinOpen: true, Max: math.Inf(1)}
	Fraction     = Range{Min: 0, Max: 1}
	OpenFraction = Range{Min: 0, MinOpen: true, Max: 1, MaxOpen: true}
)

// Between is the closed range [lo, hi].
func Between(lo, hi float64) Range { return Range{Min: lo, Max: hi} }

// Contains reports whether v lies within the range.
func (r Range) Contains(v float64) bool {
	return !(v < r.Min || (r.MinOpen && v == r.Min) || v > r.Max || (r.MaxOpen && v == r.Max))
}

// Rule states the range as a phrase after "must be": "at least 0",
// "greater than 0", "between 0 and 1".
func (r Range) Rule() string {
	switch {
	case r.MinOpen && r.MaxOpen:
		return fmt.Sprintf("greater than %s and less than %s", formatNumber(r.Min), formatNumber(r.Max))
	case !math.IsInf(r.Max, 1):
		return fmt.Sprintf("between %s and %s", formatNumber(r.Min), formatNumber(r.Max))
	case r.MinOpen:
		return "greater than " + formatNumber(r.Min)
	default:
		return "at least " + formatNumber(r.Min)
	}
}

// Input is one argument of a formula.
type Input struct {
	Name string
	Type Type
	// Unit is what the number counts: "messages per second", "seconds",
	// "messages", "a fraction", "consumers". Empty for strings.
	Unit string
	// Range bounds a number, or each number of a list.
	Range    Range
	Required bool
	// Default is the value used when the input is not set: a float64 or a
	// string; nil for none (the input is then absent, which a formula may
	// read as "not given").
	Default any
	// OneOf lists a string input's allowed values.
	OneOf []string
	// MinItems is a list input's least length.
	MinItems int
	// DefaultWith names the input without which the default does not
	// apply (the input stays null): a forecast's step needs a forecast.
	DefaultWith string
	// Computed is true for an input the formula computes when it is not
	// set, returning the value it used among its outputs' values, so
	// that state holds it (drain's completion_rate).
	Computed bool
	// PassThrough marks a string that only labels the result (a queue's
	// name in metric dimensions): an object function given it unknown
	// still computes, with Placeholder(name) in its place, and every
	// string of the result holding the placeholder is unknown.
	PassThrough bool
	// Description says what the input is; Note follows the range and
	// default, for how it interacts with other inputs.
	Description string
	Note        string
}

// placeholderMark brackets a PassThrough input's placeholder; no name a
// configuration gives holds these bytes.
const placeholderMark = "\x00queuecap-unknown\x00"

// Placeholder is what stands for an unknown PassThrough input while its
// formula computes.
func Placeholder(name string) string { return placeholderMark + name + placeholderMark }

// HoldsPlaceholder reports whether a result string was built from an
// unknown PassThrough input, and so is itself unknown.
func HoldsPlaceholder(s string) bool { return strings.Contains(s, placeholderMark) }

// Doc is the input's full description: what it is, its range and default,
// then its note. Every description of the input, in the provider's schema
// and docs, its functions and the CLI, is this text.
func (in Input) Doc() string {
	var b strings.Builder
	b.WriteString(in.Description)
	switch in.Type.Kind {
	case KindNumber:
		rule := in.Range.Rule()
		if in.Type.Whole {
			rule = "a whole number " + strings.Replace(strings.Replace(strings.Replace(rule, "between ", "from ", 1), " and ", " to ", 1), "at least", "of at least", 1)
		}
		b.WriteString(" " + strings.ToUpper(rule[:1]) + rule[1:])
	case KindList:
		fmt.Fprintf(&b, " At least %d entr%s; every entry %s", in.MinItems, plural(in.MinItems, "y", "ies"), in.Range.Rule())
	case KindString:
		if len(in.OneOf) > 0 {
			quoted := make([]string, len(in.OneOf))
			for i, v := range in.OneOf {
				quoted[i] = "`\"" + v + "\"`"
			}
			b.WriteString(" One of " + strings.Join(quoted, ", "))
		}
	}
	if in.Default != nil {
		if in.Type.Kind == KindString && len(in.OneOf) == 0 {
			b.WriteString(" Default")
		} else {
			b.WriteString("; default")
		}
		b.WriteString(" `" + formatDefault(in.Default) + "`")
	}
	if in.Type.Kind != KindString || len(in.OneOf) > 0 || in.Default != nil {
		b.WriteString(".")
	}
	if in.Note != "" {
		b.WriteString(" " + in.Note)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func formatDefault(v any) string {
	switch d := v.(type) {
	case float64:
		return strconv.FormatFloat(d, 'f', -1, 64)
	case string:
		return strconv.Quote(d)
	}
	return fmt.Sprint(v)
}

// Output is one result of a formula.
type Output struct {
	Name string
	Type Type
	// Description says what it is, its unit and when it is null.
	Description string
}

// Args are a formula's inputs after defaults: float64 for numbers (whole
// ones included), string, []float64 for lists. An input that is not set
// and has no default is absent.
type Args map[string]any

// Num is a number input, 0 when absent.
func (a Args) Num(name string) float64 {
	f, _ := a[name].(float64)
	return f
}

// Has reports whether an input is set.
func (a Args) Has(name string) bool { _, ok := a[name]; return ok }

// Count is a whole-number input as an int64 (validated beforehand).
func (a Args) Count(name string) int64 { return int64(a.Num(name)) }

// Str is a string input, "" when absent.
func (a Args) Str(name string) string {
	s, _ := a[name].(string)
	return s
}

// Nums is a list input.
func (a Args) Nums(name string) []float64 {
	l, _ := a[name].([]float64)
	return l
}

// Values are a formula's outputs: float64, int64, bool, string, []any,
// map[string]any (objects and maps), or nil for null.
type Values map[string]any

// Warning is something a user should know about a result that is not an
// error: the provider reports it as a warning diagnostic, the CLI prints it.
type Warning struct {
	Summary string
	Detail  string
}

// Result is what a formula computes.
type Result struct {
	Values   Values
	Warnings []Warning
}

// Formula is one catalog entry: the data source queuecap_<Name>, the
// object function that returns the same, and what the linter evaluates.
type Formula struct {
	Name        string
	Description string
	// Answers is what the data source answers, a phrase for the table of
	// data sources and functions in README.md.
	Answers string
	Inputs  []Input
	Outputs []Output
	// Rules are the checks across inputs (one input requires another).
	Rules   []Rule
	Compute func(Args) (Result, error)
}

// Input returns the named input, or nil.
func (f *Formula) Input(name string) *Input {
	for i := range f.Inputs {
		if f.Inputs[i].Name == name {
			return &f.Inputs[i]
		}
	}
	return nil
}

// Output returns the named output, or nil.
func (f *Formula) Output(name string) *Output {
	for i := range f.Outputs {
		if f.Outputs[i].Name == name {
			return &f.Outputs[i]
		}
	}
	return nil
}

// ObjectType is the formula's whole result as one object: its inputs
// (with defaults filled in) then its outputs, as the data source's state
// and the object function's result hold them.
func (f *Formula) ObjectType() Type {
	attrs := make([]Attr, 0, len(f.Inputs)+len(f.Outputs))
	for _, in := range f.Inputs {
		attrs = append(attrs, Attr{Name: in.Name, Type: in.Type, Description: in.Doc()})
	}
	for _, out := range f.Outputs {
		attrs = append(attrs, Attr(out))
	}
	return ObjectOf(attrs...)
}

// Presence is what a rule across inputs can know of the configuration
// before values are known: whether an input is set, and its number when
// it is known.
type Presence interface {
	// IsSet is whether the input is set: to a value, or to one not yet
	// known, which may still turn out null (a variable that defaults to
	// null, try(…, null)) when `terraform validate` asks.
	IsSet(name string) bool
	// IsKnown is whether IsSet's answer is final: the input is unset, or
	// set to a known value.
	IsKnown(name string) bool
	// Number is the input's value and whether it is known.
	Number(name string) (float64, bool)
}

// surelySet is whether an input is set to a known value.
func surelySet(p Presence, name string) bool { return p.IsSet(name) && p.IsKnown(name) }

// Rule is a check across inputs. Check returns the input at fault and why,
// or nil; it judges only what is known: an input not known yet may be
// null or not, so a rule that depends on it is decided at plan, when it
// is known.
type Rule interface {
	Check(p Presence) *InputError
	// Doc states the rule for documentation.
	Doc() string
}

// RequiredWhenPositive makes Required mandatory once Trigger is above 0:
// a backlog needs a time to clear it in.
type RequiredWhenPositive struct{ Trigger, Required, Why string }

func (r RequiredWhenPositive) Check(p Presence) *InputError {
	v, known := p.Number(r.Trigger)
	if !p.IsSet(r.Trigger) || !known || v <= 0 || p.IsSet(r.Required) {
		return nil
	}
	return &InputError{Field: r.Required, Reason: fmt.Sprintf("is required when %s is greater than 0 (it is %s): %s", r.Trigger, formatNumber(v), r.Why)}
}

func (r RequiredWhenPositive) Doc() string {
	return fmt.Sprintf("`%s` is required when `%s` is greater than 0", r.Required, r.Trigger)
}

// AlsoRequires makes Input valid only together with Needs.
type AlsoRequires struct{ Input, Needs string }

func (r AlsoRequires) Check(p Presence) *InputError {
	if surelySet(p, r.Input) && !p.IsSet(r.Needs) {
		return &InputError{Field: r.Input, Reason: "requires " + r.Needs}
	}
	return nil
}

func (r AlsoRequires) Doc() string { return fmt.Sprintf("`%s` requires `%s`", r.Input, r.Needs) }

// OneForm requires exactly one of several forms, each a set of inputs
// given together: a completion rate, or consumers with their rate.
type OneForm struct {
	Forms [][]string
	What  string // "the fleet's completion rate"
	Noun  string // "completion rate", for "No completion rate is set"
}

func (r OneForm) phrase(code bool) string {
	parts := make([]string, len(r.Forms))
	for i, form := range r.Forms {
		names := slices.Clone(form)
		if code {
			for j := range names {
				names[j] = "`" + names[j] + "`"
			}
		}
		parts[i] = strings.Join(names, " together with ")
	}
	return "give " + r.What + " either as " + strings.Join(parts, ", or as ") + ", not both"
}

func (r OneForm) Check(p Presence) *InputError {
	given, maybeAny := -1, false
	for i, form := range r.Forms {
		sure, maybe := 0, 0
		for _, name := range form {
			if surelySet(p, name) {
				sure++
			}
			if p.IsSet(name) {
				maybe++
			}
		}
		maybeAny = maybeAny || maybe > 0
		switch {
		case maybe == 0:
			continue
		case maybe < len(form):
			// A name of the form is surely unset: an error once another
			// is surely set.
			if sure == 0 {
				continue
			}
			for _, name := range form {
				if !p.IsSet(name) {
					return &InputError{Field: firstSet(p, form), Reason: "is set without " + name + ": " + r.phrase(false)}
				}
			}
		case sure < len(form):
			continue // some not known yet: decided at plan
		case given >= 0:
			return &InputError{Field: r.Forms[given][0], Reason: "is set together with " + strings.Join(form, " and ") + ": " + r.phrase(false)}
		}
		given = i
	}
	if !maybeAny {
		return &InputError{Reason: "No " + r.Noun + " is set: " + r.phrase(false)}
	}
	return nil
}

func firstSet(p Presence, names []string) string {
	for _, n := range names {
		if surelySet(p, n) {
			return n
		}
	}
	return names[0]
}

func (r OneForm) Doc() string { return r.phrase(true) }

// Function is a provider function: positional number arguments, each an
// input of the catalog, and one number result; or, with Object set, the
// whole formula as one object in and one object out.
type Function struct {
	Name, Summary, Description string
	Params                     []Input
	Result                     Output
	// Compute returns the result: float64, int64, or nil for null.
	Compute func(Args) (any, error)
	// Object is the formula an object function takes and returns.
	Object *Formula
	// Of is the formula whose data source returns what a positional
	// function returns; nil for an object function (Object is).
	Of *Formula
}

// Formula is the formula whose data source returns what fn returns.
func (fn *Function) Formula() *Formula {
	if fn.Object != nil {
		return fn.Object
	}
	return fn.Of
}

// view is a function that returns one output of a formula for some of its
// inputs, positionally; the other inputs take their defaults, or the fixed
// values given. It returns exactly what the data source returns.
func view(f *Formula, name, summary, description string, params []string, result string, fixed Args) *Function {
	fn := &Function{Name: name, Summary: summary, Description: description, Of: f}
	for _, p := range params {
		in := *f.Input(p)
		// A positional argument is always given: the data source's notes
		// on how its optional arguments combine do not apply.
		in.Required, in.Default, in.Note = true, nil, ""
		fn.Params = append(fn.Params, in)
	}
	fn.Result = *f.Output(result)
	fn.Compute = func(a Args) (any, error) {
		args := f.WithDefaults(a)
		for k, v := range fixed {
			args[k] = v
		}
		r, err := f.Compute(args)
		if err != nil {
			return nil, err
		}
		return r.Values[result], nil
	}
	return fn
}

// WithDefaults copies the arguments, adding each unset input's default.
func (f *Formula) WithDefaults(a Args) Args {
	out := make(Args, len(f.Inputs))
	for k, v := range a {
		out[k] = v
	}
	for _, in := range f.Inputs {
		if _, ok := out[in.Name]; !ok && in.Default != nil && (in.DefaultWith == "" || out.Has(in.DefaultWith)) {
			out[in.Name] = in.Default
		}
	}
	return out
}

// bigMaxCount is MaxCount as a big.Float, for CheckNumber; never written.
var bigMaxCount = new(big.Float).SetInt64(MaxCount)

// Writable reports whether v's digits are few enough to write out, its
// binary exponent within ±1100 (about 1e±331): beyond it NumberText writes
// the exponent instead, as writing the digits takes as long as there are.
func Writable(v *big.Float) bool {
	exp := v.MantExp(nil)
	return exp > -1100 && exp < 1100
}

// NumberText writes a number for a message: a whole number below 2^128
// (39 digits) in full (a Terraform number may hold more digits than a
// float64, and 9007199254740993 must not read as 9007199254740992), any
// other as %g does with 10 significant digits. big.Float writes every digit of a
// number before rounding it, which for 1e100000000 takes minutes and a
// gigabyte; a number beyond float64's range is written from its binary
// exponent instead.
func NumberText(v *big.Float) string {
	exp := v.MantExp(nil)
	switch {
	case v.IsInf():
		return v.String()
	case v.IsInt() && exp <= 128:
		return v.Text('f', 0)
	case Writable(v): // about 1e±331: a few hundred digits
		return v.Text('g', 10)
	}
	mant := new(big.Float)
	v.MantExp(mant)
	m, _ := mant.Float64()
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	// m × 2^exp = 10^l: the exponent is l's whole part, the digits 10 to
	// its fraction (whose last digits float64 cannot hold: 6 are kept).
	l := math.Log10(m) + float64(exp)*math.Log10(2)
	e := math.Floor(l)
	d, _ := strconv.ParseFloat(strconv.FormatFloat(math.Pow(10, l-e), 'g', 6, 64), 64)
	if d >= 10 {
		d, e = d/10, e+1
	}
	return fmt.Sprintf("%s%se%+d", sign, strconv.FormatFloat(d, 'g', 6, 64), int64(e))
}

// maxQuoted is how many bytes of a rejected string a message quotes.
const maxQuoted = 64

// Quote is strconv.Quote of a string a message rejects, cut after
// maxQuoted bytes: a value may be megabytes long.
func Quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// CheckNumber validates one number of an input: finite, within the range,
// and whole when the input counts.
func (in *Input) CheckNumber(v *big.Float) (float64, *InputError) {
	// The text is written only for a message: a valid number, the common
	// case, costs no allocation.
	text := func() string { return NumberText(v) }
	f, acc := v.Float64()
	if v.IsInf() || math.IsInf(f, 0) || (f == 0 && acc != big.Exact && v.Sign() != 0) {
		return 0, &InputError{Field: in.Name, Reason: "must be a finite number within the float64 range (magnitude between about 4.9e-324 and 1.8e308), got: " + text()}
	}
	if in.Type.Whole || (in.Type.Kind == KindList && in.Type.Elem.Whole) {
		if !v.IsInt() {
			return 0, &InputError{Field: in.Name, Reason: "must be a whole number, got: " + text()}
		}
		if !in.Range.Contains(f) {
			return 0, &InputError{Field: in.Name, Reason: "value must be " + in.Range.Rule() + ", got: " + text()}
		}
		if v.Cmp(bigMaxCount) > 0 {
			return 0, &InputError{Field: in.Name, Reason: fmt.Sprintf("value must be at most %d (2^53, the largest count a float64 holds exactly), got: %s", int64(MaxCount), text())}
		}
		return f, nil
	}
	if !in.Range.Contains(f) {
		return 0, &InputError{Field: in.Name, Reason: "value must be " + in.Range.Rule() + ", got: " + strconv.FormatFloat(f, 'g', -1, 64)}
	}
	return f, nil
}

// CheckString validates a string input.
func (in *Input) CheckString(s string) *InputError {
	if len(in.OneOf) > 0 && !slices.Contains(in.OneOf, s) {
		return &InputError{Field: in.Name, Reason: fmt.Sprintf("value must be one of: [%s], got: %s", quoteAll(in.OneOf), Quote(s))}
	}
	return nil
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " ")
}

// Decimal is the shortest decimal that v rounds to at 15 significant
// digits: 0.28000000000000003 is "0.28", 1e6 is "1000000". Every number
// queuecap reports leaves it in this form, so that 0.28 × 100 is 28 in
// Terraform and 0.1 × 3 is 0.3 in a finding.
func Decimal(v float64) string {
	s := strconv.FormatFloat(v, 'g', 15, 64)
	if strings.ContainsAny(s, "e") {
		// Exponent form only for magnitudes Terraform would print so.
		if f, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(f) < 1e21 && math.Abs(f) >= 1e-6 {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return s
}

// GroupDigits puts thousands separators into the whole part of a decimal
// number already written: 1234567.5 → 1,234,567.5. A number in exponent
// form is left as it is.
func GroupDigits(s string) string {
	if strings.ContainsAny(s, "eE") {
		return s
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}

// Clean is v rounded to 15 significant digits, as Decimal writes it.
func Clean(v float64) float64 {
	f, err := strconv.ParseFloat(Decimal(v), 64)
	if err != nil {
		return v
	}
	return f
}

// Bind checks a formula's arguments as the provider does at plan: every
// number within its input's range, whole where it counts, strings among
// their allowed values, the rules across inputs, and required inputs set.
// It returns the arguments with defaults filled in.
func (f *Formula) Bind(raw map[string]any) (Args, error) {
	args := make(Args, len(raw))
	for name, v := range raw {
		in := f.Input(name)
		if in == nil {
			return nil, &InputError{Field: name, Reason: "is not an argument of " + f.Name}
		}
		switch x := v.(type) {
		case float64:
			if _, err := in.CheckNumber(big.NewFloat(x)); err != nil {
				return nil, err
			}
		case string:
			if err := in.CheckString(x); err != nil {
				return nil, err
			}
		case []float64:
			if len(x) < in.MinItems {
				return nil, &InputError{Field: name, Reason: fmt.Sprintf("list must contain at least %d elements, got: %d", in.MinItems, len(x))}
			}
			for _, e := range x {
				if _, err := in.CheckNumber(big.NewFloat(e)); err != nil {
					return nil, err
				}
			}
		}
		args[name] = v
	}
	for _, in := range f.Inputs {
		if in.Required && !args.Has(in.Name) {
			return nil, &InputError{Field: in.Name, Reason: "is required"}
		}
	}
	for _, r := range f.Rules {
		if err := r.Check(argsPresence(args)); err != nil {
			return nil, err
		}
	}
	return f.WithDefaults(args), nil
}

type argsPresence Args

func (p argsPresence) IsSet(name string) bool { _, ok := p[name]; return ok }

func (p argsPresence) IsKnown(string) bool { return true }

func (p argsPresence) Number(name string) (float64, bool) {
	f, ok := p[name].(float64)
	return f, ok
}

// Run binds the arguments and computes the formula.
func (f *Formula) Run(raw map[string]any) (Result, Args, error) {
	args, err := f.Bind(raw)
	if err != nil {
		return Result{}, nil, err
	}
	r, err := f.Compute(args)
	return r, args, err
}
