// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/ratref"
)

// The exact-reference properties: every output of a formula, as the
// catalog computes it for every face (data source, function, CLI, the
// linter's facts), equals a reference written here in exact rationals
// (big.Rat) from the same decimal inputs and rounded once, by round15, to
// 15 significant digits. The reference is a second, independent writing of
// MATH.md's formula: it shares no code with the package beyond the inputs.

// family is one formula checked against its reference.
type family struct {
	formula *capacity.Formula
	// gen is the i-th case's arguments. A number is a *big.Rat (the
	// decimal a user types), a list of numbers a []*big.Rat; anything
	// else is passed as it is. Cases with i%5 == 0 should be built on a
	// boundary (an exact tie, a zero surplus, a limit met exactly).
	gen func(rng *rand.Rand, i int) map[string]any
	// ref is every output of the formula for those arguments: a *big.Rat
	// for a number (rounded here, once), a bool, an int64, a string, nil
	// for null, and []any or map[string]any of those for lists and
	// objects. Defaults the catalog fills in are the reference's to fill.
	ref func(in map[string]any) map[string]any
	// skip names outputs checked elsewhere, with why.
	skip map[string]string
	// warns is, for each warning the formula gives for those arguments,
	// in order, its summary followed by words its detail holds; nil
	// leaves the warnings unchecked.
	warns func(in map[string]any) [][]string
}

// propertyCases is how many random cases each property runs: 1,000 in
// make test, 100 with -short, and QUEUECAP_PROPERTY_CASES (make fuzz
// sets 10,000).
func propertyCases(t *testing.T) int {
	t.Helper()
	if n, err := strconv.Atoi(os.Getenv("QUEUECAP_PROPERTY_CASES")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 100
	}
	return 1000
}

// checkFamily runs the family's property on propertyCases random cases.
func checkFamily(t *testing.T, fam family, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 23))
	for i := range propertyCases(t) {
		in := fam.gen(rng, i)
		raw := make(map[string]any, len(in))
		for k, v := range in {
			raw[k] = asFloat(v)
		}
		res, _, err := fam.formula.Run(raw)
		if err != nil {
			t.Fatalf("case %d %s: %v", i, caseText(in), err)
		}
		want := fam.ref(in)
		for _, out := range fam.formula.Outputs {
			if _, ok := fam.skip[out.Name]; ok {
				continue
			}
			w, ok := want[out.Name]
			if !ok {
				t.Fatalf("the reference for %s has no %s", fam.formula.Name, out.Name)
			}
			if msg := sameValue(res.Values[out.Name], w); msg != "" {
				t.Fatalf("case %d %s: %s = %s", i, caseText(in), out.Name, msg)
			}
		}
		if fam.warns != nil {
			if msg := sameWarnings(res.Warnings, fam.warns(in)); msg != "" {
				t.Fatalf("case %d %s: %s", i, caseText(in), msg)
			}
		}
	}
}

// sameWarnings is "" when the warnings are those want describes, each a
// summary followed by words its detail holds; otherwise what differs.
func sameWarnings(got []capacity.Warning, want [][]string) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d warnings %v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		if got[i].Summary != w[0] {
			return fmt.Sprintf("warning %d is %q, want %q", i, got[i].Summary, w[0])
		}
		for _, words := range w[1:] {
			if !strings.Contains(got[i].Detail, words) {
				return fmt.Sprintf("warning %q: %q does not say %q", got[i].Summary, got[i].Detail, words)
			}
		}
	}
	return ""
}

// asFloat is an argument as Terraform hands it to the catalog.
func asFloat(v any) any {
	switch v := v.(type) {
	case *big.Rat:
		return f(v)
	case []*big.Rat:
		out := make([]float64, len(v))
		for i, r := range v {
			out[i] = f(r)
		}
		return out
	}
	return v
}

// caseText is a case's arguments as decimals, sorted by name.
func caseText(in map[string]any) string {
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	slices.Sort(names)
	s := "{"
	for i, k := range names {
		if i > 0 {
			s += " "
		}
		s += k + "=" + valueText(in[k])
	}
	return s + "}"
}

