// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// The reference properties of the two float64 families, Erlang C
// (wait_time) and the retry storm (retry_storm). Their references are
// written here from MATH.md and the formulas' descriptions, sharing no
// code with the package: Erlang C in 200-bit binary floating point
// (math/big.Float, about 60 digits) with a logarithm of its own, the storm
// exactly (integers over the decimals' common denominator) until retries
// below the timeout window make it 200-bit floating point. Where a figure
// is a ratio of the decimals given (utilization, stable) or a whole
// second of a run without retries it is held exactly; where the package's
// float64 arithmetic is the design, within a stated tolerance.

// refPrec is the reference's binary precision: 200 bits, ~60 digits.
const refPrec = 200

// refFloat is r at refPrec bits.
func refFloat(r *big.Rat) *big.Float { return new(big.Float).SetPrec(refPrec).SetRat(r) }

// refLn is the natural logarithm of x > 0, to refPrec bits: with x =
// m·2^e and m in [1/√2, √2), ln x = e·ln 2 + 2·atanh(z), z = (m−1)/(m+1),
// |z| ≤ 0.172, by the series atanh z = z + z³/3 + z⁵/5 + ….
func refLn(x *big.Float) *big.Float {
	if x.Sign() <= 0 {
		panic("refLn of a number that is not positive")
	}
	m := new(big.Float)
	e := x.MantExp(m) // x = m × 2^e, 0.5 ≤ m < 1
	m.SetPrec(refPrec + 32)
	if m.Cmp(big.NewFloat(0.7071067811865476)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	one := big.NewFloat(1)
	z := new(big.Float).SetPrec(refPrec+32).Quo(new(big.Float).SetPrec(refPrec+32).Sub(m, one), new(big.Float).SetPrec(refPrec+32).Add(m, one))
	r := new(big.Float).SetPrec(refPrec+32).Mul(refLn2(), new(big.Float).SetInt64(int64(e)))
	r.Add(r, atanh2(z))
	return r.SetPrec(refPrec)
}

// atanh2 is 2·atanh(z) for |z| ≤ 1/3, at z's precision.
func atanh2(z *big.Float) *big.Float {
	prec := z.Prec()
	sum := new(big.Float).SetPrec(prec)
	if z.Sign() == 0 {
		return sum
	}
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	pow := new(big.Float).SetPrec(prec).Set(z)
	term := new(big.Float).SetPrec(prec)
	limit := z.MantExp(nil) - int(prec) - 8
	for k := int64(1); ; k += 2 {
		term.Quo(pow, new(big.Float).SetInt64(k))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < limit {
			break
		}
		pow.Mul(pow, z2)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

var (
	ln2Once sync.Once
	ln2     *big.Float
)

// refLn2 is ln 2 = 2·atanh(1/3).
func refLn2() *big.Float {
	ln2Once.Do(func() {
		third := new(big.Float).SetPrec(refPrec+32).Quo(big.NewFloat(1), big.NewFloat(3))
		ln2 = atanh2(third)
	})
	return ln2
}

// TestReferenceLn holds the reference's logarithm to known digits (ln 2
// and ln 10 to 60 places), to ln(xy) = ln x + ln y, and to math.Log.
func TestReferenceLn(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{2, "0.693147180559945309417232121458176568075500134360255254120680"},
		{10, "2.302585092994045684017991454684364207601101488628772976033327"},
		{1, "0"},
	} {
		want, _, _ := big.ParseFloat(c.want, 10, refPrec, big.ToNearestEven)
		diff := new(big.Float).Sub(refLn(big.NewFloat(c.x)), want)
		if diff.Abs(diff).Cmp(big.NewFloat(1e-58)) > 0 {
			t.Errorf("ln %v = %s, want %s", c.x, refLn(big.NewFloat(c.x)).Text('g', 62), c.want)
		}
	}
	rng := rand.New(rand.NewPCG(5, 8))
	for range 200 {
		// x anywhere in float64's normal range, y near 1.
		x := math.Ldexp(0.5+rng.Float64()/2, rng.IntN(2040)-1020)
		y := math.Exp(rng.NormFloat64() * 10)
		xy := new(big.Float).SetPrec(refPrec).Mul(big.NewFloat(x), big.NewFloat(y))
		sum := new(big.Float).Add(refLn(big.NewFloat(x)), refLn(big.NewFloat(y)))
		diff := new(big.Float).Sub(refLn(xy), sum)
		if diff.Abs(diff).Cmp(big.NewFloat(1e-55)) > 0 {
			t.Fatalf("ln(%v × %v) − ln %v − ln %v = %s", x, y, x, y, diff.Text('g', 5))
		}
		got, _ := refLn(big.NewFloat(x)).Float64()
		if want := math.Log(x); math.Abs(got-want) > 4e-16*math.Max(1, math.Abs(want)) {
			t.Fatalf("ln %v = %v, math.Log %v", x, got, want)
		}
	}
}

// Decimals for the cases: inputs of at most 15 significant digits, handed
// to the catalog as the float64 that reads as them.

// roundSig is x > 0 rounded half up to a decimal of d significant digits.
func roundSig(x *big.Rat, d int) *big.Rat {
	if x.Sign() <= 0 {
		return new(big.Rat)
	}
	scale := pow10Rat(d - 1 - decimalExp(x))
	s := rAdd(rMul(x, scale), big.NewRat(1, 2))
	q := new(big.Int).Quo(s.Num(), s.Denom())
	return rQuo(new(big.Rat).SetInt(q), scale)
}

// pow10Rat is 10^n as a rational.
func pow10Rat(n int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, -n))), nil)
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

