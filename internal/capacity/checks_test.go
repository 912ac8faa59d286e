package capacity_test

import (
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestFindingFormulas(t *testing.T) {
	total, err := capacity.TotalCapacity(10*400, 5*200)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "TotalCapacity", total, 5000)
	_, err = capacity.TotalCapacity(math.MaxFloat64, math.MaxFloat64)
	assertInputError(t, err, "per_consumer_rate")

	// 32 × 400 against 10,000: 28 % spare; nothing arriving: undefined.
	h, err := capacity.Headroom(12800, 10000)
	if err != nil {
		t.Fatal(err)
	}
	assertOptional(t, "Headroom", h, ptr(0.28))
	if h, _ := capacity.Headroom(400, 0); h != nil {
		t.Errorf("Headroom with no arrivals = %v, want nil", *h)
	}

	c, err := capacity.HeadroomCapacity(10000, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "HeadroomCapacity", c, 12000)

	// 5 M messages in 1,800 s need 2,777.8 msg/s of surplus.
	s, err := capacity.RequiredSurplus(5e6, 1800)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "RequiredSurplus", s, 5e6/1800)
	_, err = capacity.RequiredSurplus(5e6, 0)
	assertInputError(t, err, "rto_seconds")

	v, err := capacity.MinVisibilityTimeout(30)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "MinVisibilityTimeout", v, 180)
	_, err = capacity.MinVisibilityTimeout(1e308)
	assertInputError(t, err, "timeout")

	r, err := capacity.ReceivesPerDay(30)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "ReceivesPerDay", r, 2880)
	_, err = capacity.ReceivesPerDay(1e-320)
	assertInputError(t, err, "visibility_timeout_seconds")
}

func TestExactCapacityLadder(t *testing.T) {
	inf := math.Inf(1)
	step := func(lower, upper, c float64) capacity.ExactCapacityStep {
		return capacity.ExactCapacityStep{Lower: lower, Upper: upper, Capacity: c}
	}
	for _, tc := range []struct {
		name      string
		threshold float64
		steps     []capacity.ExactCapacityStep
		want      capacity.Ladder
	}{
		{
			name:  "one consumer per 100 messages",
			steps: []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:  capacity.Ladder{Proportional: true, MessagesPerConsumer: 100, TopCapacity: 3},
		},
		{
			// Bounds are relative to the threshold: 100-200 → 1 and
			// 200-300 → 2 leave 200 and 150 messages per consumer.
			name:      "bounds above a threshold",
			threshold: 100,
			steps:     []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:      capacity.Ladder{Proportional: true, MessagesPerConsumer: 200, TopCapacity: 3},
		},
		{
			// for_each = range(1, max + 1): step k from (k−1)·10 + 1 to
			// k·10 + 1 sets k, the first from 0; the +1 keeps the bounds
			// inclusive and moves the ratios from 10 to at most 11.
			name: "a generated ladder with inclusive bounds",
			steps: []capacity.ExactCapacityStep{
				step(0, 11, 1), step(11, 21, 2), step(21, 31, 3), step(31, 41, 4), step(41, inf, 5),
			},
			want: capacity.Ladder{Proportional: true, MessagesPerConsumer: 11, TopCapacity: 5},
		},
		{
			name:  "capacity doubling with depth",
			steps: []capacity.ExactCapacityStep{step(0, 100, 1), step(100, 200, 2), step(200, 400, 4), step(400, inf, 8)},
			want:  capacity.Ladder{Proportional: true, MessagesPerConsumer: 100, TopCapacity: 8},
		},
		{
			name: "a scale-in step below an empty queue is left out",
			steps: []capacity.ExactCapacityStep{
				step(math.Inf(-1), 0, 0), step(0, 20, 1), step(20, 40, 2), step(40, inf, 3),
			},
			want: capacity.Ladder{Proportional: true, MessagesPerConsumer: 20, TopCapacity: 3},
		},
		{
			// Threshold 1 with a first step of 0: none while one message
			// waits, then one consumer per 100.
			name:      "a zero step at the bottom",
			threshold: 1,
			steps:     []capacity.ExactCapacityStep{step(-1, 0, 0), step(0, 100, 1), step(100, 200, 2), step(200, inf, 3)},
			want:      capacity.Ladder{Proportional: true, MessagesPerConsumer: 101, TopCapacity: 3},
		},
		{
			name:  "one step",
			steps: []capacity.ExactCapacityStep{step(0, inf, 5)},
			want:  capacity.Ladder{TopCapacity: 5},
		},
		{
			name:  "two levels",
			steps: []capacity.ExactCapacityStep{step(0, 10, 1), step(10, inf, 3)},
			want:  capacity.Ladder{TopCapacity: 3},
		},
		{
			// 10, 50 and 333 messages per consumer: depth grows tenfold
			// per step, capacity by one.
			name:  "bounds growing faster than capacity",
			steps: []capacity.ExactCapacityStep{step(0, 10, 1), step(10, 100, 2), step(100, 1000, 3), step(1000, inf, 4)},
			want:  capacity.Ladder{TopCapacity: 4},
		},
		{
			name:  "capacity falling with depth",
			steps: []capacity.ExactCapacityStep{step(0, 100, 3), step(100, 200, 2), step(200, inf, 1)},
			want:  capacity.Ladder{TopCapacity: 1},
		},
		{
			name:  "steps in any order",
			steps: []capacity.ExactCapacityStep{step(200, inf, 3), step(0, 100, 1), step(100, 200, 2)},
			want:  capacity.Ladder{Proportional: true, MessagesPerConsumer: 100, TopCapacity: 3},
		},
		{
			name: "no steps",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := capacity.ExactCapacityLadder(tc.threshold, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ExactCapacityLadder = %+v, want %+v", got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		name      string
		threshold float64
		steps     []capacity.ExactCapacityStep
		field     string
	}{
		{"negative capacity", 0, []capacity.ExactCapacityStep{step(0, inf, -1)}, "scaling_adjustment"},
		{"empty step", 0, []capacity.ExactCapacityStep{step(10, 10, 1)}, "metric_interval_lower_bound"},
		{"threshold not a number", math.NaN(), nil, "threshold"},
		{"bound overflowing", math.MaxFloat64, []capacity.ExactCapacityStep{step(0, math.MaxFloat64, 1)}, "threshold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capacity.ExactCapacityLadder(tc.threshold, tc.steps)
			assertInputError(t, err, tc.field)
		})
	}
}
