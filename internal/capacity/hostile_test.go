// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// within runs f, failing the test when it takes longer than limit: the
// cases below took minutes before numbers were written from their
// exponent.
func within(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("did not finish within %s", limit)
	}
}

func parseBig(t *testing.T, s string) *big.Float {
	t.Helper()
	n, ok := new(big.Float).SetPrec(512).SetString(s)
	if !ok {
		t.Fatalf("%q does not parse", s)
	}
	return n
}

// TestCheckNumberRejectsHugeNumbersBriefly: a rejected number beyond
// float64's range is written as %g writes it, never digit by digit
// (issue 28, item 6: "1e10000000" made a 10 MB error, "1e100000000" kept
// terraform plan busy past 300 s at 1.25 GB, 1e308*10 printed 310
// digits).
func TestCheckNumberRejectsHugeNumbersBriefly(t *testing.T) {
	in := &capacity.Input{Name: "arrival_rate", Type: capacity.Number, Range: capacity.AtLeastZero}
	count := &capacity.Input{Name: "consumers", Type: capacity.Whole, Range: capacity.AtLeastZero}
	cases := []struct {
		input *capacity.Input
		value string
		want  string
	}{
		{in, "1e309", "got: 1e+309"},
		{in, "1e10000000", "got: 1e+10000000"},
		{in, "1e100000000", "got: 1e+100000000"},
		{in, "-2.5e400", "got: -2.5e+400"},
		{in, "1e-100000000", "got: 1e-100000000"},
		{count, "1e10000000", "got: 1e+10000000"},
		{count, "1.5e-400", "got: 1.5e-400"},
	}
	for _, c := range cases {
		t.Run(c.value, func(t *testing.T) {
			v := parseBig(t, c.value)
			within(t, 5*time.Second, func() {
				_, err := c.input.CheckNumber(v)
				if err == nil {
					t.Errorf("%s passed", c.value)
					return
				}
				if len(err.Reason) > 200 || !strings.HasSuffix(err.Reason, c.want) {
					t.Errorf("reason of %d bytes %.300q, want one ending %q", len(err.Reason), err.Reason, c.want)
				}
			})
		})
	}
}

func TestNumberText(t *testing.T) {
	for value, want := range map[string]string{
		"9007199254740993": "9007199254740993", // whole numbers below 2^128 in full
		"1e30":             "1000000000000000000000000000000",
		"2.5":              "2.5",
		"0.1":              "0.1",
		"123456789012.345": "1.23456789e+11", // %g, 10 digits
		"1e40":             "1e+40",
		"1e309":            "1e+309",
		"9.9999999e5000":   "1e+5001", // rounded up to the next power
		"1.2345e-400":      "1.2345e-400",
		"-1e100000000":     "-1e+100000000",
	} {
		if got := capacity.NumberText(parseBig(t, value)); got != want {
			t.Errorf("NumberText(%s) = %q, want %q", value, got, want)
		}
	}
}

// TestQuoteCapsLongStrings: a rejected string is quoted in part.
func TestQuoteCapsLongStrings(t *testing.T) {
	long := strings.Repeat("é", 100000)
	in := &capacity.Input{Name: "fleet", Type: capacity.String, OneOf: []string{"ec2", "ecs"}}
	err := in.CheckString(long)
	if err == nil || len(err.Reason) > 200 || !strings.Contains(err.Reason, "… (200000 bytes)") {
		t.Fatalf("reason of %d bytes: %.300q", len(err.Reason), err)
	}
	if got := capacity.Quote("lambda"); got != `"lambda"` {
		t.Errorf("Quote(lambda) = %s", got)
	}
}
