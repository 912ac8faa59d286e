// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// retentionShorterThanDrain flags a queue whose messages expire before the
// fleet at its maximum size can drain the declared max_backlog.
type retentionShorterThanDrain struct{ meta }

func newRetentionShorterThanDrain() model.Rule {
	return retentionShorterThanDrain{meta{
		name:     "queuecap_retention_shorter_than_drain",
		severity: model.Warning,
		summary:  "message_retention_seconds is shorter than the time the fleet at its maximum size needs to drain the declared max_backlog, or the backlog never drains: messages expire during recovery.",
	}}
}

func (retentionShorterThanDrain) CheckQueue(q *model.Queue, r model.Reporter) {
	b := q.Rates.MaxBacklog
	if !b.Set || (b.Known && b.V == 0) {
		return
	}
	s, ok := supplyOf(q, r)
	if !ok {
		return
	}
	if !b.Known {
		r.Skip(b.Range, "max_backlog of "+q.Addr+" "+b.Unknown())
		return
	}
	ret := q.Retention
	if !ret.Known {
		r.Skip(ret.Range, "message_retention_seconds of "+q.Addr+" "+ret.Unknown())
		return
	}
	if s.Drain == nil {
		return
	}
	retention := fmt.Sprintf("message_retention_seconds %s", num(ret.V))
	if ret.From != "message_retention_seconds" {
		retention += " (the default)"
	}
	if !s.Drain.Drains {
		r.Report(ret.Range, "max_backlog "+n(b.V)+" never drains and expires after "+n(ret.V)+" s: give its consumers a surplus first", fmt.Sprintf("%s is finite but max_backlog %s never drains: %s leaves a surplus of %s msg/s over %s, so every message of the backlog expires after %s s",
			retention, num(b.V), s.capacityTerms(), num(s.Surplus), s.arrivalTerms(), num(ret.V)),
			s.facts(fact("max_backlog", b.V), fact("message_retention_seconds", ret.V))...)
		return
	}
	if s.Drain.Seconds <= ret.V {
		return
	}
	fix := "raise it to at least " + n(capacity.RetentionToOutlast(s.Drain.Seconds))
	if s.Drain.Seconds >= capacity.MaxRetentionSeconds {
		fix = "add consumers: the SQS maximum of 14 days is shorter"
	}
	summary := "message_retention_seconds " + n(ret.V) + " expires messages before max_backlog drains in " + n(s.Drain.Seconds) + " s: " + fix
	r.Report(ret.Range, summary, fmt.Sprintf("%s is shorter than the %s / (%s − %s) = %s s it takes %s to drain max_backlog %s: messages expire during recovery",
		retention, num(b.V), num(s.Capacity), num(s.Effective), num(s.Drain.Seconds), s.capacityTerms(), num(b.V)),
		s.facts(fact("max_backlog", b.V), fact("message_retention_seconds", ret.V), fact("drain_seconds", s.Drain.Seconds))...)
}
