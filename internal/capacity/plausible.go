// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"strconv"
)

// MaxPlausibleOverhead is the overhead over the steady state beyond which a
// sizing is more likely a unit mistake than a plan: a fleet six times what
// keeps up with arrivals.
const MaxPlausibleOverhead = 5

// SizingWarnings are the warnings of a sizing whose inputs probably carry
// the wrong unit: rto_seconds = 15 meant as minutes sizes 2,250 consumers
// where 28 keep up. They name the input and what it would be in the unit
// probably meant; a sizing that looks right has none.
func SizingWarnings(in SizingInput, s Sizing) []Warning {
	var out []Warning
	mu := in.PerConsumerRate
	// Only a backlog to clear within an RTO is judged: the rest of the
	// sizing, the one every read makes, costs nothing more.
	if in.MaxBacklog <= 0 || in.RTOSeconds <= 0 {
		return nil
	}
	if w := shorterThanService("rto_seconds", in.RTOSeconds, mu, "no fleet clears a backlog faster than a message is processed"); w != nil {
		out = append(out, *w)
	}
	if s.Overhead == nil || *s.Overhead <= MaxPlausibleOverhead {
		return out
	}
	// The backlog term sets the fleet: what it would be with the RTO in
	// minutes says whether that is the likely mistake.
	detail := fmt.Sprintf("required_consumers = %s is %s the steady state's %s (overhead %s): "+
		"the backlog term max_backlog / (per_consumer_rate × rto_seconds) sets it, %s messages within %s s.",
		group(s.RequiredConsumers), timesText(s.RequiredConsumers, s.SteadyStateConsumers), group(s.SteadyStateConsumers),
		percent(*s.Overhead), groupDecimal(in.MaxBacklog), Decimal(in.RTOSeconds))
	asMinutes := in
	asMinutes.RTOSeconds = float(mul(dec(in.RTOSeconds), ratInt(60)))
	if in.ProvisioningLagSeconds < asMinutes.RTOSeconds {
		if m, err := Size(asMinutes); err == nil && m.Overhead != nil && *m.Overhead <= MaxPlausibleOverhead {
			detail += fmt.Sprintf(" rto_seconds is in seconds: if %s was meant as minutes, write %s, which needs %s consumers.",
				Decimal(in.RTOSeconds), Decimal(asMinutes.RTOSeconds), group(m.RequiredConsumers))
		} else {
			detail += " Check that rto_seconds is in seconds and max_backlog in messages."
		}
	}
	out = append(out, Warning{Summary: "The required fleet is more than six times the steady state: check the units", Detail: detail})
	return out
}

// SLAShorterThanServiceWarning warns when sla_seconds is shorter than one
// message's processing time, 1 / per_consumer_rate: no message is done
// within it, so an SLA in minutes, or a rate per minute, is the likely
// mistake. nil when the SLA is at least that.
func SLAShorterThanServiceWarning(slaSeconds, perConsumerRate float64) *Warning {
	return shorterThanService("sla_seconds", slaSeconds, perConsumerRate, "no message is processed within the SLA")
}

// shorterThanService warns when the duration field (in seconds) is
// shorter than one message's processing time, 1 / perConsumerRate, saying
// what follows (consequence) and how the units read; nil when it is at
// least that.
func shorterThanService(field string, seconds, perConsumerRate float64, consequence string) *Warning {
	if seconds <= 0 || perConsumerRate <= 0 {
		return nil
	}
	service := quo(ratOne, dec(perConsumerRate))
	if dec(seconds).Cmp(service) >= 0 {
		return nil
	}
	return &Warning{
		Summary: field + " is shorter than one message's processing time",
		Detail: fmt.Sprintf("%s = %s s, but one consumer takes 1 / per_consumer_rate = %s s for one message: %s. "+
			"%s is in seconds (%s minutes is %s) and per_consumer_rate in messages per second per consumer (%s per minute is %s).",
			field, Decimal(seconds), Decimal(float(service)), consequence, field, Decimal(seconds), Decimal(float(mul(dec(seconds), ratInt(60)))),
			Decimal(perConsumerRate), Decimal(float(quo(dec(perConsumerRate), ratInt(60))))),
	}
}

// group is n with thousands separators.
func group(n int64) string { return GroupDigits(strconv.FormatInt(n, 10)) }

// groupDecimal is v as Decimal writes it, with thousands separators.
func groupDecimal(v float64) string { return GroupDigits(Decimal(v)) }

// timesText is "80.4 times" for a over b, to three significant digits.
func timesText(a, b int64) string {
	return strconv.FormatFloat(float64(a)/float64(b), 'g', 3, 64) + " times"
}

// percent is a fraction as a percentage to 15 significant digits, cut to
// whole percent when large.
func percent(f float64) string {
	p := float(mul(dec(f), ratInt(100)))
	if p >= 100 {
		return group(int64(p+0.5)) + " %"
	}
	return Decimal(p) + " %"
}
