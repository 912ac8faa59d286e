// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"slices"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// commonOrder is the one order of the arguments several functions take,
// as docs/index.md states it: surplus(2500, 90, 28) must not read 2,500
// as consumers.
var commonOrder = []string{"arrival_rate", "per_consumer_rate", "consumers", "completion_rate"}

// TestFunctionArgumentOrder: every positional function takes the common
// arguments it has first, in commonOrder, then its own.
func TestFunctionArgumentOrder(t *testing.T) {
	for _, fn := range capacity.Functions {
		if fn.Object != nil {
			continue // one object argument
		}
		var names []string
		for _, p := range fn.Params {
			names = append(names, p.Name)
		}
		var want []string
		for _, c := range commonOrder {
			if slices.Contains(names, c) {
				want = append(want, c)
			}
		}
		if !slices.Equal(names[:len(want)], want) {
			t.Errorf("%s(%v): the common arguments must come first, as %v", fn.Name, names, want)
		}
	}
}

// TestCatalogNamesEveryFaceOfAFormula: every function says which data
// source returns what it returns, and every formula says what it answers,
// for the README's table (generated from them).
func TestCatalogNamesEveryFaceOfAFormula(t *testing.T) {
	for _, fn := range capacity.Functions {
		if fn.Formula() == nil {
			t.Errorf("function %s names no formula (Of or Object)", fn.Name)
		}
	}
	for _, f := range capacity.Formulas {
		if f.Answers == "" {
			t.Errorf("formula %s has no Answers", f.Name)
		}
	}
}
