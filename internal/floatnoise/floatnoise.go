// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package floatnoise finds the numbers in a text that show binary
// floating-point noise: queuecap rounds every figure it states once, to at
// most 15 significant digits, so a number of 16 or more (0.1 + 0.2 written
// as 0.30000000000000004, 24.599999999999998) or one whose decimals hold a
// run of six 0s or 9s (0.280000000000655, 11999.9999998836) was computed
// in float64 and printed as it came. The tests of every face that writes
// numbers (the CLI's formulas, the linter's output formats) judge them
// here, one way.
package floatnoise

import (
	"regexp"
	"strconv"
	"strings"
)

// MaxDigits is the most significant digits a number queuecap states has.
const MaxDigits = 15

// number is a decimal as queuecap or a machine format writes it: with
// thousands separators (1,285.71), a fraction, an exponent (2.8e-05).
var number = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`)

// run is six 0s or six 9s in a row.
var run = regexp.MustCompile(`0{6}|9{6}`)

// Find returns the noisy numbers in s, in order. Digits that are not one
// number (a file name's, a hash's, a timestamp's) are the caller's to
// leave out.
func Find(s string) []string {
	var out []string
	for _, m := range number.FindAllString(s, -1) {
		if Noisy(m) {
			out = append(out, m)
		}
	}
	return out
}

// Float reports whether a float64, written with the shortest digits that
// read back as it ('f', -1), is noisy.
func Float(v float64) bool { return Noisy(strconv.FormatFloat(v, 'f', -1, 64)) }

// Noisy reports whether one number, as number matches it, has more than
// MaxDigits significant digits or a run of six 0s or 9s after its decimal
// point (past the leading zeros of a number below 1).
func Noisy(m string) bool {
	mant, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(m, "+-")), "e")
	mant = strings.ReplaceAll(mant, ",", "")
	whole, frac, hasPoint := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if !hasPoint {
		digits = strings.TrimRight(digits, "0") // 1000000: one significant digit
	}
	if len(digits) > MaxDigits {
		return true
	}
	if strings.TrimLeft(whole, "0") == "" {
		frac = strings.TrimLeft(frac, "0") // 0.0000001: the zeros are the scale
	}
	return run.MatchString(frac)
}
