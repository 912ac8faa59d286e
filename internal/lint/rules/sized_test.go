// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"cmp"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// sizing is one random case of the provider ⇒ linter properties: the rates
// a queue declares, as HCL numbers (lambda, the arrival rate, may be an
// expression of mu), and what the other queuecap sources take besides.
// kind says which boundary it was built on, for a failure's message.
type sizing struct {
	kind                                                      string
	mu, lambda, backlog, rto, headroom, retryRate, avgRetries string
	// sla, lag and minConsumers are queuecap_fleet's (minConsumers ""
	// for its default); lag is under rto.
	sla, lag, minConsumers string
	// timeout is a Lambda function's, 1 to 900 s; processing and
	// visibilityMargin a worker's (900 × 1.1 in a fifth of the cases, a
	// visibility timeout of exactly 990 s); retentionMargin is
	// queue_settings' (0 in a third).
	timeout, processing, visibilityMargin, retentionMargin string
}

// sizingCases are the random inputs every provider ⇒ linter property
// shares, on random decimal rates and on boundaries built exactly (big.Rat):
//
//   - i%5 == 0: λ an exact multiple of μ;
//   - i%5 == 1: a backlog a hair above a whole number of consumers,
//     k × μ × RTO + 0.0002 messages, which a tolerant ceiling rounded
//     down;
//   - i%10 == 2: λ of 15 significant digits and random retries, so that
//     λ_eff = λ × (1 + r × a) has more than 15, and the backlog term of
//     the headroom formula met to 15 digits: max_backlog is the surplus
//     of the fleet the formula gives times rto_seconds, truncated, so
//     that the backlog drains in rto_seconds less 1e-14 of it (μ of 15
//     significant digits in half of them, so that c × μ has more too);
//   - i%10 == 3: the same λ_eff with min_headroom met to 15 digits:
//     λ = c × μ / ((1 + r × a) × (1 + h)) truncated, h 1 to 9 %;
//   - i%10 == 4: the backlog drains in exactly rto_seconds, a whole
//     number of seconds: max_backlog = (k + 1) × μ × RTO, λ = m × μ.
//
// The first draws are TestSizedFleetIsNeverFlagged's as they were (i%5 of
// 0 and 1 are the same cases); what the other sources take comes from a
// second stream.
func sizingCases(n int) []sizing {
	rng, more := rand.New(rand.NewPCG(7, 11)), rand.New(rand.NewPCG(13, 17))
	dec := func(r *rand.Rand, maxInt, places int) string {
		p := 1
		for range places {
			p *= 10
		}
		return strconv.FormatFloat(float64(r.IntN(maxInt*p)+1)/float64(p), 'f', -1, 64)
	}
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			panic(s)
		}
		return r
	}
	out := make([]sizing, 0, n)
	for i := range n {
		s := sizing{kind: "random"}
		s.mu = dec(rng, 500, 3)
		s.lambda = dec(rng, 50000, 2)
		if i%5 == 0 {
			s.kind = "λ a multiple of μ"
			s.lambda = fmt.Sprintf("%s * %d", s.mu, rng.IntN(200)+1)
		}
		s.backlog, s.rto, s.headroom = dec(rng, 9000000, 1), strconv.Itoa(rng.IntN(3600)+60), dec(rng, 1, 2)
		s.retryRate, s.avgRetries = dec(rng, 1, 2), dec(rng, 3, 1)
		if i%5 == 1 {
			s.kind = "a backlog just over whole consumers"
			b := new(big.Rat).Mul(new(big.Rat).Mul(rat(s.mu), rat(s.rto)), big.NewRat(int64(rng.IntN(900)+1), 1))
			s.backlog = b.Add(b, big.NewRat(2, 10000)).FloatString(4)
			s.lambda, s.retryRate, s.headroom = fmt.Sprintf("%s * %d", s.mu, rng.IntN(200)+1), "0", "0"
		}
		mu, rto := rat(s.mu), rat(s.rto)
		switch i % 10 {
		case 2:
			s.kind = "λ_eff beyond 15 digits, the backlog term met"
			s.lambda, s.headroom = dec(more, 50000, 10), "0"
			if i%20 == 2 {
				// μ of 15 digits too: c × μ has more.
				s.kind += ", μ of 15 digits"
				s.mu = dec(more, 500, 12)
				mu = rat(s.mu)
			}
			eff := effective(rat(s.lambda), rat(s.retryRate), rat(s.avgRetries))
			c := new(big.Int).Quo(new(big.Rat).Quo(eff, mu).Num(), new(big.Rat).Quo(eff, mu).Denom())
			c.Add(c, big.NewInt(int64(1+more.IntN(3))))
			surplus := new(big.Rat).Sub(new(big.Rat).Mul(new(big.Rat).SetInt(c), mu), eff)
			s.backlog = truncate(new(big.Rat).Mul(surplus, rto), 15)
		case 3:
			s.kind = "λ_eff beyond 15 digits, min_headroom met"
			s.headroom = "0.0" + strconv.Itoa(1+more.IntN(9))
			c := big.NewRat(int64(1+more.IntN(5000)), 1)
			amplified := new(big.Rat).Mul(effective(big.NewRat(1, 1), rat(s.retryRate), rat(s.avgRetries)), new(big.Rat).Add(big.NewRat(1, 1), rat(s.headroom)))
			s.lambda = truncate(new(big.Rat).Quo(new(big.Rat).Mul(c, mu), amplified), 15)
			// A backlog the headroom's fleet clears in half the RTO.
			surplus := new(big.Rat).Sub(new(big.Rat).Mul(c, mu), effective(rat(s.lambda), rat(s.retryRate), rat(s.avgRetries)))
			s.backlog = truncate(new(big.Rat).Mul(surplus, new(big.Rat).Quo(rto, big.NewRat(2, 1))), 15)
		case 4:
			s.kind = "a backlog that drains in exactly rto_seconds"
			s.lambda, s.retryRate, s.headroom = fmt.Sprintf("%s * %d", s.mu, 1+more.IntN(200)), "0", "0"
			s.backlog = new(big.Rat).Mul(new(big.Rat).Mul(mu, rto), big.NewRat(int64(1+more.IntN(900)), 1)).FloatString(3)
		}
		s.sla = dec(more, 600, 1)
		s.lag = strconv.Itoa(more.IntN(int(rto.Num().Int64())))
		if i%3 == 0 {
			s.minConsumers = strconv.Itoa(more.IntN(50))
		}
		s.timeout = strconv.Itoa(1 + more.IntN(900))
		if i%4 == 0 {
			s.timeout = strconv.FormatFloat(1+float64(more.IntN(8990))/10, 'f', -1, 64)
		}
		s.processing, s.visibilityMargin = dec(more, 3600, 2), dec(more, 1, 2)
		if i%5 == 2 {
			s.processing, s.visibilityMargin = "900", "0.1"
		}
		s.retentionMargin = dec(more, 1, 2)
		if i%3 == 1 {
			s.retentionMargin = "0"
		}
		out = append(out, s)
	}
	return out
}

