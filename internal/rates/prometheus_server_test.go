// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/promtest"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// counter is an application counter's family of a scenario's metric.
func counter(name, queue string, sc synth.Scenario, m rates.Metric, resets ...time.Duration) synth.Family {
	return synth.Family{Name: name, Type: "counter", Streams: []synth.Stream{{
		Labels: []synth.Label{{Name: "queue", Value: queue}, {Name: "job", Value: "worker"}},
		Points: sc.Counter(m, 15*time.Second, 1e6, resets...)}}}
}

// serverCase is a queue whose history the server holds, generated from
// known rates, and what its measurement must give back.
type serverCase struct {
	name     string
	target   rates.Target
	sc       synth.Scenario
	settings map[string]string
	families []synth.Family
	step     time.Duration
	// exact: the fetched series are the scenario's steps (but gaps).
	exact   bool
	gaps    [][2]time.Duration
	arrival float64
	mu      float64
	lower   bool
	retries float64
	// queries are substrings of the final queries, by metric.
	queries map[rates.Metric]string
}

func TestPrometheusServer(t *testing.T) {
	h := time.Hour
	// asg is a queue's own Auto Scaling group.
	asg := func(queue string) rates.Consumer {
		return rates.Consumer{Kind: rates.KindASG, Name: queue + "-workers"}
	}
	var cases []serverCase
	add := func(c serverCase, e *promtest.Exporter, skip ...rates.Metric) {
		if c.step == 0 {
			c.step = 5 * time.Minute
		}
		if e != nil {
			c.families = append(c.families, e.Families(c.sc, c.target, skip, c.gaps...)...)
		}
		cases = append(cases, c)
	}

	incident := synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50, RetriesPerMessage: 0.5,
		Arrival:   []synth.Segment{synth.At(0, 300)},
		Consumers: []synth.Segment{synth.At(0, 12), synth.At(6*h, 2), synth.At(7*h, 12)}}
	add(serverCase{name: "cloudwatch_exporter: saturated in an incident, then recovering, with retries",
		target: rates.Target{QueueName: "orders", Consumer: asg("orders")}, sc: incident, exact: true,
		arrival: 300, mu: 50, retries: 0.5,
		queries: map[rates.Metric]string{rates.Sent: `avg_over_time(aws_sqs_number_of_messages_sent_sum{queue_name="orders"}[5m]) / 60 or on() `}},
		&promtest.CloudWatchExporter)

	quiet := synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
		Arrival:   []synth.Segment{synth.At(0, 100), synth.At(12*h, 200)},
		Consumers: []synth.Segment{synth.At(0, 8)}}
	add(serverCase{name: "YACE: never saturated, an ECS service",
		target: rates.Target{QueueName: "emails", Consumer: rates.Consumer{Kind: rates.KindECS, Name: "mailer", Cluster: "main"}}, sc: quiet, exact: true,
		arrival: 200, mu: 25, lower: true,
		queries: map[rates.Metric]string{rates.Consumers: `dimension_ClusterName="main", dimension_ServiceName="mailer"`}},
		&promtest.YACE)

	scaling := synth.Scenario{Start: start, Duration: 12 * h, PerConsumerRate: 20, InitialBacklog: 2e6,
		Arrival:   []synth.Segment{synth.At(0, 100)},
		Consumers: []synth.Segment{synth.At(0, 10), synth.At(h+90*time.Second, 30), synth.At(3*h+17*time.Second, 12)}}
	add(serverCase{name: "cloudwatch_exporter: a Lambda function that scales mid-step",
		target: rates.Target{QueueName: "thumbnails", Consumer: rates.Consumer{Kind: rates.KindLambda, Name: "resize"}}, sc: scaling, exact: true,
		arrival: 100, mu: 20}, &promtest.CloudWatchExporter)
	add(serverCase{name: "YACE with snake_case labels: an ECS service that scales mid-step",
		target: rates.Target{QueueName: "thumbnails-2", Consumer: rates.Consumer{Kind: rates.KindECS, Name: "resize", Cluster: "edge"}}, sc: scaling, exact: true,
		arrival: 100, mu: 20}, &promtest.YACESnake)

	add(serverCase{name: "cloudwatch_exporter: gaps",
		target: rates.Target{QueueName: "gappy", Consumer: asg("gappy")}, sc: incident, exact: true,
		gaps:    [][2]time.Duration{{2 * h, 2*h + 30*time.Minute}, {6*h + 20*time.Minute, 6*h + 25*time.Minute}, {20 * h, 24 * h}},
		arrival: 300, mu: 50, retries: 0.5}, &promtest.CloudWatchExporter)

	// Both exporters export one queue (YACE's from other rates): the
	// first branch with a sample, cloudwatch_exporter's, is read.
	other := incident
	other.Arrival = []synth.Segment{synth.At(0, 150)}
	both := rates.Target{QueueName: "both", Consumer: asg("both")}
	add(serverCase{name: "both exporters: cloudwatch_exporter's read",
		target: both, sc: incident, exact: true, families: promtest.YACE.Families(other, both, nil),
		arrival: 300, mu: 50, retries: 0.5}, &promtest.CloudWatchExporter)

	// Application counters in the top-level block, each restarting from
	// zero once mid-window. rate() extrapolates a step's last scrape (15
	// of 300 s) from the rest, so a step whose rate changes there is off,
	// but the arrivals are steady and the saturated steps' median is a
	// steady step's: the values come back as exactly as from the gauges.
	counters := map[string]string{
		"sent":     `sum(rate(jobs_enqueued_total{queue="$queue_name"}[$step]))`,
		"deleted":  `sum(rate(jobs_completed_total{queue="$queue_name"}[$step]))`,
		"received": `sum(rate(jobs_received_total{queue="$queue_name"}[$step]))`,
	}
	add(serverCase{name: "application counters with resets (top-level block), cloudwatch_exporter's gauges",
		target: rates.Target{QueueName: "jobs", Consumer: asg("jobs")}, sc: incident, settings: counters,
		families: []synth.Family{
			counter("jobs_enqueued", "jobs", incident, rates.Sent, 5*h),
			counter("jobs_completed", "jobs", incident, rates.Deleted, 6*h+30*time.Minute),
			counter("jobs_received", "jobs", incident, rates.Received, 9*h+33*time.Minute+45*time.Second),
		},
		arrival: 300, mu: 50, retries: 0.5,
		queries: map[rates.Metric]string{rates.Sent: `sum(rate(jobs_enqueued_total{queue="jobs"}[5m]))`}},
		&promtest.CloudWatchExporter, rates.Sent, rates.Deleted, rates.Received)

	// A queue block's queries over the defaults: the application's
	// counters of sends and completions, YACE's receives and gauges.
	add(serverCase{name: "application counters (a queue's block), YACE's for the rest",
		target: rates.Target{QueueName: "reports", Consumer: asg("reports"), Queries: map[rates.Metric]string{
			rates.Sent:    `sum(rate(reports_enqueued_total{queue="$queue_name"}[$step]))`,
			rates.Deleted: `sum(rate(reports_completed_total[$step]))`}},
		sc: incident,
		families: []synth.Family{
			counter("reports_enqueued", "reports", incident, rates.Sent),
			counter("reports_completed", "reports", incident, rates.Deleted),
		},
		arrival: 300, mu: 50, retries: 0.5,
		queries: map[rates.Metric]string{rates.Deleted: `sum(rate(reports_completed_total[5m]))`,
			rates.Received: `avg_over_time(aws_sqs_number_of_messages_received_sum{dimension_QueueName="reports"}[5m]) / 300`}},
		&promtest.YACE, rates.Sent, rates.Deleted)

	// 31 hours in steps of 10 s (CloudWatch's high-resolution period,
	// which period_seconds sets): 11,160 points, more than Prometheus
	// answers in one query.
	highRes := promtest.CloudWatchExporter
	highRes.Period, highRes.Scrape = 10*time.Second, 10*time.Second
	long := synth.Scenario{Start: start, Duration: 31 * h, PerConsumerRate: 10,
		Arrival:   []synth.Segment{synth.At(0, 12), synth.At(20*h, 30), synth.At(21*h, 12)},
		Consumers: []synth.Segment{synth.At(0, 2)}}
	add(serverCase{name: "11,160 steps of 10 s, in chunks",
		target: rates.Target{QueueName: "ledger", Consumer: asg("ledger")}, sc: long, step: 10 * time.Second, exact: true,
		settings: map[string]string{"period_seconds": "10"},
		arrival:  30, mu: 10}, &highRes)

	var all []synth.Family
	for _, c := range cases {
		all = append(all, c.families...)
	}
	base := promtest.Start(t, all)

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := rates.NewPrometheus(base, c.settings, nil)
			if err != nil {
				t.Fatal(err)
			}
			w := rates.Window{End: c.sc.Start.Add(c.sc.Duration), Length: c.sc.Duration, Step: c.step}
			got, err := p.Fetch(context.Background(), []rates.Target{c.target}, w)
			if err != nil {
				t.Fatal(err)
			}
			f := got[0]
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			for m, want := range c.queries {
				if !strings.Contains(f.Queries[m], want) {
					t.Errorf("the query of %s: %s, want it to hold %s", m, f.Queries[m], want)
				}
			}
			if c.exact {
				compareSeries(t, f.Series, c.sc.Series(c.step), c.gaps)
			}
			m, err := rates.Measure(f.Series, rates.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v := m.Value("arrival_rate"); v == nil || !within(v.V, c.arrival, 1e-9) {
				t.Errorf("arrival_rate %+v, want %v", v, c.arrival)
			}
			if v := m.Value("per_consumer_rate"); v == nil || !within(v.V, c.mu, 1e-9) || v.LowerBound != c.lower {
				t.Errorf("per_consumer_rate %+v, want %v (lower bound %v)", v, c.mu, c.lower)
			}
			r, k := m.Value("retry_rate"), m.Value("avg_retries")
			if r == nil || k == nil {
				t.Fatalf("no retries measured: %+v", m.Values)
			}
			if x := r.V * k.V; !within(x, c.retries, 1e-6) && !(c.retries == 0 && x == 0) {
				t.Errorf("r·k = %v, want %v", x, c.retries)
			}
		})
	}

	t.Run("Prometheus refuses a query of more than 11,000 points", func(t *testing.T) {
		p, err := rates.NewPrometheus(base, map[string]string{"period_seconds": "10"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rates.SetPrometheusLimits(p, 20000, 32<<20)
		w := rates.Window{End: long.Start.Add(long.Duration), Length: long.Duration, Step: 10 * time.Second}
		got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "ledger", Consumer: asg("ledger")}}, w)
		if err != nil || got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "11,000 points") {
			t.Errorf("got %v, %v", err, got)
		}
	})
}

