// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// fifoThroughputCeiling flags a FIFO queue whose effective arrival rate
// exceeds what the queue takes per API action, from AWS's published
// quotas, or what its declared active message groups let its consumers
// take: no fleet drains it, as with zero surplus.
type fifoThroughputCeiling struct{ meta }

func newFIFOThroughputCeiling() model.Rule {
	return fifoThroughputCeiling{meta{
		name:     "queuecap_fifo_throughput_ceiling",
		severity: model.Error,
		summary:  "A FIFO queue's declared arrival rate (with retries, the effective one) exceeds the messages per second AWS lets a FIFO queue take per API action, even with full batches, or what its declared active message groups let its consumers take, one each at a time, so the backlog grows whatever consumes it.",
	}}
}

// The values of high throughput mode, and AWS's defaults.
const (
	perMessageGroupID = "perMessageGroupId"
	perQueue          = "perQueue"
	messageGroup      = "messageGroup"
	queueScope        = "queue"
)

// highThroughputFix is the change that turns high throughput on.
const highThroughputFix = `fifo_throughput_limit = "perMessageGroupId" and deduplication_scope = "messageGroup"`

func (fifoThroughputCeiling) CheckQueue(q *model.Queue, r model.Reporter) {
	lambda := q.Rates.ArrivalRate
	if g := q.Rates.MessageGroups; g.Set && !q.FIFO.Is(true, false) {
		if q.FIFO.Set && !q.FIFO.Known {
			r.Skip(q.FIFO.Range, fmt.Sprintf("fifo_queue of %s %s: message_groups %s bounds its consumers only on a FIFO queue", q.Addr, q.FIFO.Unknown(), declaredText(g)))
		} else {
			r.Skip(g.Range, fmt.Sprintf("message_groups of %s is ignored: it is not a FIFO queue, and a standard queue's message groups (fair queues) do not bound its consumers", q.Addr))
		}
	}
	if !q.FIFO.Set || (q.FIFO.Known && !q.FIFO.V) || !lambda.Set {
		return
	}
	if !lambda.Known {
		if q.FIFO.Known {
			r.Skip(lambda.Range, "arrival_rate of "+q.Addr+" "+lambda.Unknown())
		}
		return
	}
	retries, ok := knownRetries(q, q.Rates.RetryRate, q.Rates.AvgRetries, r)
	if !ok {
		return
	}
	eff, ok := effectiveArrival(q, lambda.V, retries, r)
	if !ok {
		return
	}
	if q.FIFO.Known {
		checkMessageGroups(q, r, lambda.V, retries, eff)
	}
	limits := q.Limits
	floor, err := limits.FIFOCeiling(false, "")
	if err != nil || eff <= floor.MessagesPerSecond {
		return // within what a FIFO queue takes in any mode and Region
	}
	arrival := arrivalTerms(q, lambda.V, retries, eff)
	// Whether it is a FIFO queue at all comes first.
	if !q.FIFO.Known {
		r.Skip(q.FIFO.Range, fmt.Sprintf("fifo_queue of %s %s: as a FIFO queue without high throughput, %s would exceed its %s msg/s",
			q.Addr, q.FIFO.Unknown(), arrival, num(floor.MessagesPerSecond)))
		return
	}
	for _, s := range []struct {
		name    string
		setting model.Setting[string]
	}{{"fifo_throughput_limit", q.FIFOThroughputLimit}, {"deduplication_scope", q.DeduplicationScope}} {
		if s.setting.Set && !s.setting.Known {
			r.Skip(s.setting.Range, fmt.Sprintf("%s of %s %s: %s exceeds the %s msg/s of a FIFO queue without high throughput, and whether it has high throughput depends on it",
				s.name, q.Addr, s.setting.Unknown(), arrival, num(floor.MessagesPerSecond)))
			return
		}
	}
	highThroughput := q.FIFOThroughputLimit.Is(perMessageGroupID, perQueue) && q.DeduplicationScope.Is(messageGroup, queueScope)
	if !highThroughput {
		reportFIFOCeiling(q, r, floor, lambda.V, retries, eff, arrival)
		return
	}
	region := ""
	if q.Region.Known {
		region = q.Region.V
	}
	c, err := limits.FIFOCeiling(true, region)
	if err != nil || eff <= c.MessagesPerSecond {
		return
	}
	if !c.RegionListed && eff <= c.HighestMessagesPerSecond {
		at := q.DefRange
		if q.Region.Set {
			at = q.Region.Range
		}
		r.Skip(at, fmt.Sprintf("%s: %s exceeds the %s msg/s AWS's limits table gives a high-throughput FIFO queue in every Region, but not the %s msg/s of %s; %s",
			unlistedRegion(q, c), arrival, num(c.MessagesPerSecond), num(c.HighestMessagesPerSecond), strings.Join(c.HighestRegions, ", "), regionFix(q)))
		return
	}
	reportFIFOCeiling(q, r, c, lambda.V, retries, eff, arrival)
}

