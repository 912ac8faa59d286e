// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// The exact references of queuecap_queue_settings and queuecap_fleet.

// roundPlaces is r ≥ 0 rounded half up to places decimal places.
func roundPlaces(r *big.Rat, places int) *big.Rat {
	s := rMul(r, rInt(pow10(places)))
	q, m := new(big.Int).QuoRem(s.Num(), s.Denom(), new(big.Int))
	if new(big.Int).Mul(m, big.NewInt(2)).Cmp(s.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetFrac(q, big.NewInt(pow10(places)))
}

// isArgument reports whether r ≥ 0 is a decimal the harness hands over
// unchanged: at most 12 decimal places (f writes 12) and at most 15
// significant digits.
func isArgument(r *big.Rat) bool {
	scale := big.NewInt(pow10(12))
	if r.Sign() < 0 || new(big.Int).Rem(scale, r.Denom()).Sign() != 0 {
		return false
	}
	n := new(big.Int).Mul(r.Num(), new(big.Int).Quo(scale, r.Denom()))
	if n.Sign() == 0 {
		return true
	}
	ten, m := big.NewInt(10), new(big.Int)
	for {
		q, rem := new(big.Int).QuoRem(n, ten, m)
		if rem.Sign() != 0 {
			break
		}
		n = q
	}
	return len(n.String()) <= 15
}

// allArguments reports whether every number of a case is a decimal
// argument (isArgument).
func allArguments(in map[string]any) bool {
	for _, v := range in {
		if r, ok := v.(*big.Rat); ok && !isArgument(r) {
			return false
		}
	}
	return true
}

// unit is one unit of x's 15th significant digit, or of its 12th
// decimal place when that is larger (f writes 12 places): x + unit(x) is
// the next decimal argument above x, for x > 0.
func unit(x *big.Rat) *big.Rat {
	u := big.NewRat(1, pow10(12))
	for rMul(u, rInt(pow10(15))).Cmp(x) <= 0 {
		u = rMul(u, rInt(10))
	}
	return u
}

// stepAbove is the least decimal argument above x on the grid of unit(x),
// for x > 0: x rounded up to that grid, plus a unit when already on it.
func stepAbove(x *big.Rat) *big.Rat {
	u := unit(x)
	return rMul(rAdd(rCeil(rQuo(x, u)), rInt(1)), u)
}

// exactOver is a decimal x with x × g = n exactly, for a whole n from lo
// to limit: g = b/d in lowest terms, n a multiple of b's factors other
// than 2 and 5, so that n / g = n × d / b is a decimal. Nil when no such
// n is within the range.
func exactOver(rng *rand.Rand, g *big.Rat, lo, limit int64) *big.Rat {
	odd := new(big.Int).Set(g.Num())
	for _, p := range []int64{2, 5} {
		bp, m := big.NewInt(p), new(big.Int)
		for {
			q, rem := new(big.Int).QuoRem(odd, bp, m)
			if rem.Sign() != 0 {
				break
			}
			odd = q
		}
	}
	if !odd.IsInt64() {
		return nil
	}
	step := odd.Int64()
	first, last := (max(lo, 1)+step-1)/step, limit/step
	if first > last {
		return nil
	}
	return rQuo(rInt(step*(first+rng.Int64N(last-first+1))), g)
}

// randFactor is 1 + a random decimal margin of up to 3 digits and 3
// places: a factor (1 + margin). Half of them are a little above 1, 1.1
// or 1.001, which float64 holds a little above or below: with a product
// just below a power of two, float64 often misses the whole number
// (900 × 1.1 is 990.0000000000001).
func randFactor(rng *rand.Rand) *big.Rat {
	if rng.IntN(2) == 0 {
		return rAdd(rInt(1), big.NewRat(1+rng.Int64N(99), pow10(1+rng.IntN(3))))
	}
	return rAdd(rInt(1), randDecimal(rng, 1+rng.IntN(3), rng.IntN(4)))
}

// count is a whole-number argument, given as Terraform gives it.
func count(in map[string]any, name string) (int64, bool) {
	v, ok := in[name].(float64)
	return int64(v), ok
}

// whole is an exact integer as an int64.
func whole(r *big.Rat) int64 {
	if !r.IsInt() || !r.Num().IsInt64() {
		panic("not a whole int64: " + r.RatString())
	}
	return r.Num().Int64()
}

// wholeOut is a reference's whole-number output.
func wholeOut(out map[string]any, name string) int64 {
	n, ok := out[name].(int64)
	if !ok {
		panic("no whole " + name)
	}
	return n
}

// SQS's limits, as AWS documents them: retention from 60 s to 14 days,
// 4 days by default; a visibility timeout of at most 12 hours; a
// maxReceiveCount of at most 1,000.
const (
	sqsMinRetention     = 60
	sqsMaxRetention     = 1209600
	sqsDefaultRetention = 345600
	sqsMaxVisibility    = 43200
	sqsMaxReceives      = 1000
)

// settingsRef is every output of queuecap_queue_settings for in, or why
// the inputs are not valid (the formula fails on them).
func settingsRef(in map[string]any) (map[string]any, string) {
	eff := effArrival(in)
	c, _ := count(in, "consumers")
	surplus := rSub(rMul(rInt(c), rat(in, "per_consumer_rate", nil)), eff)
	backlog := rat(in, "max_backlog", rInt(0))
	drain := rInt(0)
	if backlog.Sign() > 0 {
		if surplus.Sign() <= 0 {
			return nil, "no surplus to drain max_backlog"
		}
		drain = rQuo(backlog, surplus)
	}
	// Visibility: 6 function timeouts for Lambda, else the processing time
	// with its margin (1 by default), whole seconds rounded up.
	var visibility *big.Rat
	if timeout := rat(in, "lambda_timeout_seconds", nil); timeout != nil {
		visibility = rCeil(rMul(rInt(6), timeout))
	} else {
		margin := rat(in, "visibility_margin", rInt(1))
		visibility = rCeil(rMul(rat(in, "max_processing_seconds", nil), rAdd(rInt(1), margin)))
	}
	if visibility.Cmp(rInt(sqsMaxVisibility)) > 0 {
		return nil, "visibility timeout beyond 12 hours"
	}
	receives := rMax(rInt(5), rCeil(rAdd(rInt(1), rat(in, "avg_retries", rInt(0)))))
	if receives.Cmp(rInt(sqsMaxReceives)) > 0 {
		return nil, "max_receive_count beyond 1,000"
	}
	redelivery := rMul(receives, visibility)
	needed := rCeil(rMul(rAdd(drain, redelivery), rAdd(rInt(1), rat(in, "retention_margin", big.NewRat(1, 2)))))
	if needed.Cmp(rInt(sqsMaxRetention)) > 0 {
		return nil, "retention beyond 14 days"
	}
	minRetention := int64(sqsDefaultRetention)
	if m, ok := count(in, "min_retention_seconds"); ok {
		minRetention = m
	}
	return map[string]any{
		"effective_arrival_rate": eff, "surplus": surplus, "drain_seconds": drain,
		"visibility_timeout_seconds": whole(visibility), "max_receive_count": whole(receives), "redelivery_seconds": redelivery,
		"message_retention_seconds":             whole(rMax(needed, rInt(minRetention))),
		"dead_letter_message_retention_seconds": int64(sqsMaxRetention),
	}, ""
}

// settingsDraft is a random queue_settings case, valid or not.
func settingsDraft(rng *rand.Rand, i int) map[string]any {
	mu := positive(rng)
	in := map[string]any{"arrival_rate": decimalNear(rng), "per_consumer_rate": mu}
	randRetries(rng, in)
	if rng.IntN(6) == 0 {
		// Many retries: max_receive_count above 5, up to SQS's 1,000.
		in["retry_rate"], in["avg_retries"] = randDecimal(rng, 2, 2), randDecimal(rng, 1+rng.IntN(5), rng.IntN(3))
	}
	steady := whole(rCeil(rQuo(effArrival(in), mu)))
	c := steady + rng.Int64N(50)
	if rng.IntN(4) == 0 {
		c = rng.Int64N(steady + 3) // no surplus, perhaps: valid without a backlog
	}
	in["consumers"] = float64(c)
	if rng.IntN(4) != 0 {
		in["max_backlog"] = decimalNear(rng)
	}
	if rng.IntN(2) == 0 {
		// A Lambda timeout from 1 to 900 s, of up to 15 digits.
		places := rng.IntN(13)
		in["lambda_timeout_seconds"] = rMin(rAdd(rInt(1), randDecimal(rng, min(places+3, 15), places)), rInt(900))
	} else {
		in["max_processing_seconds"] = rAdd(randDecimal(rng, 1+rng.IntN(6), rng.IntN(4)), big.NewRat(1, 1000))
		if rng.IntN(2) == 0 {
			in["visibility_margin"] = randDecimal(rng, 3, 2)
		}
	}
	if rng.IntN(2) == 0 {
		in["retention_margin"] = randDecimal(rng, 3, 2)
	}
	if rng.IntN(3) == 0 {
		in["min_retention_seconds"] = float64(sqsMinRetention + rng.Int64N(sqsMaxRetention-sqsMinRetention+1))
	}
	if i%5 == 0 {
		settingsBoundary(rng, i, in)
	}
	return in
}

// settingsBoundary turns a case into one on a boundary, by kind.
func settingsBoundary(rng *rand.Rand, i int, in map[string]any) {
	mu := rat(in, "per_consumer_rate", nil)
	// noRetries keeps λ_eff a short decimal, for products that must be
	// decimals of at most 15 digits.
	noRetries := func() {
		delete(in, "retry_rate")
		delete(in, "avg_retries")
	}
	// withSurplus sets consumers to leave a surplus and returns it.
	withSurplus := func() *big.Rat {
		eff := effArrival(in)
		c := whole(rCeil(rQuo(eff, mu))) + 1 + rng.Int64N(20)
		in["consumers"] = float64(c)
		return rSub(rMul(rInt(c), mu), eff)
	}
	// The kinds whose ceilings float64 arithmetic is likeliest to miss
	// (0 to 2) come twice as often.
	switch [...]int{0, 1, 2, 3, 4, 5, 6, 0, 1, 2}[(i/5)%10] {
	case 0:
		// The processing time with its margin is exactly a whole number of
		// seconds: 900 s × 1.1 is 990 s, not 991.
		delete(in, "lambda_timeout_seconds")
		g := randFactor(rng)
		if i == 0 {
			g = big.NewRat(11, 10)
		}
		p := exactOver(rng, g, 1, sqsMaxVisibility)
		if i == 0 {
			p = rInt(900)
		}
		if p == nil || !isArgument(p) {
			g, p = rInt(2), rInt(1+rng.Int64N(sqsMaxVisibility/2))
		}
		if (i/5)%10 == 7 {
			// In the second slot, the next decimal above: a product a few
			// units of its 15th digit over the whole second, a second more.
			p = stepAbove(p)
		}
		in["max_processing_seconds"], in["visibility_margin"] = p, rSub(g, rInt(1))
	case 1:
		// Six Lambda timeouts a few units of their 15th digit above a
		// whole number k: k/6 rounded up to 12 places, so that 6 ×
		// 166.666666666667 s is 1,000.000000000002 s, 1,001 s of visibility.
		// Or k/6 rounded to p places, either side of k; or exactly k
		// (halves).
		delete(in, "max_processing_seconds")
		delete(in, "visibility_margin")
		k := rInt(1000 + rng.Int64N(5400-1000+1))
		if i == 5 {
			k = rInt(1000)
		}
		t := rMul(rCeil(rMul(rQuo(k, rInt(6)), rInt(pow10(12)))), big.NewRat(1, pow10(12)))
		switch rng.IntN(4) {
		case 0:
			t = roundPlaces(rQuo(rInt(6+rng.Int64N(5400-6+1)), rInt(6)), rng.IntN(13))
		case 1:
			t = rQuo(rInt(2+rng.Int64N(1799)), rInt(2))
		}
		if i == 5 {
			t = big.NewRat(166666666666667, pow10(12))
		}
		in["lambda_timeout_seconds"] = rMax(rMin(t, rInt(900)), rInt(1))
	case 2:
		// The drain plus the redeliveries, with the retention margin, is
		// exactly a whole number of seconds: n = (drain + redelivery) × g,
		// drain = backlog / surplus; n is the SQS maximum itself in a
		// quarter of the cases. SQS's least minimum, so that n shows.
		noRetries()
		in["min_retention_seconds"] = float64(sqsMinRetention)
		surplus := withSurplus()
		in["max_backlog"] = rInt(0)
		out, why := settingsRef(in)
		if why != "" {
			return
		}
		redelivery := rat(out, "redelivery_seconds", nil)
		g := randFactor(rng)
		x := exactOver(rng, g, whole(rCeil(rMul(redelivery, g))), sqsMaxRetention)
		if rng.IntN(4) == 0 {
			// 1,209,600 = 2^8 × 3^3 × 5^2 × 7: these factors divide it.
			gs := []*big.Rat{rInt(1), big.NewRat(3, 2), big.NewRat(6, 5), big.NewRat(7, 4), big.NewRat(21, 20), big.NewRat(27, 20), rInt(2), big.NewRat(9, 8)}
			g = gs[rng.IntN(len(gs))]
			x = rQuo(rInt(sqsMaxRetention), g)
		}
		if x == nil || x.Cmp(redelivery) < 0 {
			return
		}
		backlog := rMul(rSub(x, redelivery), surplus)
		if rng.IntN(3) == 0 {
			// A drain a hair longer: a second more of retention.
			backlog = stepAbove(backlog)
		}
		if !isArgument(backlog) {
			return
		}
		in["max_backlog"], in["retention_margin"] = backlog, rSub(g, rInt(1))
	case 3:
		// min_retention_seconds is exactly what the queue needs, a second
		// more or less, or SQS's own minimum or maximum.
		in["min_retention_seconds"] = float64(sqsMinRetention)
		out, why := settingsRef(in)
		if why != "" {
			return
		}
		needed := wholeOut(out, "message_retention_seconds")
		m := needed + int64(rng.IntN(3)) - 1
		switch rng.IntN(4) {
		case 0:
			m = sqsMaxRetention
		case 1:
			m = needed
		}
		in["min_retention_seconds"] = float64(max(sqsMinRetention, min(m, sqsMaxRetention)))
	case 4:
		// No surplus at all: consumers × μ is exactly λ (a decimal μ),
		// with no backlog to drain.
		noRetries()
		n := rng.Int64N(2000)
		in["arrival_rate"], in["consumers"] = rMul(mu, rInt(n)), float64(n)
		if rng.IntN(2) == 0 {
			delete(in, "max_backlog")
		} else {
			in["max_backlog"] = rInt(0)
		}
	case 5:
		// The drain takes exactly a whole number of seconds (or a decimal
		// step of one).
		noRetries()
		surplus := withSurplus()
		d := rInt(rng.Int64N(100000))
		if rng.IntN(2) == 0 {
			d = rAdd(d, big.NewRat(1, 1000))
		}
		if b := rMul(surplus, d); isArgument(b) {
			in["max_backlog"] = b
		}
	case 6:
		// avg_retries whole: ceil(1 + k) is 1 + k exactly; at most 1,000,
		// SQS's limit, met exactly; or 10^-3 to 10^-12 above a whole number.
		k := rInt(rng.Int64N(20))
		if rng.IntN(4) == 0 {
			k = rInt(999)
		}
		if rng.IntN(3) == 0 {
			k = rAdd(k, big.NewRat(1, pow10(3+rng.IntN(10))))
		}
		in["avg_retries"], in["retry_rate"] = k, randDecimal(rng, 2, 2)
		delete(in, "max_backlog")
		if _, ok := in["lambda_timeout_seconds"]; ok {
			in["lambda_timeout_seconds"] = rInt(1)
		}
		if _, ok := in["max_processing_seconds"]; ok {
			in["max_processing_seconds"], in["visibility_margin"] = big.NewRat(9, 10), big.NewRat(1, 10)
		}
	}
}

func TestPropertyQueueSettings(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.QueueSettingsFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			// Only valid cases: the formula's errors (no surplus for a
			// backlog, SQS's limits exceeded) are TestQueueSettings's. A
			// boundary built on more than 15 digits is drawn again.
			for range 100000 {
				if in := settingsDraft(rng, i); func() bool { _, why := settingsRef(in); return why == "" && allArguments(in) }() {
					return in
				}
			}
			panic("no valid queue_settings case in 100,000 tries")
		},
		ref: func(in map[string]any) map[string]any {
			out, why := settingsRef(in)
			if why != "" {
				panic(why)
			}
			return out
		},
	}, 7301)
}