// effective is λ × (1 + r × a), exactly.
func effective(lambda, r, a *big.Rat) *big.Rat {
	f := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(r, a))
	return f.Mul(f, lambda)
}

// truncate is r > 0 cut (not rounded) to digits significant digits, as a
// decimal: at most r, and read back as the same float64's shortest digits.
func truncate(r *big.Rat, digits int) string {
	exp := len(new(big.Int).Quo(r.Num(), r.Denom()).String()) // digits before the point, 1 when below 1
	if r.Cmp(big.NewRat(1, 1)) < 0 {
		exp = 0
		for t := new(big.Rat).Set(r); t.Cmp(big.NewRat(1, 10)) < 0; t.Mul(t, big.NewRat(10, 1)) {
			exp--
		}
	}
	places := digits - exp
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(places, 0))), nil)
	q := new(big.Int).Quo(new(big.Int).Mul(r.Num(), scale), r.Denom())
	return new(big.Rat).SetFrac(q, scale).FloatString(max(places, 0))
}

// args are the queuecap_consumers arguments of s, as attribute lines
// indented by indent or, with sep ", ", as one object's.
func (s sizing) args(sep, indent string) string {
	return strings.Join([]string{
		indent + "arrival_rate      = local.arrival_rate",
		indent + "per_consumer_rate = " + s.mu,
		indent + "max_backlog       = " + s.backlog,
		indent + "rto_seconds       = " + s.rto,
		indent + "min_headroom      = " + s.headroom,
		indent + "retry_rate        = " + s.retryRate,
		indent + "avg_retries       = " + s.avgRetries,
	}, sep)
}

