// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Defaults of Options.
const (
	DefaultPercentile = 99
	// DefaultSaturationBacklog is the visible messages per consumer in
	// service at and above which a step's consumers are taken as
	// saturated: ten is one full ReceiveMessage batch each.
	DefaultSaturationBacklog = 10
)

// Options tune Measure.
type Options struct {
	// Percentile of the per-step arrival rates taken as arrival_rate, in
	// (0, 100].
	Percentile float64
	// SaturationBacklog is the visible messages per consumer in service
	// at and above which consumers are saturated (both ends of a step).
	SaturationBacklog float64
}

func (o Options) withDefaults() Options {
	if o.Percentile == 0 {
		o.Percentile = DefaultPercentile
	}
	if o.SaturationBacklog == 0 {
		o.SaturationBacklog = DefaultSaturationBacklog
	}
	return o
}

// Value is one measured rate.
type Value struct {
	// Name is the rate's name in .queuecap.hcl.
	Name string
	V    float64
	// Steps are the steps it was measured from.
	Steps int
	// LowerBound is true for a per_consumer_rate measured where the
	// consumers were never saturated: the rate is at least V.
	LowerBound bool
	// How says how V was taken from the steps, for the table and the
	// provenance comment.
	How string
}

// Text is V in at most four significant digits, as written to
// .queuecap.hcl and the table ("≥ " before a lower bound in Display).
func (v Value) Text() string { return FormatValue(v.V) }

// Display is Text, with a lower bound's "≥ X, never observed saturated".
func (v Value) Display() string {
	if v.LowerBound {
		return "≥ " + v.Text() + ", never observed saturated"
	}
	return v.Text()
}

// FormatValue is v in at most four significant digits, without exponent
// for the magnitudes rates have: 1234.5678 is 1235, 0.012345 is 0.01235.
func FormatValue(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	exp := int(math.Floor(math.Log10(math.Abs(v))))
	decimals := max(0, 3-exp)
	r := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(r, ".") {
		r = strings.TrimRight(strings.TrimRight(r, "0"), ".")
	}
	return r
}

// Measurement is what Measure took from one queue's series.
type Measurement struct {
	// Values are the rates measured, in the order arrival_rate,
	// per_consumer_rate, retry_rate, avg_retries; a rate the series do
	// not allow is absent.
	Values []Value
	// MaxBacklog is the largest backlog observed, MaxOldestAge the
	// oldest message's largest age in seconds; NaN when not observed.
	// Information: neither is written.
	MaxBacklog   float64
	MaxOldestAge float64
}

// Value is the measured rate of that name, or nil.
func (m *Measurement) Value(name string) *Value {
	for i := range m.Values {
		if m.Values[i].Name == name {
			return &m.Values[i]
		}
	}
	return nil
}

// ErrNoSamples is wrapped by Measure's error for a series without a
// finite sample.
var ErrNoSamples = errors.New("no samples")

