// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
)

// The fluid model is exact decimal arithmetic. An input is the decimal a
// user typed: Terraform hands the provider a decimal and the linter reads
// one, and a float64 holding it reads back as that decimal (up to 15
// significant digits; dec). A formula computes on those decimals as
// rationals (math/big.Rat), exactly, so that 12,530 − 12,529.72 is 0.28
// and 1,000 / 400 is 2.5 on the nose; ceilings and comparisons are exact
// and need no tolerance. A result is rounded once, at the output, to the
// shortest decimal of at most 15 significant digits (float), which every
// face then writes as it is. Only Erlang C and the storm simulation, whose
// formulas are transcendental, stay in float64.

// dec is x as the decimal it reads as: the shortest decimal that parses
// back to x. x must be finite.
func dec(x float64) *big.Rat {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return new(big.Rat).SetInt64(int64(x)) // a whole number reads as itself
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		panic("capacity: dec of a value that is not finite")
	}
	// The shortest digits d.ddd…e±X: at most 17, an int64, over a power
	// of ten.
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(string(b), "e")
	e, _ := strconv.Atoi(exp)
	whole, frac, _ := strings.Cut(mant, ".")
	n, _ := strconv.ParseInt(whole+frac, 10, 64)
	e -= len(frac)
	r := new(big.Rat).SetInt64(n)
	return r.Mul(r, pow10Rat(e))
}

// float is r rounded once to at most 15 significant digits, halves away
// from zero, as the float64 that reads as that decimal: the rounding is
// of the exact decimal, so it is the same whichever float64 neighbour a
// value would have had. ±Inf when it leaves the float64 range
// (checkResult reports that), 0 when it is smaller than the range holds.
func float(r *big.Rat) float64 {
	if r.Sign() == 0 {
		return 0
	}
	if r.IsInt() && r.Num().IsInt64() {
		if n := r.Num().Int64(); n > -1e15 && n < 1e15 {
			return float64(n) // 15 digits at most: exact already
		}
	}
	// Fast and still exact: the float64 nearest r, written to 15 digits,
	// is r's own 15-digit rounding unless a midpoint between two 15-digit
	// decimals lies between them. The float64 is within half a step of r,
	// at most 2^-53 of the value: 11.1 units of its 17th significant digit
	// when the value begins with 9.99. So with its 16th and 17th digits
	// within 35 to 65, the exact path below decides, halves away from zero.
	if f, _ := r.Float64(); f != 0 && !math.IsInf(f, 0) && math.Abs(f) >= 0x1p-1022 {
		var buf [32]byte
		d := strconv.AppendFloat(buf[:0], math.Abs(f), 'e', 16, 64) // d.dddddddddddddddde±X
		if tail := (int(d[16]-'0'))*10 + int(d[17]-'0'); tail < 35 || tail > 65 {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'e', 14, 64), 64)
			return v
		}
	}
	abs := new(big.Rat).Abs(r)
	e := decimalExponent(abs)
	// digits = round(|r| × 10^(14−e)), 15 digits; a carry to 16 digits
	// (9.999…5 → 10.00…) moves the exponent.
	scaled := new(big.Rat).Mul(abs, pow10Rat(14-e))
	digits := scaled.FloatString(0)
	if len(digits) > 15 {
		digits, e = digits[:15], e+1
	}
	s := digits + "e" + strconv.Itoa(e-14)
	if r.Sign() < 0 {
		s = "-" + s
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(v, 0) {
		return 0 // underflow
	}
	return v
}

// decimalExponent is e with 10^e ≤ x < 10^(e+1), for x > 0.
func decimalExponent(x *big.Rat) int {
	// float64's estimate is off by at most one where x is in its range;
	// outside it, the digits of the integer part or of 1/x are.
	e := 0
	if f, _ := x.Float64(); f != 0 && !math.IsInf(f, 0) {
		e = int(math.Floor(math.Log10(f)))
	} else if x.Cmp(ratOne) >= 0 {
		e = len(new(big.Int).Quo(x.Num(), x.Denom()).String()) - 1
	} else {
		e = -len(new(big.Int).Quo(x.Denom(), x.Num()).String())
	}
	for x.Cmp(pow10Rat(e)) < 0 {
		e--
	}
	for x.Cmp(pow10Rat(e+1)) >= 0 {
		e++
	}
	return e
}

// pow10Rat is 10^n. The powers float64's range and a product of two of
// its values reach are made once.
func pow10Rat(n int) *big.Rat {
	if n >= -maxPow10 && n <= maxPow10 {
		pow10Once.Do(func() {
			p := big.NewInt(1)
			for i := 0; i <= maxPow10; i++ {
				pow10Table[maxPow10+i] = new(big.Rat).SetInt(p)
				pow10Table[maxPow10-i] = new(big.Rat).SetFrac(big.NewInt(1), p)
				p = new(big.Int).Mul(p, big.NewInt(10))
			}
		})
		return pow10Table[maxPow10+n]
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, -n))), nil)
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

const maxPow10 = 700

var (
	pow10Once  sync.Once
	pow10Table [2*maxPow10 + 1]*big.Rat // read only once made
)

// ratInt is n as a rational.
func ratInt(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

// add, sub, mul and quo are new rationals, leaving their operands alone.
func add(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
func sub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
func mul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
func quo(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }

var ratOne = big.NewRat(1, 1)

// ceilRat is the exact ceiling of a non-negative rational as a count. It
// fails, naming field, when the count exceeds MaxCount.
func ceilRat(field, what string, x *big.Rat) (int64, error) {
	q := ceilInt(x)
	if q.Cmp(big.NewInt(MaxCount)) > 0 {
		return 0, inputErr(field, "makes %s %.6g, more than the largest supported count %d", what, float(x), int64(MaxCount))
	}
	return q.Int64(), nil
}

// ceilFloat is the exact ceiling of x as a float64, +Inf beyond its
// range: for whole seconds that a caller bounds itself.
func ceilFloat(x *big.Rat) float64 {
	v, _ := new(big.Float).SetInt(ceilInt(x)).Float64()
	return v
}

// ceilInt is the exact ceiling of x (DivMod's quotient is the floor for
// a positive denominator, negative x included).
func ceilInt(x *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(x.Num(), x.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// ratFinite reports whether x is within float64's range (about 1.8e308).
func ratFinite(x *big.Rat) bool {
	switch d := x.Num().BitLen() - x.Denom().BitLen(); {
	case d < 1023:
		return true
	case d > 1025:
		return false
	}
	f, _ := x.Float64()
	return !math.IsInf(f, 0)
}