// fleetArgs are the queuecap_fleet arguments of s.
func (s sizing) fleetArgs(sep, indent string) string {
	a := s.args(sep, indent) + sep + indent + "sla_seconds       = " + s.sla + sep + indent + "provisioning_lag_seconds = " + s.lag
	if s.minConsumers != "" {
		a += sep + indent + "min_consumers = " + s.minConsumers
	}
	return a
}

// settingsArgs are the queue_settings arguments of s for a fleet of
// consumers, with lambda_timeout_seconds or the worker's processing time.
func (s sizing) settingsArgs(sep, indent, consumers string, lambda bool) string {
	a := []string{
		indent + "arrival_rate      = local.arrival_rate",
		indent + "per_consumer_rate = " + s.mu,
		indent + "consumers         = " + consumers,
		indent + "max_backlog       = " + s.backlog,
		indent + "retry_rate        = " + s.retryRate,
		indent + "avg_retries       = " + s.avgRetries,
		indent + "retention_margin  = " + s.retentionMargin,
		indent + "min_retention_seconds = 60",
	}
	if lambda {
		a = append(a, indent+"lambda_timeout_seconds = "+s.timeout)
	} else {
		a = append(a, indent+"max_processing_seconds = "+s.processing, indent+"visibility_margin = "+s.visibilityMargin)
	}
	return strings.Join(a, sep)
}

func (s sizing) locals(extra string) string {
	return "locals {\n  arrival_rate = " + s.lambda + "\n" + extra + "}\n\n"
}