func valueText(v any) string {
	switch v := v.(type) {
	case *big.Rat:
		return v.FloatString(6)
	case []*big.Rat:
		s := "["
		for i, r := range v {
			if i > 0 {
				s += ","
			}
			s += r.FloatString(6)
		}
		return s + "]"
	}
	return fmt.Sprint(v)
}

// sameValue is "" when got, as the catalog returns it, is want, as the
// reference gives it; otherwise what differs.
func sameValue(got, want any) string {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return fmt.Sprintf("%v, want null", got)
		}
		return ""
	case *big.Rat:
		r := round15(w)
		switch g := got.(type) {
		case float64:
			if g != r {
				return fmt.Sprintf("%v, want %v (exactly %s)", g, r, w.FloatString(20))
			}
			return ""
		case int64:
			if float64(g) != r || !w.IsInt() {
				return fmt.Sprintf("%d, want %v", g, r)
			}
			return ""
		}
		return fmt.Sprintf("%v (%T), want the number %v", got, got, r)
	case int64:
		if g, ok := got.(int64); !ok || g != w {
			return fmt.Sprintf("%v (%T), want %d", got, got, w)
		}
		return ""
	case bool, string:
		if got != want {
			return fmt.Sprintf("%v, want %v", got, want)
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%v, want %d elements", got, len(w))
		}
		for i := range w {
			if msg := sameValue(g[i], w[i]); msg != "" {
				return fmt.Sprintf("[%d] %s", i, msg)
			}
		}
		return ""
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%v (%T), want an object", got, got)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf(".%s is not in the reference", k)
			}
		}
		for k, wv := range w {
			if msg := sameValue(g[k], wv); msg != "" {
				return fmt.Sprintf(".%s %s", k, msg)
			}
		}
		return ""
	}
	return fmt.Sprintf("the reference's %T is not a value", want)
}

// Exact arithmetic for references (internal/ratref), under short names.
var (
	rAdd, rSub, rMul, rQuo = ratref.Add, ratref.Sub, ratref.Mul, ratref.Quo
	rInt                   = ratref.Int
	rMax, rMin             = ratref.Max, ratref.Min
	rCeil                  = ratref.Ceil
)

// rat is the named number argument, or def when the case leaves it out.
func rat(in map[string]any, name string, def *big.Rat) *big.Rat {
	if v, ok := in[name].(*big.Rat); ok {
		return v
	}
	return def
}

// effArrival is λ × (1 + retry_rate × avg_retries).
func effArrival(in map[string]any) *big.Rat {
	amp := rAdd(rInt(1), rMul(rat(in, "retry_rate", rInt(0)), rat(in, "avg_retries", rInt(0))))
	return rMul(rat(in, "arrival_rate", nil), amp)
}

// randRetries sets retry_rate and avg_retries in about half of the cases.
func randRetries(rng *rand.Rand, in map[string]any) {
	if rng.IntN(2) == 0 {
		in["retry_rate"] = rMin(randDecimal(rng, 3, 3), rInt(1))
		in["avg_retries"] = randDecimal(rng, 2, 1)
	}
}

// decimalNear is a random decimal of 1 to 7 significant digits, with 0 to
// 3 decimal places.
func decimalNear(rng *rand.Rand) *big.Rat {
	return randDecimal(rng, 1+rng.IntN(7), rng.IntN(4))
}

// positive is a random decimal above 0.
func positive(rng *rand.Rand) *big.Rat {
	for {
		if r := decimalNear(rng); r.Sign() > 0 {
			return r
		}
	}
}

