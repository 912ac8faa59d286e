// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/ratref"
)

// adviceCases is how many random cases each rule's advice property runs:
// 200, 20 with -short, and QUEUECAP_PROPERTY_CASES (make fuzz sets it),
// as the exact-reference properties of internal/capacity read it.
func adviceCases(t *testing.T) int {
	t.Helper()
	if n, err := strconv.Atoi(os.Getenv("QUEUECAP_PROPERTY_CASES")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 20
	}
	return 200
}

// adviceCase is one random configuration of a rule's property and the
// value it flags.
type adviceCase struct {
	// config is the configuration with the value the advice is about set
	// to v, a decimal as the configuration writes it.
	config func(v string) string
	// flagged is a value the rule reports.
	flagged *big.Rat
	// what says how the case was made, for a failure's message.
	what string
	// want is the advice in exact arithmetic, rounded once where the rule
	// states a rounded value; nil where a float64 simulation decides.
	want *big.Rat
}

// adviceProperty is the property of one rule whose first line says
// "raise it to N" or "lower it to X".
type adviceProperty struct {
	name, rule string
	// lower is true for advice that lowers the value.
	lower bool
	// step is the next value short of the advice, as the first line
	// prints numbers: 1 for whole numbers (consumers, seconds SQS takes
	// whole), 0.01 for a decimal printed to at most two decimals.
	step *big.Rat
	// clears are the rules with no finding and no skip at the advised
	// value, the rule among them: advice that also meets what the queue
	// declares for another rule says so.
	clears []string
	// short are the rules of which one reports the value short of the
	// advice: the rule, or the one it hands that fleet to (no surplus at
	// all is queuecap_zero_surplus').
	short []string
	// guess is true when gen cannot know the value is flagged without the
	// rule (a float64 simulation decides): a case it does not flag is
	// drawn again, and how often is logged.
	guess bool
	gen   func(rng *rand.Rand, i int) (adviceCase, bool)
}

// TestAdviceClearsTheFindingProperty is TestAdviceClearsTheFinding over
// random decimal rates of up to 15 significant digits, every fifth case
// on a boundary the rule's arithmetic has to get right: for every rule
// that says "raise it to N" or "lower it to X", setting N or X clears the
// finding, without a skip, and the next value short of it is still
// reported: N − 1 for whole numbers, X + 0.01 for a decimal (the smallest
// step the first line prints, so also short of X + 10^-k for an X printed
// with k < 2 decimals). Where exact arithmetic decides, the advice is
// also its exact value (the headroom formula's fleet, the ceiling of the
// drain or of six timeouts, the SLA depth rounded once to 15 digits, then
// down to hundredths). queuecap_depth_only_scaling advises a signal (its
// ladder's "up to max_size N" is the fleet's own size, not a value to
// set), queuecap_missing_dead_letter_queue a redrive policy and
// queuecap_batch_retry_amplification a response type, so none has a value
// to check.
func TestAdviceClearsTheFindingProperty(t *testing.T) {
	for i, p := range adviceProperties() {
		t.Run(p.name, func(t *testing.T) { checkAdvice(t, p, uint64(i)+1) })
	}
}

func checkAdvice(t *testing.T, p adviceProperty, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 31))
	cases := adviceCases(t)
	lint := newAdviceLinter(t)
	drawn, redrawn := 0, 0
	for i := range cases {
		var c adviceCase
		for {
			drawn++
			if drawn > 100*cases+1000 {
				t.Fatalf("case %d: %d draws for %d cases, the generator rarely makes one", i, drawn, cases)
			}
			var ok bool
			if c, ok = p.gen(rng, i); !ok {
				continue
			}
			found := lint.findings(c.config(decText(c.flagged)), p.rule)
			if len(found) == 0 && p.guess {
				redrawn++
				continue
			}
			if len(found) != 1 {
				t.Fatalf("case %d (%s) at %s: %q, want one finding of %s", i, c.what, decText(c.flagged), found, p.rule)
			}
			checkAdviceCase(t, lint, p, c, found[0], i)
			break
		}
	}
	if redrawn > 0 {
		t.Logf("%d cases drawn again, not flagged", redrawn)
	}
}