// reportFIFOCeiling reports eff over the ceiling c: in q's Region, or,
// when the table does not give it, in every Region.
func reportFIFOCeiling(q *model.Queue, r model.Reporter, c capacity.FIFOCeiling, lambda float64, retries capacity.Retries, eff float64, arrival string) {
	ceiling, tps := c.MessagesPerSecond, c.TransactionsPerSecond
	var mode, summary, fix string
	at := q.FIFO.Range
	switch {
	case !c.HighThroughput:
		mode = "without high throughput"
		summary = fmt.Sprintf("%s msg/s exceed a FIFO queue's %s msg/s: enable high throughput or shard across queues", n(eff), n(ceiling))
		fix = "enable high throughput with " + highThroughputFix + ", or shard the messages across queues"
		if l := q.FIFOThroughputLimit; l.Set && l.V == perMessageGroupID {
			// Half of high throughput: AWS keeps the queue's own quota.
			at = q.DeduplicationScope.Range
			if !q.DeduplicationScope.Set {
				at = l.Range
			}
			mode = `without high throughput (fifo_throughput_limit is "perMessageGroupId" but deduplication_scope is "queue": high throughput takes both)`
			summary = fmt.Sprintf("%s msg/s exceed a FIFO queue's %s msg/s: set deduplication_scope = \"messageGroup\" for high throughput", n(eff), n(ceiling))
			fix = `set deduplication_scope = "messageGroup" to enable high throughput, or shard the messages across queues`
		} else if l.Set {
			at = l.Range
		}
	case c.RegionListed:
		mode = "with high throughput in " + c.Region
		summary = fmt.Sprintf("%s msg/s exceed a high-throughput FIFO queue's %s msg/s in %s: shard across queues", n(eff), n(ceiling), c.Region)
		fix = "shard the messages across queues"
		if q.Region.Set {
			at = q.Region.Range
		}
	default:
		ceiling, tps = c.HighestMessagesPerSecond, c.HighestTransactionsPerSecond
		mode = "with high throughput in any Region (" + strings.Join(c.HighestRegions, ", ") + " take the most)"
		summary = fmt.Sprintf("%s msg/s exceed a high-throughput FIFO queue's %s msg/s in any Region: shard across queues", n(eff), n(ceiling))
		fix = "shard the messages across queues"
	}
	msg := fmt.Sprintf("%s exceeds what %s takes %s: %s API calls/s per action (SendMessage, ReceiveMessage, DeleteMessage; %s in docs/aws-limits.md) × %s messages per batch = %s msg/s, "+
		"which assumes every call carries a full batch of %s (unbatched it is %s msg/s); the backlog grows by %s msg/s whatever consumes it: %s",
		arrival, q.Addr, mode, num(tps), c.Limit, num(c.BatchMessages), num(ceiling), num(c.BatchMessages), num(tps), num(eff-ceiling), fix)
	facts := []model.Fact{fact("arrival_rate", lambda)}
	if retries.Rate > 0 && retries.Average > 0 {
		facts = append(facts, fact("retry_rate", retries.Rate), fact("avg_retries", retries.Average))
	}
	facts = append(facts, fact("effective_arrival_rate", eff), fact("fifo_transactions_per_second", tps),
		fact("batch_messages", c.BatchMessages), fact("fifo_messages_per_second", ceiling), fact("excess", eff-ceiling))
	r.Report(at, summary, msg, facts...)
}