func TestPropertyDrain(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.DrainFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			in := map[string]any{"backlog": decimalNear(rng), "arrival_rate": decimalNear(rng)}
			randRetries(rng, in)
			if rng.IntN(2) == 0 {
				in["completion_rate"] = positive(rng)
			} else {
				in["consumers"] = float64(rng.IntN(2000))
				in["per_consumer_rate"] = positive(rng)
				if rng.IntN(3) == 0 {
					// A rate of 13 digits: the fleet's capacity has more
					// than 15, and the drain must divide by it exactly.
					in["per_consumer_rate"] = rAdd(randDecimal(rng, 13, 10), big.NewRat(1, 10000000000))
				}
			}
			if i%5 == 0 {
				// The completion rate is exactly the effective arrival rate
				// (no surplus), or a decimal step above it.
				delete(in, "consumers")
				delete(in, "per_consumer_rate")
				c := effArrival(in)
				if i%10 == 0 {
					c = rAdd(c, big.NewRat(1, 1000))
				}
				if c.Sign() == 0 {
					c = big.NewRat(1, 10)
				}
				in["completion_rate"] = c
			}
			if rng.IntN(3) == 0 {
				in["ttl_seconds"] = positive(rng)
			}
			if rng.IntN(3) == 0 {
				n := 1 + rng.IntN(6)
				fc := make([]*big.Rat, n)
				for j := range fc {
					fc[j] = decimalNear(rng)
				}
				in["arrival_forecast"] = fc
				if rng.IntN(2) == 0 {
					in["forecast_step_seconds"] = positive(rng)
				}
			}
			if i%5 == 1 {
				// A backlog that empties exactly at the end of step k of the
				// forecast: the sum of the first k steps' net completions.
				in["completion_rate"] = positive(rng)
				delete(in, "consumers")
				delete(in, "per_consumer_rate")
				// Few enough digits that the backlog is a decimal of at most
				// 15: no retries, whole seconds per step.
				delete(in, "retry_rate")
				delete(in, "avg_retries")
				c, step := rat(in, "completion_rate", nil), rInt(1+rng.Int64N(3600))
				n := 1 + rng.IntN(4)
				k := 1 + rng.IntN(n)
				fc, left := make([]*big.Rat, n), rInt(0)
				for j := range fc {
					fc[j] = rMin(decimalNear(rng), c)
					if net := rSub(c, fc[j]); j < k {
						left = rAdd(left, rMul(net, step))
					}
				}
				if left.Sign() < 0 {
					left = rInt(0)
				}
				in["arrival_forecast"], in["forecast_step_seconds"], in["backlog"] = fc, step, left
			}
			if i%7 == 0 {
				in["backlog"] = rInt(0)
			}
			return in
		},
		ref: func(in map[string]any) map[string]any {
			backlog := rat(in, "backlog", nil)
			completion := rat(in, "completion_rate", nil)
			if completion == nil {
				consumers, _ := in["consumers"].(float64)
				completion = rMul(rInt(int64(consumers)), rat(in, "per_consumer_rate", nil))
			}
			eff := effArrival(in)
			net := rSub(completion, eff)
			out := map[string]any{"effective_arrival_rate": eff, "net_rate": net, "drains": false, "drain_seconds": nil,
				"wait_seconds": nil, "should_shed": nil, "forecast_drains": nil, "forecast_drain_seconds": nil}
			var drain *big.Rat
			switch {
			case backlog.Sign() == 0:
				drain = rInt(0)
			case net.Sign() > 0:
				drain = rQuo(backlog, net)
			}
			if drain != nil {
				out["drains"], out["drain_seconds"] = true, drain
			}
			if completion.Sign() > 0 {
				out["wait_seconds"] = rQuo(backlog, completion)
			}
			if ttl := rat(in, "ttl_seconds", nil); ttl != nil {
				out["should_shed"] = drain == nil || drain.Cmp(ttl) > 0
			}
			if fc, ok := in["arrival_forecast"].([]*big.Rat); ok {
				step := rat(in, "forecast_step_seconds", rInt(capacity.DefaultForecastStepSeconds))
				amp := rAdd(rInt(1), rMul(rat(in, "retry_rate", rInt(0)), rat(in, "avg_retries", rInt(0))))
				out["forecast_drains"] = false
				left := backlog
				for j, a := range fc {
					if left.Sign() == 0 {
						out["forecast_drains"], out["forecast_drain_seconds"] = true, rInt(0)
						break
					}
					net := rSub(completion, rMul(a, amp))
					// The backlog empties within this step when the step's
					// net completions reach it, at the step's very end included.
					if net.Sign() > 0 && rMul(net, step).Cmp(left) >= 0 {
						out["forecast_drains"], out["forecast_drain_seconds"] = true, rAdd(rMul(rInt(int64(j)), step), rQuo(left, net))
						break
					}
					left = rSub(left, rMul(net, step))
				}
			}
			// completion_rate is an output too (computed from the fleet).
			out["completion_rate"] = completion
			return out
		},
	}, 1)
}

