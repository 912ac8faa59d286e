// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// TestExactDecimals: the fluid model's results are the exact decimals, not
// float64's neighbours of them (compared with ==, not within a tolerance).
func TestExactDecimals(t *testing.T) {
	must := func(v float64, err error) float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	supply := func(fleets []capacity.FleetSize, arrivalRate float64, retries capacity.Retries) capacity.Supply {
		t.Helper()
		s, err := capacity.SupplyAgainst(fleets, arrivalRate, retries, 0)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"λ_eff = 8,582 × (1 + 0.2 × 2.3)", must(capacity.EffectiveArrivalRate(8582, capacity.Retries{Rate: 0.2, Average: 2.3})), 12529.72},
		{"surplus 12,530 − 12,529.72", capacity.NetRate(12530, 12529.72), 0.28},
		{"net rate 10 − 10.22", capacity.NetRate(10, 10.22), -0.22},
		{"capacity 3 × 0.1", must(capacity.FleetCapacity(3, 0.1)), 0.3},
		{"no surplus at 3 × 0.1 against 0.3", capacity.NetRate(must(capacity.FleetCapacity(3, 0.1)), 0.3), 0},
		{"SLA depth 0.7 × 3", must(capacity.SLAMaxDepth(0.7, 3)), 2.1},
		{"headroom capacity 0.1 × 1.2", must(capacity.HeadroomCapacity(0.1, 0.2)), 0.12},
		{"total capacity 0.1 + 0.2", supply([]capacity.FleetSize{{Count: 1, PerConsumerRate: 0.1}, {Count: 1, PerConsumerRate: 0.2}}, 0, capacity.Retries{}).Capacity, 0.3},
		{"no surplus at 3 × 0.1 against 0.1 × (1 + 0.5 × 4)", supply([]capacity.FleetSize{{Count: 3, PerConsumerRate: 0.1}}, 0.1, capacity.Retries{Rate: 0.5, Average: 4}).Surplus, 0},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want exactly %v", c.name, c.got, c.want)
		}
	}
	d, err := capacity.DrainBacklog(capacity.DrainInput{Backlog: 3360, ArrivalRate: 8582, CompletionRate: 12530, Retries: capacity.Retries{Rate: 0.2, Average: 2.3}})
	if err != nil {
		t.Fatal(err)
	}
	if d.NetRate != 0.28 || d.DrainSeconds == nil || *d.DrainSeconds != 12000 {
		t.Errorf("drain: net rate %v, drain_seconds %v, want exactly 0.28 and 12000", d.NetRate, ptrText(d.DrainSeconds))
	}
	if s, ok, err := capacity.ForecastDrainSeconds(24, 0.3, []float64{0.1, 0.1}, 60, capacity.Retries{}); err != nil || !ok || s != 120 {
		t.Errorf("a backlog gone at the end of the last step: %v %v %v, want 120 s", s, ok, err)
	}
	// 1e9 / 0.003 is 333,333,333,333.3…: the ceiling is the next
	// integer, and the surplus of that fleet is 0.002 msg/s.
	sz, err := capacity.Size(capacity.SizingInput{ArrivalRate: 1e9, PerConsumerRate: 0.003})
	if err != nil {
		t.Fatal(err)
	}
	if sz.RequiredConsumers != 333333333334 || sz.Surplus != 0.002 {
		t.Errorf("λ 1e9, μ 0.003: %d consumers, surplus %v; want 333,333,333,334 and 0.002", sz.RequiredConsumers, sz.Surplus)
	}
	// 900 s × 1.1 is 990 s; the drain of 840 messages at 0.28 msg/s is
	// 3,000 s, and (3,000 + 5 × 990) × 1.1 is 8,745 s.
	st, err := capacity.QueueSettings(capacity.SettingsInput{ArrivalRate: 12529.72, PerConsumerRate: 0.4, Consumers: 31325, MaxBacklog: 840,
		RetentionMargin: 0.1, MinRetentionSeconds: 60, MaxProcessingSeconds: 900, VisibilityMargin: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if st.VisibilityTimeout != 990 || st.DrainSeconds != 3000 || st.Retention != 8745 {
		t.Errorf("queue settings: visibility %d, drain %v, retention %d; want 990, 3000 and 8745", st.VisibilityTimeout, st.DrainSeconds, st.Retention)
	}
	// Erlang C at 176 consumers for 1 msg/s: a probability of 1.87e-321,
	// a denormal, is 0; at 150 it is written to 15 digits.
	for _, n := range []int64{176, 150} {
		w, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: 1, PerConsumerRate: 1, Consumers: n, Percentile: 0.99})
		if err != nil {
			t.Fatal(err)
		}
		p := *w.ProbabilityOfWait
		mantissa, _, _ := strings.Cut(strings.TrimLeft(strconv.FormatFloat(p, 'e', -1, 64), "-"), "e")
		switch {
		case n == 176 && p != 0:
			t.Errorf("probability of waiting at 176 consumers: %v, want 0", p)
		case n == 150 && (p == 0 || len(strings.ReplaceAll(mantissa, ".", "")) > 15):
			t.Errorf("probability of waiting at 150 consumers: %v, want a number of at most 15 digits", p)
		}
	}
	// Each output as its docs say. A minimum fleet of 2 at 1 msg/s clears
	// 100 messages within the 60 s lag with nothing arriving: the formula
	// ceil(0 / 1 + max(0, 100 − 2 × 60) / (1 × 840)) is 0.
	lagged, err := capacity.Size(capacity.SizingInput{ArrivalRate: 0, PerConsumerRate: 1, MaxBacklog: 100, RTOSeconds: 900, ProvisioningLagSeconds: 60, MinConsumers: ptrInt(2)})
	if err != nil || lagged.RequiredConsumers != 0 || lagged.DrainSeconds == nil || *lagged.DrainSeconds != 50 {
		t.Errorf("a backlog the minimum fleet clears in the lag: %d consumers, drain %s, %v; want 0 and 50 s", lagged.RequiredConsumers, ptrText(lagged.DrainSeconds), err)
	}
	// 46 × 2,277.1777692559 msg/s is 104,750.1773857714 msg/s: against
	// 70,000 msg/s it drains 173,750.886928857 messages in exactly 5 s
	// (5.00000000000012 from the capacity written to 15 digits).
	fleetDrain, _, err := capacity.DrainFormula.Run(map[string]any{"backlog": 173750.886928857, "arrival_rate": 70000.0, "consumers": 46.0, "per_consumer_rate": 2277.1777692559})
	if err != nil || fleetDrain.Values["drain_seconds"] != 5.0 {
		t.Errorf("the drain of 46 × 2,277.1777692559 msg/s: %v, %v; want exactly 5 s", fleetDrain.Values["drain_seconds"], err)
	}
	// Nothing completes: wait_seconds is null, behind an empty backlog too.
	idle, _, err := capacity.DrainFormula.Run(map[string]any{"backlog": 0.0, "arrival_rate": 0.0, "consumers": 0.0, "per_consumer_rate": 5.0})
	if err != nil {
		t.Fatal(err)
	}
	if idle.Values["wait_seconds"] != nil {
		t.Errorf("wait_seconds with nothing completing: %v, want null", idle.Values["wait_seconds"])
	}
	// max_seconds = 1 records t = 0 only: no fleet drains a backlog
	// within it, and min_consumers_to_drain is null, not an error.
	res, _, err := capacity.RetryStorm.Run(map[string]any{"arrival_rate": 3.0, "per_consumer_rate": 2.0, "consumers": 0.0, "backlog": 50.0,
		"retries_per_timeout": 0.0, "max_seconds": 1.0})
	if err != nil || res.Values["min_consumers_to_drain"] != nil || res.Values["drains"] != false {
		t.Errorf("max_seconds = 1 with a backlog: %v, %v; want no error, drains false and min_consumers_to_drain null", res.Values, err)
	}
	if c, err := capacity.MinDrainingConsumers(0.3, capacity.Retries{}, 0.1); err != nil || c != 4 {
		t.Errorf("the fleet that drains 0.3 msg/s at 0.1 each: %d %v, want 4 (3 only keeps up)", c, err)
	}
}

