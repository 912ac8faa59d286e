// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// zeroSurplus flags a fleet that at its maximum size cannot complete more
// than arrives: c_max · μ ≤ λ_eff. Any backlog then never drains.
type zeroSurplus struct{ meta }

func newZeroSurplus() model.Rule {
	return zeroSurplus{meta{
		name:     "queuecap_zero_surplus",
		severity: model.Error,
		summary:  "The consumer fleet at its maximum size cannot complete more than the declared arrival rate, so any backlog never drains.",
	}}
}

func (zeroSurplus) CheckQueue(q *model.Queue, r model.Reporter) {
	s, ok := supplyOf(q, r)
	if !ok || s.Surplus > 0 {
		return
	}
	own := s.Capacity
	if s.Bound == capacity.BoundMessageGroups {
		if s.FleetCapacity > s.Effective {
			return // the message groups alone: queuecap_fifo_throughput_ceiling
		}
		own = s.FleetCapacity // a cause of its own, beside the groups
	}
	summary := "the consumers' " + n(own) + " msg/s cannot drain any backlog: raise their capacity above " + n(s.Effective) + " msg/s"
	if fix, ok := s.sizeFix(); ok {
		summary = s.size() + " cannot drain any backlog: " + s.raiseTo(float64(fix))
	}
	msg := s.capacityTerms() + " does not exceed " + s.arrivalTerms() + ": surplus " + num(s.Surplus) + " msg/s, any backlog never drains"
	if s.Bound == capacity.BoundPayload {
		msg += "; " + s.boundFix()
	}
	r.Report(s.At, summary, msg, s.facts()...)
}
