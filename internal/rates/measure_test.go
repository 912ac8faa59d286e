// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

var start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func within(got, want, tolerance float64) bool {
	return math.Abs(got-want) <= tolerance*math.Abs(want)
}

func TestMeasure(t *testing.T) {
	h := time.Hour
	for _, tc := range []struct {
		name     string
		sc       synth.Scenario
		arrival  float64
		mu       float64
		lower    bool
		retries  float64 // x = r·k
		noRetry  bool
		tolerate float64
	}{
		{
			// An incident (2 consumers of 8) builds a backlog the full
			// fleet then drains: saturated steps give μ.
			name: "saturated after an incident",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
				Arrival:   []synth.Segment{synth.At(0, 300)},
				Consumers: []synth.Segment{synth.At(0, 8), synth.At(6*h, 2), synth.At(7*h, 8)}},
			arrival: 300, mu: 50, tolerate: 1e-9,
		},
		{
			// Never saturated: μ is only at least the busiest step's.
			name: "never saturated",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
				Arrival:   []synth.Segment{synth.At(0, 100), synth.At(12*h, 200)},
				Consumers: []synth.Segment{synth.At(0, 8)}},
			arrival: 200, mu: 25, lower: true, tolerate: 1e-9,
		},
		{
			// Retries: each completion costs 1.5 receives; μ counts
			// attempts.
			name: "retries",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 60, RetriesPerMessage: 0.5,
				Arrival:   []synth.Segment{synth.At(0, 200)},
				Consumers: []synth.Segment{synth.At(0, 10), synth.At(3*h, 4), synth.At(5*h, 10)}},
			arrival: 200, mu: 60, retries: 0.5, tolerate: 1e-6,
		},
		{
			// A fleet that scales during the window, mid-step: the step's
			// average consumers still divide its completions.
			name: "fleet scales mid-step",
			sc: synth.Scenario{Start: start, Duration: 12 * h, PerConsumerRate: 20, InitialBacklog: 2e6,
				Arrival:   []synth.Segment{synth.At(0, 100)},
				Consumers: []synth.Segment{synth.At(0, 10), synth.At(time.Hour+90*time.Second, 30), synth.At(3*h+17*time.Second, 12)}},
			arrival: 100, mu: 20, tolerate: 1e-9,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.sc.Series(5 * time.Minute)
			if tc.noRetry {
				delete(s, rates.Received)
			}
			m, err := rates.Measure(s, rates.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v := m.Value("arrival_rate"); v == nil || !within(v.V, tc.arrival, tc.tolerate) {
				t.Errorf("arrival_rate %+v, want %v", v, tc.arrival)
			}
			v := m.Value("per_consumer_rate")
			if v == nil || !within(v.V, tc.mu, tc.tolerate) || v.LowerBound != tc.lower {
				t.Errorf("per_consumer_rate %+v, want %v (lower bound %v)", v, tc.mu, tc.lower)
			}
			r, k := m.Value("retry_rate"), m.Value("avg_retries")
			if r == nil || k == nil {
				t.Fatalf("no retries measured: %+v", m.Values)
			}
			if got := r.V * k.V; !within(got, tc.retries, 1e-6) && !(tc.retries == 0 && got == 0) {
				t.Errorf("r·k = %v·%v = %v, want %v", r.V, k.V, got, tc.retries)
			}
		})
	}
}

func TestMeasureErrors(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: time.Hour, PerConsumerRate: 10,
		Arrival: []synth.Segment{synth.At(0, 5)}, Consumers: []synth.Segment{synth.At(0, 2)}}
	t.Run("a series without samples is named", func(t *testing.T) {
		s := sc.Series(time.Minute)
		s[rates.Consumers] = rates.NewSeries(start, time.Minute, 60)
		delete(s, rates.Visible)
		_, err := rates.Measure(s, rates.Options{})
		if !errors.Is(err, rates.ErrNoSamples) || err.Error() != "no samples of messages visible, consumers in service in the window" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("NaN, Inf and negative samples are missing", func(t *testing.T) {
		s := sc.Series(time.Minute)
		sent := s[rates.Sent]
		sent.Values[3], sent.Values[4], sent.Values[5] = math.Inf(1), math.NaN(), -7
		m, err := rates.Measure(s, rates.Options{Percentile: 100})
		if err != nil {
			t.Fatal(err)
		}
		if v := m.Value("arrival_rate"); v.V != 5 || v.Steps != 57 {
			t.Errorf("arrival_rate %+v, want 5 from 57 steps", v)
		}
	})
	t.Run("bad options", func(t *testing.T) {
		for _, o := range []rates.Options{{Percentile: 101}, {Percentile: -1}, {SaturationBacklog: -1}, {SaturationBacklog: math.Inf(1)}} {
			if _, err := rates.Measure(sc.Series(time.Minute), o); err == nil {
				t.Errorf("%+v: no error", o)
			}
		}
	})
}

func TestFormatValue(t *testing.T) {
	for in, want := range map[float64]string{1234.5678: "1235", 0.012345: "0.01235", 50: "50", 0: "0", 2.5: "2.5", 123456: "123456", 0.5: "0.5"} {
		if got := rates.FormatValue(in); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", in, got, want)
		}
	}
}
