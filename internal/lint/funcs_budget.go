// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"errors"
	"fmt"

	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	"gopkg.in/yaml.v3"
)

// budgetedFunctions are the functions whose result can be far larger than
// their arguments: setproduct(range(1000), range(1000), range(1000)) is a
// billion elements, and a YAML document a few hundred bytes long can
// alias its way to as many. Each measures what it would build first, and
// the elements they build in one root module count against one budget,
// maxValueElements: a function called in a for expression spends it
// every time.
func (root *instance) budgetedFunctions() map[string]function.Function {
	l := root.limits
	return map[string]function.Function{
		"setproduct": budgeted(stdlib.SetProductFunc, func(args []cty.Value) error {
			return l.spend(productSize(args), "setproduct")
		}),
		"jsondecode": budgeted(stdlib.JSONDecodeFunc, func(args []cty.Value) error {
			s, ok := knownBytes(args[0])
			if !ok {
				return nil
			}
			if _, why := jsonNesting(s, false, maxNesting); why != fits {
				return l.deeper("jsondecode")
			}
			return l.spend(jsonElements(s), "jsondecode")
		}),
		"yamldecode": budgeted(ctyyaml.YAMLDecodeFunc, func(args []cty.Value) error {
			s, ok := knownBytes(args[0])
			if !ok {
				return nil
			}
			n, depth, err := yamlSize(s)
			if err != nil {
				l.exceed(l.at, "Value too large", err.Error()) // not known to fit: a limit, not Terraform's error
				return err
			}
			if depth > maxNesting {
				return l.deeper("yamldecode")
			}
			return l.spend(n, "yamldecode")
		}),
	}
}

// budgeted is fn, with check run on its arguments before anything is
// built: in the type check, where jsondecode and yamldecode already
// decode.
func budgeted(fn function.Function, check func(args []cty.Value) error) function.Function {
	return function.New(&function.Spec{
		Params:   fn.Params(),
		VarParam: fn.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			if err := check(args); err != nil {
				return cty.NilType, err
			}
			return fn.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) { return fn.Call(args) },
	})
}

// spend counts n elements built against the root module's budget.
func (l *evalLimits) spend(n int, what string) error {
	l.elements += n
	if l.elements <= maxValueElements {
		return nil
	}
	msg := fmt.Sprintf("%s would build more than the %d elements the values functions build in one root module may hold", what, maxValueElements)
	l.exceed(l.at, "Value too large", msg)
	return errors.New(msg)
}

// deeper stops the root module's evaluation at a function that would
// build a value nested too deeply.
func (l *evalLimits) deeper(what string) error {
	msg := fmt.Sprintf("%s would build a value nested more than %d levels deep", what, maxNesting)
	l.exceed(l.at, "Value nests too deep", msg)
	return errors.New(msg)
}

// knownBytes is a known, non-null string argument's bytes.
func knownBytes(v cty.Value) ([]byte, bool) {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return nil, false
	}
	return []byte(v.AsString()), true
}

// productSize is how many elements setproduct would build of its known
// arguments: each tuple of the product and its elements, counted up to
// just past the budget.
func productSize(args []cty.Value) int {
	product := 1
	for _, a := range args {
		a, _ = a.Unmark()
		if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
			return 0
		}
		if product = product * a.LengthInt(); product > maxValueElements {
			return maxValueElements + 1
		}
	}
	return product * (len(args) + 1)
}

// jsonElements is about how many values a JSON text holds: its arrays and
// objects and one more per comma. It is at most the text's length.
func jsonElements(src []byte) int {
	n := 1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			i = jsonStringEnd(src, i) - 1
		case '[', '{', ',':
			n++
		}
	}
	return n
}

// yamlSize is how many nodes a YAML document holds once its aliases are
// expanded, and how deeply they nest; each anchor is measured once. A
// document yaml.v3 cannot read is one the linter cannot measure: an error
// when it may hold an alias.
func yamlSize(src []byte) (nodes, depth int, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		if bytes.IndexByte(src, '*') < 0 {
			return 0, 0, nil // no alias: no larger than its text
		}
		return 0, 0, fmt.Errorf("cannot measure this YAML before decoding it: %w", err)
	}
	type size struct{ nodes, depth int }
	measured := map[*yaml.Node]size{}
	var measure func(n *yaml.Node) size
	measure = func(n *yaml.Node) size {
		if s, ok := measured[n]; ok {
			return s
		}
		measured[n] = size{} // an alias inside its own anchor counts nothing more
		s := size{nodes: 1}
		children := n.Content
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			children = []*yaml.Node{n.Alias}
			s.nodes = 0
		}
		for _, c := range children {
			cs := measure(c)
			s.nodes = min(s.nodes+cs.nodes, maxValueElements+1)
			s.depth = max(s.depth, cs.depth)
		}
		s.depth++
		measured[n] = s
		return s
	}
	s := measure(&doc)
	return s.nodes, s.depth, nil
}