// compareSeries holds fetched series to the scenario's steps: NaN in the
// steps of gaps, the same values elsewhere.
func compareSeries(t *testing.T, got, want rates.QueueSeries, gaps [][2]time.Duration) {
	t.Helper()
	for _, m := range rates.Metrics {
		g, w := got[m], want[m]
		if g.Len() != w.Len() || !g.Start.Equal(w.Start) || g.Step != w.Step {
			t.Errorf("%s: %d steps from %v by %v, want %d from %v by %v", m, g.Len(), g.Start, g.Step, w.Len(), w.Start, w.Step)
			continue
		}
		bad := 0
		for i := range w.Values {
			at := time.Duration(i) * w.Step
			gap := false
			for _, r := range gaps {
				gap = gap || at >= r[0] && at < r[1]
			}
			ok := math.IsNaN(g.Values[i])
			if !gap {
				ok = math.Abs(g.Values[i]-w.Values[i]) <= 1e-9*math.Max(1, math.Abs(w.Values[i]))
			}
			if !ok && bad < 3 {
				t.Errorf("%s at step %d (%v in, gap %v): %v, want %v", m, i, at, gap, g.Values[i], w.Values[i])
			}
			if !ok {
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d steps of %d differ", m, bad, w.Len())
		}
	}
}
