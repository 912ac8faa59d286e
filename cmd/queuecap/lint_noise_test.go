// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/floatnoise"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
)

// noiseRules are the rules that print numbers, each of which every case
// of TestLintNoFloatNoise is built to trigger, and how many cases may
// miss it (the retry storm's simulation decides for itself).
var noiseRules = map[string]int{
	"queuecap_zero_surplus":                 0,
	"queuecap_insufficient_headroom":        0,
	"queuecap_retention_shorter_than_drain": 0,
	"queuecap_visibility_timeout_too_short": 0,
	"queuecap_missing_dead_letter_queue":    0,
	"queuecap_depth_alarm_after_sla":        0,
	"queuecap_depth_only_scaling":           0,
	"queuecap_metastable_retry_storm":       -1, // in some cases
}

// TestLintNoFloatNoise lints configurations built from random decimal
// inputs of up to 15 significant digits, one queue per rule that prints
// numbers (zero surplus and a backlog that never drains, a backlog over
// the RTO and a retention shorter than its drain, min_headroom, a Lambda
// consumer's visibility timeout and its missing dead-letter queue, a
// depth alarm past the SLA depth with retries, a retry storm, depth-only
// scaling with its seconds of arrivals, an ExactCapacity ladder that stops
// short), and renders each run in every output format (formatter.Names,
// --show-skipped in the default one) and every --explain format. No number
// in any message, fact or field shows float noise (floatnoise: 16 or more
// significant digits, or a run of six 0s or 9s in its decimals).
//
// Left out, as digits that are not a figure: the temporary directory in
// every path, line and column numbers (file:line:col, "line N", GitHub's
// line=/col=, the JSON and XML line and column fields), fingerprints
// (hashes), and the version and time fields of the machine formats.
func TestLintNoFloatNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	cases := 30
	if testing.Short() {
		cases = 5
	}
	flagged := map[string]int{}
	numbers := 0
	for i := range cases {
		dir := t.TempDir()
		src := noisyConfig(rng)
		write(t, dir, map[string]string{"main.tf": src})
		reports := map[string]string{}
		for _, run := range []struct {
			flags   []string
			formats []string
		}{
			{[]string{"--show-skipped"}, formatter.Names()},
			{[]string{"--explain"}, formatter.ExplainNames()},
		} {
			args := append([]string{"lint"}, run.flags...)
			for _, f := range run.formats {
				name := strings.TrimPrefix(run.flags[0], "--") + "." + f
				reports[name] = filepath.Join(t.TempDir(), name)
				args = append(args, "--output", f+"="+reports[name])
			}
			if code, stdout, stderr := cli(t, "", append(args, dir)...); code == exitError {
				t.Fatalf("case %d: queuecap %s: exit %d\n%s%s\n%s", i, strings.Join(args, " "), code, stdout, stderr, src)
			}
		}
		for name, path := range reports {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(string(raw), dir, "DIR")
			found, n := noiseIn(t, name, text)
			numbers += n
			for _, m := range found {
				t.Errorf("case %d: %s shows float noise %s: …%s…", i, name, m, lineOf(text, m))
			}
		}
		// Which rules found something, from the JSON report.
		raw, err := os.ReadFile(reports["show-skipped.json"])
		if err != nil {
			t.Fatal(err)
		}
		var res struct{ Issues []struct{ Rule string } }
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, is := range res.Issues {
			seen[is.Rule] = true
		}
		for r := range seen {
			flagged[r]++
		}
		for r, miss := range noiseRules {
			if !seen[r] && miss == 0 {
				t.Errorf("case %d: %s found nothing, so its numbers went unjudged:\n%s", i, r, src)
			}
		}
	}
	for r := range noiseRules {
		if flagged[r] == 0 {
			t.Errorf("%s found nothing in %d cases", r, cases)
		}
	}
	t.Logf("%d numbers judged in %d cases × %d reports; findings per rule: %v", numbers, cases, len(formatter.Names())+len(formatter.ExplainNames()), flagged)
}

