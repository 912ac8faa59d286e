// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// StaleRate is the pseudo-rule of the notices about measured rates older
// than max_rate_age: traffic and workers change, and a rate measured
// long ago checks a fleet against a load that is gone.
const StaleRate = "queuecap_stale_rate"

// staleRates are the notices of the values `queuecap rates` wrote in the
// run's configuration files more than their max_rate_age ago, each once
// per file, at the value.
func (r *Session) staleRates() []Issue {
	var out []Issue
	seen := map[*Config]bool{}
	for _, cfg := range r.configs {
		if cfg == nil || seen[cfg] {
			continue
		}
		seen[cfg] = true
		limit := float64(DefaultMaxRateAge)
		if cfg.MaxRateAge != nil {
			limit = *cfg.MaxRateAge
		}
		for _, queue := range sortedKeys(cfg.Measured) {
			for _, rate := range sortedKeys(cfg.Measured[queue]) {
				p := cfg.Measured[queue][rate]
				// In whole days, as the date is: measured on 1 August is
				// 123 days old on 2 December, whatever the hour.
				age := r.now.UTC().Truncate(24 * time.Hour).Sub(p.Date).Seconds()
				if age <= limit {
					continue
				}
				ago := textfmt.Plural(int(age/capacity.SecondsPerDay), "day")
				out = append(out, Issue{Rule: StaleRate, Severity: Notice, Range: toRange(p.Range), Subject: queue,
					Summary: fmt.Sprintf("%s was measured %s ago", rate, ago),
					Message: fmt.Sprintf("%s of %s was measured on %s by %s, %s ago, longer ago than max_rate_age (%s): measure it again with `queuecap rates --write`, or raise max_rate_age in the config block",
						rate, queue, p.Date.Format(time.DateOnly), p.Source, ago, maxAgeText(limit)),
					Link: model.DocURL(model.BuildVersion(), "docs/rates.md#how-old-a-rate-may-be")})
			}
		}
	}
	return out
}

// maxAgeText is max_rate_age in days, or in seconds when not whole days.
func maxAgeText(seconds float64) string {
	if days := seconds / capacity.SecondsPerDay; days == float64(int(days)) {
		return textfmt.Plural(int(days), "day")
	}
	return textfmt.Short(seconds) + " s"
}