func checkAdviceCase(t *testing.T, lint *adviceLinter, p adviceProperty, c adviceCase, summary string, i int) {
	t.Helper()
	at := fmt.Sprintf("case %d (%s), flagged at %s: %q", i, c.what, decText(c.flagged), summary)
	m := advice.FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("%s: no advice", at)
	}
	advised, ok := new(big.Rat).SetString(strings.ReplaceAll(m[1], ",", ""))
	if !ok {
		t.Fatalf("%s: advice %q is not a number", at, m[1])
	}
	if c.want != nil && advised.Cmp(c.want) != 0 {
		t.Fatalf("%s: advice %s, exactly %s", at, m[1], decText(c.want))
	}
	if !multipleOf(advised, p.step) {
		t.Fatalf("%s: advice %s is finer than a step of %s", at, m[1], decText(p.step))
	}
	if p.lower && advised.Cmp(c.flagged) >= 0 {
		t.Fatalf("%s: advice %s does not lower it", at, m[1])
	}
	if !p.lower && advised.Cmp(c.flagged) <= 0 {
		t.Fatalf("%s: advice %s does not raise it", at, m[1])
	}
	cleared := lint.run(c.config(decText(advised)), p.clears...)
	if len(cleared.issues) > 0 || len(cleared.skips) > 0 {
		t.Fatalf("%s: at the advised %s still %q, skipped %q", at, decText(advised), cleared.issues, cleared.skips)
	}
	short := new(big.Rat).Sub(advised, p.step)
	if p.lower {
		short.Add(advised, p.step)
	}
	if short.Sign() < 0 {
		return // nothing below 0 to be short of it
	}
	if got := lint.run(c.config(decText(short)), p.short...); len(got.issues) == 0 {
		t.Fatalf("%s: at %s, short of the advice, no finding (skipped %q)", at, decText(short), got.skips)
	}
}

// adviceLinter lints configurations in one directory.
type adviceLinter struct {
	t   *testing.T
	dir string
}

func newAdviceLinter(t *testing.T) *adviceLinter {
	return &adviceLinter{t: t, dir: t.TempDir()}
}

// linted are the first lines of the findings and the reasons of the skips
// of a run, errors failing the test.
type linted struct{ issues, skips []string }

func (l *adviceLinter) run(config string, ruleNames ...string) linted {
	l.t.Helper()
	if err := os.WriteFile(filepath.Join(l.dir, "main.tf"), []byte(config), 0o644); err != nil {
		l.t.Fatal(err)
	}
	rs := make([]lint.Rule, len(ruleNames))
	for i, name := range ruleNames {
		rs[i] = ruleNamed(l.t, name)
	}
	res, err := runner.Run(lint.Options{Dirs: []string{l.dir}, Config: &lint.Config{}, Rules: rs})
	if err != nil {
		l.t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		l.t.Fatalf("errors %v in\n%s", res.Errors, config)
	}
	var out linted
	for _, is := range res.Issues {
		out.issues = append(out.issues, is.Rule+": "+is.Summary)
	}
	for _, s := range res.Skipped {
		if s.Rule != "coverage" {
			out.skips = append(out.skips, s.Rule+": "+s.Reason)
		}
	}
	return out
}

// findings are the first lines of rule's findings on config.
func (l *adviceLinter) findings(config, rule string) []string {
	l.t.Helper()
	var out []string
	for _, is := range l.run(config, rule).issues {
		out = append(out, strings.TrimPrefix(is, rule+": "))
	}
	return out
}

func adviceProperties() []adviceProperty {
	whole, hundredth := big.NewRat(1, 1), big.NewRat(1, 100)
	const (
		zero      = "queuecap_zero_surplus"
		headroom  = "queuecap_insufficient_headroom"
		retention = "queuecap_retention_shorter_than_drain"
		storm     = "queuecap_metastable_retry_storm"
	)
	return []adviceProperty{
		{name: "an SLA depth", rule: "queuecap_depth_alarm_after_sla", lower: true, step: hundredth,
			clears: []string{"queuecap_depth_alarm_after_sla"}, short: []string{"queuecap_depth_alarm_after_sla"}, gen: genSLADepth},
		{name: "a fleet for its backlog", rule: headroom, step: whole,
			clears: []string{headroom}, short: []string{headroom}, gen: genBacklogFleet},
		{name: "a fleet with a provisioning lag", rule: headroom, step: whole,
			clears: []string{headroom}, short: []string{headroom}, gen: genLaggedFleet},
		{name: "a fleet for its min_headroom", rule: headroom, step: whole,
			clears: []string{headroom}, short: []string{headroom}, gen: genHeadroomFleet},
		{name: "a fleet with no surplus", rule: zero, step: whole,
			clears: []string{zero, headroom}, short: []string{zero, headroom}, gen: genZeroSurplus},
		{name: "a retention", rule: retention, step: whole,
			clears: []string{retention}, short: []string{retention}, gen: genRetention},
		{name: "a visibility timeout", rule: "queuecap_visibility_timeout_too_short", step: whole,
			clears: []string{"queuecap_visibility_timeout_too_short"}, short: []string{"queuecap_visibility_timeout_too_short"}, gen: genVisibility},
		// rto_seconds at the storm's horizon: a fleet one short of the
		// advice that drains too slowly even without retries is
		// queuecap_insufficient_headroom's, not the storm's.
		{name: "a fleet in a retry storm", rule: storm, step: whole, guess: true,
			clears: []string{storm}, short: []string{storm, zero, headroom}, gen: genStorm},
	}
}