// Digits that are no figure, left out of what is judged: line and column
// numbers, as every text and XML format writes them.
var (
	lineCol    = regexp.MustCompile(`:\d+:\d+|\bline \d+|\b(?:line|col|endLine|endColumn)=\d+`)
	xmlIgnored = regexp.MustCompile(`\b(?:line|column|time|timestamp|version)="[^"]*"`)
	// jsonIgnored are the JSON fields that hold no figure: positions,
	// hashes, versions and times.
	jsonIgnored = map[string]bool{
		"line": true, "column": true, "startLine": true, "startColumn": true, "endLine": true, "endColumn": true, "begin": true, "end": true,
		"fingerprint": true, "fingerprints": true, "partialFingerprints": true,
		"version": true, "semanticVersion": true, "time": true, "timestamp": true,
	}
)

// noiseIn is the noisy numbers of one report and how many numbers it
// judged: a JSON report walked value by value (every number as written,
// every string), any other as text.
func noiseIn(t *testing.T, name, text string) ([]string, int) {
	t.Helper()
	format := name[strings.LastIndex(name, ".")+1:]
	if format == "json" || format == "sarif" || format == "gitlab" {
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		var found []string
		n := 0
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case json.Number:
				n++
				if floatnoise.Noisy(x.String()) {
					found = append(found, x.String())
				}
			case string:
				n += len(floatnoiseNumbers(x))
				found = append(found, floatnoise.Find(x)...)
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					if !jsonIgnored[k] {
						walk(e)
					}
				}
			}
		}
		walk(v)
		return found, n
	}
	text = lineCol.ReplaceAllString(xmlIgnored.ReplaceAllString(text, ""), "")
	return floatnoise.Find(text), len(floatnoiseNumbers(text))
}

// figure is a number as floatnoise reads one, to count what was judged.
var figure = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

func floatnoiseNumbers(s string) []string { return figure.FindAllString(s, -1) }

// lineOf is the line of text that holds m, cut to 160 characters around
// it (a JSON report is one line).
func lineOf(text, m string) string {
	i := strings.Index(text, m)
	start := max(strings.LastIndexByte(text[:i], '\n')+1, i-80)
	end := len(text)
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		end = i + j
	}
	return text[start:min(end, i+len(m)+80)]
}

// digits is a random decimal of intDigits digits before the point (the
// first not 0; none for a number below 1) and places after it (the last
// not 0).
func digits(rng *rand.Rand, intDigits, places int) string {
	s := "0"
	if intDigits > 0 {
		s = string(rune('1' + rng.IntN(9)))
		for range intDigits - 1 {
			s += string(rune('0' + rng.IntN(10)))
		}
	}
	if places > 0 {
		s += "." + fraction(rng, places)
	}
	return s
}

// fraction is places random digits, the last not 0.
func fraction(rng *rand.Rand, places int) string {
	b := make([]byte, places)
	for j := range b {
		b[j] = byte('0' + rng.IntN(10))
	}
	b[places-1] = byte('1' + rng.IntN(9))
	return string(b)
}

