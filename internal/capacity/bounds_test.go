// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"math"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// TestSupplyWithin: the message groups bound the consumers working at
// once, at the fastest consumer's rate; the pollers' payload bounds a
// fleet; each binds only below what the fleets do, exactly.
func TestSupplyWithin(t *testing.T) {
	payload := func(pollers, bytes float64) *capacity.PayloadBound {
		return &capacity.PayloadBound{Pollers: pollers, MBPerSecond: 1, MessageBytes: bytes}
	}
	cases := []struct {
		name                          string
		fleets                        []capacity.FleetSize
		groups                        int64
		capacity, fleet, groupsCap    float64
		bound                         capacity.Bound
		surplus                       float64
		drains                        bool
		drainSeconds, arrival, backlg float64
	}{
		{name: "8 groups of 25 consumers", fleets: []capacity.FleetSize{{Count: 25, PerConsumerRate: 10}}, groups: 8,
			capacity: 80, fleet: 250, groupsCap: 80, bound: capacity.BoundMessageGroups, arrival: 100, surplus: -20},
		{name: "groups at the fleet's size bind nothing", fleets: []capacity.FleetSize{{Count: 8, PerConsumerRate: 10}}, groups: 8,
			capacity: 80, fleet: 80, groupsCap: 80, arrival: 50, surplus: 30, backlg: 300, drains: true, drainSeconds: 10},
		{name: "several fleets: the fastest rate", fleets: []capacity.FleetSize{{Count: 10, PerConsumerRate: 4}, {Count: 10, PerConsumerRate: 0.1}}, groups: 3,
			capacity: 12, fleet: 41, groupsCap: 12, bound: capacity.BoundMessageGroups, arrival: 2, surplus: 10},
		{name: "20 pollers of 200,000 B messages", fleets: []capacity.FleetSize{{Count: 200, PerConsumerRate: 10, Payload: payload(20, 200000)}},
			capacity: 100, fleet: 100, bound: capacity.BoundPayload, arrival: 100, surplus: 0},
		{name: "a payload bound above the fleet", fleets: []capacity.FleetSize{{Count: 2, PerConsumerRate: 10, Payload: payload(20, 200000)}},
			capacity: 20, fleet: 20, arrival: 10, surplus: 10},
		{name: "a payload that is no decimal, exact", fleets: []capacity.FleetSize{{Count: 100000, PerConsumerRate: 10, Payload: payload(1, 3)}},
			capacity: 333333.333333333, fleet: 333333.333333333, bound: capacity.BoundPayload, arrival: 1, surplus: 333332.333333333},
		{name: "groups below the payload", fleets: []capacity.FleetSize{{Count: 200, PerConsumerRate: 10, Payload: payload(20, 200000)}}, groups: 5,
			capacity: 50, fleet: 100, groupsCap: 50, bound: capacity.BoundMessageGroups, arrival: 60, surplus: -10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := capacity.SupplyWithin(c.fleets, c.groups, c.arrival, capacity.Retries{}, c.backlg)
			if err != nil {
				t.Fatal(err)
			}
			if s.Capacity != c.capacity || s.FleetCapacity != c.fleet || s.GroupsCapacity != c.groupsCap || s.Bound != c.bound || s.Surplus != c.surplus {
				t.Errorf("capacity %v, fleets %v, groups %v, bound %q, surplus %v; want %v, %v, %v, %q, %v",
					s.Capacity, s.FleetCapacity, s.GroupsCapacity, s.Bound, s.Surplus, c.capacity, c.fleet, c.groupsCap, c.bound, c.surplus)
			}
			if c.backlg > 0 && (s.Drains != c.drains || s.DrainSeconds != c.drainSeconds) {
				t.Errorf("drains %v in %v s, want %v in %v s", s.Drains, s.DrainSeconds, c.drains, c.drainSeconds)
			}
		})
	}
	// Bad input: an error naming the field, never a NaN or an infinity.
	for _, c := range []struct {
		name   string
		fleets []capacity.FleetSize
		groups int64
		field  string
	}{
		{"negative groups", []capacity.FleetSize{{Count: 1, PerConsumerRate: 1}}, -1, "message_groups"},
		{"zero message size", []capacity.FleetSize{{Count: 1, PerConsumerRate: 1, Payload: payload(1, 0)}}, 0, "message_size_bytes"},
		{"NaN message size", []capacity.FleetSize{{Count: 1, PerConsumerRate: 1, Payload: payload(1, math.NaN())}}, 0, "message_size_bytes"},
		{"zero pollers", []capacity.FleetSize{{Count: 1, PerConsumerRate: 1, Payload: payload(0, 1)}}, 0, "maximum_pollers"},
		{"overflowing payload", []capacity.FleetSize{{Count: 1, PerConsumerRate: 1, Payload: payload(math.MaxFloat64, 1e-300)}}, 0, "message_size_bytes"},
		{"overflowing groups", []capacity.FleetSize{{Count: 1, PerConsumerRate: 1e300}}, math.MaxInt64, "message_groups"},
	} {
		_, err := capacity.SupplyWithin(c.fleets, c.groups, 1, capacity.Retries{}, 0)
		var in *capacity.InputError
		if !errors.As(err, &in) || in.Field != c.field {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.field)
		}
	}
}

func TestPayloadBound(t *testing.T) {
	got, err := capacity.PayloadBound{Pollers: 20, MBPerSecond: 1, MessageBytes: 200000}.MessagesPerSecond()
	if err != nil || got != 100 {
		t.Errorf("20 pollers × 1 MB/s ÷ 200,000 B = %v (%v), want 100", got, err)
	}
	got, err = capacity.PayloadBound{Pollers: 3, MBPerSecond: 0.1, MessageBytes: 0.3}.MessagesPerSecond()
	if err != nil || got != 1e6 {
		t.Errorf("3 × 0.1 MB/s ÷ 0.3 B = %v (%v), want exactly 1,000,000", got, err)
	}
}

func TestCheckDeclaredBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"size 1 KiB", capacity.CheckMessageBytes(1024, 262144, "max_message_size"), ""},
		{"size at the maximum", capacity.CheckMessageBytes(262144, 262144, "max_message_size"), ""},
		{"size over max_message_size", capacity.CheckMessageBytes(300000, 262144, "max_message_size"), "message_size_bytes must be at most max_message_size 262144 bytes, got 300000"},
		{"size 0", capacity.CheckMessageBytes(0, 262144, "max_message_size"), "message_size_bytes must be greater than 0, got 0"},
		{"size NaN", capacity.CheckMessageBytes(math.NaN(), 262144, "max_message_size"), "message_size_bytes must be a finite number, got NaN"},
	} {
		got := ""
		if c.err != nil {
			got = c.err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