// genSLADepth is a depth alarm above the SLA depth λ_eff × sla_seconds.
// Boundaries: a depth with more decimals than the advice prints, one of
// exactly hundredths, a whole one, and one of more than 15 significant
// digits, which the rule rounds to 15.
func genSLADepth(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, sla := randDec(rng, -2, 6), randDec(rng, -1, 5)
	what := "random"
	if i%5 == 0 {
		switch i / 5 % 5 {
		case 0:
			what = "a depth with more decimals than printed"
			lambda, sla = decOf(rng, 3+rng.IntN(4), -2, 5), wholeDec(rng, 0, 4)
		case 1:
			what = "a depth of hundredths"
			lambda, sla = decOf(rng, 2, -2, 5), wholeDec(rng, 0, 4)
		case 2:
			what = "a whole depth"
			lambda, sla = wholeDec(rng, 0, 5), wholeDec(rng, 0, 4)
		case 3:
			what = "a depth of 30 significant digits"
			lambda, sla = digitsDec(rng, 15, -2, 5), digitsDec(rng, 15, -1, 4)
		}
	}
	tags, amp := randRetryTags(rng)
	if i%5 == 0 && i/5%5 == 4 {
		// λ_eff of more than 15 digits, and a depth whose 15th digit is
		// its hundredths, the last the advice prints.
		what = "an SLA depth of 13 whole digits from retries"
		lambda, sla = digitsDec(rng, 15, 4, 6), wholeDec(rng, 5, 7)
		tags, amp = retryTagsOf(digitsDec(rng, 3, -1, 0), digitsDec(rng, 15, 0, 1))
		depth := rMul(rMul(lambda, amp), sla)
		if depth.Cmp(big.NewRat(1e12, 1)) < 0 {
			return adviceCase{}, false
		}
	}
	depth := rMul(rMul(lambda, amp), sla)
	if lambda.Sign() <= 0 || depth.Cmp(big.NewRat(1e13, 1)) >= 0 {
		return adviceCase{}, false
	}
	// Above the depth by a whole number, or by a decimal of its own.
	flagged := rAdd(rCeil(depth), wholeDec(rng, 0, 3))
	if rng.IntN(2) == 0 {
		flagged = roundDigits(rAdd(flagged, randDec(rng, -2, 3)), 15)
	}
	tags = fmt.Sprintf(`"queuecap:arrival_rate" = %s, "queuecap:sla_seconds" = %s%s`, decText(lambda), decText(sla), tags)
	hundredths := rInt(100)
	return adviceCase{
		want: rQuo(rFloor(rMul(round15(depth), hundredths)), hundredths),
		config: func(v string) string {
			return depthAlarmOn(tags, "GreaterThanThreshold", v, "aws_sqs_queue.orders.name")
		},
		flagged: flagged,
		what:    what + ": " + tags,
	}, true
}

// fleetCase is a queue consumed by an ECS service whose desired_count is
// the value, at μ msg/s each.
func fleetCase(tags string, mu *big.Rat, flagged int64, want *big.Rat, what string) adviceCase {
	return adviceCase{
		want:    want,
		config:  func(v string) string { return decimalQueue(tags, "1209600", v, decText(mu)) },
		flagged: big.NewRat(flagged, 1),
		what:    fmt.Sprintf("%s: per_consumer_rate %s, %s", what, decText(mu), tags),
	}
}