// anyDecimal is a random decimal of up to 15 significant digits with
// intDigits (at least 1) before the point.
func anyDecimal(rng *rand.Rand, intDigits int) string {
	return digits(rng, intDigits, rng.IntN(16-intDigits))
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

// floorOf is ⌊r⌋; ceilOf is ⌈r⌉.
func floorOf(r *big.Rat) *big.Int { return new(big.Int).Div(r.Num(), r.Denom()) }

func ceilOf(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// trunc is r cut to 15 significant digits, as a decimal.
func trunc(r *big.Rat) string {
	s := r.FloatString(20)
	whole, frac, _ := strings.Cut(s, ".")
	keep := 15 - len(strings.TrimLeft(whole, "0"))
	if strings.TrimLeft(whole, "0") == "" {
		keep = 15 + len(frac) - len(strings.TrimLeft(frac, "0"))
	}
	if keep <= 0 {
		return whole
	}
	if keep < len(frac) {
		frac = frac[:keep]
	}
	if frac = strings.TrimRight(frac, "0"); frac == "" {
		return whole
	}
	return whole + "." + frac
}

// noisyConfig is one configuration of TestLintNoFloatNoise: a queue per
// rule that prints numbers, each built from random decimals to be
// flagged.
func noisyConfig(rng *rand.Rand) string {
	var b strings.Builder
	retries := func() (string, string, *big.Rat) {
		r, a := "0."+fraction(rng, 1+rng.IntN(3)), digits(rng, 1, rng.IntN(3))
		return r, a, new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(rat(r), rat(a)))
	}
	group := func(name, maxSize, mu string) {
		fmt.Fprintf(&b, `resource "aws_autoscaling_group" %[1]q {
  max_size = %[2]s
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = %[3]s
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.%[1]s"
    propagate_at_launch = false
  }
}

`, name, maxSize, mu)
	}

	// Zero surplus, and a backlog that never drains: c = ⌊λ / μ⌋.
	mu := anyDecimal(rng, 1+rng.IntN(3))
	lambda := trunc(new(big.Rat).Mul(rat(mu), rat(anyDecimal(rng, 1+rng.IntN(3)))))
	r, a, _ := retries()
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "zero" {
  name = "zero"
  tags = { "queuecap:arrival_rate" = %s, "queuecap:retry_rate" = %s, "queuecap:avg_retries" = %s, "queuecap:max_backlog" = %s }
}

`, lambda, r, a, anyDecimal(rng, 1+rng.IntN(7)))
	group("zero", floorOf(new(big.Rat).Quo(rat(lambda), rat(mu))).String(), mu)

	// A backlog over the RTO, and a retention shorter than its drain: one
	// consumer more than keeps up, a backlog of more than μ × RTO per
	// consumer of surplus.
	mu = anyDecimal(rng, 1+rng.IntN(3))
	lambda = anyDecimal(rng, 2+rng.IntN(4))
	r, a, amp := retries()
	eff := new(big.Rat).Mul(rat(lambda), amp)
	extra := int64(rng.IntN(3))
	c := new(big.Int).Add(floorOf(new(big.Rat).Quo(eff, rat(mu))), big.NewInt(1+extra))
	rto := int64(60 + rng.IntN(3600))
	backlog := trunc(new(big.Rat).Mul(new(big.Rat).Mul(rat(mu), big.NewRat(rto*(2+extra), 1)), rat("1."+fraction(rng, 6))))
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "late" {
  name                      = "late"
  message_retention_seconds = %d
  tags = { "queuecap:arrival_rate" = %s, "queuecap:retry_rate" = %s, "queuecap:avg_retries" = %s, "queuecap:max_backlog" = %s, "queuecap:rto_seconds" = %d, "queuecap:min_headroom" = %s }
}

`, 60+rng.Int64N(rto-59), lambda, r, a, backlog, rto, "0."+fraction(rng, 3))
	group("late", c.String(), mu)

	// Under min_headroom: one consumer more than keeps up, λ > 10 μ, so
	// under 10 % spare, against 20 to 99 %.
	mu = anyDecimal(rng, 1+rng.IntN(2))
	lambda = trunc(new(big.Rat).Mul(rat(mu), rat(anyDecimal(rng, 2+rng.IntN(2)))))
	r, a, amp = retries()
	c = new(big.Int).Add(floorOf(new(big.Rat).Quo(new(big.Rat).Mul(rat(lambda), amp), rat(mu))), big.NewInt(1))
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "spare" {
  name = "spare"
  tags = { "queuecap:arrival_rate" = %s, "queuecap:retry_rate" = %s, "queuecap:avg_retries" = %s, "queuecap:min_headroom" = 0.%d%s }
}

`, lambda, r, a, 2+rng.IntN(8), fraction(rng, 1+rng.IntN(5)))
	group("spare", c.String(), mu)

	// A Lambda consumer's visibility timeout under six function timeouts,
	// and no dead-letter queue: 86,400 / visibility receives a day.
	timeout := digits(rng, 1+rng.IntN(3), rng.IntN(3)) // 1 s or more
	if rat(timeout).Cmp(big.NewRat(900, 1)) > 0 {
		timeout = "900"
	}
	need := new(big.Rat).Mul(rat(timeout), big.NewRat(6, 1))
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "fn" {
  name                       = "fn"
  visibility_timeout_seconds = %d
}

resource "aws_lambda_function" "fn" {
  function_name = "fn"
  timeout       = %s
}

resource "aws_lambda_event_source_mapping" "fn" {
  event_source_arn = aws_sqs_queue.fn.arn
  function_name    = aws_lambda_function.fn.function_name
}

`, 1+rng.Int64N(ceilOf(need).Int64()-1), timeout)

	// A depth alarm past the SLA depth λ × (1 + r × a) × SLA.
	lambda = anyDecimal(rng, 1+rng.IntN(5))
	sla := anyDecimal(rng, 1+rng.IntN(3))
	r, a, amp = retries()
	depth := new(big.Rat).Mul(new(big.Rat).Mul(rat(lambda), amp), rat(sla))
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "sla" {
  name = "sla"
  tags = { "queuecap:arrival_rate" = %s, "queuecap:sla_seconds" = %s, "queuecap:retry_rate" = %s, "queuecap:avg_retries" = %s }
}

