// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "math"

// BatchRetryInput is a Lambda event source mapping's batching against a
// queue's failures.
type BatchRetryInput struct {
	// BatchSize is the mapping's batch_size b, at least 1.
	BatchSize float64
	// FailureRate is f, the probability that one message fails one
	// attempt (the queue's declared retry_rate).
	FailureRate float64
	// MaxReceiveCount is the redrive policy's maxReceiveCount m; 0 when
	// there is no limit a message stops at, so that it is received until
	// it succeeds: 1 / (1 − p), the most any m gives.
	MaxReceiveCount float64
}

// BatchRetry is how often a message is received with and without partial
// batch responses (ReportBatchItemFailures).
type BatchRetry struct {
	// BatchFailureProbability is p_b = 1 − (1 − f)^b: the chance that some
	// message of a batch fails, which without partial batch responses
	// returns every message of it to the queue.
	BatchFailureProbability float64
	// ReceivesPerMessage is (1 − p_b^m) / (1 − p_b), the receives of a
	// message without partial batch responses: the factor on the arrival
	// rate the consumers see.
	ReceivesPerMessage float64
	// ReceivesPerMessageReported is (1 − f^m) / (1 − f), with them.
	ReceivesPerMessageReported float64
}

// BatchRetryAmplification is MATH.md's batch retry amplification: for
// b = 10, f = 0.05, m = 5, p_b = 0.401 and 1.65 receives per message
// instead of 1.05. It is float64, as Erlang C is: (1 − f)^b for a batch
// of 10,000 and p_b^m would make exact rationals of hundreds of thousands
// of digits, and the findings state three.
func BatchRetryAmplification(in BatchRetryInput) (BatchRetry, error) {
	var r BatchRetry
	if err := checkPositive("batch_size", in.BatchSize); err != nil {
		return r, err
	}
	if in.BatchSize < 1 || in.BatchSize != math.Trunc(in.BatchSize) {
		return r, inputErr("batch_size", "must be a whole number of at least 1, got %v", in.BatchSize)
	}
	if err := checkFraction("retry_rate", in.FailureRate); err != nil {
		return r, err
	}
	if err := checkNonNegative("maxReceiveCount", in.MaxReceiveCount); err != nil {
		return r, err
	}
	if in.MaxReceiveCount != math.Trunc(in.MaxReceiveCount) {
		return r, inputErr("maxReceiveCount", "must be a whole number, got %v", in.MaxReceiveCount)
	}
	if in.MaxReceiveCount == 0 && in.FailureRate == 1 {
		return r, inputErr("retry_rate", "of 1 fails every message on every receive, which without a maxReceiveCount is received forever")
	}
	// 1 − (1 − f)^b through log1p and expm1: for f = 1e-12 and b = 10,
	// 1 − 0.999999999999^10 written so keeps four digits.
	p := -math.Expm1(in.BatchSize * math.Log1p(-in.FailureRate))
	r.BatchFailureProbability = p
	r.ReceivesPerMessage = receivesPerMessage(p, in.MaxReceiveCount)
	r.ReceivesPerMessageReported = receivesPerMessage(in.FailureRate, in.MaxReceiveCount)
	return r, nil
}

// receivesPerMessage is the receives of a message that fails each with
// probability p, at most m of them (m = 0: no limit): 1 + p + … + p^(m−1).
func receivesPerMessage(p, m float64) float64 {
	switch {
	case p == 1:
		return m // every receive fails, until the m-th
	case m == 0:
		return 1 / (1 - p)
	}
	return -math.Expm1(m*math.Log(p)) / (1 - p)
}