// genBacklogFleet is a fleet that drains, but clears max_backlog only
// after rto_seconds. Boundaries: λ/μ a whole number with a decimal μ,
// the backlog term landing exactly on a whole fleet (the advised fleet
// drains in exactly rto_seconds), min_headroom binding exactly above it,
// and rates of 15 significant digits.
func genBacklogFleet(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu := randDec(rng, -2, 6), randDec(rng, -2, 4)
	backlog, rto := randDec(rng, 0, 9), randDec(rng, 0, 5)
	retryTags, amp := randRetryTags(rng)
	var h *big.Rat
	if rng.IntN(3) == 0 {
		h = randDec(rng, -3, 1)
	}
	what := "random"
	if i%5 == 0 {
		switch i / 5 % 5 {
		case 0:
			what = "λ/μ whole, μ decimal"
			mu, retryTags, amp = decOf(rng, 1+rng.IntN(5), -2, 3), "", rInt(1)
			lambda = rMul(mu, wholeDec(rng, 0, 4))
		case 1:
			what = "the backlog term on a whole fleet"
			eff := rMul(lambda, amp)
			n := rAdd(rFloor(rQuo(eff, mu)), wholeDec(rng, 0, 2))
			rto = wholeDec(rng, 0, 4)
			backlog = rMul(rSub(rMul(n, mu), eff), rto)
		case 2:
			what = "min_headroom binding"
			var ok bool
			if lambda, mu, h, ok = headroomBinding(rng, amp); !ok {
				return adviceCase{}, false
			}
			// A backlog term of under the whole fleet the headroom asks for.
			eff := rMul(lambda, amp)
			room := rSub(rSub(rQuo(rMul(eff, rAdd(rInt(1), h)), mu), rQuo(eff, mu)), rInt(1))
			if room.Sign() <= 0 {
				return adviceCase{}, false
			}
			rto = wholeDec(rng, 0, 4)
			backlog = roundDigits(rMul(rMul(room, rMul(mu, rto)), randUnit(rng)), 6)
		case 3:
			what = "15 significant digits"
			lambda, mu = digitsDec(rng, 15, -2, 5), digitsDec(rng, 15, -2, 3)
			backlog, rto = digitsDec(rng, 15, 0, 8), digitsDec(rng, 15, 0, 4)
		case 4:
			// The fleet drains in exactly rto_seconds at a capacity c·μ
			// of 16 to 18 digits, rounded to 15 a hair under it.
			what, retryTags, amp, h = "the backlog term on a whole fleet of more than 15 digits", "", rInt(1), nil
			var n *big.Rat
			if mu, n, lambda = longCapacity(rng); mu == nil {
				return adviceCase{}, false
			}
			rto = wholeDec(rng, 0, 2)
			backlog = rMul(rSub(rMul(n, mu), lambda), rto)
		}
	}
	if !allDecimals(lambda, mu, backlog, rto, h) || lambda.Sign() <= 0 || backlog.Sign() <= 0 || rto.Sign() <= 0 {
		return adviceCase{}, false
	}
	eff := rMul(lambda, amp)
	draining := rAdd(rFloor(rQuo(eff, mu)), rInt(1))
	need := rCeil(rAdd(rQuo(eff, mu), rQuo(backlog, rMul(mu, rto))))
	flagged, ok := between(rng, draining, rSub(need, rInt(1)))
	if !ok || need.Cmp(big.NewRat(1e7, 1)) > 0 {
		return adviceCase{}, false
	}
	tags := fmt.Sprintf(`"queuecap:arrival_rate" = %s, "queuecap:max_backlog" = %s, "queuecap:rto_seconds" = %s%s`,
		decText(lambda), decText(backlog), decText(rto), retryTags)
	if h != nil {
		tags += `, "queuecap:min_headroom" = ` + decText(h)
		need = rMax(need, rCeil(rQuo(rMul(eff, rAdd(rInt(1), h)), mu)))
	}
	return fleetCase(tags, mu, flagged, need, what), true
}

// genHeadroomFleet is a fleet that drains, with less spare capacity than
// min_headroom. Boundaries: min_headroom binding exactly (λ_eff × (1 +
// h) / μ whole), or a 15th digit above it, and λ/μ whole with a decimal μ.
func genHeadroomFleet(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu, h := randDec(rng, -2, 6), randDec(rng, -2, 4), randDec(rng, -3, 1)
	retryTags, amp := randRetryTags(rng)
	what := "random"
	if i%5 == 0 {
		var ok bool
		switch i / 5 % 4 {
		case 0:
			what = "min_headroom binding"
			lambda, mu, h, ok = headroomBinding(rng, amp)
		case 1:
			what = "min_headroom a 15th digit above binding"
			if lambda, mu, h, ok = headroomBinding(rng, amp); ok {
				h = rAdd(h, fifteenth(rAdd(rInt(1), h)))
			}
		case 2:
			what, ok = "λ/μ whole, μ decimal", true
			mu, retryTags, amp = decOf(rng, 1+rng.IntN(5), -2, 3), "", rInt(1)
			lambda = rMul(mu, wholeDec(rng, 0, 4))
		case 3:
			// λ × (1 + h) of 16 or 17 digits, met by a capacity c·μ a
			// hair above it that rounds to 15 digits below it.
			what, ok, retryTags, amp = "min_headroom met by a capacity of more than 15 digits", true, "", rInt(1)
			lambda, h = wholeDec(rng, 0, 2), digitsDec(rng, 15, -1, 0)
			mu = ceil15(rQuo(rMul(lambda, rAdd(rInt(1), h)), rInt(2+rng.Int64N(1000))))
		}
		if !ok {
			return adviceCase{}, false
		}
	}
	if !allDecimals(lambda, mu, h) || lambda.Sign() <= 0 || h.Sign() <= 0 {
		return adviceCase{}, false
	}
	eff := rMul(lambda, amp)
	draining := rAdd(rFloor(rQuo(eff, mu)), rInt(1))
	need := rCeil(rQuo(rMul(eff, rAdd(rInt(1), h)), mu))
	flagged, ok := between(rng, draining, rSub(need, rInt(1)))
	if !ok || need.Cmp(big.NewRat(1e7, 1)) > 0 {
		return adviceCase{}, false
	}
	tags := fmt.Sprintf(`"queuecap:arrival_rate" = %s, "queuecap:min_headroom" = %s%s`, decText(lambda), decText(h), retryTags)
	return fleetCase(tags, mu, flagged, need, what), true
}