func ptrText(p *float64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// TestSizeIsExact: on random decimal inputs, the sized fleet is the least
// that both keeps a backlog draining within the RTO and leaves the
// headroom asked for, as exact rationals judge it, and the surplus, drain
// time and headroom reported are the exact values rounded once to 15
// significant digits.
func TestSizeIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 23))
	for i := range propertyCases(t) {
		lambda, mu := randDecimal(rng, 7, 3), randDecimal(rng, 5, 3)
		if mu.Sign() == 0 {
			continue
		}
		retryRate, avgRetries := randDecimal(rng, 2, 2), randDecimal(rng, 2, 1)
		if retryRate.Cmp(big.NewRat(1, 1)) > 0 {
			retryRate = big.NewRat(1, 1)
		}
		backlog, rto, headroom := randDecimal(rng, 6, 1), randDecimal(rng, 4, 0), randDecimal(rng, 2, 2)
		if rng.IntN(4) == 0 {
			backlog = new(big.Rat)
		}
		if rto.Sign() == 0 {
			rto = big.NewRat(900, 1)
		}
		// Boundaries: λ an exact multiple of μ, a backlog an exact number
		// of consumers' RTO.
		if i%5 == 0 {
			lambda = new(big.Rat).Mul(mu, big.NewRat(int64(rng.IntN(1000)), 1))
			retryRate = new(big.Rat)
		}
		in := capacity.SizingInput{ArrivalRate: f(lambda), PerConsumerRate: f(mu), MaxBacklog: f(backlog), RTOSeconds: f(rto),
			Retries: capacity.Retries{Rate: f(retryRate), Average: f(avgRetries)}, MinHeadroom: f(headroom)}
		name := fmt.Sprintf("%+v", in)
		got, err := capacity.Size(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		one := big.NewRat(1, 1)
		eff := new(big.Rat).Mul(lambda, new(big.Rat).Add(one, new(big.Rat).Mul(retryRate, avgRetries)))
		// needs is whether c consumers meet every requirement.
		needs := func(c int64) bool {
			capy := new(big.Rat).Mul(big.NewRat(c, 1), mu)
			surplus := new(big.Rat).Sub(capy, eff)
			if surplus.Sign() < 0 {
				return false
			}
			if backlog.Sign() > 0 {
				// B / surplus ≤ RTO, so surplus > 0 and B ≤ surplus × RTO.
				if surplus.Sign() <= 0 || backlog.Cmp(new(big.Rat).Mul(surplus, rto)) > 0 {
					return false
				}
			}
			return capy.Cmp(new(big.Rat).Mul(eff, new(big.Rat).Add(one, headroom))) >= 0
		}
		c := got.RequiredConsumers
		if !needs(c) || (c > 1 && needs(c-1) && c-1 >= got.SteadyStateConsumers) {
			t.Fatalf("%s: required_consumers %d is not the least fleet that meets the RTO and the headroom", name, c)
		}
		capy := new(big.Rat).Mul(big.NewRat(c, 1), mu)
		surplus := new(big.Rat).Sub(capy, eff)
		if want := round15(surplus); got.Surplus != want {
			t.Fatalf("%s: surplus %v, want %v", name, got.Surplus, want)
		}
		if want := round15(eff); got.EffectiveArrivalRate != want {
			t.Fatalf("%s: effective arrival %v, want %v", name, got.EffectiveArrivalRate, want)
		}
		if backlog.Sign() > 0 {
			want := round15(new(big.Rat).Quo(backlog, surplus))
			if got.DrainSeconds == nil || *got.DrainSeconds != want {
				t.Fatalf("%s: drain_seconds %s, want %v", name, ptrText(got.DrainSeconds), want)
			}
		}
		if eff.Sign() > 0 {
			want := round15(new(big.Rat).Quo(surplus, eff))
			if got.Headroom == nil || *got.Headroom != want {
				t.Fatalf("%s: headroom %s, want %v", name, ptrText(got.Headroom), want)
			}
		}
	}
}

