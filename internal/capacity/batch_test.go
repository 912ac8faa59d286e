// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestBatchRetryAmplification(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		in                          capacity.BatchRetryInput
		pb, receives, withReporting float64
	}{
		// MATH.md's worked example: p_b = 0.401, 1.65 receives per
		// message instead of 1.05.
		{"MATH.md: b 10, f 0.05, m 5", capacity.BatchRetryInput{BatchSize: 10, FailureRate: 0.05, MaxReceiveCount: 5},
			0.401263060761621, 1.65280816855205, 1.05263125},
		// Without a limit, 1 / (1 − p): the most any maxReceiveCount gives.
		{"no maxReceiveCount", capacity.BatchRetryInput{BatchSize: 10, FailureRate: 0.05},
			0.401263060761621, 1.67018257011509, 1.05263157894737},
		// A batch of one is its message: nothing to amplify.
		{"batch of one", capacity.BatchRetryInput{BatchSize: 1, FailureRate: 0.05, MaxReceiveCount: 5},
			0.05, 1.05263125, 1.05263125},
		{"no failures", capacity.BatchRetryInput{BatchSize: 10, FailureRate: 0, MaxReceiveCount: 3}, 0, 1, 1},
		// Every message fails: m receives either way.
		{"every message fails", capacity.BatchRetryInput{BatchSize: 10, FailureRate: 1, MaxReceiveCount: 4}, 1, 4, 4},
		// 1 − 0.999999999999^10 computed as written in float64 is
		// 9.999778782798785e-12, right to four digits only.
		{"a tiny failure rate", capacity.BatchRetryInput{BatchSize: 10, FailureRate: 1e-12, MaxReceiveCount: 5},
			9.999999999955e-12, 1.00000000001, 1.000000000001},
		// The largest batch a standard queue takes.
		{"batch of 10,000", capacity.BatchRetryInput{BatchSize: 10000, FailureRate: 0.001, MaxReceiveCount: 10},
			0.999954826654023, 9.99796744428742, 1.001001001001},
	} {
		// The wants are 40-digit references (mpmath) rounded to 15.
		t.Run(tc.name, func(t *testing.T) {
			got, err := capacity.BatchRetryAmplification(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{
				{"p_b", got.BatchFailureProbability, tc.pb},
				{"receives per message", got.ReceivesPerMessage, tc.receives},
				{"receives per message with partial batch responses", got.ReceivesPerMessageReported, tc.withReporting},
			} {
				if capacity.Clean(c.got) != c.want {
					t.Errorf("%s = %v, want %v", c.what, capacity.Clean(c.got), c.want)
				}
			}
		})
	}
}

func TestBatchRetryAmplificationInvalid(t *testing.T) {
	for _, tc := range []struct {
		in    capacity.BatchRetryInput
		field string
	}{
		{capacity.BatchRetryInput{BatchSize: 0, FailureRate: 0.1}, "batch_size"},
		{capacity.BatchRetryInput{BatchSize: 2.5, FailureRate: 0.1}, "batch_size"},
		{capacity.BatchRetryInput{BatchSize: 10, FailureRate: 1.5}, "retry_rate"},
		{capacity.BatchRetryInput{BatchSize: 10, FailureRate: 0.1, MaxReceiveCount: -1}, "maxReceiveCount"},
		{capacity.BatchRetryInput{BatchSize: 10, FailureRate: 0.1, MaxReceiveCount: 1.5}, "maxReceiveCount"},
		{capacity.BatchRetryInput{BatchSize: 10, FailureRate: 1}, "retry_rate"},
	} {
		_, err := capacity.BatchRetryAmplification(tc.in)
		assertInputError(t, err, tc.field)
	}
}