resource "aws_cloudwatch_metric_alarm" "sla" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  threshold           = %s.%s
  evaluation_periods  = 1
  period              = 60
  statistic           = "Maximum"
  dimensions          = { QueueName = aws_sqs_queue.sla.name }
}

`, lambda, sla, r, a, new(big.Int).Add(ceilOf(depth), big.NewInt(rng.Int64N(1000))), fraction(rng, 1+rng.IntN(4)))

	// A retry storm: the seed's 32 consumers of 400 msg/s against 10,000
	// and a backlog of 3.6 M, scaled by a random factor (the fluid model
	// scales with it), retried 1.5 to 3 times past a timeout.
	f := rat("0." + fraction(rng, 1+rng.IntN(7)))
	f.Add(f, big.NewRat(1, 2))
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "storm" {
  name = "storm"
  tags = { "queuecap:arrival_rate" = %s, "queuecap:max_backlog" = %s, "queuecap:rto_seconds" = 1300, "queuecap:retries_per_timeout" = %d.%d }
}

`, trunc(new(big.Rat).Mul(f, big.NewRat(10000, 1))), trunc(new(big.Rat).Mul(f, big.NewRat(3600000, 1))), 1+rng.IntN(2), 5+rng.IntN(5))
	group("storm", "32", trunc(new(big.Rat).Mul(f, big.NewRat(400, 1))))

	// Depth-only scaling: a step policy on a depth alarm, T / λ seconds of
	// arrivals.
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "depth" {
  name = "depth"
  tags = { "queuecap:arrival_rate" = %s }
}

resource "aws_autoscaling_group" "depth" {
  name     = "depth"
  max_size = 1000
  min_size = 1
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = %s
    propagate_at_launch = false
  }
}

resource "aws_autoscaling_policy" "depth" {
  name                   = "depth"
  autoscaling_group_name = aws_autoscaling_group.depth.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"
  step_adjustment {
    scaling_adjustment          = 2
    metric_interval_lower_bound = 0
  }
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Sum"
  period              = 60
  evaluation_periods  = 1
  comparison_operator = "GreaterThanThreshold"
  threshold           = %s
  dimensions          = { QueueName = aws_sqs_queue.depth.name }
  alarm_actions       = [aws_autoscaling_policy.depth.arn]
}

`, anyDecimal(rng, 1+rng.IntN(4)), anyDecimal(rng, 4), anyDecimal(rng, 1+rng.IntN(6)))

	// An ExactCapacity ladder, one task per step of w messages from T on,
	// that stops at 3 tasks, below max_capacity 10.
	w := anyDecimal(rng, 1+rng.IntN(3))
	w2 := trunc(new(big.Rat).Mul(rat(w), big.NewRat(2, 1)))
	fmt.Fprintf(&b, `resource "aws_sqs_queue" "ladder" {
  name = "ladder"
}

resource "aws_ecs_service" "ladder" {
  name    = "ladder"
  cluster = "main"
}

resource "aws_appautoscaling_target" "ladder" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/ladder"
  min_capacity       = 1
  max_capacity       = 10
}

resource "aws_cloudwatch_metric_alarm" "ladder" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  statistic           = "Maximum"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = %s
  evaluation_periods  = 1
  period              = 60
  dimensions          = { QueueName = aws_sqs_queue.ladder.name }
  alarm_actions       = [aws_appautoscaling_policy.ladder.arn]
}

resource "aws_appautoscaling_policy" "ladder" {
  name               = "ladder"
  service_namespace  = aws_appautoscaling_target.ladder.service_namespace
  scalable_dimension = aws_appautoscaling_target.ladder.scalable_dimension
  resource_id        = aws_appautoscaling_target.ladder.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ExactCapacity"
    step_adjustment {
      metric_interval_lower_bound = 0
      metric_interval_upper_bound = %[2]s
      scaling_adjustment          = 1
    }
    step_adjustment {
      metric_interval_lower_bound = %[2]s
      metric_interval_upper_bound = %[3]s
      scaling_adjustment          = 2
    }
    step_adjustment {
      metric_interval_lower_bound = %[3]s
      scaling_adjustment          = 3
    }
  }
}
`, digits(rng, 1, 0), w, w2)
	return b.String()
}