// randDecimal is a random decimal of at most digits significant digits
// and places decimal places, at least 0.
func randDecimal(rng *rand.Rand, digits, places int) *big.Rat {
	m := rng.Int64N(pow10(digits))
	return big.NewRat(m, pow10(places))
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// f is a decimal as the float64 that reads as it, as Terraform hands it.
func f(r *big.Rat) float64 {
	v, _ := strconv.ParseFloat(r.FloatString(12), 64)
	return v
}

// round15 is r rounded to 15 significant digits, halves away from zero,
// as the float64 that reads as that decimal: by integer division, a
// different path from the package's.
func round15(r *big.Rat) float64 {
	if r.Sign() == 0 {
		return 0
	}
	sign := ""
	abs := new(big.Rat).Abs(r)
	if r.Sign() < 0 {
		sign = "-"
	}
	// Find e with 10^e ≤ |r| < 10^(e+1) by stepping from 0.
	e := 0
	ten := big.NewRat(10, 1)
	p := big.NewRat(1, 1)
	for abs.Cmp(p) < 0 {
		p.Quo(p, ten)
		e--
	}
	for abs.Cmp(new(big.Rat).Mul(p, ten)) >= 0 {
		p.Mul(p, ten)
		e++
	}
	// q = floor(|r| × 10^14 / 10^e), rounded half up by the remainder.
	n := new(big.Rat).Quo(new(big.Rat).Mul(abs, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(14), nil))), p)
	q, m := new(big.Int).QuoRem(n.Num(), n.Denom(), new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).Cmp(n.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	v, err := strconv.ParseFloat(fmt.Sprintf("%s%se%d", sign, q, e-14), 64)
	if err != nil {
		panic(err)
	}
	return v
}

func ptrInt(n int64) *int64 { return &n }
