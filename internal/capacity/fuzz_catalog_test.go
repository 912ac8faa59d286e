// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// FuzzCatalog runs every formula of the catalog, as every face does
// (Formula.Run), on any float64 arguments: the extremes of the range (5e-324,
// 1.7976931348623157e308), 17-digit decimals and everything between, which
// make the exact arithmetic's rationals as large as they get (a float64 reads
// as a decimal of at most 17 digits and an exponent within ±324, so every
// numerator and denominator is bounded, and so is the work). It must return,
// with either an *InputError naming one of the formula's inputs or a result
// whose every number is finite and written with at most 15 significant
// digits, unless it is a number the caller gave.
func FuzzCatalog(f *testing.F) {
	f.Add(uint8(0), uint64(0xff), 10000.0, 400.0, 5e6, 1800.0, 0.2, 2.3, 0.1, 180.0)
	f.Add(uint8(1), uint64(0x3f), 3360.0, 8582.0, 12530.0, 0.0, 0.2, 2.3, 900.0, 300.0)
	f.Add(uint8(4), uint64(0xffff), 100.0, 0.1, 900.0, 60.0, 0.0, 0.0, 60.0, 1.0)
	f.Add(uint8(5), uint64(0xff), 10000.0, 400.0, 32.0, 3.6e6, 1.5, 30.0, 3600.0, 900.0)
	f.Add(uint8(8), uint64(0xffff), 12529.72, 0.4, 31325.0, 840.0, 0.1, 60.0, 900.0, 0.1)
	f.Add(uint8(9), uint64(0xffff), 1e9, 0.003, 1e-300, 1.7976931348623157e308, 5e-324, 0.30000000000000004, 9007199254740993.0, 1.0)
	f.Add(uint8(10), uint64(0xffff), 0.1, 0.7, 1.1, 900.0, 1209600.0, 60.0, 0.2, 3.0)
	f.Fuzz(func(t *testing.T, which uint8, present uint64, a, b, c, d, e, g, h, k float64) {
		vals := []float64{a, b, c, d, e, g, h, k}
		for _, v := range vals {
			if math.IsNaN(v) {
				return // Terraform has no NaN; the CLI and the provider reject it before the catalog.
			}
		}
		fm := capacity.Formulas[int(which)%len(capacity.Formulas)]
		raw := map[string]any{}
		names := make([]string, 0, len(fm.Inputs))
		for i, in := range fm.Inputs {
			names = append(names, in.Name)
			if !in.Required && present&(1<<(i%64)) == 0 {
				continue
			}
			v := vals[i%len(vals)]
			switch in.Type.Kind {
			case capacity.KindNumber:
				raw[in.Name] = v
			case capacity.KindList:
				raw[in.Name] = []float64{v, vals[(i+1)%len(vals)]}
			case capacity.KindString:
				if len(in.OneOf) > 0 {
					raw[in.Name] = in.OneOf[int(math.Abs(v))%len(in.OneOf)]
				} else {
					raw[in.Name] = "orders"
				}
			}
		}
		if len(fm.Rules) > 0 {
			// A rule across inputs ("give one of these forms") may name none.
			names = append(names, "")
		}
		res, _, err := fm.Run(raw)
		if err != nil {
			checkFuzzError(t, err, names...)
			return
		}
		// A number the formula passes on as given (rto_seconds as the
		// threshold of an alert) is the user's own and stays as typed.
		given := map[float64]bool{}
		for _, v := range raw {
			switch v := v.(type) {
			case float64:
				given[v] = true
			case []float64:
				for _, e := range v {
					given[e] = true
				}
			}
		}
		for name, v := range res.Values {
			checkPrinted(t, fm.Name+"."+name, v, given)
		}
	})
}

// checkPrinted requires every number within v to be finite and to read
// back, written shortest, with at most 15 significant digits.
func checkPrinted(t *testing.T, path string, v any, given map[float64]bool) {
	t.Helper()
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%s = %v, want a finite number", path, v)
		}
		if n := significantDigits(v); n > 15 && !given[v] {
			t.Fatalf("%s = %v: %d significant digits, want at most 15", path, v, n)
		}
	case []any:
		for i, e := range v {
			checkPrinted(t, path+"["+strconv.Itoa(i)+"]", e, given)
		}
	case map[string]any:
		for k, e := range v {
			checkPrinted(t, path+"."+k, e, given)
		}
	}
}

// significantDigits is how many significant digits the shortest decimal
// that reads as v has.
func significantDigits(v float64) int {
	s := strconv.FormatFloat(math.Abs(v), 'e', -1, 64)
	mant, _, _ := strings.Cut(s, "e")
	return len(strings.ReplaceAll(mant, ".", ""))
}