// headroomBinding is λ, μ and min_headroom with λ_eff × (1 + h) / μ a
// whole number K: μ = λ_eff (1 + h) / K, a decimal for K = 2^a × 5^b.
func headroomBinding(rng *rand.Rand, amp *big.Rat) (lambda, mu, h *big.Rat, ok bool) {
	lambda, h = decOf(rng, rng.IntN(4), 0, 5), decOf(rng, 1+rng.IntN(3), -2, 0)
	k := int64(1)
	for range rng.IntN(6) {
		k *= []int64{2, 5}[rng.IntN(2)]
	}
	mu = rQuo(rMul(rMul(lambda, amp), rAdd(rInt(1), h)), rInt(k))
	return lambda, mu, h, allDecimals(lambda, mu, h) && h.Sign() > 0
}

// genZeroSurplus is a fleet that cannot complete more than arrives; the
// advice also clears max_backlog within rto_seconds and min_headroom
// where the queue declares them. Boundaries: λ/μ whole with a decimal μ,
// the fleet exactly keeping up, alone, with a backlog term landing on a
// whole fleet, or with min_headroom binding.
func genZeroSurplus(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu := randDec(rng, -2, 6), randDec(rng, -2, 4)
	retryTags, amp := randRetryTags(rng)
	var backlog, rto, h *big.Rat
	if rng.IntN(3) == 0 {
		backlog, rto = randDec(rng, 0, 8), randDec(rng, 0, 5)
	}
	if rng.IntN(3) == 0 {
		h = randDec(rng, -3, 1)
	}
	what := "random"
	if i%5 == 0 {
		what = "λ/μ whole, μ decimal"
		mu, retryTags, amp = decOf(rng, 1+rng.IntN(5), -2, 3), "", rInt(1)
		lambda = rMul(mu, wholeDec(rng, 0, 4))
		switch i / 5 % 4 {
		case 1:
			what += ", the backlog term on a whole fleet"
			rto = wholeDec(rng, 0, 4)
			backlog = rMul(rMul(wholeDec(rng, 0, 2), mu), rto)
		case 2:
			what = "min_headroom binding"
			var ok bool
			if lambda, mu, h, ok = headroomBinding(rng, amp); !ok {
				return adviceCase{}, false
			}
		case 3:
			// λ_eff of 16 or more digits, and a fleet whose capacity c·μ
			// exceeds it by a hair but rounds to 15 digits at or below it.
			what, backlog, rto, h = "a capacity of more than 15 digits a hair above λ_eff", nil, nil, nil
			lambda = wholeDec(rng, 0, 2)
			rate, avg := digitsDec(rng, 3, -2, 0), digitsDec(rng, 15, 0, 1)
			retryTags, amp = retryTagsOf(rate, avg)
			mu = ceil15(rQuo(rMul(lambda, amp), rInt(1+rng.Int64N(1000))))
		}
	}
	if !allDecimals(lambda, mu, backlog, rto, h) || lambda.Sign() <= 0 {
		return adviceCase{}, false
	}
	eff := rMul(lambda, amp)
	keepsUp := rFloor(rQuo(eff, mu))
	if keepsUp.Cmp(big.NewRat(1e7, 1)) > 0 {
		return adviceCase{}, false
	}
	// Mostly the fleet just short of draining, else any below it.
	flagged := keepsUp.Num().Int64()
	if rng.IntN(2) == 0 {
		flagged = rng.Int64N(flagged + 1)
	}
	need := rAdd(keepsUp, rInt(1))
	tags := fmt.Sprintf(`"queuecap:arrival_rate" = %s%s`, decText(lambda), retryTags)
	if backlog != nil && backlog.Sign() > 0 && rto.Sign() > 0 {
		tags += fmt.Sprintf(`, "queuecap:max_backlog" = %s, "queuecap:rto_seconds" = %s`, decText(backlog), decText(rto))
		need = rMax(need, rCeil(rAdd(rQuo(eff, mu), rQuo(backlog, rMul(mu, rto)))))
	}
	if h != nil {
		tags += `, "queuecap:min_headroom" = ` + decText(h)
		need = rMax(need, rCeil(rQuo(rMul(eff, rAdd(rInt(1), h)), mu)))
	}
	return fleetCase(tags, mu, flagged, need, what), true
}