// sigDigits is how many significant digits the decimal r has; 99 when r
// is not a decimal of at most 40 places.
func sigDigits(r *big.Rat) int {
	n := new(big.Rat).Abs(r)
	for range 40 {
		if n.IsInt() {
			break
		}
		n.Mul(n, big.NewRat(10, 1))
	}
	if !n.IsInt() {
		return 99
	}
	s := n.Num().String()
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s == "0" {
		return 0
	}
	return len(s)
}

// decimalArgs is a case as the catalog takes it, each number the float64
// that reads as its decimal (all of its places, not f's 12); it fails
// when a number has more than 15 significant digits.
func decimalArgs(t *testing.T, in map[string]any) map[string]any {
	t.Helper()
	raw := make(map[string]any, len(in))
	for k, v := range in {
		if r, ok := v.(*big.Rat); ok {
			if sigDigits(r) > 15 {
				t.Fatalf("the case's %s = %s has more than 15 significant digits", k, r.FloatString(40))
			}
			x, err := strconv.ParseFloat(r.FloatString(40), 64)
			if err != nil {
				t.Fatal(err)
			}
			raw[k] = x
			continue
		}
		raw[k] = v
	}
	return raw
}

// closeTo is "" when got, a float64 the catalog returned, is want within
// rel relative plus abs absolute, printed to 15 digits (got is its own
// 15-digit rounding), and 0 when want is under 1e-300, as the package
// writes such values. A want within rel of 1e-300 may be printed either
// way, and so may a want that abs alone covers.
func closeTo(got any, want *big.Float, rel, abs float64) string {
	g, ok := got.(float64)
	if !ok {
		return fmt.Sprintf("%v (%T), want the number %s", got, got, want.Text('g', 20))
	}
	if capacity.Clean(g) != g {
		return fmt.Sprintf("%v, not printed to 15 significant digits", g)
	}
	diff := new(big.Float).SetPrec(refPrec).Sub(new(big.Float).SetFloat64(g), want)
	diff.Abs(diff)
	slack := new(big.Float).SetPrec(refPrec).Mul(new(big.Float).Abs(want), big.NewFloat(rel))
	slack.Add(slack, big.NewFloat(abs))
	tiny := big.NewFloat(1e-300)
	switch {
	case new(big.Float).Abs(want).Cmp(tiny) < 0:
		near := new(big.Float).Mul(tiny, big.NewFloat(1-rel))
		if g == 0 || (new(big.Float).Abs(want).Cmp(near) >= 0 && diff.Cmp(slack) <= 0) ||
			(math.Abs(g) <= abs && diff.Cmp(slack) <= 0) {
			return ""
		}
		return fmt.Sprintf("%v, want 0 (the reference's %s is under 1e-300)", g, want.Text('g', 20))
	case diff.Cmp(slack) > 0:
		return fmt.Sprintf("%v, want %s within %g relative + %g (off by %s)", g, want.Text('g', 20), rel, abs, diff.Text('g', 3))
	}
	return ""
}

// relError is |got − want| / |want| as a float64 (0 when both are 0).
func relError(got float64, want *big.Float) float64 {
	if want.Sign() == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	d := new(big.Float).SetPrec(refPrec).Sub(new(big.Float).SetFloat64(got), want)
	d.Quo(d, want)
	r, _ := d.Float64()
	return math.Abs(r)
}

// Erlang C.

// waitTol is the relative error allowed in Erlang C's figures. The
// package's float64 offered load a = λ/μ is off by up to ~3 units in the
// last place of its 53 bits (the decimals' float64s, then the division),
// and C(c, a) is about c-fold sensitive to a (C ~ a^c/c! when c ≫ a);
// the recursion adds up to ~2 units per step. For the fleets here (c ≤
// ~2,000) that is ~1e-12 at worst: 1.6e-12 holds it, 7,200 units of
// float64's last place, and leaves the 15-digit printing's 5e-15 far below.
const waitTol = 1.6e-12

// waitRefAt is Erlang C at n consumers, from B(n).
type waitRefAt struct {
	stable  bool
	surplus *big.Float // nμ − λ
	c       *big.Float // probability of waiting C(n, a)
	mean    *big.Float // C / (nμ − λ)
	logArg  *big.Float // ln(C / (1 − p)); nil when C = 0 (−∞)
	pct     *big.Float // max(0, ln(C / (1 − p)) / (nμ − λ))
}

// refErlangB is B(n) of the Erlang B recursion B(0) = 1, B(n) =
// a·B(n−1) / (n + a·B(n−1)) at each n of ns, in one pass.
func refErlangB(a *big.Float, ns ...int64) map[int64]*big.Float {
	top := int64(0)
	want := map[int64]bool{}
	for _, n := range ns {
		top = max(top, n)
		want[n] = true
	}
	out := make(map[int64]*big.Float, len(ns))
	b := new(big.Float).SetPrec(refPrec).SetInt64(1)
	ab := new(big.Float).SetPrec(refPrec)
	den := new(big.Float).SetPrec(refPrec)
	for n := int64(1); n <= top; n++ {
		ab.Mul(a, b)
		den.Add(ab, den.SetInt64(n))
		b.Quo(ab, den)
		if want[n] {
			out[n] = new(big.Float).Copy(b)
		}
	}
	return out
}

