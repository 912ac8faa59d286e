// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package textfmt formats numbers and text for people, one way for every
// part of queuecap that prints them: `queuecap size`'s table and warnings,
// and lint findings in the default format.
package textfmt

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// Number prints a number of a finding's arithmetic as its fact carries it,
// decimal-clean (capacity.Clean): integers as integers, others rounded half
// up to two decimals, never in exponent form below 1e15, with thousands
// separators as Grouped prints them. Where two decimals would hide the
// very difference a message is about (60001 / 500 is 120.002 s, over a
// 120 s SLA, not "120 s"), it prints the number's decimal in full.
func Number(v float64) string { return Group(plainNumber(v)) }

func plainNumber(v float64) string {
	v = capacity.Clean(v)
	if math.Abs(v) >= 1e15 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	// Clean first: 0.145 × 100 is 14.499999999999998 in float64.
	r := math.Round(capacity.Clean(v*100)) / 100
	if r == 0 || r == math.Trunc(r) {
		return capacity.Decimal(v)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Approx prints a count to three significant digits: 4.43e8 for a depth
// that grew to 442,787,800.5, whole numbers (as Number) below a million.
func Approx(v float64) string {
	if math.Abs(v) < 1e6 {
		return Number(math.Round(v))
	}
	exp := math.Floor(math.Log10(math.Abs(v)))
	m := math.Round(capacity.Clean(v/math.Pow(10, exp)*100)) / 100 // half up, as Number rounds
	if math.Abs(m) >= 10 {
		m, exp = m/10, exp+1
	}
	return strconv.FormatFloat(m, 'f', -1, 64) + "e" + strconv.Itoa(int(exp))
}

// Short prints a number for a finding's first line, as `queuecap size`
// prints it: 10,000, 0.33 (Grouped, decimal-clean).
func Short(v float64) string { return Grouped(capacity.Clean(v)) }

// AtMost prints the largest number Short can print that is not above v:
// advice to lower a value to it clears what it is about (a threshold
// lowered to 1,589.87 is at or below an SLA depth of 1,589.875, one of
// 1,589.88 is not). AtLeast is the smallest not below v.
func AtMost(v float64) string { return Short(toHundredths(v, false)) }

// AtLeast prints the smallest number Short can print that is not below v.
func AtLeast(v float64) string { return Short(toHundredths(v, true)) }

// toHundredths is v, decimal-clean, rounded to two decimals toward +∞
// (up) or −∞, on its decimal digits: 0.29 stays 0.29, where 0.29 × 100
// is 28.999999999999996 in float64.
func toHundredths(v float64, up bool) float64 {
	v = capacity.Clean(v)
	if math.Abs(v) >= 1e15 || v == math.Trunc(v) {
		return v
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) <= 2 {
		return v
	}
	cut, _ := strconv.ParseFloat(whole+"."+frac[:2], 64)
	// Digits were dropped, so v lies strictly between cut and the next
	// hundredth away from zero.
	if (v > 0) == up {
		cut, _ = strconv.ParseFloat(strconv.FormatFloat(cut+math.Copysign(0.01, v), 'f', 2, 64), 64)
	}
	return cut
}

// Grouped prints a number with thousands separators and at most two
// decimals: 10,000, 2,800, 0.33; in exponent form from 1e15.
func Grouped(x float64) string {
	if math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	s := Group(Trim(strconv.FormatFloat(x, 'f', 2, 64)))
	if s == "-0" {
		return "0" // -0.001 rounds to 0, not -0
	}
	return s
}

// Group puts thousands separators into the whole part of a decimal number
// already formatted: 1234567.5 → 1,234,567.5. A number in exponent form
// is left as it is (capacity.GroupDigits, which its warnings use too).
func Group(s string) string { return capacity.GroupDigits(s) }

// Plural is a count and its word: "1 check", "2 checks".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Trim drops trailing zeros after a decimal point: 2.50 → 2.5.
func Trim(s string) string {
	if !strings.Contains(s, ".") || strings.ContainsAny(s, "eE") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Wrap breaks text into lines of at most width characters, each after
// indent, between words (a longer word stands on its own line); each line
// of text is wrapped on its own. The lines are joined by newlines, with
// none after the last.
func Wrap(text, indent string, width int) string {
	var b strings.Builder
	start := utf8.RuneCountInString(indent)
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for _, w := range strings.Fields(para) {
			n := utf8.RuneCountInString(w)
			switch {
			case col == 0:
				b.WriteString(indent)
				col = start
			case col+1+n > width:
				b.WriteString("\n" + indent)
				col = start
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
		}
	}
	return b.String()
}

// Closest is the candidate nearest to s by edit distance when that is
// under limit, the first of equals in candidates' order; else "". It is
// how a misspelled name is answered with "did you mean".
func Closest(s string, candidates []string, limit int) string {
	best := ""
	for _, c := range candidates {
		if d := EditDistance(s, c); d < limit {
			best, limit = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in
// characters (capacity.EditDistance).
func EditDistance(a, b string) int { return capacity.EditDistance(a, b) }
