// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
)

// genLaggedFleet is a fleet that clears max_backlog only after
// rto_seconds once its provisioning lag is counted, during which its
// minimum size drains alone: an auto scaling group scaled by target
// tracking (a metric period of 10, 30 or 60 s, the last AWS's default when
// unset), or scaled out by a step policy, or an ECS service scaled out by
// an Application Auto Scaling step policy, whose alarm needs M of N
// breaching datapoints of 10, 30 or 60 s (M × period). The advice is
// MATH.md's provisioning-lag formula, ceil(λ_eff / μ + max(0, B − S_min ×
// L) / (μ × (RTO − L))). Boundaries: a backlog the formula lands on a whole
// fleet exactly (the advised fleet clears it in exactly rto_seconds), and
// a minimum fleet with a surplus.
func genLaggedFleet(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu := randDec(rng, -2, 5), randDec(rng, -2, 3)
	retryTags, amp := randRetryTags(rng)
	var lag int64
	var trigger laggedTrigger
	switch i % 3 {
	case 0:
		lag = []int64{10, 30, 60}[rng.IntN(3)]
		period := fmt.Sprintf("      period      = %d\n", lag)
		if lag == 60 && rng.IntN(2) == 0 {
			period = "" // AWS's default
		}
		trigger = targetTrackingTrigger(period)
	default:
		period, m := []int64{10, 30, 60}[rng.IntN(3)], rng.Int64N(3)+1
		lag = m * period
		evaluation := fmt.Sprintf("  evaluation_periods  = %d\n", m)
		if rng.IntN(2) == 0 {
			evaluation = fmt.Sprintf("  evaluation_periods  = %d\n  datapoints_to_alarm = %d\n", m+rng.Int64N(3), m)
		}
		trigger = stepTrigger(i%3 == 2, fmt.Sprintf("  period              = %d\n%s", period, evaluation))
	}
	lagR := rInt(lag)
	rto := rAdd(lagR, randDec(rng, 0, 5))
	eff := rMul(lambda, amp)
	steady := rCeil(rQuo(eff, mu))
	minC := rInt(rng.Int64N(steady.Num().Int64() + 2))
	minSurplus := rMax(rInt(0), rSub(rMul(minC, mu), eff))
	backlog := randDec(rng, 0, 9)
	what := "random"
	if i%5 == 0 {
		// The remainder after the lag a whole fleet clears in exactly
		// the time left.
		what = "the lag's backlog term on a whole fleet"
		n := rAdd(rFloor(rQuo(eff, mu)), wholeDec(rng, 0, 2))
		backlog = rAdd(rMul(minSurplus, lagR), rMul(rSub(rMul(n, mu), eff), rSub(rto, lagR)))
	}
	if !allDecimals(lambda, mu, backlog, rto) || lambda.Sign() <= 0 || backlog.Sign() <= 0 {
		return adviceCase{}, false
	}
	rest := rSub(backlog, rMul(minSurplus, lagR))
	if rest.Sign() <= 0 {
		return adviceCase{}, false // the minimum fleet clears it within the lag
	}
	need := rCeil(rAdd(rQuo(eff, mu), rQuo(rest, rMul(mu, rSub(rto, lagR)))))
	// One short of the advice must still scale (min_size below it) and
	// drain.
	lo := rMax(rAdd(rFloor(rQuo(eff, mu)), rInt(1)), rAdd(minC, rInt(1)))
	flagged, ok := between(rng, lo, rSub(need, rInt(1)))
	if !ok || need.Cmp(big.NewRat(1e7, 1)) > 0 {
		return adviceCase{}, false
	}
	tags := fmt.Sprintf(`"queuecap:arrival_rate" = %s, "queuecap:max_backlog" = %s, "queuecap:rto_seconds" = %s%s`,
		decText(lambda), decText(backlog), decText(rto), retryTags)
	return adviceCase{
		want:    need,
		flagged: big.NewRat(flagged, 1),
		what:    fmt.Sprintf("%s: per_consumer_rate %s, min_size %s, lag %d s, %s", what, decText(mu), decText(minC), lag, tags),
		config: func(v string) string {
			return trigger(tags, decText(minC), v, decText(mu))
		},
	}, true
}

// laggedTrigger writes a lagged fleet's configuration: the queue with its
// tags, the fleet with its minimum, its maximum and its per_consumer_rate,
// and what scales it out.
type laggedTrigger func(tags, minSize, maxSize, mu string) string

const laggedQueue = `resource "aws_sqs_queue" "jobs" {
  name                      = "jobs"
  message_retention_seconds = 1209600
  tags                      = { %s }
}
`

// laggedGroup is the auto scaling group of a lagged fleet.
const laggedGroup = `
resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = %s
  max_size = %s
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "%s"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.jobs"
    propagate_at_launch = false
  }
}
`

// targetTrackingTrigger scales the group by target tracking on the
// queue's depth, with the customized metric's period argument.
func targetTrackingTrigger(period string) laggedTrigger {
	return func(tags, minSize, maxSize, mu string) string {
		return fmt.Sprintf(laggedQueue+laggedGroup+`
resource "aws_autoscaling_policy" "backlog" {
  name                   = "backlog"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    target_value = 100
    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Sum"
%s    }
  }
}
`, tags, minSize, maxSize, mu, period)
	}
}

// stepTrigger scales the group (or, with ecs, an ECS service through its
// Application Auto Scaling target) out by a step policy, triggered by an
// alarm on the age of the queue's oldest message with the period and
// evaluation arguments given.
func stepTrigger(ecs bool, evaluation string) laggedTrigger {
	alarm := `
resource "aws_cloudwatch_metric_alarm" "old" {
  alarm_name          = "old"
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  dimensions          = { QueueName = aws_sqs_queue.jobs.name }
  statistic           = "Maximum"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 60
%s  alarm_actions       = [%s.out.arn]
}
`
	if !ecs {
		return func(tags, minSize, maxSize, mu string) string {
			return fmt.Sprintf(laggedQueue+laggedGroup+`
resource "aws_autoscaling_policy" "out" {
  name                   = "out"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "StepScaling"
  adjustment_type        = "ChangeInCapacity"
  step_adjustment {
    scaling_adjustment          = 1
    metric_interval_lower_bound = 0
  }
}
`+alarm, tags, minSize, maxSize, mu, evaluation, "aws_autoscaling_policy")
		}
	}
	return func(tags, minSize, maxSize, mu string) string {
		return fmt.Sprintf(laggedQueue+`
resource "aws_ecs_service" "workers" {
  name          = "workers"
  cluster       = "main"
  desired_count = %s
  tags = {
    "queuecap:per_consumer_rate" = "%s"
    "queuecap:queue"             = "aws_sqs_queue.jobs"
  }
}

resource "aws_appautoscaling_target" "workers" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/main/workers"
  min_capacity       = %s
  max_capacity       = %s
}

resource "aws_appautoscaling_policy" "out" {
  name               = "out"
  service_namespace  = aws_appautoscaling_target.workers.service_namespace
  scalable_dimension = aws_appautoscaling_target.workers.scalable_dimension
  resource_id        = aws_appautoscaling_target.workers.resource_id
  step_scaling_policy_configuration {
    adjustment_type = "ChangeInCapacity"
    step_adjustment {
      scaling_adjustment          = 1
      metric_interval_lower_bound = 0
    }
  }
}
`+alarm, tags, minSize, mu, minSize, maxSize, evaluation, "aws_appautoscaling_policy")
	}
}