// refWaitAt is the steady state at n consumers with B(n) = b.
func refWaitAt(lambda, mu, p *big.Rat, n int64, b *big.Float) waitRefAt {
	s := rSub(rMul(rInt(n), mu), lambda)
	if s.Sign() <= 0 {
		return waitRefAt{}
	}
	r := waitRefAt{stable: true, surplus: refFloat(s)}
	rho := refFloat(rQuo(lambda, rMul(rInt(n), mu)))
	// C = B / (1 − ρ(1 − B))
	den := new(big.Float).SetPrec(refPrec).Sub(big.NewFloat(1), b)
	den.Mul(den, rho)
	den.Sub(big.NewFloat(1), den)
	r.c = new(big.Float).SetPrec(refPrec).Quo(b, den)
	r.mean = new(big.Float).SetPrec(refPrec).Quo(r.c, r.surplus)
	r.pct = new(big.Float).SetPrec(refPrec)
	if r.c.Sign() > 0 {
		r.logArg = refLn(new(big.Float).SetPrec(refPrec).Quo(r.c, refFloat(rSub(rInt(1), p))))
		if r.logArg.Sign() > 0 {
			r.pct.Quo(r.logArg, r.surplus)
		}
	}
	return r
}

// pctAbs is the absolute slack of a percentile wait at surplus s: the
// logarithm's argument C/(1 − p) carries C's relative error, which is an
// absolute error of the logarithm, waitTol/s seconds of wait. It decides
// only where ln(C/(1 − p)) is small: at the clamp (a C of 1 − p, exactly
// in a boundary case, whose wait the package may print as ~1e-16 s
// instead of 0) and near it, where no float64 C can do better.
func pctAbs(s *big.Float) float64 {
	v, _ := new(big.Float).Quo(big.NewFloat(waitTol), s).Float64()
	return v
}

// genWait is the i-th random wait_time case; i%5 == 0 is a boundary.
func genWait(rng *rand.Rand, i int) map[string]any {
	c := 1 + rng.Int64N(1+rng.Int64N(1500))
	mu := positive(rng)
	capy := rMul(rInt(c), mu)
	rho := randDecimal(rng, 4, 4) // ρ in [0, 1)
	if rng.IntN(8) == 0 {
		rho = rAdd(rho, big.NewRat(int64(rng.IntN(3)), 10)) // overloaded: up to 1.2
	}
	lambda := rMul(rho, capy) // a utilization of at most 4 digits
	if rng.IntN(2) == 0 {
		// Any decimal near it, up to 15 digits.
		lambda = roundSig(rMul(lambda, big.NewRat(int64(900+rng.IntN(200)), 1000)), 1+rng.IntN(15))
	}
	if rng.IntN(50) == 0 {
		lambda = rInt(0)
	}
	in := map[string]any{"per_consumer_rate": mu, "consumers": float64(c)}
	if rng.IntN(3) > 0 {
		in["percentile"] = big.NewRat(1+rng.Int64N(999_999), 1_000_000)
	}
	if rng.IntN(2) == 0 {
		// A target of 0.001 to 10 mean services.
		in["target_wait_seconds"] = roundSig(rQuo(big.NewRat(1+rng.Int64N(10_000), 1000), mu), 1+rng.IntN(6))
	}
	switch i % 20 {
	case 0:
		// The fleet exactly at steady state, c·μ = λ: no steady state.
		lambda = capy
	case 5:
		// Just short of it, ρ = 1 − 10^−k: one unit of the 15th digit
		// (k ≈ 14) or k = 3 to 9, where c·μ − λ in float64 keeps only
		// 16 − k of its digits.
		lambda = rSub(capy, pow10Rat(decimalExp(capy)-14))
		if rng.IntN(2) == 0 {
			lambda = roundSig(rMul(capy, rSub(rInt(1), pow10Rat(-3-rng.IntN(7)))), 15)
		}
	case 10:
		// The percentile's clamp: C = 1 − p exactly, ln(C/(1 − p)) = 0.
		// One consumer has C = ρ; two at ρ = 1/4 have C = 2ρ²/(1 + ρ) = 1/10.
		if rng.IntN(2) == 0 {
			c, rho = 1, big.NewRat(1+rng.Int64N(999), 1000)
			in["percentile"] = rSub(rInt(1), rho)
		} else {
			c, rho = 2, big.NewRat(1, 4)
			in["percentile"] = big.NewRat(9, 10)
		}
		in["consumers"] = float64(c)
		lambda = rMul(rho, rMul(rInt(c), mu))
	case 15:
		// A utilization exactly between two 15-digit decimals: c·μ = 2 and
		// a 15-digit λ < 2 ending in an odd digit.
		c = []int64{1, 2, 4, 5, 8, 10, 16, 20, 25, 40, 50}[rng.IntN(11)]
		mu = rQuo(rInt(2), rInt(c))
		in["consumers"], in["per_consumer_rate"] = float64(c), mu
		lambda = big.NewRat(1e14+rng.Int64N(5e13)*2+1, 1e14) // in [1, 2), 15 digits, the last odd
	}
	in["arrival_rate"] = lambda
	if i%5 == 0 && i%20 != 15 && rng.IntN(2) == 0 {
		// A target met exactly: the percentile wait of a fleet a little
		// larger, printed to 15 digits (the search's tie).
		p := rat(in, "percentile", big.NewRat(99, 100))
		n := c + rng.Int64N(4)
		if ref := refWaitAt(lambda, mu, p, n, refErlangB(refFloat(rQuo(lambda, mu)), n)[n]); ref.stable && ref.pct.Sign() > 0 {
			v, _ := ref.pct.Float64()
			if w, ok := new(big.Rat).SetString(strconv.FormatFloat(capacity.Clean(v), 'g', -1, 64)); ok && w.Sign() > 0 && sigDigits(w) <= 15 {
				in["target_wait_seconds"] = w
			}
		}
	}
	return in
}

