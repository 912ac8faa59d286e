// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
)

// genLaggedFleet is an auto scaling group scaled by target tracking (a
// metric period of 10, 30 or 60 s, the last AWS's default when unset)
// that clears max_backlog only after rto_seconds once the lag is counted:
// min_size drains alone for one period. The advice is MATH.md's
// provisioning-lag formula, ceil(λ_eff / μ + max(0, B − S_min × L) / (μ ×
// (RTO − L))). Boundaries: a backlog the formula lands on a whole fleet
// exactly (the advised fleet clears it in exactly rto_seconds), and a
// minimum fleet with a surplus.
func genLaggedFleet(rng *rand.Rand, i int) (adviceCase, bool) {
	lambda, mu := randDec(rng, -2, 5), randDec(rng, -2, 3)
	retryTags, amp := randRetryTags(rng)
	lag := []int64{10, 30, 60}[rng.IntN(3)]
	period := fmt.Sprintf("      period      = %d\n", lag)
	if lag == 60 && rng.IntN(2) == 0 {
		period = "" // AWS's default
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
			return fmt.Sprintf(`resource "aws_sqs_queue" "jobs" {
  name                      = "jobs"
  message_retention_seconds = 1209600
  tags                      = { %s }
}

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
`, tags, decText(minC), v, decText(mu), period)
		},
	}, true
}
