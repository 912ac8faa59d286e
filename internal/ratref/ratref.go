// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package ratref is exact rational arithmetic for the tests' independent
// references: the exact-reference properties of internal/capacity and the
// advice property of the linter's rules write their expected values with
// it, apart from the arithmetic of the code they check. Only tests import
// it.
package ratref

import "math/big"

// Add, Sub, Mul and Quo are new rationals, leaving their operands alone.
func Add(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
func Sub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
func Mul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
func Quo(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }

// Int is n as a rational.
func Int(n int64) *big.Rat { return big.NewRat(n, 1) }

// Max and Min are the larger and the smaller of a and b.
func Max(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func Min(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// Floor and Ceil are the whole numbers at or below and at or above x, by
// integer division.
func Floor(x *big.Rat) *big.Rat {
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if m.Sign() < 0 {
		q.Sub(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}

func Ceil(x *big.Rat) *big.Rat {
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}
