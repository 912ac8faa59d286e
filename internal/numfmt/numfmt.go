// Package numfmt formats numbers for people, one way for every part of
// queuecap that prints them: `queuecap size`'s table and the first line of
// a lint finding.
package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Grouped prints a number with thousands separators and at most two
// decimals: 10,000, 2,800, 0.33; in exponent form from 1e15.
func Grouped(x float64) string {
	if math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	s := Trim(strconv.FormatFloat(x, 'f', 2, 64))
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	if b.String() == "0" {
		sign = "" // -0.001 rounds to 0, not -0
	}
	return sign + b.String()
}

// Trim drops trailing zeros after a decimal point: 2.50 → 2.5.
func Trim(s string) string {
	if !strings.Contains(s, ".") || strings.ContainsAny(s, "eE") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