// checkMessageGroups reports a FIFO queue whose declared message groups
// cannot take its effective arrival rate eff: SQS gives a group's
// messages to one consumer at a time, so at most message_groups consumers
// work at once, each at most at the fastest per_consumer_rate. This rule
// alone reports it: queuecap_zero_surplus reports a queue the groups
// bound only when the consumers' own capacity does not drain it either,
// a second cause with its own fix.
func checkMessageGroups(q *model.Queue, r model.Reporter, lambda float64, retries capacity.Retries, eff float64) {
	g, gap := q.Groups, q.GroupsGap
	if gap != nil {
		r.Skip(gap.Range, gap.Reason)
		return
	}
	if g == nil {
		return
	}
	// Against the exact λ_eff, as the supply judges it.
	sup, err := capacity.SupplyAgainst([]capacity.FleetSize{{Count: int64(g.Groups.V), PerConsumerRate: g.Rate}}, lambda, retries, 0)
	if err != nil || sup.Surplus > 0 {
		return
	}
	least, err := capacity.MinDrainingConsumers(lambda, retries, g.Rate)
	if err != nil {
		return
	}
	arrival := arrivalTerms(q, lambda, retries, eff)
	msg := fmt.Sprintf("SQS gives each message group of FIFO queue %s to one consumer at a time, so at most %s consumers work at once whatever the fleet's size, "+
		"taking at most %s (each at the fastest per_consumer_rate), which does not exceed %s: the backlog never drains, whatever consumes it; more than %s / %s = %s active message groups drain it, so at least %s: spread the messages over more message group IDs",
		q.Addr, num(g.Groups.V), g.Terms(), arrival, num(eff), num(g.Rate), num(capacity.Clean(eff/g.Rate)), num(float64(least)))
	facts := []model.Fact{fact("arrival_rate", lambda)}
	if retries.Rate > 0 && retries.Average > 0 {
		facts = append(facts, fact("retry_rate", retries.Rate), fact("avg_retries", retries.Average))
	}
	facts = append(facts, fact("effective_arrival_rate", eff), fact("message_groups", g.Groups.V), fact("per_consumer_rate", g.Rate),
		fact("message_groups_capacity", g.Capacity), fact("surplus", sup.Surplus), fact("min_message_groups", float64(least)))
	r.Report(q.FIFO.Range, fmt.Sprintf("%s message groups take at most %s of %s msg/s: spread messages over %s or more groups", n(g.Groups.V), n(g.Capacity), n(eff), n(float64(least))),
		msg, facts...)
}

// declaredText is a declared value as a message states it: its number,
// or that it is not known.
func declaredText(v model.Num) string {
	if v.Known {
		return num(v.V)
	}
	return "(not known before apply)"
}

// unlistedRegion says why the Region's high-throughput ceiling is not
// known.
func unlistedRegion(q *model.Queue, c capacity.FIFOCeiling) string {
	switch {
	case c.Region != "":
		return "AWS's limits table holds no high-throughput FIFO figure for " + c.Region + ", the Region of " + q.Addr
	case q.Region.Set:
		return "region of " + q.Addr + " " + q.Region.Unknown()
	}
	return "the Region of " + q.Addr + " is not known: the linter does not read the provider block's region"
}

// regionFix says how to let the linter know the Region's ceiling.
func regionFix(q *model.Queue) string {
	switch {
	case q.Region.Set && q.Region.Known:
		return "docs/aws-limits.md lists the Regions it knows"
	case q.Region.Set:
		return "give it a value, or lint the plan (--plan), which holds it"
	}
	return "set region on the queue, or lint the plan (--plan), where the provider gives it"
}