// fleetRef is every output of queuecap_fleet for in.
func fleetRef(in map[string]any) map[string]any {
	eff := effArrival(in)
	mu := rat(in, "per_consumer_rate", nil)
	backlog := rat(in, "max_backlog", rInt(0))
	rto := rat(in, "rto_seconds", nil)
	lag := rat(in, "provisioning_lag_seconds", rInt(0))
	// The steady state, ceil(λ_eff / μ); min_size, min_consumers or it.
	steady := rCeil(rQuo(eff, mu))
	minSize := steady
	if c, ok := count(in, "min_consumers"); ok {
		minSize = rInt(c)
	}
	// desired_capacity: the headroom asked for, at least min_size.
	headroomFleet := rCeil(rMul(rQuo(eff, mu), rAdd(rInt(1), rat(in, "min_headroom", rInt(0)))))
	desired := rMax(headroomFleet, minSize)
	// max_size: the headroom formula with the lag. The lag counts only
	// with an RTO: until it ends only the minimum fleet drains, at
	// S_min = max(0, min_size × μ − λ_eff), and the full fleet has
	// RTO − L for what is left.
	sMin, lagged := rInt(0), rto != nil && lag.Sign() > 0
	backlogTerm := rInt(0)
	switch {
	case lagged:
		sMin = rMax(rInt(0), rSub(rMul(minSize, mu), eff))
		backlogTerm = rQuo(rMax(rInt(0), rSub(backlog, rMul(sMin, lag))), rMul(mu, rSub(rto, lag)))
	case backlog.Sign() > 0:
		backlogTerm = rQuo(backlog, rMul(mu, rto))
	}
	required := rMax(rCeil(rAdd(rQuo(eff, mu), backlogTerm)), headroomFleet)
	required = rMax(required, steady)
	// A deployment keeps ceil(h/100 × M) consumers: the least M ≥
	// required whose share still is required, by bisection.
	h := rat(in, "min_healthy_percent", rInt(100))
	healthy := func(m *big.Rat) *big.Rat { return rCeil(rQuo(rMul(h, m), rInt(100))) }
	deploy := required
	if required.Sign() > 0 {
		lo, hi := required, rCeil(rQuo(rMul(required, rInt(100)), h))
		for lo.Cmp(hi) < 0 {
			mid := rCeil(rQuo(rAdd(lo, hi), rInt(2)))
			if mid.Cmp(hi) == 0 {
				mid = rSub(hi, rInt(1))
			}
			if healthy(mid).Cmp(required) >= 0 {
				hi = mid
			} else {
				lo = rAdd(mid, rInt(1))
			}
		}
		deploy = lo
	}
	maxSize := rMax(rMax(required, desired), deploy)
	surplus := rSub(rMul(maxSize, mu), eff)
	// drain_seconds: the minimum fleet alone when it clears the backlog
	// within the lag, else the lag at S_min and the rest at max_size's
	// surplus; 0 without a backlog. (A min_size above what the recovery
	// needs is max_size itself: S_min is then the full fleet's surplus.)
	var drain any
	switch {
	case lagged && sMin.Sign() > 0 && backlog.Cmp(rMul(sMin, lag)) <= 0:
		drain = rQuo(backlog, sMin)
	case backlog.Sign() == 0:
		drain = rInt(0)
	case surplus.Sign() > 0 && lagged:
		drain = rAdd(lag, rQuo(rSub(backlog, rMul(sMin, lag)), surplus))
	case surplus.Sign() > 0:
		drain = rQuo(backlog, surplus)
	}
	var overhead any
	if steady.Sign() > 0 {
		overhead = rSub(rQuo(maxSize, steady), rInt(1))
	}
	target := rMul(rat(in, "sla_seconds", nil), mu)
	var warmup any
	if lag.Sign() > 0 {
		warmup = whole(rCeil(lag))
	}
	lambda, pollers := []any{}, []any{}
	var minPollers, maxPollers any
	if in["lambda_concurrency_mode"] == "provisioned" {
		// ceil(concurrency / 10 per poller), minimum_pollers from 2 to
		// 200, maximum_pollers at least minimum_pollers.
		lo := rMin(rMax(rCeil(rQuo(minSize, rInt(10))), rInt(2)), rInt(200))
		hi := rMax(rCeil(rQuo(maxSize, rInt(10))), lo)
		minPollers, maxPollers = whole(lo), whole(hi)
		pollers = []any{map[string]any{"minimum_pollers": minPollers, "maximum_pollers": maxPollers}}
	} else if maxSize.Cmp(rInt(1000)) <= 0 {
		lambda = []any{map[string]any{"maximum_concurrency": whole(rMax(maxSize, rInt(2)))}}
	}
	name := func(key string) string { s, _ := in[key].(string); return s }
	// dims are the dimensions whose values are given, in order.
	dims := func(pairs ...string) []any {
		out := []any{}
		for j := 0; j < len(pairs); j += 2 {
			if pairs[j+1] != "" {
				out = append(out, map[string]any{"name": pairs[j], "value": pairs[j+1]})
			}
		}
		return out
	}
	metric := func(id, label, namespace, metricName, stat string, dimensions []any) map[string]any {
		return map[string]any{"id": id, "label": label, "expression": nil, "return_data": false,
			"metric_stat": []any{map[string]any{"stat": stat,
				"metric": []any{map[string]any{"metric_name": metricName, "namespace": namespace, "dimensions": dimensions}}}}}
	}
	// tracking is the target tracking block on backlog per consumer:
	// visible messages over the consumers' count.
	tracking := func(id string, consumers map[string]any, per string) []any {
		visible := metric("visible", "Visible messages", "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Sum", dims("QueueName", name("queue_name")))
		ratio := map[string]any{"id": "backlog_per_" + per, "label": "Backlog per " + per, "expression": "visible / " + id,
			"return_data": true, "metric_stat": []any{}}
		return []any{map[string]any{"target_value": target, "disable_scale_in": false,
			"customized_metric_specification": []any{map[string]any{"metrics": []any{visible, consumers, ratio}}}}}
	}
	return map[string]any{
		"effective_arrival_rate": eff, "min_size": whole(minSize), "desired_capacity": whole(desired), "max_size": whole(maxSize),
		"surplus": surplus, "drain_seconds": drain, "overhead": overhead, "backlog_per_consumer_target": target,
		"ec2_scaling_policy": map[string]any{"policy_type": "TargetTrackingScaling", "estimated_instance_warmup": warmup,
			"target_tracking_configuration": tracking("in_service", metric("in_service", "Instances in service", "AWS/AutoScaling", "GroupInServiceInstances", "Average",
				dims("AutoScalingGroupName", name("autoscaling_group_name"))), "instance")},
		"ecs_scaling_policy": map[string]any{"policy_type": "TargetTrackingScaling", "service_namespace": "ecs", "scalable_dimension": "ecs:service:DesiredCount",
			"target_tracking_scaling_policy_configuration": tracking("running_tasks", metric("running_tasks", "Running tasks", "ECS/ContainerInsights", "RunningTaskCount", "Average",
				dims("ClusterName", name("ecs_cluster_name"), "ServiceName", name("ecs_service_name"))), "task")},
		"lambda_scaling_config": lambda,
		"healthy_during_deploy": whole(healthy(maxSize)), "minimum_pollers": minPollers, "maximum_pollers": maxPollers,
		"lambda_provisioned_poller_config": pollers,
	}
}

