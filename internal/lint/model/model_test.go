// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"reflect"
	"testing"
)

// TestRateFields holds RateFields to Rates: one entry per field, in field
// order, each name reaching its own field, so a rate added to one and not
// the other fails here.
func TestRateFields(t *testing.T) {
	typ := reflect.TypeFor[Rates]()
	if len(RateFields) != typ.NumField() {
		t.Fatalf("%d rate names for %d fields of Rates", len(RateFields), typ.NumField())
	}
	var r Rates
	for i, f := range RateFields {
		t.Run(f.Name, func(t *testing.T) {
			want, ok := reflect.ValueOf(&r).Elem().Field(i).Addr().Interface().(*Num)
			if !ok {
				t.Fatalf("Rates.%s is a %s, not a Num", typ.Field(i).Name, typ.Field(i).Type)
			}
			if got := f.Of(&r); got != want {
				t.Errorf("reaches another field than Rates.%s", typ.Field(i).Name)
			}
			if got := r.Field(f.Name); got != want {
				t.Errorf("Field(%q) reaches another field than Rates.%s", f.Name, typ.Field(i).Name)
			}
		})
	}
	if r.Field("queue") != nil || r.Field("") != nil {
		t.Error("Field returns a rate for a name that is not one")
	}
}

// TestRatePrecedenceSources checks that Precedence places every source
// once and says whose rates each declares.
func TestRatePrecedenceSources(t *testing.T) {
	seen := map[Source]bool{}
	for _, p := range Precedence {
		if seen[p.Source] {
			t.Errorf("source %d listed twice", p.Source)
		}
		seen[p.Source] = true
		if p.Of&(ForQueue|ForFleet) == 0 || p.Doc == "" {
			t.Errorf("source %d: no owner or no doc", p.Source)
		}
	}
	if len(seen) != int(numSources) {
		t.Errorf("%d sources listed, want %d", len(seen), numSources)
	}
}
