// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestSizedFleetIsNeverFlagged: a fleet whose max_size is what
// queuecap_consumers sizes from the rates a queue declares is never
// reported by the rules that judge that sizing, on random decimal rates
// (λ an exact multiple of μ in a fifth of them, and a backlog just over a
// whole number of consumers in another fifth): the provider and the
// linter do one arithmetic.
func TestSizedFleetIsNeverFlagged(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := 200
	if testing.Short() {
		cases = 20
	}
	dec := func(maxInt, places int) string {
		p := 1
		for range places {
			p *= 10
		}
		return strconv.FormatFloat(float64(rng.IntN(maxInt*p)+1)/float64(p), 'f', -1, 64)
	}
	for i := range cases {
		mu := dec(500, 3)
		lambda := dec(50000, 2)
		if i%5 == 0 {
			lambda = fmt.Sprintf("%s * %d", mu, rng.IntN(200)+1)
		}
		backlog, rto, headroom := dec(9000000, 1), strconv.Itoa(rng.IntN(3600)+60), dec(1, 2)
		retryRate, avgRetries := dec(1, 2), dec(3, 1)
		if i%5 == 1 {
			// A backlog term a hair above a whole number of consumers:
			// k × μ × RTO + 0.0002 messages, which a tolerant ceiling
			// rounded down.
			m, _ := new(big.Rat).SetString(mu)
			r, _ := new(big.Rat).SetString(rto)
			b := new(big.Rat).Mul(new(big.Rat).Mul(m, r), big.NewRat(int64(rng.IntN(900)+1), 1))
			backlog = b.Add(b, big.NewRat(2, 10000)).FloatString(4)
			lambda, retryRate, headroom = fmt.Sprintf("%s * %d", mu, rng.IntN(200)+1), "0", "0"
		}
		src := fmt.Sprintf("locals {\n  arrival_rate = %s\n}\n\n", lambda) + sizedByConsumers(fmt.Sprintf(`  arrival_rate      = local.arrival_rate
  per_consumer_rate = %s
  max_backlog       = %s
  rto_seconds       = %s
  min_headroom      = %s
  retry_rate        = %s
  avg_retries       = %s`, mu, backlog, rto, headroom, retryRate, avgRetries))
		for _, rule := range []string{"queuecap_zero_surplus", "queuecap_insufficient_headroom"} {
			res, _ := lintCase(t, rule, ruleCase{files: map[string]string{"main.tf": src}})
			for _, is := range res.Issues {
				t.Errorf("%s flags the fleet queuecap_consumers sized: %s\n%s", rule, is.Summary, src)
			}
			if len(res.Skipped) > 0 {
				t.Errorf("%s skips: %v\n%s", rule, res.Skipped, src)
			}
		}
	}
}