// countOr0 is a case's whole-number argument (a float64, as Terraform
// hands it), 0 when left out.
func countOr0(in map[string]any, name string) int64 {
	v, _ := in[name].(float64)
	return int64(v)
}

// decimalExp is e with 10^e ≤ x < 10^(e+1), x > 0.
func decimalExp(x *big.Rat) int {
	e := 0
	for p := big.NewRat(1, 1); x.Cmp(p) < 0; p.Quo(p, big.NewRat(10, 1)) {
		e--
	}
	for p := big.NewRat(10, 1); x.Cmp(p) >= 0; p.Mul(p, big.NewRat(10, 1)) {
		e++
	}
	return e
}

// TestPropertyWaitTime: wait_time against the 200-bit reference. The
// utilization is λ/(c·μ) exactly, rounded once to 15 digits, and stable
// is c·μ > λ exactly; the probability of waiting and the mean wait are
// within waitTol relative, the percentile wait too, plus the logarithm's
// slack (pctAbs); a figure the reference puts under 1e-300 is 0; and
// min_consumers_for_target is the least fleet whose reference percentile
// wait meets the target.
func TestPropertyWaitTime(t *testing.T) {
	f := capacity.WaitTimeFormula
	rng := rand.New(rand.NewPCG(11, 23))
	cases := propertyCases(t)
	worst, slackOnly, ties := map[string]float64{}, 0, 0
	for i := range cases {
		in := genWait(rng, i)
		res, _, err := f.Run(decimalArgs(t, in))
		if err != nil {
			t.Fatalf("case %d %s: %v", i, caseText(in), err)
		}
		lambda, mu, c := rat(in, "arrival_rate", nil), rat(in, "per_consumer_rate", nil), countOr0(in, "consumers")
		p := rat(in, "percentile", big.NewRat(99, 100))
		target := rat(in, "target_wait_seconds", nil)
		checked := map[string]bool{}
		fail := func(name, msg string) {
			t.Helper()
			checked[name] = true
			if msg != "" {
				t.Fatalf("case %d %s: %s = %s", i, caseText(in), name, msg)
			}
		}

		// The exact figures.
		rho := rQuo(lambda, rMul(rInt(c), mu))
		if g, ok := res.Values["utilization"].(float64); !ok || capacity.Clean(g) != round15(rho) {
			fail("utilization", fmt.Sprintf("%v printed as %v, want %v (exactly %s)", res.Values["utilization"], capacity.Clean(g), round15(rho), rho.FloatString(20)))
		}
		fail("utilization", "")
		fail("stable", sameValue(res.Values["stable"], rMul(rInt(c), mu).Cmp(lambda) > 0))

		// The fleet's figures, and the fleets either side of the minimum.
		var m int64
		ns := []int64{c}
		if target != nil {
			got, ok := res.Values["min_consumers_for_target"].(int64)
			if !ok || got < 1 || got > 100*(c+1000) {
				fail("min_consumers_for_target", fmt.Sprintf("%v, want a fleet size", res.Values["min_consumers_for_target"]))
			}
			m = got
			ns = append(ns, m, m-1)
		}
		bs := refErlangB(refFloat(rQuo(lambda, mu)), ns...)
		ref := refWaitAt(lambda, mu, p, c, bs[c])
		if !ref.stable {
			for _, name := range []string{"probability_of_wait", "mean_wait_seconds", "percentile_wait_seconds"} {
				fail(name, sameValue(res.Values[name], nil))
			}
		} else {
			fail("probability_of_wait", closeTo(res.Values["probability_of_wait"], ref.c, waitTol, 0))
			fail("mean_wait_seconds", closeTo(res.Values["mean_wait_seconds"], ref.mean, waitTol, 0))
			fail("percentile_wait_seconds", closeTo(res.Values["percentile_wait_seconds"], ref.pct, waitTol, pctAbs(ref.surplus)))
			// The largest relative errors seen, the percentile's where its
			// logarithm is not small (|ln(C/(1 − p))| ≥ 0.01); how often
			// only the logarithm's slack held it.
			for name, want := range map[string]*big.Float{"probability_of_wait": ref.c, "mean_wait_seconds": ref.mean, "percentile_wait_seconds": ref.pct} {
				g, _ := res.Values[name].(float64)
				e := relError(g, want)
				if name == "percentile_wait_seconds" && e > waitTol {
					slackOnly++
				}
				if g != 0 && want.Sign() != 0 && (name != "percentile_wait_seconds" || ref.logArg.Cmp(big.NewFloat(0.01)) >= 0) {
					worst[name] = max(worst[name], e)
				}
			}
		}

		// The least fleet whose percentile wait meets the target. The
		// percentile wait does not increase with the fleet once it is
		// stable (C falls and the surplus grows), so that is a fleet m
		// that meets it after one, m − 1, that does not. Where the
		// reference's wait at m or m − 1 is within 1e-9 of the target
		// (or within the logarithm's slack, pctAbs), float64 cannot tell
		// which side it is on: either neighbour is accepted there.
		if target == nil {
			fail("min_consumers_for_target", sameValue(res.Values["min_consumers_for_target"], nil))
		} else {
			tgt := refFloat(target)
			// meets is +1 when the reference's wait at n meets the target
			// clearly, −1 when it clearly does not, 0 at a tie.
			meets := func(n int64) int {
				if n < 1 {
					return -1
				}
				r := refWaitAt(lambda, mu, p, n, bs[n])
				if !r.stable {
					return -1
				}
				d := new(big.Float).Sub(r.pct, tgt)
				slack := new(big.Float).Mul(tgt, big.NewFloat(1e-9))
				slack.Add(slack, big.NewFloat(pctAbs(r.surplus)))
				switch {
				case new(big.Float).Abs(d).Cmp(slack) <= 0:
					return 0
				case d.Sign() < 0:
					return 1
				}
				return -1
			}
			at, below := meets(m), meets(m-1)
			if at < 0 {
				fail("min_consumers_for_target", fmt.Sprintf("%d, whose percentile wait exceeds the target", m))
			}
			if below > 0 {
				fail("min_consumers_for_target", fmt.Sprintf("%d, but %d consumers already meet the target", m, m-1))
			}
			if at == 0 || below == 0 {
				ties++
			}
			fail("min_consumers_for_target", "")
		}
		for _, out := range f.Outputs {
			if !checked[out.Name] {
				t.Fatalf("%s is not checked", out.Name)
			}
		}
	}
	t.Logf("%d cases; largest relative errors: %v; %d percentile waits held by the logarithm's slack alone; %d least fleets at a tie with the target",
		cases, worst, slackOnly, ties)
}