// queueAndGroup is an SQS queue with attrs and an auto scaling group
// consuming it whose max_size is maxSize.
func queueAndGroup(attrs, maxSize string) string {
	return `resource "aws_sqs_queue" "orders" {
  name = "orders"
` + attrs + `}

resource "aws_autoscaling_group" "workers" {
  max_size = ` + maxSize + `
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
}

// queueAndFunction is an SQS queue with attrs consumed by a Lambda
// function with timeout and reserved concurrency, through a mapping with
// extra content.
func queueAndFunction(attrs, timeout, reserved, mapping string) string {
	return `resource "aws_sqs_queue" "orders" {
  name = "orders"
` + attrs + `}

resource "aws_lambda_function" "worker" {
  function_name                  = "worker"
  timeout                        = ` + timeout + `
  reserved_concurrent_executions = ` + reserved + `
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.function_name
` + mapping + `}
`
}

// depthAlarm is a queue declaring λ (and the retries, with retries) and
// an SLA in its tags, a depth alarm on it with threshold, and the
// consumers capacity_plan sizes for it (with the same retries).
func depthAlarm(s sizing, retries bool, comparison, threshold string) string {
	tags := `"queuecap:arrival_rate" = local.arrival_rate, "queuecap:sla_seconds" = ` + s.sla
	var args []string
	for _, a := range strings.Split(s.args("\n", "    "), "\n") {
		if retries || !strings.Contains(a, "retr") {
			args = append(args, a)
		}
	}
	if retries {
		tags += `, "queuecap:retry_rate" = ` + s.retryRate + `, "queuecap:avg_retries" = ` + s.avgRetries
	}
	return depthAlarmOn(tags, comparison, threshold, "aws_sqs_queue.orders.name") + `
resource "aws_autoscaling_group" "workers" {
  max_size = provider::queuecap::capacity_plan({
` + strings.Join(args, ",\n") + `
  }).required_consumers
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
}

const (
	zeroSurplus   = "queuecap_zero_surplus"
	headroom      = "queuecap_insufficient_headroom"
	retention     = "queuecap_retention_shorter_than_drain"
	visibility    = "queuecap_visibility_timeout_too_short"
	depthAfterSLA = "queuecap_depth_alarm_after_sla"
)

// providerForm is one way the provider sizes what some rules judge: a
// configuration of a sizing case, and the rules that must not flag it.
// src passes each value the provider sizes through v; spoil (a format of
// one %s, "(%s) - 1" unless given) is the v of the negative control,
// which the rules must flag in some cases: they see the form at all.
type providerForm struct {
	name  string
	rules []string
	spoil string
	src   func(s sizing, i int, v func(string) string) string
}

var providerForms = []providerForm{
	{
		name: "max_size = data.queuecap_consumers.required_consumers", rules: []string{zeroSurplus, headroom},
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + "data \"queuecap_consumers\" \"orders\" {\n" + s.args("\n", "  ") + "\n}\n\n" + queueAndGroup("", v("data.queuecap_consumers.orders.required_consumers"))
		},
	},
	{
		name: "max_size = provider::queuecap::capacity_plan(…).required_consumers", rules: []string{zeroSurplus, headroom},
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + queueAndGroup("", v("provider::queuecap::capacity_plan({\n"+s.args(",\n", "    ")+"\n  }).required_consumers"))
		},
	},
	{
		// Without retries or headroom, as its four arguments declare.
		name: "max_size = provider::queuecap::required_consumers(λ, μ, max_backlog, rto_seconds)", rules: []string{zeroSurplus, headroom},
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + queueAndGroup("", v(fmt.Sprintf("provider::queuecap::required_consumers(local.arrival_rate, %s, %s, %s)", s.mu, s.backlog, s.rto)))
		},
	},
	{
		name: "min, desired and max_size = data.queuecap_fleet", rules: []string{zeroSurplus, headroom}, spoil: "floor((%s) / 2)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + "data \"queuecap_fleet\" \"orders\" {\n" + s.fleetArgs("\n", "  ") + "\n}\n\n" +
				strings.Replace(queueAndGroup("", v("data.queuecap_fleet.orders.max_size")), "  max_size", "  min_size = data.queuecap_fleet.orders.min_size\n  desired_capacity = data.queuecap_fleet.orders.desired_capacity\n  max_size", 1)
		},
	},
	{
		name: "an ECS target's max_capacity = provider::queuecap::fleet_plan(…).max_size", rules: []string{zeroSurplus, headroom}, spoil: "floor((%s) / 2)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("  fleet = provider::queuecap::fleet_plan({\n"+s.fleetArgs(",\n", "    ")+"\n  })\n") + `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_ecs_service" "workers" {
  name    = "workers"
  cluster = "main"
  tags    = { "queuecap:queue" = "aws_sqs_queue.orders" }
}

resource "aws_appautoscaling_target" "workers" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/${aws_ecs_service.workers.name}"
  min_capacity       = local.fleet.min_size
  max_capacity       = ` + v("local.fleet.max_size") + `
}
`
		},
	},
	{
		// maximum_concurrency = max(2, max_size) where the plan gives a
		// scaling_config (max_size up to 1,000), reserved concurrency
		// otherwise.
		name: "a Lambda consumer's concurrency = provider::queuecap::fleet_plan(…)", rules: []string{zeroSurplus, headroom}, spoil: "floor((%s) / 2)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("  fleet = provider::queuecap::fleet_plan({\n"+s.fleetArgs(",\n", "    ")+"\n  })\n") +
				queueAndFunction("", s.timeout, v("local.fleet.max_size"), `  dynamic "scaling_config" {
    for_each = local.fleet.lambda_scaling_config
    content {
      maximum_concurrency = `+v("scaling_config.value.maximum_concurrency")+`
    }
  }
`)
		},
	},
	{
		name:  "visibility and retention = data.queuecap_queue_settings of a Lambda consumer queuecap_consumers sizes",
		rules: []string{zeroSurplus, headroom, retention, visibility}, spoil: "floor((%s) / 10)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + "data \"queuecap_consumers\" \"orders\" {\n" + s.args("\n", "  ") + "\n}\n\n" +
				"data \"queuecap_queue_settings\" \"orders\" {\n" + s.settingsArgs("\n", "  ", "data.queuecap_consumers.orders.required_consumers", true) + "\n}\n\n" +
				queueAndFunction("  visibility_timeout_seconds = "+v("data.queuecap_queue_settings.orders.visibility_timeout_seconds")+
					"\n  message_retention_seconds  = "+v("data.queuecap_queue_settings.orders.message_retention_seconds")+"\n",
					s.timeout, "data.queuecap_consumers.orders.required_consumers", "")
		},
	},
	{
		// No rule judges a worker's visibility timeout: the retention only.
		name: "retention = provider::queuecap::queue_settings(…) of a worker fleet capacity_plan sizes", rules: []string{zeroSurplus, headroom, retention}, spoil: "floor((%s) / 10)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("  plan = provider::queuecap::capacity_plan({\n"+s.args(",\n", "    ")+"\n  })\n"+
				"  settings = provider::queuecap::queue_settings({\n"+s.settingsArgs(",\n", "    ", "local.plan.required_consumers", false)+"\n  })\n") +
				queueAndGroup("  visibility_timeout_seconds = local.settings.visibility_timeout_seconds\n  message_retention_seconds  = "+v("local.settings.message_retention_seconds")+"\n",
					"local.plan.required_consumers")
		},
	},
	{
		// The retention the rule advises, ceil(drain), from the provider's
		// drain time of the fleet: met exactly where it drains in a whole
		// number of seconds.
		name: "retention = ceil(data.queuecap_drain.drain_seconds) of the fleet queuecap_consumers sizes", rules: []string{zeroSurplus, headroom, retention}, spoil: "floor((%s) / 10)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + "data \"queuecap_consumers\" \"orders\" {\n" + s.args("\n", "  ") + "\n}\n\n" + fmt.Sprintf(`data "queuecap_drain" "orders" {
  backlog           = %s
  arrival_rate      = local.arrival_rate
  per_consumer_rate = %s
  consumers         = data.queuecap_consumers.orders.required_consumers
  retry_rate        = %s
  avg_retries       = %s
}