// genRetention is a retention shorter than the drain of max_backlog at
// the fleet's surplus. Boundaries: a drain of exactly a whole second, a
// 15th digit above or below one, and λ/μ whole with a decimal μ.
func genRetention(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu := randDec(rng, -2, 6), randDec(rng, -2, 4)
	retryTags, amp := randRetryTags(rng)
	what := "random"
	if i%5 == 0 && i/5%5 == 3 {
		what = "λ/μ whole, μ decimal"
		mu, retryTags, amp = decOf(rng, 1+rng.IntN(5), -2, 3), "", rInt(1)
		lambda = rMul(mu, wholeDec(rng, 0, 4))
	}
	eff := rMul(lambda, amp)
	consumers := rAdd(rFloor(rQuo(eff, mu)), wholeDec(rng, 0, 2))
	if i%5 == 0 && i/5%5 == 4 {
		// A capacity c·μ of 16 to 18 digits, which rounded to 15 digits
		// first would change the surplus and the drain.
		what, retryTags = "a drain of whole seconds at a capacity of more than 15 digits", ""
		if mu, consumers, lambda = longCapacity(rng); mu == nil {
			return adviceCase{}, false
		}
		eff = lambda
	}
	surplus := rSub(rMul(consumers, mu), eff)
	backlog := randDec(rng, 0, 9)
	if i%5 == 0 && (i/5%5 < 3 || i/5%5 == 4) {
		backlog = rMul(surplus, wholeDec(rng, 0, 6))
		switch i / 5 % 5 {
		case 0:
			what = "a drain of whole seconds"
		case 1:
			what = "a drain a 15th digit above whole seconds"
			backlog = rAdd(backlog, fifteenth(backlog))
		case 2:
			what = "a drain a 15th digit below whole seconds"
			backlog = rSub(backlog, fifteenth(backlog))
		}
	}
	if !allDecimals(lambda, mu, backlog) || lambda.Sign() <= 0 || surplus.Sign() <= 0 || backlog.Sign() <= 0 {
		return adviceCase{}, false
	}
	drain := rQuo(backlog, surplus)
	if drain.Cmp(big.NewRat(1209000, 1)) >= 0 || drain.Cmp(rInt(1)) < 0 {
		return adviceCase{}, false // the SQS maximum advises consumers, not a retention
	}
	// Below the drain as the rule states it, to 15 significant digits: a
	// drain a hair above a whole second is that second.
	below := rSub(rCeil(drain), rInt(1))
	if rSub(drain, rFloor(drain)).Cmp(big.NewRat(1, 1e6)) < 0 {
		below = rSub(rFloor(drain), rInt(1))
	}
	flagged, _ := between(rng, rInt(0), below)
	tags := fmt.Sprintf(`"queuecap:arrival_rate" = %s, "queuecap:max_backlog" = %s%s`, decText(lambda), decText(backlog), retryTags)
	return adviceCase{
		config: func(v string) string {
			return decimalQueue(tags, v, decText(consumers), decText(mu))
		},
		flagged: big.NewRat(flagged, 1),
		want:    rCeil(round15(drain)),
		what:    fmt.Sprintf("%s: desired_count %s × %s msg/s, %s", what, decText(consumers), decText(mu), tags),
	}, true
}

// genVisibility is a visibility timeout under six function timeouts plus
// the mapping's batching window.
// Boundaries: a whole timeout, one of tenths, one with more decimals than
// the advice prints once multiplied by six, and one a 15th digit above a
// whole second.
func genVisibility(rng *rand.Rand, i int) (adviceCase, bool) {
	timeout := randDec(rng, -1, 3)
	what := "random"
	if i%5 == 0 {
		switch i / 5 % 4 {
		case 0:
			what, timeout = "a whole timeout", wholeDec(rng, 0, 3)
		case 1:
			what, timeout = "a timeout of tenths", decOf(rng, 1, 0, 3)
		case 2:
			what, timeout = "a timeout of thousandths", decOf(rng, 3, 0, 3)
		case 3:
			what, timeout = "a timeout a 15th digit above a whole second", wholeDec(rng, 0, 3)
			timeout = rAdd(timeout, fifteenth(timeout))
		}
	}
	if timeout.Sign() <= 0 || timeout.Cmp(rInt(900)) > 0 || !allDecimals(timeout) {
		return adviceCase{}, false
	}
	// Half the cases batch for a window of whole seconds (0 to 300, as
	// Lambda takes it), which the advice adds to six timeouts.
	need, mapping := rMul(rInt(6), timeout), "aws_lambda_function.worker.function_name"
	if rng.IntN(2) == 0 {
		window := rInt(int64(rng.IntN(301)))
		need = rAdd(need, window)
		mapping += "\n  maximum_batching_window_in_seconds = " + decText(window)
		what += ", batching window " + decText(window)
	}
	flagged, _ := between(rng, rInt(0), rSub(rCeil(need), rInt(1)))
	fn := "timeout = " + decText(timeout)
	return adviceCase{
		config: func(v string) string {
			return lambdaConsumer("visibility_timeout_seconds = "+v, fn, mapping)
		},
		flagged: big.NewRat(flagged, 1),
		want:    rCeil(need),
		what:    what + ": " + fn,
	}, true
}