// The retry storm.

// stormCase is a storm's inputs as the decimals given.
type stormCase struct {
	lambda, mu, backlog, retries, window *big.Rat
}

// stormRef is the reference simulation's outcome.
type stormRef struct {
	drains  bool
	drainAt int64 // the first t with depth 0, when drains
	steps   int64
	// The deepest and the last recorded depth, and the highest arrival rate.
	peak, final, peakArrival *big.Float
	// constant is whether every step's arrival rate was λ(1 + r): no
	// retries, nothing arriving, or every message timed out. Such a run is
	// exact here from first to last.
	constant bool
	// slack is stormAbs of the messages the run could move, B + steps ×
	// (λ(1 + r) + c·μ): what float64's accumulated rounding may be off by.
	slack *big.Rat
}

// refStorm steps the storm as the retry_storm description says:
//
//	timeout_prob = min(1, depth / (λ · W))
//	arrivals     = λ · (1 + r · timeout_prob)
//	depth        = max(0, depth + arrivals − c · μ)
//
// recording the depth at t = 0 … steps − 1 and stopping at the first 0.
// Every quantity is counted in units of 1/D, D the common denominator of
// the decimals, so while the arrival rate is λ(1 + r) (timeout_prob 1, or
// no retries) a step adds one integer to another: exact, as big.Rat would
// be, at a fraction of its cost. A step below the timeout window with
// retries (arrivals λ + r·depth/W) divides by W: from there on the run is
// in refPrec-bit floating point, 1e-60 of the depth a step. bump is added
// to the backlog (nil: none), for the neighbouring runs.
func refStorm(s stormCase, c, steps int64, bump *big.Rat) stormRef {
	backlog := s.backlog
	if bump != nil {
		backlog = rMax(rInt(0), rAdd(backlog, bump))
	}
	capy := rMul(rInt(c), s.mu)
	window := rMul(s.lambda, s.window)
	full := rMul(s.lambda, rAdd(rInt(1), s.retries)) // every message timed out
	d := big.NewInt(1)
	for _, x := range []*big.Rat{backlog, capy, window, full, s.lambda} {
		g := new(big.Int).GCD(nil, nil, d, x.Denom())
		d.Mul(d, new(big.Int).Quo(x.Denom(), g))
	}
	scaled := func(x *big.Rat) *big.Int { // x·D, an integer
		return new(big.Int).Quo(new(big.Int).Mul(x.Num(), d), x.Denom())
	}
	depth, net, win, fullN := scaled(backlog), scaled(rSub(full, capy)), scaled(window), scaled(full)
	retrying := s.lambda.Sign() > 0 && s.retries.Sign() > 0
	winTie := new(big.Int).Mul(win, big.NewInt(1e9+1))
	out := stormRef{constant: true}
	peak, peakArrival := new(big.Int), scaled(s.lambda)
	t := int64(0)
	for ; t < steps; t++ {
		out.steps = t + 1
		if depth.Cmp(peak) > 0 {
			peak.Set(depth)
		}
		if depth.Sign() == 0 {
			out.drains, out.drainAt = true, t
			break
		}
		if retrying {
			if depth.Cmp(win) < 0 {
				out.constant = false
				break // on in floating point
			}
			// A depth within 1e-9 of the window is at timeout_prob 1 here,
			// but float64 may see it a hair below: not held as constant.
			if new(big.Int).Mul(depth, big.NewInt(1e9)).Cmp(winTie) <= 0 {
				out.constant = false
			}
		}
		if fullN.Cmp(peakArrival) > 0 {
			peakArrival.Set(fullN)
		}
		if t+1 == steps {
			break // the last state recorded
		}
		depth.Add(depth, net)
		if depth.Sign() < 0 {
			depth.SetInt64(0)
		}
	}
	unscale := func(x *big.Float) *big.Float {
		return x.Quo(x, new(big.Float).SetPrec(refPrec).SetInt(d))
	}
	toFloat := func(x *big.Int) *big.Float { return new(big.Float).SetPrec(refPrec).SetInt(x) }
	out.final, out.peak, out.peakArrival = toFloat(depth), toFloat(peak), toFloat(peakArrival)
	if !out.constant {
		// Below the window with retries: arrivals λ + depth·(r/W).
		x := out.final
		out.final = new(big.Float)
		lam, capF, winF, fullF := toFloat(scaled(s.lambda)), toFloat(scaled(capy)), toFloat(win), toFloat(fullN)
		rw := new(big.Float).SetPrec(refPrec).Quo(refFloat(s.retries), refFloat(s.window))
		arrival := new(big.Float).SetPrec(refPrec)
		for ; t < steps; t++ {
			out.steps = t + 1
			out.final.Set(x)
			if x.Cmp(out.peak) > 0 {
				out.peak.Set(x)
			}
			if x.Sign() == 0 {
				out.drains, out.drainAt = true, t
				break
			}
			if x.Cmp(winF) < 0 {
				arrival.Mul(x, rw)
				arrival.Add(arrival, lam)
			} else {
				arrival.Set(fullF)
			}
			if arrival.Cmp(out.peakArrival) > 0 {
				out.peakArrival.Set(arrival)
			}
			if t+1 == steps {
				break
			}
			x.Add(x, arrival)
			x.Sub(x, capF)
			if x.Sign() < 0 {
				x.SetInt64(0)
			}
		}
	}
	for _, x := range []*big.Float{out.peak, out.final, out.peakArrival} {
		unscale(x)
	}
	out.slack = rMul(stormAbs, rAdd(backlog, rMul(rInt(out.steps), rAdd(full, capy))))
	return out
}