`, s.backlog, s.mu, s.retryRate, s.avgRetries) + queueAndGroup("  message_retention_seconds = "+v("ceil(data.queuecap_drain.orders.drain_seconds)")+"\n", "data.queuecap_consumers.orders.required_consumers")
		},
	},
	{
		name: "retention = ceil(provider::queuecap::drain_seconds(…)) of the fleet required_consumers sizes", rules: []string{zeroSurplus, headroom, retention}, spoil: "floor((%s) / 10)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals(fmt.Sprintf("  consumers = provider::queuecap::required_consumers(local.arrival_rate, %s, %s, %s)\n", s.mu, s.backlog, s.rto)) +
				queueAndGroup("  message_retention_seconds = "+v(fmt.Sprintf("ceil(provider::queuecap::drain_seconds(local.arrival_rate, local.consumers * %s, %s))", s.mu, s.backlog))+"\n", "local.consumers")
		},
	},
	{
		// queuecap_fleet's drain includes the provisioning lag: never
		// shorter than the full fleet's drain the rule computes.
		name: "retention = ceil(data.queuecap_fleet.drain_seconds) of the fleet it sizes", rules: []string{zeroSurplus, headroom, retention}, spoil: "floor((%s) / 10)",
		src: func(s sizing, _ int, v func(string) string) string {
			return s.locals("") + "data \"queuecap_fleet\" \"orders\" {\n" + s.fleetArgs("\n", "  ") + "\n}\n\n" +
				queueAndGroup("  message_retention_seconds = "+v("ceil(data.queuecap_fleet.orders.drain_seconds)")+"\n", "data.queuecap_fleet.orders.max_size")
		},
	},
	{
		name: "threshold = data.queuecap_sla_depth.max_depth", rules: []string{zeroSurplus, headroom, depthAfterSLA}, spoil: "(%s) * 1.01",
		src: func(s sizing, i int, v func(string) string) string {
			return s.locals("") + depthAlarm(s, false, comparison(i), v("data.queuecap_sla_depth.orders.max_depth")) +
				"\ndata \"queuecap_sla_depth\" \"orders\" {\n  arrival_rate = local.arrival_rate\n  sla_seconds  = " + s.sla + "\n}\n"
		},
	},
	{
		name: "threshold = provider::queuecap::sla_max_depth(λ, sla_seconds)", rules: []string{zeroSurplus, headroom, depthAfterSLA}, spoil: "(%s) * 1.01",
		src: func(s sizing, i int, v func(string) string) string {
			return s.locals("") + depthAlarm(s, false, comparison(i), v("provider::queuecap::sla_max_depth(local.arrival_rate, "+s.sla+")"))
		},
	},
	{
		// The retries in the queue's tags in half the cases, else only
		// in the data source's arguments.
		name: "threshold = the depth_above_sla alarm of data.queuecap_alarm_thresholds", rules: []string{zeroSurplus, headroom, depthAfterSLA}, spoil: "(%s) * 1.01",
		src: func(s sizing, i int, v func(string) string) string {
			return s.locals("") + depthAlarm(s, i%2 == 0, comparison(i), v(`[for a in data.queuecap_alarm_thresholds.orders.alarms : a.threshold if a.name == "depth_above_sla"][0]`)) +
				"\ndata \"queuecap_alarm_thresholds\" \"orders\" {\n" + s.alarmArgs("\n", "  ") + "\n}\n"
		},
	},
	{
		name: "threshold = provider::queuecap::alarm_plan(…).max_depth", rules: []string{zeroSurplus, headroom, depthAfterSLA}, spoil: "(%s) * 1.01",
		src: func(s sizing, i int, v func(string) string) string {
			return s.locals("  plan = provider::queuecap::alarm_plan({\n"+s.alarmArgs(",\n", "    ")+",\n    queue_name = aws_sqs_queue.orders.name\n  })\n") +
				depthAlarm(s, i%2 == 1, comparison(i), v("local.plan.max_depth"))
		},
	},
}

// alarmArgs are the queuecap_alarm_thresholds arguments of s.
func (s sizing) alarmArgs(sep, indent string) string {
	return strings.Join([]string{
		indent + "arrival_rate      = local.arrival_rate",
		indent + "sla_seconds       = " + s.sla,
		indent + "per_consumer_rate = " + s.mu,
		indent + "rto_seconds       = " + s.rto,
		indent + "retry_rate        = " + s.retryRate,
		indent + "avg_retries       = " + s.avgRetries,
	}, sep)
}

// comparison is a depth alarm's operator, both kinds that fire on depth.
func comparison(i int) string {
	if i%2 == 0 {
		return "GreaterThanThreshold"
	}
	return "GreaterThanOrEqualToThreshold"
}

// lintWith runs several rules on one main.tf.
func lintWith(t *testing.T, src string, names ...string) *lint.Result {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var rs []lint.Rule
	for _, n := range names {
		rs = append(rs, ruleNamed(t, n))
	}
	res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{AWSLimits: &uncappedLambda}, Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// uncappedLambda is AWS's table with standard mode's per-mapping cap out
// of the way: the properties hold the provider's arithmetic to the
// linter's, and fleet_plan sizes a Lambda function's concurrency past the
// 1,250 a standard-mode mapping reaches (which the linter rightly flags:
// TestLambdaCeiling's "standard mode's cap binds").
var uncappedLambda = func() capacity.AWSLimits {
	l, err := capacity.DefaultAWSLimits().WithOverrides(map[string]float64{"lambda_sqs_standard_max_concurrency": 1e15})
	if err != nil {
		panic(err)
	}
	return l
}()

// checkClean fails on any finding, skip or error of a run.
func checkClean(t *testing.T, res *lint.Result, what string, s sizing, src string) {
	t.Helper()
	for _, is := range res.Issues {
		t.Errorf("%s: %s flags it (%s): %s\n%s\n%s", what, is.Rule, s.kind, is.Summary, is.Message, src)
	}
	for _, sk := range res.Skipped {
		t.Errorf("%s: %s skips (%s): %s\n%s", what, sk.RuleList(), s.kind, sk.Reason, src)
	}
	for _, e := range res.Errors {
		t.Errorf("%s: error (%s): %s\n%s", what, s.kind, e, src)
	}
}

// TestSizedFleetIsNeverFlagged: whatever the provider sizes from the rates
// a queue declares, in every form a configuration can take it (a data
// source, a provider function, its object form; an auto scaling group, an
// ECS target, a Lambda function's concurrency; a queue's visibility timeout
// and retention, a depth alarm's threshold), is never reported by the rules
// that judge it, on the same random decimal rates and the same boundaries
// (sizingCases): the provider and the linter do one arithmetic. Nothing is
// skipped either: every form is evaluated and linked. A fifth of the cases
// also run with the sized values spoiled (one consumer fewer, half the
// fleet, a tenth of the retention, 1 % over the threshold), which must be
// flagged at least once per form: the rules do judge what it sizes.
func TestSizedFleetIsNeverFlagged(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	cases := sizingCases(n)
	asIs := func(expr string) string { return expr }
	for _, form := range providerForms {
		t.Run(form.name, func(t *testing.T) {
			spoilFormat := cmp.Or(form.spoil, "(%s) - 1")
			spoil := func(expr string) string { return fmt.Sprintf(spoilFormat, expr) }
			spoiled, flagged := 0, 0
			for i, s := range cases {
				src := form.src(s, i, asIs)
				checkClean(t, lintWith(t, src, form.rules...), fmt.Sprintf("case %d", i), s, src)
				if i%5 == 4 {
					spoiled++
					if res := lintWith(t, form.src(s, i, spoil), form.rules...); len(res.Issues) > 0 {
						flagged++
					}
				}
			}
			if flagged == 0 {
				t.Errorf("none of %d cases with the sized values spoiled (%s) is flagged: the rules do not judge this form", spoiled, spoilFormat)
			}
			t.Logf("%d of %d spoiled cases flagged", flagged, spoiled)
		})
	}
}

// fleetExample is examples/fleet, where every number comes from queuecap
// and the queue's own tags repeat the rates for the linter.
const fleetExample = "../../../examples/fleet/main.tf"

// TestFleetExampleIsNeverFlagged: examples/fleet, with the rates of each
// sizing case in place of its own, lints clean with every rule and skips
// nothing: fleet_plan's sizes and its target tracking policy (dynamic
// blocks), queue_settings' retention and visibility timeout, and
// alarm_plan's alarms (for_each, metric math) agree with the rules. With
// half the fleet and twice the thresholds, the capacity and depth alarm
// rules flag it.
func TestFleetExampleIsNeverFlagged(t *testing.T) {
	raw, err := os.ReadFile(fleetExample)
	if err != nil {
		t.Fatal(err)
	}
	n := 100
	if testing.Short() {
		n = 10
	}
	var all []string
	for _, r := range rules.All() {
		all = append(all, r.Name())
	}
	flagged := map[string]bool{}
	for i, s := range sizingCases(n) {
		// The example scales by target tracking on a metric of AWS's
		// default 60 s period: no scale-out takes effect sooner, so the
		// lag it sizes with is at least that, and an RTO within it is
		// one no max_size meets (queuecap_insufficient_headroom says so).
		if lag, _ := strconv.Atoi(s.lag); lag < 60 {
			s.lag = "60"
		}
		if rto, _ := strconv.Atoi(s.rto); rto <= 60 {
			continue
		}
		src := string(raw)
		for _, r := range []struct{ re, to string }{
			{`(?s)  rates = \{.*?\n  \}`, "  rates = {\n    arrival_rate      = " + s.lambda + "\n    per_consumer_rate = " + s.mu +
				"\n    retry_rate        = " + s.retryRate + "\n    avg_retries       = " + s.avgRetries + "\n  }"},
			{`sla_seconds = 10\n`, "sla_seconds = " + s.sla + "\n"},
			{`max_backlog = 5000000\n`, "max_backlog = " + s.backlog + "\n"},
			{`rto_seconds = 1800\n`, "rto_seconds = " + s.rto + "\n"},
			{`min_headroom             = 0\.2\n`, "min_headroom             = " + s.headroom + "\n"},
			{`provisioning_lag_seconds = 180\n`, "provisioning_lag_seconds = " + s.lag + "\n"},
			{`max_processing_seconds = 5\n`, "max_processing_seconds = " + s.processing + "\n    visibility_margin      = " + s.visibilityMargin +
				"\n    retention_margin       = " + s.retentionMargin + "\n    min_retention_seconds  = 60\n"},
		} {
			re := regexp.MustCompile(r.re)
			if !re.MatchString(src) {
				t.Fatalf("%s no longer has %s", fleetExample, r.re)
			}
			src = re.ReplaceAllLiteralString(src, r.to)
		}
		checkClean(t, lintWith(t, src, all...), fmt.Sprintf("case %d", i), s, src)
		if i%5 == 4 || testing.Short() {
			// Half the fleet and twice the thresholds: flagged.
			spoiled := strings.NewReplacer("= local.fleet.max_size\n", "= floor(local.fleet.max_size / 2)\n",
				"= each.value.threshold\n", "= each.value.threshold * 2\n").Replace(src)
			if spoiled == src {
				t.Fatalf("%s no longer sets max_size and threshold as the test spoils them", fleetExample)
			}
			for _, is := range lintWith(t, spoiled, all...).Issues {
				flagged[is.Rule] = true
			}
		}
	}
	for _, r := range []string{zeroSurplus, headroom, depthAfterSLA} {
		if !flagged[r] {
			t.Errorf("%s flags no case with half the fleet and twice the thresholds: it does not judge the example", r)
		}
	}
}