func TestPropertyConsumers(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.Consumers,
		gen: func(rng *rand.Rand, i int) map[string]any {
			mu := positive(rng)
			in := map[string]any{"arrival_rate": decimalNear(rng), "per_consumer_rate": mu}
			randRetries(rng, in)
			if i%5 == 0 {
				// λ an exact multiple of a decimal μ: the steady state has no
				// surplus at all.
				in["arrival_rate"] = rMul(mu, rInt(rng.Int64N(1000)))
				delete(in, "retry_rate")
				delete(in, "avg_retries")
			}
			if rng.IntN(3) > 0 {
				rto := rInt(1 + rng.Int64N(7200))
				in["rto_seconds"] = rto
				in["max_backlog"] = randDecimal(rng, 1+rng.IntN(8), rng.IntN(2))
				if i%5 == 0 {
					// A backlog exactly k consumers' worth over the RTO.
					in["max_backlog"] = rMul(rMul(mu, rto), rInt(rng.Int64N(50)))
				}
				if rng.IntN(2) == 0 {
					in["provisioning_lag_seconds"] = rQuo(rInt(rng.Int64N(rto.Num().Int64()*10)), rInt(10)) // below the RTO
					if rng.IntN(2) == 0 {
						in["min_consumers"] = float64(rng.IntN(200))
					}
				}
			}
			if rng.IntN(3) == 0 {
				in["min_headroom"] = randDecimal(rng, 2, 2)
			}
			return in
		},
		ref: func(in map[string]any) map[string]any {
			mu, eff := rat(in, "per_consumer_rate", nil), effArrival(in)
			backlog, rto := rat(in, "max_backlog", rInt(0)), rat(in, "rto_seconds", rInt(0))
			lag, h := rat(in, "provisioning_lag_seconds", rInt(0)), rat(in, "min_headroom", rInt(0))
			steady := rCeil(rQuo(eff, mu))
			cmin := steady
			if c, ok := in["min_consumers"].(float64); ok {
				cmin = rInt(int64(c))
			}
			sMin, remaining, window := rInt(0), backlog, rto
			if lag.Sign() > 0 && rto.Sign() > 0 {
				sMin = rMax(rSub(rMul(cmin, mu), eff), rInt(0))
				remaining = rMax(rSub(backlog, rMul(sMin, lag)), rInt(0))
				window = rSub(rto, lag)
			}
			ratio := rQuo(eff, mu)
			if remaining.Sign() > 0 {
				ratio = rAdd(ratio, rQuo(remaining, rMul(mu, window)))
			}
			required := rMax(rCeil(ratio), steady)
			if h.Sign() > 0 {
				required = rMax(required, rCeil(rQuo(rMul(eff, rAdd(rInt(1), h)), mu)))
			}
			capy := rMul(required, mu)
			surplus := rSub(capy, eff)
			out := map[string]any{"effective_arrival_rate": eff, "steady_state_consumers": steady.Num().Int64(),
				"required_consumers": required.Num().Int64(), "capacity": capy, "surplus": surplus,
				"utilization": rInt(0), "headroom": nil, "overhead": nil, "drain_seconds": nil}
			if capy.Sign() > 0 {
				out["utilization"] = rQuo(eff, capy)
			}
			if eff.Sign() > 0 {
				out["headroom"] = rQuo(surplus, eff)
			}
			if steady.Sign() > 0 {
				out["overhead"] = rSub(rQuo(required, steady), rInt(1))
			}
			switch {
			case lag.Sign() > 0 && sMin.Sign() > 0 && backlog.Cmp(rMul(sMin, lag)) <= 0:
				out["drain_seconds"] = rQuo(backlog, sMin)
			case backlog.Sign() == 0:
				out["drain_seconds"] = rInt(0)
			case surplus.Sign() > 0:
				out["drain_seconds"] = rAdd(rQuo(rSub(backlog, rMul(sMin, lag)), surplus), lag)
			}
			return out
		},
	}, 2)
}