// stormTol is the relative tolerance of the simulated depths and arrival
// rates: the package steps in float64 by design, and each of its steps
// rounds to ~1e-16 of the depth and the flows, so after t steps a depth
// is off by up to ~t × 2e-16 of the messages that flowed (3,600 steps:
// ~1e-12 of them), and a retry storm's growth (×(1 + r/W) a step below the
// timeout window) carries a relative error along. stormTol relative plus
// stormAbs (1e-11) of the flows (stormRef.slack) holds both with room.
const stormTol = 1e-9

var stormAbs = big.NewRat(1, 100_000_000_000)

// genStorm is the i-th random retry_storm case; i%5 == 0 is a boundary.
func genStorm(rng *rand.Rand, i int) map[string]any {
	mu := positive(rng)
	c := rng.Int64N(1 + rng.Int64N(200))
	capy := rMul(rInt(c), mu)
	lambda := roundSig(rMul(capy, big.NewRat(int64(rng.IntN(1500)), 1000)), 1+rng.IntN(7)) // ρ up to 1.5
	if c == 0 || rng.IntN(20) == 0 {
		lambda = decimalNear(rng)
	}
	retries := randDecimal(rng, 2, 1) // 0 to 9.9
	if rng.IntN(4) == 0 {
		retries = rInt(0)
	}
	window := positive(rng)
	steps := 1 + rng.Int64N(1+rng.Int64N(3600))
	// A backlog of up to ~1,000 s of the fleet's capacity, or any decimal.
	backlog := roundSig(rMul(rAdd(capy, rInt(1)), big.NewRat(rng.Int64N(1_000_000), 1000)), 1+rng.IntN(7))
	if rng.IntN(4) == 0 {
		backlog = decimalNear(rng)
	}
	in := map[string]any{"arrival_rate": lambda, "per_consumer_rate": mu, "consumers": float64(c), "backlog": backlog,
		"retries_per_timeout": retries, "timeout_window_seconds": window, "max_seconds": float64(steps)}
	if rng.IntN(2) == 0 {
		in["rto_seconds"] = float64(1 + rng.Int64N(1+rng.Int64N(3600)))
	}
	switch i % 25 {
	case 0:
		// The fleet exactly at steady state, c·μ = λ: without retries the
		// backlog stays as it is; with them it grows, from a backlog below
		// the timeout window by 1 + r/W a second (half the cases).
		in["consumers"] = float64(max(c, 1))
		in["arrival_rate"] = rMul(rInt(max(c, 1)), mu)
		if rng.IntN(2) == 0 {
			// A storm from a backlog of under one message against 10^5 to
			// 10^9 msg/s in and out, growing by 1 + r/W > 1.01 a second for
			// long enough to grow 10^10-fold (float64's rounding, if of
			// the flows rather than the depth, grows with it).
			mu = roundSig(big.NewRat(100_000+rng.Int64N(9_900_000), 1), 1+rng.IntN(7))
			retries, window = rAdd(rInt(1), randDecimal(rng, 2, 1)), rInt(10+rng.Int64N(90))
			grow, _ := rAdd(rInt(1), rQuo(retries, window)).Float64()
			in["per_consumer_rate"], in["arrival_rate"] = mu, rMul(rInt(max(c, 1)), mu)
			in["backlog"], in["retries_per_timeout"], in["timeout_window_seconds"] = rAdd(randDecimal(rng, 3, 3), big.NewRat(1, 1000)), retries, window
			in["max_seconds"] = float64(min(3600, max(steps, int64(math.Ceil(23/math.Log(grow))))))
		}
	case 5, 20:
		// A backlog that reaches 0 exactly at t = k: k steps of the
		// surplus c·μ − λ(1 + r), without retries, or (case 20) with
		// every message timed out until the last step, W small enough
		// that the least depth before 0, one step's surplus, is at or
		// above λ·W. The RTO is k or a second either side of it.
		c = max(c, 1)
		lambda = roundSig(rMul(rMul(rInt(c), mu), big.NewRat(int64(rng.IntN(1000)), 1000)), 1+rng.IntN(5))
		retries = rInt(0)
		if i%25 == 20 {
			retries = randDecimal(rng, 2, 1)
		}
		surplus := rSub(rMul(rInt(c), mu), rMul(lambda, rAdd(rInt(1), retries)))
		if surplus.Sign() <= 0 || lambda.Sign() == 0 {
			retries, lambda = rInt(0), rInt(0)
			surplus = rMul(rInt(c), mu)
		}
		k := 1 + rng.Int64N(min(steps, 600))
		backlog = rMul(rInt(k), surplus)
		if retries.Sign() > 0 {
			window = roundSig(rQuo(surplus, lambda), 1+rng.IntN(3))
			if rMul(lambda, window).Cmp(surplus) >= 0 {
				window = rQuo(window, rInt(2))
			}
		}
		in["consumers"], in["arrival_rate"], in["retries_per_timeout"], in["timeout_window_seconds"], in["backlog"] = float64(c), lambda, retries, window, backlog
		in["max_seconds"] = float64(max(steps, k+1))
		in["rto_seconds"] = float64(max(1, k+rng.Int64N(3)-1))
		if sigDigits(backlog) > 15 || sigDigits(window) > 15 {
			in["backlog"], in["retries_per_timeout"] = rMul(rInt(k), rMul(rInt(c), mu)), rInt(0)
			in["arrival_rate"] = rInt(0)
		}
	case 10:
		// max_seconds = 1 with a backlog: only t = 0 is recorded.
		in["max_seconds"] = 1.0
		if backlog.Sign() == 0 {
			in["backlog"] = rInt(1)
		}
	case 15:
		// max_seconds = 1 without a backlog: drained at t = 0.
		in["max_seconds"], in["backlog"] = 1.0, rInt(0)
	}
	if i%5 != 0 && i%7 == 0 {
		in["backlog"] = rInt(0)
	}
	if i%5 != 0 && i%11 == 0 {
		in["retries_per_timeout"] = rInt(0)
	}
	return in
}