// genStorm is a fleet that drains max_backlog without timeout retries but
// not under them: a backlog past the depth d* = (c·μ − λ_eff) × W / k at
// which retries outgrow the surplus. Boundaries: λ/μ whole with a decimal
// μ (one fewer than the advice may only keep up), λ_eff × (1 + k) / μ
// whole (the fleet that matches the storm's peak arrivals), and the
// seed's rates.
func genStorm(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu := randDec(rng, 0, 5), randDec(rng, -1, 4)
	k := randDec(rng, -1, 1)
	retryTags, amp := "", rInt(1)
	if rng.IntN(4) == 0 {
		retryTags, amp = randRetryTags(rng)
	}
	var window *big.Rat
	if rng.IntN(2) == 0 {
		window = randDec(rng, 0, 3)
	}
	what := "random"
	if i%5 == 0 {
		switch i / 5 % 3 {
		case 0:
			what = "λ/μ whole, μ decimal"
			mu, retryTags, amp = decOf(rng, 1+rng.IntN(4), -1, 3), "", rInt(1)
			lambda = rMul(mu, wholeDec(rng, 0, 3))
		case 1:
			what = "λ_eff × (1 + k) / μ whole"
			m := int64(1)
			for range 1 + rng.IntN(6) {
				m *= []int64{2, 5}[rng.IntN(2)]
			}
			mu = rQuo(rMul(rMul(lambda, amp), rAdd(rInt(1), k)), rInt(m))
		case 2:
			what, lambda, mu, k, window, retryTags, amp = "the seed's rates", rInt(10000), rInt(400), big.NewRat(3, 2), nil, "", rInt(1)
		}
	}
	if !allDecimals(lambda, mu, k, window) || lambda.Sign() <= 0 || k.Sign() <= 0 || (window != nil && window.Sign() <= 0) {
		return adviceCase{}, false
	}
	eff := rMul(lambda, amp)
	if rQuo(eff, mu).Cmp(rInt(2000)) > 0 {
		return adviceCase{}, false // fleets of a size the simulation searches quickly
	}
	draining := rAdd(rFloor(rQuo(eff, mu)), rInt(1))
	peak := rCeil(rQuo(rMul(eff, rAdd(rInt(1), k)), mu))
	consumers, ok := between(rng, draining, peak)
	if !ok {
		return adviceCase{}, false
	}
	surplus := rSub(rMul(rInt(consumers), mu), eff)
	w := rInt(30)
	if window != nil {
		w = window
	}
	// Past d*, and drained within the 36,000 s horizon without retries.
	backlog := roundDigits(rMul(rQuo(rMul(surplus, w), k), rAdd(rInt(1), randDec(rng, -1, 2))), 6)
	if backlog.Cmp(rMul(surplus, rInt(36000))) > 0 {
		return adviceCase{}, false
	}
	tags := fmt.Sprintf(`"queuecap:arrival_rate" = %s, "queuecap:max_backlog" = %s, "queuecap:retries_per_timeout" = %s, "queuecap:rto_seconds" = 36000%s`,
		decText(lambda), decText(backlog), decText(k), retryTags)
	if window != nil {
		tags += `, "queuecap:timeout_window_seconds" = ` + decText(window)
	}
	return fleetCase(tags, mu, consumers, nil, what), true
}

// randRetryTags declares retries in a third of the cases: their tags and
// the amplification 1 + retry_rate × avg_retries.
func randRetryTags(rng *rand.Rand) (string, *big.Rat) {
	if rng.IntN(3) != 0 {
		return "", rInt(1)
	}
	return retryTagsOf(rMin(randDec(rng, -3, 0), rInt(1)), randDec(rng, -1, 1))
}

// retryTagsOf are the tags of retry_rate and avg_retries, and the
// amplification 1 + retry_rate × avg_retries.
func retryTagsOf(rate, avg *big.Rat) (string, *big.Rat) {
	return fmt.Sprintf(`, "queuecap:retry_rate" = %s, "queuecap:avg_retries" = %s`, decText(rate), decText(avg)),
		rAdd(rInt(1), rMul(rate, avg))
}

// longCapacity is a fleet of n consumers of μ msg/s whose capacity n·μ
// has more than 15 significant digits, and a whole λ one to three
// consumers' worth below it, so that the surplus n·μ − λ has at most 15;
// nil when the draw fails.
func longCapacity(rng *rand.Rand) (mu, n, lambda *big.Rat) {
	for range 100 {
		mu, n = digitsDec(rng, 8+rng.IntN(8), 1, 4), rInt(100+rng.Int64N(900))
		capacity := rMul(n, mu)
		lambda = rSub(rFloor(capacity), rFloor(rMul(mu, big.NewRat(100+rng.Int64N(200), 100))))
		if !allDecimals(capacity) && allDecimals(rSub(capacity, lambda)) && lambda.Sign() > 0 {
			return mu, n, lambda
		}
	}
	return nil, nil, nil
}

// randDec is a random decimal from 10^lo to 10^hi of 1 to 15 significant
// digits, half of them of at most 4.
func randDec(rng *rand.Rand, lo, hi int) *big.Rat {
	digits := 1 + rng.IntN(4)
	if rng.IntN(2) == 0 {
		digits = 1 + rng.IntN(15)
	}
	return digitsDec(rng, digits, lo, hi)
}

// digitsDec is a random decimal from 10^lo to 10^hi of exactly digits
// significant digits (the last may be 0).
func digitsDec(rng *rand.Rand, digits, lo, hi int) *big.Rat {
	order := lo + rng.IntN(hi-lo)
	m := pow10(digits-1) + rng.Int64N(9*pow10(digits-1))
	return rMul(big.NewRat(m, 1), ratPow10(order-digits+1))
}

