// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"reflect"
	"testing"
)

// TestRateFields holds rateFields to Rates: one entry per field, in field
// order, each name reaching its own field, so a rate added to one and not
// the other fails here.
func TestRateFields(t *testing.T) {
	typ := reflect.TypeFor[Rates]()
	if len(rateFields) != typ.NumField() {
		t.Fatalf("%d rate names for %d fields of Rates", len(rateFields), typ.NumField())
	}
	var r Rates
	for i, f := range rateFields {
		t.Run(f.name, func(t *testing.T) {
			want, ok := reflect.ValueOf(&r).Elem().Field(i).Addr().Interface().(*Num)
			if !ok {
				t.Fatalf("Rates.%s is a %s, not a Num", typ.Field(i).Name, typ.Field(i).Type)
			}
			if got := f.of(&r); got != want {
				t.Errorf("reaches another field than Rates.%s", typ.Field(i).Name)
			}
			if got := r.field(f.name); got != want {
				t.Errorf("field(%q) reaches another field than Rates.%s", f.name, typ.Field(i).Name)
			}
		})
	}
	if r.field("queue") != nil || r.field("") != nil {
		t.Error("field returns a rate for a name that is not one")
	}
}

// TestRatePrecedenceSources checks that ratePrecedence places every source
// once and says whose rates each declares.
func TestRatePrecedenceSources(t *testing.T) {
	seen := map[rateSource]bool{}
	for _, p := range ratePrecedence {
		if seen[p.source] {
			t.Errorf("source %d listed twice", p.source)
		}
		seen[p.source] = true
		if p.of&(forQueue|forFleet) == 0 || p.doc == "" {
			t.Errorf("source %d: no owner or no doc", p.source)
		}
	}
	if len(seen) != int(numRateSources) {
		t.Errorf("%d sources listed, want %d", len(seen), numRateSources)
	}
}
