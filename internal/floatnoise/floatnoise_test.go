// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package floatnoise_test

import (
	"slices"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/floatnoise"
)

func TestFind(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"surplus 0.280000000000655 msg/s", []string{"0.280000000000655"}},
		{"drains in 11,999.9999998836 s", []string{"11,999.9999998836"}},
		{"a threshold of 24.599999999999998", []string{"24.599999999999998"}},
		{`"value": 0.30000000000000004`, []string{"0.30000000000000004"}},
		{"1.2345678901234567e+20 and 2.8e-05", []string{"1.2345678901234567e+20"}},
		{"3,600,000 / (12,800 − 10,000) = 1,285.71428571429 s", nil},
		{"max_size 25 × 400 msg/s = 10,000 msg/s at main.tf:9:3", nil},
		{"0.0000001 s, 1000000.5 messages, 1e+100, 100000000000000000000", nil},
		{"the default of 345,600 s, 14 days (1,209,600 s)", nil},
		{"0.1000000 padded", []string{"0.1000000"}},
		{"162.000000000006 s, over rto_seconds 162", []string{"162.000000000006"}},
	} {
		if got := floatnoise.Find(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Find(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestFloat(t *testing.T) {
	a, b, c, d := 0.1, 0.2, 12530.0, 12529.72 // variables: float64 arithmetic, not exact constants
	for _, x := range []struct {
		v    float64
		want bool
	}{
		{a + b, true}, // 0.30000000000000004
		{0.3, false},
		{c - d, true}, // 0.2800000000006548
		{3 * a, true}, // 0.30000000000000004
		{1e-300, false},
		{1e300, false},
		{1285.71428571429, false},
		{1.0000001, true},
		{1000000.1, false},
		{1.5e13 + 0.5, false}, // 15000000000000.5: 15 digits
		{1.5e15 + 0.5, true},  // 1500000000000000.5: 17
	} {
		if got := floatnoise.Float(x.v); got != x.want {
			t.Errorf("Float(%v) = %v, want %v", x.v, got, x.want)
		}
	}
}