// decOf is a random decimal from 10^lo to 10^hi with exactly places
// decimals, the last not 0.
func decOf(rng *rand.Rand, places, lo, hi int) *big.Rat {
	whole := wholeDec(rng, lo, hi)
	if lo < 0 && rng.IntN(2) == 0 {
		whole = rInt(0)
	}
	frac := rng.Int64N(pow10(places))
	if places > 0 && frac%10 == 0 {
		frac++
	}
	return rAdd(whole, big.NewRat(frac, pow10(places)))
}

// wholeDec is a random whole number from max(1, 10^lo) to 10^hi.
func wholeDec(rng *rand.Rand, lo, hi int) *big.Rat {
	lo = max(lo, 0)
	order := lo + rng.IntN(max(hi-lo, 1))
	return rInt(max(1, pow10(order)+rng.Int64N(9*pow10(order))))
}

// randUnit is a decimal from 0.01 to 0.99.
func randUnit(rng *rand.Rand) *big.Rat { return big.NewRat(1+rng.Int64N(99), 100) }

// between is a random whole number from lo to hi, favouring both ends;
// false when there is none.
func between(rng *rand.Rand, lo, hi *big.Rat) (int64, bool) {
	if lo.Cmp(hi) > 0 {
		return 0, false
	}
	l, h := lo.Num().Int64(), hi.Num().Int64()
	switch rng.IntN(4) {
	case 0:
		return l, true
	case 1:
		return h, true
	}
	return l + rng.Int64N(h-l+1), true
}

// fifteenth is one in the 15th significant digit of r.
func fifteenth(r *big.Rat) *big.Rat {
	return ratPow10(magnitude(r) - 14)
}

// roundDigits is r rounded down to digits significant digits.
func roundDigits(r *big.Rat, digits int) *big.Rat {
	if r.Sign() <= 0 {
		return r
	}
	unit := ratPow10(magnitude(r) - digits + 1)
	return rMul(rFloor(rQuo(r, unit)), unit)
}

// round15 is r > 0 rounded to 15 significant digits, halves up, as
// queuecap writes a value it computed.
func round15(r *big.Rat) *big.Rat {
	unit := fifteenth(r)
	return rMul(rFloor(rAdd(rQuo(r, unit), big.NewRat(1, 2))), unit)
}

// ceil15 is the least decimal of 15 significant digits not below r > 0.
func ceil15(r *big.Rat) *big.Rat {
	unit := fifteenth(r)
	return rMul(rCeil(rQuo(r, unit)), unit)
}

// magnitude is the exponent of r's leading digit: 2 for 123.4.
func magnitude(r *big.Rat) int {
	m := 0
	a := new(big.Rat).Abs(r)
	for a.Cmp(rInt(10)) >= 0 {
		a.Quo(a, rInt(10))
		m++
	}
	for a.Sign() > 0 && a.Cmp(rInt(1)) < 0 {
		a.Mul(a, rInt(10))
		m--
	}
	return m
}

// places is how many decimals r needs, or -1 for none it can be written
// in (a third).
func places(r *big.Rat) int {
	x := new(big.Rat).Set(r)
	for p := 0; p <= 40; p++ {
		if x.IsInt() {
			return p
		}
		x.Mul(x, rInt(10))
	}
	return -1
}

// allDecimals reports whether every r set is a decimal of at most 15
// significant digits, an input as a configuration may write it.
func allDecimals(rs ...*big.Rat) bool {
	for _, r := range rs {
		if r == nil {
			continue
		}
		p := places(r)
		if p < 0 {
			return false
		}
		digits := new(big.Int).Abs(rMul(r, ratPow10(p)).Num())
		for digits.Sign() > 0 && new(big.Int).Rem(digits, big.NewInt(10)).Sign() == 0 {
			digits.Quo(digits, big.NewInt(10))
		}
		if len(digits.String()) > 15 {
			return false
		}
	}
	return true
}

// decText writes a decimal in full: 1589.88, 0.000001, 3600000.
func decText(r *big.Rat) string {
	p := places(r)
	if p < 0 {
		panic("not a decimal: " + r.String())
	}
	return r.FloatString(p)
}

// multipleOf reports whether r is a whole multiple of step.
func multipleOf(r, step *big.Rat) bool { return rQuo(r, step).IsInt() }

// Exact arithmetic for the expected values (internal/ratref).
var (
	rAdd, rSub, rMul, rQuo = ratref.Add, ratref.Sub, ratref.Mul, ratref.Quo
	rInt                   = ratref.Int
	rMax, rMin             = ratref.Max, ratref.Min
	rFloor, rCeil          = ratref.Floor, ratref.Ceil
)

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// ratPow10 is 10^e, e of either sign.
func ratPow10(e int) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	}
	return new(big.Rat).Inv(ratPow10(-e))
}
