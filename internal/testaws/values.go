// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// object reads a known, non-null object value into its attributes.
func object(v tftypes.Value) (map[string]tftypes.Value, bool) {
	if v.IsNull() || !v.IsKnown() {
		return nil, false
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		return nil, false
	}
	return m, true
}

// elements reads a known, non-null list or set.
func elements(v tftypes.Value) ([]tftypes.Value, bool) {
	if v.IsNull() || !v.IsKnown() {
		return nil, false
	}
	var es []tftypes.Value
	if err := v.As(&es); err != nil {
		return nil, false
	}
	return es, true
}

func stringOf(v tftypes.Value) string {
	var s string
	if v.IsKnown() && !v.IsNull() && v.Type().Is(tftypes.String) {
		_ = v.As(&s)
	}
	return s
}

func stringValue(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func stringMap(v tftypes.Value) map[string]string {
	var m map[string]tftypes.Value
	if v.IsNull() || !v.IsKnown() || v.As(&m) != nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		out[k] = stringOf(e)
	}
	return out
}

func stringMapValue(m map[string]string) tftypes.Value {
	vs := make(map[string]tftypes.Value, len(m))
	for k, s := range m {
		vs[k] = stringValue(s)
	}
	return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, vs)
}

// stringList reads a list or set of strings, sorted.
func stringList(v tftypes.Value) []string {
	es, _ := elements(v)
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, stringOf(e))
	}
	sort.Strings(out)
	return out
}

// withDefaults plans the SDKv2 Defaults of b, and of its nested blocks,
// for the attributes the configuration leaves null.
func (b block) withDefaults(v tftypes.Value) tftypes.Value {
	m, ok := object(v)
	if !ok {
		return v
	}
	for name, a := range b.attrs {
		if a.def != nil && m[name].IsNull() {
			m[name] = defaultValue(a.def)
		}
	}
	for name, n := range b.blocks {
		m[name] = n.eachObject(m[name], n.withDefaults)
	}
	return tftypes.NewValue(v.Type(), m)
}

// keepPrior plans the prior value of each computed attribute that the
// configuration leaves null and the plan has unknown, in b and in the
// objects of its list and single blocks (set elements have no identity to
// pair them by): on update SDKv2 keeps what the provider computed before.
func (b block) keepPrior(plan, config, prior tftypes.Value) tftypes.Value {
	pm, ok := object(plan)
	sm, known := object(prior)
	if !ok || !known {
		return plan
	}
	cm, _ := object(config)
	for name, a := range b.attrs {
		if a.computed && !pm[name].IsKnown() && (cm == nil || cm[name].IsNull()) {
			pm[name] = sm[name]
		}
	}
	for name, n := range b.blocks {
		switch n.nesting {
		case nestSingle:
			pm[name] = n.keepPrior(pm[name], cm[name], sm[name])
		case nestList:
			pe, ok := elements(pm[name])
			se, known := elements(sm[name])
			if !ok || !known {
				continue
			}
			ce, _ := elements(cm[name])
			for i := range pe {
				if i < len(se) {
					var c tftypes.Value
					if i < len(ce) {
						c = ce[i]
					}
					pe[i] = n.keepPrior(pe[i], c, se[i])
				}
			}
			pm[name] = tftypes.NewValue(pm[name].Type(), pe)
		}
	}
	return tftypes.NewValue(plan.Type(), pm)
}

// eachObject applies f to each object of a nested block's value.
func (n nestedBlock) eachObject(v tftypes.Value, f func(tftypes.Value) tftypes.Value) tftypes.Value {
	if n.nesting == nestSingle {
		return f(v)
	}
	es, ok := elements(v)
	if !ok {
		return v
	}
	out := make([]tftypes.Value, len(es))
	for i, e := range es {
		out[i] = f(e)
	}
	return tftypes.NewValue(v.Type(), out)
}

// known replaces what is still unknown after apply with a zero value of
// its type: AWS returns a value for every computed attribute.
func known(v tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		return zero(v.Type()), nil
	})
}

func zero(t tftypes.Type) tftypes.Value {
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, "")
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, big.NewFloat(0))
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, false)
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}):
		return tftypes.NewValue(t, []tftypes.Value{})
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{})
	}
	return tftypes.NewValue(t, nil)
}
