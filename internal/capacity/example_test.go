// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// The headroom formula: 10,000 msg/s at 400 msg/s per consumer, with a
// 5 M-message backlog to clear within 30 minutes.
func ExampleSize() {
	s, err := capacity.Size(capacity.SizingInput{
		ArrivalRate:     10000,
		PerConsumerRate: 400,
		MaxBacklog:      5e6,
		RTOSeconds:      1800,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d consumers (steady state %d), overhead %.0f%%\n", s.RequiredConsumers, s.SteadyStateConsumers, *s.Overhead*100)
	fmt.Printf("capacity %.0f msg/s, surplus %.0f msg/s, drains the backlog in %.1f s\n", s.Capacity, s.Surplus, *s.DrainSeconds)
	// Output:
	// 32 consumers (steady state 25), overhead 28%
	// capacity 12800 msg/s, surplus 2800 msg/s, drains the backlog in 1785.7 s
}

// Net rate, not completion rate: 380,000 messages, 520 completed and 380
// arriving per second.
func ExampleDrainBacklog() {
	d, err := capacity.DrainBacklog(capacity.DrainInput{Backlog: 380000, ArrivalRate: 380, CompletionRate: 520})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("net %.0f msg/s: drains in %.1f min, although a message arriving now waits only %.1f min\n",
		d.NetRate, *d.DrainSeconds/60, *d.WaitSeconds/60)

	d, err = capacity.DrainBacklog(capacity.DrainInput{Backlog: 180000, ArrivalRate: 1200, CompletionRate: 1000})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("drains:", d.Drains, "drain seconds nil:", d.DrainSeconds == nil)
	// Output:
	// net 140 msg/s: drains in 45.2 min, although a message arriving now waits only 12.2 min
	// drains: false drain seconds nil: true
}

// A 15-minute incident at 1,200 msg/s in and 1,000 msg/s out, with messages
// expiring after a minute.
func ExampleBacklogWithTTL() {
	b, err := capacity.BacklogWithTTL(capacity.TTLInput{
		ArrivalRate:            1200,
		DegradedCompletionRate: 1000,
		IncidentSeconds:        900,
		TTLSeconds:             60,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("unbounded %.0f, with the TTL %.0f (bound applies: %v)\n", b.UnboundedBacklog, b.TTLBoundedBacklog, b.TTLBoundApplies)
	// Output:
	// unbounded 180000, with the TTL 72000 (bound applies: true)
}