func TestPropertySLADepth(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.SLADepth,
		gen: func(rng *rand.Rand, i int) map[string]any {
			return map[string]any{"arrival_rate": decimalNear(rng), "sla_seconds": positive(rng)}
		},
		ref: func(in map[string]any) map[string]any {
			return map[string]any{"max_depth": rMul(rat(in, "arrival_rate", nil), rat(in, "sla_seconds", nil))}
		},
	}, 3)
}

func TestPropertyTTLBacklog(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.TTLBacklogFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			in := map[string]any{"arrival_rate": decimalNear(rng), "incident_seconds": decimalNear(rng), "ttl_seconds": positive(rng)}
			randRetries(rng, in)
			if rng.IntN(2) == 0 {
				in["degraded_completion_rate"] = decimalNear(rng)
			}
			if i%5 == 0 {
				// A tie: the TTL window is exactly the unbounded backlog
				// (λ × ttl = (λ − degraded) × incident), or the fleet keeps up
				// exactly.
				delete(in, "retry_rate")
				delete(in, "avg_retries")
				lambda, incident := rat(in, "arrival_rate", nil), rat(in, "incident_seconds", nil)
				if i%10 == 0 && lambda.Sign() > 0 && incident.Sign() > 0 {
					in["degraded_completion_rate"] = rInt(0)
					in["ttl_seconds"] = incident
				} else {
					in["degraded_completion_rate"] = lambda
				}
			}
			return in
		},
		ref: func(in map[string]any) map[string]any {
			eff := effArrival(in)
			unbounded := rMul(rMax(rSub(eff, rat(in, "degraded_completion_rate", rInt(0))), rInt(0)), rat(in, "incident_seconds", nil))
			window := rMul(eff, rat(in, "ttl_seconds", nil))
			applies := window.Cmp(unbounded) < 0
			return map[string]any{"effective_arrival_rate": eff, "unbounded_backlog": unbounded,
				"ttl_bounded_backlog": rMin(window, unbounded), "ttl_bound_applies": applies}
		},
	}, 4)
}

func TestPropertyReplayBudget(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.ReplayBudgetFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			limit := positive(rng)
			in := map[string]any{"downstream_limit": limit, "live_usage": rMin(decimalNear(rng), limit), "retry_usage": rMin(decimalNear(rng), limit)}
			if rng.IntN(2) == 0 {
				in["calls_per_job"] = positive(rng)
			}
			if rng.IntN(2) == 0 {
				in["safety_margin"] = rMin(randDecimal(rng, 2, 2), rInt(1))
			}
			if rng.IntN(2) == 0 {
				in["dlq_depth"] = decimalNear(rng)
			}
			if i%5 == 0 {
				// Live work and retries leave exactly the margin: no room, to
				// the last decimal.
				margin := rat(in, "safety_margin", big.NewRat(1, 10))
				free := rMul(limit, rSub(rInt(1), margin))
				in["live_usage"] = rMin(rat(in, "live_usage", nil), free)
				in["retry_usage"] = rSub(free, rat(in, "live_usage", nil))
			}
			return in
		},
		ref: func(in map[string]any) map[string]any {
			margin := rat(in, "safety_margin", big.NewRat(1, 10))
			free := rSub(rMul(rat(in, "downstream_limit", nil), rSub(rInt(1), margin)), rAdd(rat(in, "live_usage", nil), rat(in, "retry_usage", nil)))
			out := map[string]any{"replay_calls_per_second": rInt(0), "replay_jobs_per_second": rInt(0), "replay_seconds": nil}
			if free.Sign() > 0 {
				jobs := rQuo(free, rat(in, "calls_per_job", rInt(1)))
				out["replay_calls_per_second"], out["replay_jobs_per_second"] = free, jobs
				if d := rat(in, "dlq_depth", nil); d != nil {
					out["replay_seconds"] = rQuo(d, jobs)
				}
			}
			return out
		},
	}, 5)
}