// stormCaseOf is a case's inputs as decimals (the catalog's default window
// where the case leaves it out).
func stormCaseOf(in map[string]any) stormCase {
	return stormCase{lambda: rat(in, "arrival_rate", nil), mu: rat(in, "per_consumer_rate", nil), backlog: rat(in, "backlog", nil),
		retries: rat(in, "retries_per_timeout", nil), window: rat(in, "timeout_window_seconds", rInt(capacity.DefaultTimeoutWindowSeconds))}
}

// refDrains is whether the reference drains with c consumers within
// steps states as want says, and whether only a neighbouring run does
// (see TestPropertyRetryStorm): the backlog less its slack, the likeliest
// to drain, when want is true; plus its slack when false.
func refDrains(s stormCase, c, steps int64, want bool) (ok, neighbour bool) {
	r := refStorm(s, c, steps, nil)
	if r.drains == want || r.constant {
		return r.drains == want, false
	}
	bump := new(big.Rat).Set(r.slack)
	if want {
		bump.Neg(bump)
	}
	return refStorm(s, c, steps, bump).drains == want, true
}

// stormMismatch is the first output of res that is not ref's, and why;
// "" when all are.
func stormMismatch(res capacity.Result, ref stormRef) (name, msg string) {
	drainAt := any(nil)
	if ref.drains {
		drainAt = rInt(ref.drainAt)
	}
	abs, _ := ref.slack.Float64()
	for _, c := range []struct {
		name string
		msg  string
	}{
		{"drains", sameValue(res.Values["drains"], ref.drains)},
		{"steps", sameValue(res.Values["steps"], ref.steps)},
		{"drain_seconds", sameValue(res.Values["drain_seconds"], drainAt)},
		{"peak_depth", printedCloseTo(res.Values["peak_depth"], ref.peak, stormTol, abs)},
		{"final_depth", printedCloseTo(res.Values["final_depth"], ref.final, stormTol, abs)},
		{"peak_effective_arrival_rate", printedCloseTo(res.Values["peak_effective_arrival_rate"], ref.peakArrival, stormTol, abs)},
	} {
		if c.msg != "" {
			return c.name, c.msg
		}
	}
	return "", ""
}

