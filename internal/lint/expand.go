// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// maxInstances bounds the instances of one resource or module call the
// linter expands; a count beyond it is taken as not known.
const maxInstances = 10000

// repetition is one instance of a resource or module call with count or
// for_each: count.index, or each.key and each.value.
type repetition struct {
	key     cty.Value // a number for count, a string for for_each
	value   cty.Value // each.value; cty.NilVal with count
	isCount bool
	// forEach is the for_each it is an instance of, which says why
	// each.value is not known (unknownBecause); nil for count.
	forEach hcl.Expression
}

// suffix is the instance key as Terraform writes it in an address: [0] or
// ["orders"].
func (r *repetition) suffix() string {
	if r == nil {
		return ""
	}
	if r.isCount {
		f, _ := r.key.AsBigFloat().Int64()
		return fmt.Sprintf("[%d]", f)
	}
	return "[" + strconv.Quote(r.key.AsString()) + "]"
}

// vars are count and each as an expression in the instance sees them.
func (r *repetition) vars() (count, each cty.Value) {
	if r == nil {
		return cty.DynamicVal, cty.DynamicVal
	}
	if r.isCount {
		return cty.ObjectVal(map[string]cty.Value{"index": r.key}), cty.DynamicVal
	}
	return cty.DynamicVal, cty.ObjectVal(map[string]cty.Value{"key": r.key, "value": r.value})
}

// expansion is what count or for_each makes of a block: its instances
// when they are known.
type expansion struct {
	repeated  bool         // the block has count or for_each
	count     bool         // by count, not for_each
	known     bool         // the instances are known
	instances []repetition // in Terraform's order: by index, or by key
	expr      hcl.Expression
	why       string // why they are not known
}

// meta names the meta-argument: count or for_each.
func (e expansion) meta() string {
	if e.count {
		return "count"
	}
	return "for_each"
}

// expand evaluates the count or for_each of the block at local address
// addr in this instance. A value Terraform rejects is an error, and the
// block has no instances, as Terraform plans none.
func (in *instance) expand(addr string, count, forEach hcl.Expression) expansion {
	invalid := func(e expansion, meta, reason string) expansion {
		in.reject(e.expr.Range(), "Invalid "+meta+" argument", fmt.Sprintf("the %s of %s %s", meta, addr, reason))
		e.known, e.why = true, ""
		return e
	}
	switch {
	case count != nil:
		e := expansion{repeated: true, count: true, expr: count}
		v := in.evalWith(count, nil)
		n, ok := number(v)
		switch {
		case !ok && isKnownValue(v):
			return invalid(e, "count", "is not a number: a whole number of at least 0 is required")
		case !ok:
			e.why = in.unknownWhy(count)
		case n < 0 || n != math.Trunc(n):
			return invalid(e, "count", fmt.Sprintf("is %v; it must be a whole number of at least 0", n))
		case n > maxInstances:
			e.why = fmt.Sprintf("is %v, more instances than the linter expands (%d)", n, maxInstances)
		case !in.root.limits.countInstances(int(n), count.Range()):
			e.why = "makes too many instances"
		default:
			e.known = true
			for i := int64(0); i < int64(n); i++ {
				e.instances = append(e.instances, repetition{key: cty.NumberIntVal(i), isCount: true})
			}
		}
		return e
	case forEach != nil:
		e := expansion{repeated: true, expr: forEach}
		v := in.evalWith(forEach, nil)
		plain, marks := v.Unmark()
		ty := plain.Type()
		switch {
		case plain.IsKnown() && plain.IsNull():
			return invalid(e, "for_each", "is null; a map, an object or a set of strings is required")
		case !plain.IsKnown():
			e.why = in.unknownWhy(forEach)
			return e
		case !ty.IsMapType() && !ty.IsObjectType() && !ty.IsSetType():
			return invalid(e, "for_each", "is a "+ty.FriendlyName()+"; a map, an object or a set of strings is required")
		case ty.IsSetType() && ty.ElementType() != cty.String && ty.ElementType() != cty.DynamicPseudoType:
			return invalid(e, "for_each", "is a set of "+ty.ElementType().FriendlyName()+" values; a map, an object or a set of strings is required")
		case !plain.IsWhollyKnown() && ty.IsSetType():
			e.why = "holds values not known before apply"
			if why := in.unknownBecause(forEach); why != "" {
				e.why += ": it " + why
			}
			return e
		case plain.LengthInt() > maxInstances:
			e.why = fmt.Sprintf("has %d elements, more instances than the linter expands (%d)", plain.LengthInt(), maxInstances)
			return e
		case !in.root.limits.countInstances(plain.LengthInt(), forEach.Range()):
			e.why = "makes too many instances"
			return e
		}
		for it := plain.ElementIterator(); it.Next(); {
			k, val := it.Element()
			k, _ = k.Unmark()
			if ty.IsSetType() {
				s, _ := val.Unmark()
				if s.Type() != cty.String || s.IsNull() {
					return invalid(e, "for_each", "holds a null or an element that is not a string; a set of strings is required")
				}
				k = s
			}
			e.instances = append(e.instances, repetition{key: k, value: val.WithMarks(marks), forEach: forEach})
		}
		e.known = true
		return e
	}
	return expansion{}
}

// isKnownValue reports whether v is known through and through.
func isKnownValue(v cty.Value) bool {
	plain, _ := v.UnmarkDeep()
	return plain.IsWhollyKnown()
}

// evalWith evaluates an expression as one instance of a repeated block.
func (in *instance) evalWith(expr hcl.Expression, rep *repetition) cty.Value {
	outer := in.rep
	in.rep = rep
	defer func() { in.rep = outer }()
	return in.eval(expr)
}

// repeatedValue is what a reference to a repeated resource or module call
// evaluates to: a tuple (count) or object (for_each) of its instances'
// values, or, when the instances are not known, unknown carrying the
// block's origin.
func repeatedValue(e expansion, instance func(rep *repetition) cty.Value, unknown cty.Value) cty.Value {
	if !e.known {
		return unknown
	}
	if e.count {
		if len(e.instances) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(e.instances))
		for i := range e.instances {
			vals[i] = instance(&e.instances[i])
		}
		return cty.TupleVal(vals)
	}
	if len(e.instances) == 0 {
		return cty.EmptyObjectVal
	}
	attrs := make(map[string]cty.Value, len(e.instances))
	for i := range e.instances {
		attrs[e.instances[i].key.AsString()] = instance(&e.instances[i])
	}
	return cty.ObjectVal(attrs)
}

// unknownWhy is "is not known before apply", with the reason when a
// reference explains it.
func (in *instance) unknownWhy(expr hcl.Expression) string {
	if why := in.unknownBecause(expr); why != "" {
		return why
	}
	return "is not known before apply"
}