// Measure measures a queue's rates from its series. It fails, naming the
// series, when one it needs (sent, deleted, visible, consumers) has no
// finite sample: nothing is written for such a queue. NaN, infinite and
// negative samples count as missing.
func Measure(s QueueSeries, opts Options) (*Measurement, error) {
	opts = opts.withDefaults()
	if !(opts.Percentile > 0 && opts.Percentile <= 100) {
		return nil, fmt.Errorf("the percentile must be in (0, 100], got %s", FormatValue(opts.Percentile))
	}
	if !(opts.SaturationBacklog > 0) || math.IsInf(opts.SaturationBacklog, 0) {
		return nil, fmt.Errorf("the saturation backlog must be a positive number of messages per consumer, got %s", FormatValue(opts.SaturationBacklog))
	}
	var missing []string
	for _, m := range []Metric{Sent, Deleted, Visible, Consumers} {
		if count(s[m]) == 0 {
			missing = append(missing, describe(m))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w of %s in the window", ErrNoSamples, strings.Join(missing, ", "))
	}
	out := &Measurement{MaxBacklog: maxOf(s[Visible]), MaxOldestAge: math.NaN()}
	if old, ok := s[OldestAge]; ok {
		out.MaxOldestAge = maxOf(old)
	}

	var sent []float64
	for i := range s[Sent].Values {
		if v, ok := sample(s[Sent], i); ok {
			sent = append(sent, v)
		}
	}
	out.Values = append(out.Values, Value{Name: "arrival_rate", V: percentile(sent, opts.Percentile), Steps: len(sent),
		How: fmt.Sprintf("p%s of the per-step arrival rates", FormatValue(opts.Percentile))})

	// Attempts per completion, 1 + r·k: receives beyond deletes are
	// redeliveries. μ counts attempts (MATH.md: c·μ against λ·(1 + r·k)).
	attempts, retrySteps := 1.0, 0
	if rec, ok := s[Received]; ok {
		var received, deleted float64
		for i := range rec.Values {
			r, okR := sample(rec, i)
			d, okD := sample(s[Deleted], i)
			if okR && okD {
				received, deleted, retrySteps = received+r, deleted+d, retrySteps+1
			}
		}
		if deleted > 0 {
			attempts = max(1, received/deleted)
		}
	}

	var saturated, busy []float64
	thr := opts.SaturationBacklog
	for i := range s[Consumers].Values {
		c, okC := sample(s[Consumers], i)
		d, okD := sample(s[Deleted], i)
		if !okC || !okD || c <= 0 {
			continue
		}
		mu := d / c * attempts
		busy = append(busy, mu)
		before, okB := sample(s[Visible], i-1)
		after, okA := sample(s[Visible], i)
		if okB && okA && before >= thr*c && after >= thr*c {
			saturated = append(saturated, mu)
		}
	}
	switch {
	case len(saturated) > 0:
		out.Values = append(out.Values, Value{Name: "per_consumer_rate", V: percentile(saturated, 50), Steps: len(saturated),
			How: fmt.Sprintf("median of completions per consumer in service over the steps with at least %s visible messages per consumer", FormatValue(thr))})
	case len(busy) > 0:
		out.Values = append(out.Values, Value{Name: "per_consumer_rate", V: slices.Max(busy), Steps: len(busy), LowerBound: true,
			How: fmt.Sprintf("largest completions per consumer in service: no step had %s visible messages per consumer", FormatValue(thr))})
	}
	if mu := out.Value("per_consumer_rate"); mu != nil && attempts > 1 {
		mu.How += fmt.Sprintf(", times %s receives per completion", FormatValue(attempts))
	}

	if retrySteps > 0 {
		// The metrics count receives, not which messages were retried:
		// x = r·k, written as r = x, k = 1 up to one retry per message and
		// r = 1, k = x beyond, which gives the same λ·(1 + r·k).
		x := attempts - 1
		r, k := min(x, 1), max(x, 1)
		if x == 0 {
			k = 0
		}
		how := fmt.Sprintf("receives beyond deletes: %s retries per message", FormatValue(x))
		out.Values = append(out.Values,
			Value{Name: "retry_rate", V: r, Steps: retrySteps, How: how},
			Value{Name: "avg_retries", V: k, Steps: retrySteps, How: how})
	}
	return out, nil
}

// describe names a metric in messages.
func describe(m Metric) string {
	switch m {
	case Sent:
		return "messages sent"
	case Deleted:
		return "messages deleted"
	case Received:
		return "messages received"
	case Visible:
		return "messages visible"
	case OldestAge:
		return "the oldest message's age"
	case Consumers:
		return "consumers in service"
	}
	return string(m)
}

// Describe names a metric in messages: "messages sent".
func Describe(m Metric) string { return describe(m) }

// sample is s's value at i when it is a finite, non-negative number.
func sample(s Series, i int) (float64, bool) {
	v := s.At(i)
	return v, !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0
}

func count(s Series) int {
	n := 0
	for i := range s.Values {
		if _, ok := sample(s, i); ok {
			n++
		}
	}
	return n
}

func maxOf(s Series) float64 {
	m := math.NaN()
	for i := range s.Values {
		if v, ok := sample(s, i); ok && (math.IsNaN(m) || v > m) {
			m = v
		}
	}
	return m
}

// percentile is the nearest-rank p-th percentile of xs (not empty): a
// value observed, the smallest with at least p % of the values at or
// below it.
func percentile(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}
