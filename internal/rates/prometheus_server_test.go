// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

import (
	"bytes"
	"context"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// exporter is how an exporter of CloudWatch metrics names a queue's and
// its consumers' series, as read in its source (see
// prometheus_exporters.go), with the labels it adds.
type exporter struct {
	name           string
	period, scrape time.Duration
	sqs            map[rates.Metric]string
	queue          string
	consumers      map[string]func(rates.Consumer) (string, []synth.Label)
	extra          func(queue string) []synth.Label
}

var cloudwatchExporter = exporter{
	name: "cloudwatch_exporter", period: time.Minute, scrape: time.Minute,
	sqs: map[rates.Metric]string{
		rates.Sent:      "aws_sqs_number_of_messages_sent_sum",
		rates.Deleted:   "aws_sqs_number_of_messages_deleted_sum",
		rates.Received:  "aws_sqs_number_of_messages_received_sum",
		rates.Visible:   "aws_sqs_approximate_number_of_messages_visible_minimum",
		rates.OldestAge: "aws_sqs_approximate_age_of_oldest_message_maximum",
	},
	queue: "queue_name",
	consumers: map[string]func(rates.Consumer) (string, []synth.Label){
		rates.KindASG: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_autoscaling_group_in_service_instances_average", []synth.Label{{Name: "auto_scaling_group_name", Value: c.Name}}
		},
		rates.KindECS: func(c rates.Consumer) (string, []synth.Label) {
			return "ecs_containerinsights_running_task_count_average", []synth.Label{{Name: "cluster_name", Value: c.Cluster}, {Name: "service_name", Value: c.Name}}
		},
		rates.KindLambda: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_lambda_concurrent_executions_average", []synth.Label{{Name: "function_name", Value: c.Name}}
		},
	},
	// Prometheus keeps the exporter's own job and instance as exported_*.
	extra: func(string) []synth.Label {
		return []synth.Label{{Name: "exported_job", Value: "aws_sqs"}, {Name: "job", Value: "cloudwatch"}, {Name: "instance", Value: "exporter:9106"}}
	},
}

// yace is YACE with its default CamelCase dimension labels; its
// configurations commonly export visible messages' Average, which the
// defaults fall back to (the series holds the generated minimum under
// that name, so that the values compare exactly).
var yace = exporter{
	name: "YACE", period: 5 * time.Minute, scrape: time.Minute,
	sqs: map[rates.Metric]string{
		rates.Sent:      "aws_sqs_number_of_messages_sent_sum",
		rates.Deleted:   "aws_sqs_number_of_messages_deleted_sum",
		rates.Received:  "aws_sqs_number_of_messages_received_sum",
		rates.Visible:   "aws_sqs_approximate_number_of_messages_visible_average",
		rates.OldestAge: "aws_sqs_approximate_age_of_oldest_message_maximum",
	},
	queue: "dimension_QueueName",
	consumers: map[string]func(rates.Consumer) (string, []synth.Label){
		rates.KindASG: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_autoscaling_group_in_service_instances_average", []synth.Label{{Name: "dimension_AutoScalingGroupName", Value: c.Name}}
		},
		rates.KindECS: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_ecs_containerinsights_running_task_count_average", []synth.Label{{Name: "dimension_ClusterName", Value: c.Cluster}, {Name: "dimension_ServiceName", Value: c.Name}}
		},
		rates.KindLambda: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_lambda_concurrent_executions_maximum", []synth.Label{{Name: "dimension_FunctionName", Value: c.Name}}
		},
	},
	extra: func(queue string) []synth.Label {
		return []synth.Label{{Name: "name", Value: "arn:aws:sqs:eu-west-1:123456789012:" + queue}, {Name: "region", Value: "eu-west-1"},
			{Name: "account_id", Value: "123456789012"}, {Name: "job", Value: "yace"}}
	},
}

// yaceSnake is YACE run with -labels-snake-case.
var yaceSnake = func() exporter {
	e := yace
	e.name, e.queue = "YACE with snake_case labels", "dimension_queue_name"
	e.consumers = map[string]func(rates.Consumer) (string, []synth.Label){
		rates.KindECS: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_ecs_containerinsights_running_task_count_average", []synth.Label{{Name: "dimension_cluster_name", Value: c.Cluster}, {Name: "dimension_service_name", Value: c.Name}}
		},
	}
	return e
}()

// families are the series the exporter exports of a scenario, but the
// metrics in skip and the steps of gaps (offsets into the scenario).
func (e exporter) families(sc synth.Scenario, t rates.Target, skip []rates.Metric, gaps ...[2]time.Duration) []synth.Family {
	var out []synth.Family
	for m, points := range sc.Exported(e.period, e.scrape) {
		var name string
		var labels []synth.Label
		switch {
		case contains(skip, m):
			continue
		case m == rates.Consumers:
			name, labels = e.consumers[t.Consumer.Kind](t.Consumer)
		default:
			name, labels = e.sqs[m], []synth.Label{{Name: e.queue, Value: t.QueueName}}
		}
		out = append(out, synth.Family{Name: name, Type: "gauge", Streams: []synth.Stream{{
			Labels: append(labels, e.extra(t.QueueName)...), Points: without(points, sc.Start, gaps)}}})
	}
	return out
}

