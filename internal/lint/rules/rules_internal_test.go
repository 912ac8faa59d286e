// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"bytes"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
)

// TestFactIsDecimalClean renders a fact computed as 0.1 + 0.2 with the JSON
// formatter: it reads 0.3, as a message states it.
func TestFactIsDecimalClean(t *testing.T) {
	sum := 0.1
	sum += 0.2 // 0.30000000000000004 in float64
	res := &lint.Result{Issues: []lint.Issue{{Rule: "queuecap_zero_surplus", Severity: lint.Error,
		Message: "surplus " + num(sum) + " msg/s", Facts: []lint.Fact{fact("surplus", sum)}}}}
	var b bytes.Buffer
	if err := formatter.Write(&b, "json", res, formatter.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"message":"surplus 0.3 msg/s"`, `"facts":{"surplus":0.3}`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}

// TestNum checks that a message states a number as its fact carries it,
// rounded to two decimals only where that hides nothing.
func TestNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0.30000000000000004, "0.3"},
		{28.000000000000004, "28"}, // 0.28 × 100
		{1285.7142857142858, "1,285.71"},
		{0.145, "0.15"}, // 0.145 × 100 is 14.499999999999998 in float64
		{120.002, "120.002"},
		{12000.004, "12,000.004"},
		{1000000.004, "1,000,000.004"}, // not 1e+06
		{0.0012345, "0.0012345"},
		{-0.5, "-0.5"},
		{3600000, "3,600,000"},
		{1.5e15, "1.5e+15"},
	} {
		if got := num(tc.v); got != tc.want {
			t.Errorf("num(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