// fleetCase is a random queuecap_fleet case.
func fleetCase(rng *rand.Rand, i int) map[string]any {
	mu := positive(rng)
	in := map[string]any{"arrival_rate": decimalNear(rng), "per_consumer_rate": mu, "sla_seconds": positive(rng)}
	randRetries(rng, in)
	if rng.IntN(4) != 0 {
		in["max_backlog"], in["rto_seconds"] = decimalNear(rng), positive(rng)
	} else if rng.IntN(2) == 0 {
		in["rto_seconds"] = positive(rng)
	}
	if rng.IntN(2) == 0 {
		in["min_headroom"] = randDecimal(rng, 2, 2)
	}
	if rng.IntN(2) == 0 {
		lag := decimalNear(rng)
		in["provisioning_lag_seconds"] = lag
		if rto, ok := in["rto_seconds"].(*big.Rat); ok && rto.Cmp(lag) <= 0 {
			in["rto_seconds"] = rAdd(lag, positive(rng))
		}
	}
	if rng.IntN(2) == 0 {
		steady := whole(rCeil(rQuo(effArrival(in), mu)))
		in["min_consumers"] = float64(rng.Int64N(2*steady + 3))
	}
	fleetBoundary(rng, i, in)
	if rng.IntN(3) == 0 {
		// A deployment's healthy share: a whole percent or a decimal one.
		in["min_healthy_percent"] = rQuo(rInt(1+rng.Int64N(10000)), rInt(100))
		if rng.IntN(2) == 0 {
			in["min_healthy_percent"] = rInt(1 + rng.Int64N(100))
		}
	}
	// A Lambda mode only where max_size is within its cap on one mapping.
	switch maxSize := wholeOut(fleetRef(in), "max_size"); {
	case rng.IntN(3) == 0 && maxSize <= 1250:
		in["lambda_concurrency_mode"] = "standard"
	case rng.IntN(2) == 0 && maxSize <= 20000:
		in["lambda_concurrency_mode"] = "provisioned"
	}
	names := []string{"", "orders", "orders-dlq.fifo", "a b"}
	if rng.IntN(3) != 0 {
		in["queue_name"] = names[rng.IntN(len(names))]
	}
	if rng.IntN(2) == 0 {
		in["autoscaling_group_name"] = names[rng.IntN(len(names))]
	}
	if rng.IntN(2) == 0 {
		in["ecs_cluster_name"], in["ecs_service_name"] = names[rng.IntN(len(names))], names[rng.IntN(len(names))]
	}
	return in
}