// stormOutputs are the outputs stormMismatch checks.
var stormOutputs = []string{"drains", "steps", "drain_seconds", "peak_depth", "final_depth", "peak_effective_arrival_rate"}

// TestPropertyRetryStorm: retry_storm against the exact reference
// simulation (refStorm). drains, drain_seconds and steps are the
// reference's exactly; peak_depth, final_depth and
// peak_effective_arrival_rate, as printed, within stormTol relative plus
// stormAbs of the messages moved; min_consumers_to_drain and
// min_consumers_to_drain_within_rto are the least fleets the reference
// drains within max_seconds states and by t = rto_seconds. Draining is
// monotone in the fleet (a step's new depth grows with the old and
// shrinks with c·μ, so a larger fleet is never deeper), so the least is a
// fleet m that drains after one, m − 1, that does not.
//
// A run whose arrival rate is λ(1 + r) throughout (no retries, or all
// timed out) is exact here and must be met exactly, a depth that reaches
// 0 exactly at a whole second included. A run with retries below the
// timeout window is float64's by design, and it can turn on float64's
// rounding: a depth that comes within it of 0 (drained this second or the
// next), or a fleet at the storm's unstable balance c·μ = λ + r·B/W,
// where the exact depth stays B forever and any rounding tips it to drain
// or to grow. There the outcome of the backlog moved by its slack
// (stormAbs of the messages moved) either way is accepted too: the
// neighbour that float64 cannot tell from it. The log counts them.
func TestPropertyRetryStorm(t *testing.T) {
	f := capacity.RetryStorm
	rng := rand.New(rand.NewPCG(13, 23))
	cases := propertyCases(t)
	neighbours, worst := 0, 0.0
	for i := range cases {
		in := genStorm(rng, i)
		res, _, err := f.Run(decimalArgs(t, in))
		if err != nil {
			t.Fatalf("case %d %s: %v", i, caseText(in), err)
		}
		s := stormCaseOf(in)
		c, steps := countOr0(in, "consumers"), countOr0(in, "max_seconds")
		checked := map[string]bool{}
		fail := func(name, msg string) {
			t.Helper()
			checked[name] = true
			if msg != "" {
				t.Fatalf("case %d %s: %s = %s", i, caseText(in), name, msg)
			}
		}

		// The simulation of the fleet given.
		ref := refStorm(s, c, steps, nil)
		name, msg := stormMismatch(res, ref)
		if msg != "" && !ref.constant {
			for _, bump := range []*big.Rat{new(big.Rat).Neg(ref.slack), ref.slack} {
				if n, _ := stormMismatch(res, refStorm(s, c, steps, bump)); n == "" {
					name, msg = "", ""
					neighbours++
					break
				}
			}
		}
		for _, out := range stormOutputs {
			fail(out, "")
		}
		fail(name, msg)
		if g, ok := res.Values["peak_depth"].(float64); ok && g != 0 && !ref.drains {
			worst = max(worst, relError(capacity.Clean(g), ref.peak))
		}

		// The least fleets that drain.
		least := func(name string, within int64) {
			t.Helper()
			got := res.Values[name]
			switch {
			case s.backlog.Sign() == 0:
				fail(name, sameValue(got, int64(0))) // drained at t = 0
				return
			case within < 2:
				fail(name, sameValue(got, nil)) // t = 0 only: no fleet drains a backlog
				return
			}
			m, ok := got.(int64)
			if !ok || m < 1 {
				fail(name, fmt.Sprintf("%v (%T), want a fleet size", got, got))
			}
			ok, nb := refDrains(s, m, within, true)
			if !ok {
				fail(name, fmt.Sprintf("%d, which does not drain by t = %d", m, within-1))
			}
			ok, nb1 := refDrains(s, m-1, within, false)
			if !ok {
				fail(name, fmt.Sprintf("%d, but %d consumers drain by t = %d", m, m-1, within-1))
			}
			if nb || nb1 {
				neighbours++
			}
			fail(name, "")
		}
		least("min_consumers_to_drain", steps)
		if rto, ok := in["rto_seconds"].(float64); ok {
			least("min_consumers_to_drain_within_rto", int64(rto)+1)
		} else {
			fail("min_consumers_to_drain_within_rto", sameValue(res.Values["min_consumers_to_drain_within_rto"], nil))
		}
		for _, out := range f.Outputs {
			if !checked[out.Name] {
				t.Fatalf("%s is not checked", out.Name)
			}
		}
	}
	t.Logf("%d cases; %d outcomes were a neighbouring run's; the largest relative error of a peak depth that does not drain: %.3g", cases, neighbours, worst)
}

// printedCloseTo is closeTo for a float64 the package leaves to the
// printer: got as written, to 15 digits.
func printedCloseTo(got any, want *big.Float, rel, abs float64) string {
	if g, ok := got.(float64); ok {
		got = capacity.Clean(g)
	}
	return closeTo(got, want, rel, abs)
}
