// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package textfmt

import "testing"

func TestGrouped(t *testing.T) {
	for x, want := range map[float64]string{
		0: "0", 10000: "10,000", 2800: "2,800", -2000: "-2,000", 1785.7142857: "1,785.71", 0.5: "0.5",
		5e6: "5,000,000", 123: "123", -0.001: "0", 1e15: "1e+15", 999.999: "1,000",
	} {
		if got := Grouped(x); got != want {
			t.Errorf("Grouped(%v) = %q, want %q", x, got, want)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 checks", 1: "1 check", 2: "2 checks"} {
		if got := Plural(n, "check"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTrim(t *testing.T) {
	for in, want := range map[string]string{"2.50": "2.5", "3.00": "3", "100": "100", "1e+10": "1e+10", "0.10": "0.1"} {
		if got := Trim(in); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  string
	}{
		{"max_size 25 × 400 msg/s = 10000 msg/s", 21, "  max_size 25 × 400\n  msg/s = 10000 msg/s"},
		{"a b", 80, "  a b"},
		{"averyveryverylongword x", 8, "  averyveryverylongword\n  x"},
		{"one\ntwo three", 80, "  one\n  two three"},
		{"", 80, ""},
	} {
		if got := Wrap(tc.text, "  ", tc.width); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "999": "999", "1000": "1,000", "1234567.5": "1,234,567.5", "-2000": "-2,000",
		"120.002": "120.002", "1e+15": "1e+15", "0.0001": "0.0001", "100000": "100,000",
	} {
		if got := Group(in); got != want {
			t.Errorf("Group(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"recursive", "format", "force", "config"}
	for _, tc := range []struct {
		s     string
		limit int
		want  string
	}{
		{"recusive", 4, "recursive"}, {"fromat", 3, "format"}, {"forc", 2, "force"}, {"xyz", 2, ""}, {"", 1, ""},
	} {
		if got := Closest(tc.s, names, tc.limit); got != tc.want {
			t.Errorf("Closest(%q, %d) = %q, want %q", tc.s, tc.limit, got, tc.want)
		}
	}
	if d := EditDistance("kitten", "sitting"); d != 3 {
		t.Errorf("EditDistance(kitten, sitting) = %d, want 3", d)
	}
	if d := EditDistance("×", "x"); d != 1 {
		t.Errorf("EditDistance(×, x) = %d, want 1: characters, not bytes", d)
	}
}

// TestNumber checks that a message states a number as its fact carries it,
// rounded to two decimals only where that hides nothing.
func TestNumber(t *testing.T) {
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
		if got := Number(tc.v); got != tc.want {
			t.Errorf("Number(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestApprox: counts to three significant digits from a million, as the
// retry storm's peak depth is written.
func TestApprox(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 999999.4: "999,999", 1e6: "1e6", 10800000: "1.08e7", 442787800.5: "4.43e8", 9995000: "1e7", -2500000: "-2.5e6",
	} {
		if got := Approx(v); got != want {
			t.Errorf("Approx(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestAtMostAtLeast: advice rounds toward what clears the finding, on
// the decimal digits.
func TestAtMostAtLeast(t *testing.T) {
	for _, c := range []struct {
		v             float64
		atMost, least string
	}{
		{1589.875, "1,589.87", "1,589.88"},
		{0.29, "0.29", "0.29"},
		{2.1, "2.1", "2.1"},
		{10000, "10,000", "10,000"},
		{0.001, "0", "0.01"},
		{-0.125, "-0.13", "-0.12"},
		{1.999, "1.99", "2"},
	} {
		if got := AtMost(c.v); got != c.atMost {
			t.Errorf("AtMost(%v) = %s, want %s", c.v, got, c.atMost)
		}
		if got := AtLeast(c.v); got != c.least {
			t.Errorf("AtLeast(%v) = %s, want %s", c.v, got, c.least)
		}
	}
}