// fleetBoundary puts every 5th case on a boundary, by kind: λ = k × μ for
// a decimal μ, so that the steady state is exactly k.
func fleetBoundary(rng *rand.Rand, i int, in map[string]any) {
	if i%5 != 0 {
		return
	}
	mu := rat(in, "per_consumer_rate", nil)
	delete(in, "retry_rate")
	delete(in, "avg_retries")
	k := rng.Int64N(3000)
	in["arrival_rate"] = rMul(mu, rInt(k))
	delete(in, "min_consumers")
	switch (i / 5) % 6 {
	case 0:
		// The backlog is exactly j consumers' work over the RTO: max_size
		// is k + j on the nose, and the drain takes the RTO exactly; or a
		// thousandth of a message more, or the next decimal above.
		delete(in, "provisioning_lag_seconds")
		delete(in, "min_headroom")
		rto := positive(rng)
		b := rMul(rMul(mu, rto), rInt(rng.Int64N(500)))
		switch rng.IntN(4) {
		case 0:
			b = rAdd(b, big.NewRat(1, 1000))
		case 1:
			if b.Sign() > 0 {
				b = stepAbove(b)
			}
		}
		if isArgument(b) {
			in["max_backlog"], in["rto_seconds"] = b, rto
		}
	case 1:
		// The headroom asked for lands exactly on a whole fleet:
		// λ_eff × (1 + h) / μ = n, or the next decimal λ above.
		g := randFactor(rng)
		if x := exactOver(rng, g, 1, 1e6); x != nil && isArgument(rMul(mu, x)) {
			lambda := rMul(mu, x)
			if rng.IntN(3) == 0 {
				lambda = stepAbove(lambda) // a fleet more
			}
			in["arrival_rate"], in["min_headroom"] = lambda, rSub(g, rInt(1))
		}
	case 2:
		// min_consumers is the steady state exactly (S_min = 0) through a
		// whole-second lag: max_size is k + j, and the backlog is gone at
		// the RTO exactly.
		delete(in, "min_headroom")
		lag, window := rInt(1+rng.Int64N(600)), positive(rng)
		b := rMul(rMul(mu, window), rInt(1+rng.Int64N(500)))
		if !isArgument(b) {
			b = rInt(0)
		}
		in["min_consumers"], in["provisioning_lag_seconds"], in["rto_seconds"], in["max_backlog"] = float64(k), lag, rAdd(lag, window), b
	case 3:
		// The minimum fleet, m consumers over the steady state, clears the
		// backlog exactly at the end of the lag (or a thousandth after):
		// no consumer more, a drain of the lag exactly. With nothing
		// arriving in a third of the cases.
		if rng.IntN(3) == 0 {
			k = 0
			in["arrival_rate"] = rInt(0)
		}
		m := 1 + rng.Int64N(50)
		lag := decimalNear(rng)
		if lag.Sign() == 0 {
			lag = rInt(1)
		}
		b := rMul(rMul(rInt(m), mu), lag)
		if rng.IntN(3) == 0 {
			b = rAdd(b, big.NewRat(1, 1000))
		}
		if !isArgument(b) {
			b = rInt(0)
		}
		in["min_consumers"], in["provisioning_lag_seconds"], in["max_backlog"] = float64(k+m), lag, b
		in["rto_seconds"] = rAdd(lag, positive(rng))
	case 4:
		// max_size at Lambda's limits: 0, 1, 2, and 999 to 1,001
		// concurrent invocations for one event source mapping.
		ks := []int64{0, 1, 2, 999, 1000, 1001}
		k = ks[rng.IntN(len(ks))]
		in["arrival_rate"] = rMul(mu, rInt(k))
		if k > 0 && rng.IntN(3) == 0 {
			// The next decimal λ above k × μ needs k + 1.
			in["arrival_rate"] = stepAbove(rMul(mu, rInt(k)))
		}
		delete(in, "max_backlog")
		delete(in, "min_headroom")
	case 5:
		// min_consumers above what the recovery needs: the fleet never
		// scales out.
		out := fleetRef(in)
		in["min_consumers"] = float64(wholeOut(out, "max_size") + rng.Int64N(20))
	}
}

func TestPropertyFleet(t *testing.T) {
	checkFamily(t, family{
		formula: capacity.FleetFormula,
		gen: func(rng *rand.Rand, i int) map[string]any {
			in := fleetCase(rng, i)
			if !allArguments(in) {
				panic("a fleet case of more than 15 digits: " + caseText(in))
			}
			return in
		},
		ref: fleetRef,
	}, 7302)
}