func contains(ms []rates.Metric, m rates.Metric) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func without(points []synth.Point, from time.Time, gaps [][2]time.Duration) []synth.Point {
	var out []synth.Point
	for _, p := range points {
		in := false
		for _, g := range gaps {
			in = in || !p.At.Before(from.Add(g[0])) && p.At.Before(from.Add(g[1]))
		}
		if !in {
			out = append(out, p)
		}
	}
	return out
}

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
	add := func(c serverCase, e *exporter, skip ...rates.Metric) {
		if c.step == 0 {
			c.step = 5 * time.Minute
		}
		if e != nil {
			c.families = append(c.families, e.families(c.sc, c.target, skip, c.gaps...)...)
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
		&cloudwatchExporter)

	quiet := synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
		Arrival:   []synth.Segment{synth.At(0, 100), synth.At(12*h, 200)},
		Consumers: []synth.Segment{synth.At(0, 8)}}
	add(serverCase{name: "YACE: never saturated, an ECS service",
		target: rates.Target{QueueName: "emails", Consumer: rates.Consumer{Kind: rates.KindECS, Name: "mailer", Cluster: "main"}}, sc: quiet, exact: true,
		arrival: 200, mu: 25, lower: true,
		queries: map[rates.Metric]string{rates.Consumers: `dimension_ClusterName="main", dimension_ServiceName="mailer"`}},
		&yace)

	scaling := synth.Scenario{Start: start, Duration: 12 * h, PerConsumerRate: 20, InitialBacklog: 2e6,
		Arrival:   []synth.Segment{synth.At(0, 100)},
		Consumers: []synth.Segment{synth.At(0, 10), synth.At(h+90*time.Second, 30), synth.At(3*h+17*time.Second, 12)}}
	add(serverCase{name: "cloudwatch_exporter: a Lambda function that scales mid-step",
		target: rates.Target{QueueName: "thumbnails", Consumer: rates.Consumer{Kind: rates.KindLambda, Name: "resize"}}, sc: scaling, exact: true,
		arrival: 100, mu: 20}, &cloudwatchExporter)
	add(serverCase{name: "YACE with snake_case labels: an ECS service that scales mid-step",
		target: rates.Target{QueueName: "thumbnails-2", Consumer: rates.Consumer{Kind: rates.KindECS, Name: "resize", Cluster: "edge"}}, sc: scaling, exact: true,
		arrival: 100, mu: 20}, &yaceSnake)

	add(serverCase{name: "cloudwatch_exporter: gaps",
		target: rates.Target{QueueName: "gappy", Consumer: asg("gappy")}, sc: incident, exact: true,
		gaps:    [][2]time.Duration{{2 * h, 2*h + 30*time.Minute}, {6*h + 20*time.Minute, 6*h + 25*time.Minute}, {20 * h, 24 * h}},
		arrival: 300, mu: 50, retries: 0.5}, &cloudwatchExporter)

	// Both exporters export one queue (YACE's from other rates): the
	// first branch with a sample, cloudwatch_exporter's, is read.
	other := incident
	other.Arrival = []synth.Segment{synth.At(0, 150)}
	both := rates.Target{QueueName: "both", Consumer: asg("both")}
	add(serverCase{name: "both exporters: cloudwatch_exporter's read",
		target: both, sc: incident, exact: true, families: yace.families(other, both, nil),
		arrival: 300, mu: 50, retries: 0.5}, &cloudwatchExporter)

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
		&cloudwatchExporter, rates.Sent, rates.Deleted, rates.Received)

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
		&yace, rates.Sent, rates.Deleted)

	// 31 hours in steps of 10 s (CloudWatch's high-resolution period,
	// which period_seconds sets): 11,160 points, more than Prometheus
	// answers in one query.
	highRes := cloudwatchExporter
	highRes.period, highRes.scrape = 10*time.Second, 10*time.Second
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
	base := startPrometheus(t, all)

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

// startPrometheus writes families as TSDB blocks with promtool and serves
// them with a Prometheus server on loopback that scrapes nothing, until
// the test ends; it skips the test when either is not installed.
func startPrometheus(t *testing.T, families []synth.Family) string {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed (Debian: apt-get install prometheus; make test installs it)")
	}
	prometheus, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (Debian: apt-get install prometheus; make test installs it)")
	}
	dir := t.TempDir()
	var om bytes.Buffer
	if err := synth.WriteOpenMetrics(&om, families); err != nil {
		t.Fatal(err)
	}
	input, data, config := filepath.Join(dir, "history.om"), filepath.Join(dir, "data"), filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(input, om.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", "--quiet", input, data).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	if err := os.WriteFile(config, []byte("# No scrape_configs: the data are the blocks.\nglobal:\n  scrape_interval: 1m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	cmd := exec.Command(prometheus, "--config.file="+config, "--storage.tsdb.path="+data,
		"--storage.tsdb.retention.time=100y", "--web.listen-address="+addr, "--log.level=warn")
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(base + "/-/ready")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-exited:
			t.Fatalf("prometheus exited:\n%s", log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus not ready within a minute:\n%s", log.String())
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
