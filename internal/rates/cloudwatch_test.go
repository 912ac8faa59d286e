// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/cwtest"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// standInSource is the CloudWatch source of eu-west-1 against s, with
// four attempts a call a millisecond apart at most.
func standInSource(t testing.TB, s *cwtest.StandIn) *rates.CloudWatch {
	t.Helper()
	cwtest.Offline(t)
	src, err := rates.NewCloudWatch(context.Background(), "eu-west-1", rates.CloudWatchEndpoint(s.URL()), rates.CloudWatchRetries(4, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

var workers = rates.Consumer{Addr: "aws_autoscaling_group.workers", Kind: rates.KindASG, Name: "workers"}

func orders(c rates.Consumer) rates.Target {
	return rates.Target{Queue: "aws_sqs_queue.orders", QueueName: "orders", Consumer: c}
}

// sameSeries fails unless got has want's values where want has them and
// NaN elsewhere, from want's start on.
func sameSeries(t *testing.T, m rates.Metric, got, want rates.Series) {
	t.Helper()
	if got.Step != want.Step {
		t.Fatalf("%s: step %s, want %s", m, got.Step, want.Step)
	}
	off := int(want.Start.Sub(got.Start) / got.Step)
	for i := range got.Values {
		w := want.At(i - off)
		g := got.Values[i]
		if math.IsNaN(w) != math.IsNaN(g) || (!math.IsNaN(w) && math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w))) {
			t.Fatalf("%s at step %d (%s): %v, want %v", m, i, got.Start.Add(time.Duration(i)*got.Step), g, w)
		}
	}
}

// TestCloudWatchMeasures measures what the stand-in serves of a queue's
// true series and gets the generating values back.
func TestCloudWatchMeasures(t *testing.T) {
	h := time.Hour
	for _, tc := range []struct {
		name     string
		sc       synth.Scenario
		consumer rates.Consumer
		// length is the window's, end's offset from the data's end.
		length, end time.Duration
		arrival     float64
		mu          float64
		lower       bool
		retries     float64
	}{
		{
			name: "saturated after an incident",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
				Arrival:   []synth.Segment{synth.At(0, 300)},
				Consumers: []synth.Segment{synth.At(0, 8), synth.At(6*h, 2), synth.At(7*h, 8)}},
			consumer: workers, length: 24 * h, arrival: 300, mu: 50,
		},
		{
			name: "never saturated",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
				Arrival:   []synth.Segment{synth.At(0, 100), synth.At(12*h, 200)},
				Consumers: []synth.Segment{synth.At(0, 8)}},
			consumer: workers, length: 24 * h, arrival: 200, mu: 25, lower: true,
		},
		{
			name: "fleet scales during the window, mid-step",
			sc: synth.Scenario{Start: start, Duration: 12 * h, PerConsumerRate: 20, InitialBacklog: 2e6,
				Arrival:   []synth.Segment{synth.At(0, 100)},
				Consumers: []synth.Segment{synth.At(0, 10), synth.At(h+90*time.Second, 30), synth.At(3*h+17*time.Second, 12)}},
			consumer: rates.Consumer{Addr: "aws_ecs_service.workers", Kind: rates.KindECS, Name: "workers", Cluster: "main"},
			length:   12 * h, arrival: 100, mu: 20,
		},
		{
			name: "retries",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 60, RetriesPerMessage: 0.5,
				Arrival:   []synth.Segment{synth.At(0, 200)},
				Consumers: []synth.Segment{synth.At(0, 10), synth.At(3*h, 4), synth.At(5*h, 10)}},
			consumer: rates.Consumer{Addr: "aws_lambda_function.worker", Kind: rates.KindLambda, Name: "worker"},
			length:   24 * h, arrival: 200, mu: 60, retries: 0.5,
		},
		{
			// Ten times the data: the steps without it are gaps.
			name: "window ten times the data",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
				Arrival:   []synth.Segment{synth.At(0, 300)},
				Consumers: []synth.Segment{synth.At(0, 8), synth.At(6*h, 2), synth.At(7*h, 8)}},
			consumer: workers, length: 240 * h, arrival: 300, mu: 50,
		},
		{
			// An end between steps is rounded down to one.
			name: "end between steps",
			sc: synth.Scenario{Start: start, Duration: 24 * h, PerConsumerRate: 50,
				Arrival:   []synth.Segment{synth.At(0, 300)},
				Consumers: []synth.Segment{synth.At(0, 8), synth.At(6*h, 2), synth.At(7*h, 8)}},
			consumer: workers, length: 24 * h, end: 150 * time.Second, arrival: 300, mu: 50,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := cwtest.New(t)
			s.AddQueue("orders", tc.consumer, tc.sc)
			src := standInSource(t, s)
			step := 5 * time.Minute
			w := rates.Window{End: tc.sc.Start.Add(tc.sc.Duration + tc.end), Length: tc.length, Step: step}
			got, err := src.Fetch(context.Background(), []rates.Target{orders(tc.consumer)}, w)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Err != nil {
				t.Fatalf("fetched %+v", got)
			}
			want := tc.sc.Series(step)
			for _, m := range rates.Metrics {
				g := got[0].Series[m]
				if g.Len() != int(tc.length/step) || !g.Start.Equal(tc.sc.Start.Add(tc.sc.Duration-tc.length)) {
					t.Fatalf("%s: %d steps from %s, want %d from %s", m, g.Len(), g.Start, int(tc.length/step), tc.sc.Start.Add(tc.sc.Duration-tc.length))
				}
				if g.Samples() != want[m].Len() {
					t.Errorf("%s: %d samples, want %d", m, g.Samples(), want[m].Len())
				}
				sameSeries(t, m, g, want[m])
			}
			meas, err := rates.Measure(got[0].Series, rates.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v := meas.Value("arrival_rate"); v == nil || !within(v.V, tc.arrival, 1e-6) {
				t.Errorf("arrival_rate %+v, want %v", v, tc.arrival)
			}
			if v := meas.Value("per_consumer_rate"); v == nil || !within(v.V, tc.mu, 1e-6) || v.LowerBound != tc.lower {
				t.Errorf("per_consumer_rate %+v, want %v (lower bound %v)", v, tc.mu, tc.lower)
			}
			r, k := meas.Value("retry_rate"), meas.Value("avg_retries")
			if r == nil || k == nil || math.Abs(r.V*k.V-tc.retries) > 1e-6 {
				t.Errorf("retry_rate %+v × avg_retries %+v, want %v", r, k, tc.retries)
			}
		})
	}
}

// TestCloudWatchQueries checks each query sent, as the stand-in decoded
// it, and the provenance each Fetched gives, per consumer kind.
func TestCloudWatchQueries(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: 2 * time.Hour, PerConsumerRate: 10,
		Arrival: []synth.Segment{synth.At(0, 5)}, Consumers: []synth.Segment{synth.At(0, 2)}}
	for _, tc := range []struct {
		consumer  rates.Consumer
		namespace string
		metric    string
		dims      string
		stat      string
		err       string
	}{
		{consumer: workers, namespace: "AWS/AutoScaling", metric: "GroupInServiceInstances", dims: "AutoScalingGroupName=workers", stat: "Average"},
		{consumer: rates.Consumer{Addr: "aws_ecs_service.w", Kind: rates.KindECS, Name: "w", Cluster: "main"},
			namespace: "ECS/ContainerInsights", metric: "RunningTaskCount", dims: "ClusterName=main ServiceName=w", stat: "Average"},
		{consumer: rates.Consumer{Addr: "aws_lambda_function.f", Kind: rates.KindLambda, Name: "f"},
			namespace: "AWS/Lambda", metric: "ConcurrentExecutions", dims: "FunctionName=f", stat: "Maximum"},
		{consumer: rates.Consumer{Addr: "aws_pipes_pipe.p", Kind: "aws_pipes_pipe", Name: "p"},
			err: "queue orders (aws_sqs_queue.orders): no in-service metric for aws_pipes_pipe.p"},
		{consumer: rates.Consumer{Addr: "aws_ecs_service.w", Kind: rates.KindECS, Name: "w"},
			err: "queue orders (aws_sqs_queue.orders): the cluster of aws_ecs_service.w is not known"},
	} {
		t.Run(tc.consumer.Kind+" "+tc.consumer.Addr, func(t *testing.T) {
			s := cwtest.New(t)
			s.AddQueue("orders", tc.consumer, sc)
			src := standInSource(t, s)
			if src.Name() != "cloudwatch eu-west-1" {
				t.Errorf("Name %q", src.Name())
			}
			w := rates.Window{End: start.Add(2 * time.Hour), Length: 2 * time.Hour, Step: 5 * time.Minute}
			got, err := src.Fetch(context.Background(), []rates.Target{orders(tc.consumer)}, w)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{
				"NumberOfMessagesSent":               "AWS/SQS QueueName=orders Sum",
				"NumberOfMessagesDeleted":            "AWS/SQS QueueName=orders Sum",
				"NumberOfMessagesReceived":           "AWS/SQS QueueName=orders Sum",
				"ApproximateNumberOfMessagesVisible": "AWS/SQS QueueName=orders Minimum",
				"ApproximateAgeOfOldestMessage":      "AWS/SQS QueueName=orders Maximum",
			}
			if tc.err == "" {
				want[tc.metric] = tc.namespace + " " + tc.dims + " " + tc.stat
			}
			calls := s.Calls()
			if len(calls) != 1 {
				t.Fatalf("%d calls, want 1", len(calls))
			}
			in := calls[0].Input
			if in.ScanBy != types.ScanByTimestampAscending || !in.StartTime.Equal(start) || !in.EndTime.Equal(start.Add(2*time.Hour)) {
				t.Errorf("ScanBy %s from %s to %s", in.ScanBy, in.StartTime, in.EndTime)
			}
			sent := map[string]string{}
			for _, q := range in.MetricDataQueries {
				ms := q.MetricStat
				var dims []string
				for _, d := range ms.Metric.Dimensions {
					dims = append(dims, aws.ToString(d.Name)+"="+aws.ToString(d.Value))
				}
				sent[aws.ToString(ms.Metric.MetricName)] = aws.ToString(ms.Metric.Namespace) + " " + strings.Join(dims, " ") + " " + aws.ToString(ms.Stat)
				if aws.ToInt32(ms.Period) != 300 || !aws.ToBool(q.ReturnData) {
					t.Errorf("%s: period %d, ReturnData %v", aws.ToString(q.Id), aws.ToInt32(ms.Period), q.ReturnData)
				}
			}
			if fmt.Sprint(sent) != fmt.Sprint(want) {
				t.Errorf("queries\n%v\nwant\n%v", sent, want)
			}
			f := got[0]
			if p := f.Queries[rates.Sent]; p != "AWS/SQS NumberOfMessagesSent QueueName=orders Sum over 300 s, ÷ 300 for per second" {
				t.Errorf("sent's query %q", p)
			}
			if tc.err != "" {
				if f.Err == nil || !strings.Contains(f.Err.Error(), tc.err) {
					t.Errorf("error %v, want %q", f.Err, tc.err)
				}
				if _, ok := f.Series[rates.Consumers]; ok {
					t.Error("consumers fetched")
				}
				if f.Series[rates.Sent].Samples() != 24 {
					t.Errorf("%d samples of sent, want the queue's metrics all the same", f.Series[rates.Sent].Samples())
				}
				return
			}
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			if p, want := f.Queries[rates.Consumers], tc.namespace+" "+tc.metric+" "+tc.dims+" "+tc.stat+" over 300 s"; p != want {
				t.Errorf("consumers' query %q, want %q", p, want)
			}
			if n := f.Series[rates.Consumers].Samples(); n != 24 {
				t.Errorf("%d samples of consumers, want 24", n)
			}
		})
	}
}

// TestCloudWatchEmptyConsumers names the likely reason a fleet's metric
// has no data.
func TestCloudWatchEmptyConsumers(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: 2 * time.Hour, PerConsumerRate: 10,
		Arrival: []synth.Segment{synth.At(0, 5)}, Consumers: []synth.Segment{synth.At(0, 2)}}
	for _, tc := range []struct {
		consumer rates.Consumer
		want     string
	}{
		{workers, `AWS/AutoScaling GroupInServiceInstances AutoScalingGroupName=workers has no data in the window: the group's metrics collection is off: enabled_metrics = ["GroupInServiceInstances"] on aws_autoscaling_group.workers`},
		{rates.Consumer{Addr: "aws_ecs_service.w", Kind: rates.KindECS, Name: "w", Cluster: "main"},
			"ECS/ContainerInsights RunningTaskCount ClusterName=main ServiceName=w has no data in the window: Container Insights is off on cluster main"},
		{rates.Consumer{Addr: "aws_lambda_function.f", Kind: rates.KindLambda, Name: "f"},
			"AWS/Lambda ConcurrentExecutions FunctionName=f has no data in the window: the function did not run in the window"},
	} {
		t.Run(tc.consumer.Kind, func(t *testing.T) {
			s := cwtest.New(t)
			s.AddQueue("orders", rates.Consumer{}, sc) // the queue's metrics only
			src := standInSource(t, s)
			w := rates.Window{End: start.Add(2 * time.Hour), Length: 2 * time.Hour, Step: 5 * time.Minute}
			got, err := src.Fetch(context.Background(), []rates.Target{orders(tc.consumer)}, w)
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "queue orders (aws_sqs_queue.orders): "+tc.want) {
				t.Errorf("error %v, want %q", got[0].Err, tc.want)
			}
		})
	}
	t.Run("no data at all", func(t *testing.T) {
		s := cwtest.New(t)
		src := standInSource(t, s)
		w := rates.Window{End: start.Add(2 * time.Hour), Length: 2 * time.Hour, Step: 5 * time.Minute}
		got, err := src.Fetch(context.Background(), []rates.Target{orders(workers)}, w)
		if err != nil {
			t.Fatal(err)
		}
		if want := `no data in the window: is queue "orders" in eu-west-1?`; got[0].Err == nil || !strings.Contains(got[0].Err.Error(), want) || strings.Contains(got[0].Err.Error(), "enabled_metrics") {
			t.Errorf("error %v, want %q alone", got[0].Err, want)
		}
	})
}

// TestCloudWatchPeriod refuses a step that is no CloudWatch period,
// before any call.
func TestCloudWatchPeriod(t *testing.T) {
	s := cwtest.New(t)
	src := standInSource(t, s)
	for _, tc := range []struct {
		w    rates.Window
		want string
	}{
		{rates.Window{End: start, Length: time.Hour, Step: 90 * time.Second}, "the step must be a whole number of minutes (CloudWatch periods are multiples of 60 s), got 1m30s"},
		{rates.Window{End: start, Length: time.Hour, Step: 30 * time.Second}, "got 30s"},
		{rates.Window{End: start, Length: time.Hour}, "got 0s"},
		{rates.Window{End: start, Length: time.Minute, Step: 5 * time.Minute}, "the window (1m0s) is shorter than one step (5m0s)"},
	} {
		_, err := src.Fetch(context.Background(), []rates.Target{orders(workers)}, tc.w)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("step %s: error %v, want %q", tc.w.Step, err, tc.want)
		}
	}
	if n := len(s.Calls()); n != 0 {
		t.Errorf("%d calls, want none", n)
	}
}

// queues are n queues of an hour's data each, with their targets.
func queues(s *cwtest.StandIn, n int) []rates.Target {
	var ts []rates.Target
	for i := range n {
		name := fmt.Sprintf("q%04d", i)
		c := rates.Consumer{Addr: "aws_autoscaling_group." + name, Kind: rates.KindASG, Name: name}
		s.AddQueue(name, c, synth.Scenario{Start: start, Duration: time.Hour, PerConsumerRate: 10,
			Arrival: []synth.Segment{synth.At(0, float64(i%17+1))}, Consumers: []synth.Segment{synth.At(0, 2)}})
		ts = append(ts, rates.Target{Queue: "aws_sqs_queue." + name, QueueName: name, Consumer: c})
	}
	return ts
}

// TestCloudWatchBatches sends 200 queues' 1,200 queries in three calls
// of at most 500 (the stand-in refuses more, and invalid or repeated
// Ids), and gives each queue its own data back.
func TestCloudWatchBatches(t *testing.T) {
	s := cwtest.New(t)
	targets := queues(s, 200)
	src := standInSource(t, s)
	got, err := src.Fetch(context.Background(), targets, rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	// The calls by their first query, each once (a transport retry asks
	// again).
	calls := map[string]int{}
	for _, c := range s.Calls() {
		calls[aws.ToString(c.Input.MetricDataQueries[0].Id)] = len(c.Input.MetricDataQueries)
	}
	sizes := slices.Sorted(maps.Values(calls))
	if fmt.Sprint(sizes) != "[200 500 500]" {
		t.Errorf("calls of %v queries, want 500, 500 and 200", sizes)
	}
	for i, f := range got {
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		if v := f.Series[rates.Sent].At(3); v != float64(i%17+1) {
			t.Fatalf("%s: sent %v, want %d", targets[i].QueueName, v, i%17+1)
		}
	}
}

// TestCloudWatchPagination follows NextToken across pages that split
// queries, and merges each query's datapoints by Id.
func TestCloudWatchPagination(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: 24 * time.Hour, PerConsumerRate: 50,
		Arrival:   []synth.Segment{synth.At(0, 300)},
		Consumers: []synth.Segment{synth.At(0, 8), synth.At(6*time.Hour, 2), synth.At(7*time.Hour, 8)}}
	s := cwtest.New(t)
	s.AddQueue("orders", workers, sc)
	s.PageDatapoints = 500 // 6 × 288 datapoints: 4 pages
	src := standInSource(t, s)
	got, err := src.Fetch(context.Background(), []rates.Target{orders(workers)}, rates.Window{End: start.Add(24 * time.Hour), Length: 24 * time.Hour, Step: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Err != nil {
		t.Fatal(got[0].Err)
	}
	// The tokens asked for, each once (a transport retry asks again).
	var tokens []string
	for _, c := range s.Calls() {
		if tok := aws.ToString(c.Input.NextToken); !slices.Contains(tokens, tok) {
			tokens = append(tokens, tok)
		}
	}
	if fmt.Sprint(tokens) != "[ after-500 after-1000 after-1500]" {
		t.Errorf("NextTokens %q, want 4 pages", tokens)
	}
	want := sc.Series(5 * time.Minute)
	for _, m := range rates.Metrics {
		sameSeries(t, m, got[0].Series[m], want[m])
	}
}

func sqsKey(metric, queue string) string {
	return cwtest.MetricKey("AWS/SQS", metric, []types.Dimension{cwtest.Dim("QueueName", queue)})
}

// TestCloudWatchQueueErrors are one queue's errors: each names the
// queue and the metric, and the other queues are served.
func TestCloudWatchQueueErrors(t *testing.T) {
	w := rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: 5 * time.Minute}
	for _, tc := range []struct {
		name   string
		fault  func(s *cwtest.StandIn, ts []rates.Target)
		errs   []string // by queue: "" none
		served bool     // the first queue's sent served all the same
	}{
		{
			name: "partial data that stays",
			fault: func(s *cwtest.StandIn, _ []rates.Target) {
				for _, q := range []string{"q0000", "q0001"} {
					s.Status[sqsKey("ApproximateAgeOfOldestMessage", q)] = types.StatusCodePartialData
				}
			},
			errs: []string{
				"queue q0000 (aws_sqs_queue.q0000): AWS/SQS ApproximateAgeOfOldestMessage: CloudWatch returned PartialData (PartialData: the stand-in says PartialData)",
				"queue q0001 (aws_sqs_queue.q0001): AWS/SQS ApproximateAgeOfOldestMessage: CloudWatch returned PartialData (PartialData: the stand-in says PartialData)",
			},
			served: true,
		},
		{
			name: "forbidden and internal errors",
			fault: func(s *cwtest.StandIn, _ []rates.Target) {
				for _, q := range []string{"q0000", "q0001"} {
					s.Status[sqsKey("NumberOfMessagesDeleted", q)] = types.StatusCodeForbidden
					s.Status[cwtest.MetricKey("AWS/AutoScaling", "GroupInServiceInstances", []types.Dimension{cwtest.Dim("AutoScalingGroupName", q)})] = types.StatusCodeInternalError
				}
			},
			errs: []string{
				"queue q0000 (aws_sqs_queue.q0000): AWS/SQS NumberOfMessagesDeleted: CloudWatch returned Forbidden (Forbidden: the stand-in says Forbidden)\n" +
					"AWS/AutoScaling GroupInServiceInstances: CloudWatch returned InternalError (InternalError: the stand-in says InternalError)",
				"queue q0001 (aws_sqs_queue.q0001): AWS/SQS NumberOfMessagesDeleted: CloudWatch returned Forbidden (Forbidden: the stand-in says Forbidden)\n" +
					"AWS/AutoScaling GroupInServiceInstances: CloudWatch returned InternalError (InternalError: the stand-in says InternalError)",
			},
			served: true,
		},
		{
			name: "no result, and the call says why",
			fault: func(s *cwtest.StandIn, _ []rates.Target) {
				s.Dropped[sqsKey("NumberOfMessagesReceived", "q0000")] = true
				s.Dropped[sqsKey("NumberOfMessagesReceived", "q0001")] = true
				s.Messages = []types.MessageData{{Code: aws.String("MaxMetricsExceeded"), Value: aws.String("Maximum number of allowed metrics exceeded")}}
			},
			errs: []string{
				"queue q0000 (aws_sqs_queue.q0000): AWS/SQS NumberOfMessagesReceived: CloudWatch returned InternalError (MaxMetricsExceeded: Maximum number of allowed metrics exceeded)",
				"queue q0001 (aws_sqs_queue.q0001): AWS/SQS NumberOfMessagesReceived: CloudWatch returned InternalError (MaxMetricsExceeded: Maximum number of allowed metrics exceeded)",
			},
			served: true,
		},
		{
			name: "no result",
			fault: func(s *cwtest.StandIn, _ []rates.Target) {
				s.Dropped[sqsKey("NumberOfMessagesReceived", "q0000")] = true
				s.Dropped[sqsKey("NumberOfMessagesReceived", "q0001")] = true
			},
			errs: []string{
				"queue q0000 (aws_sqs_queue.q0000): AWS/SQS NumberOfMessagesReceived: CloudWatch returned no result",
				"queue q0001 (aws_sqs_queue.q0001): AWS/SQS NumberOfMessagesReceived: CloudWatch returned no result",
			},
			served: true,
		},
		{
			name: "names not known",
			fault: func(_ *cwtest.StandIn, ts []rates.Target) {
				ts[0].QueueName = ""
				ts[1].Consumer = rates.Consumer{Addr: "aws_lambda_function.f", Kind: rates.KindLambda}
			},
			errs: []string{
				"queue aws_sqs_queue.q0000: the queue's name is not known",
				"queue q0001 (aws_sqs_queue.q0001): the name of aws_lambda_function.f is not known",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := cwtest.New(t)
			targets := queues(s, 3)
			tc.fault(s, targets)
			src := standInSource(t, s)
			got, err := src.Fetch(context.Background(), targets, w)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range append(tc.errs, "") {
				if e := fmt.Sprint(got[i].Err); want == "" && got[i].Err != nil || want != "" && e != want {
					t.Errorf("%s: error %q, want %q", targets[i].Queue, e, want)
				}
			}
			if n := got[0].Series[rates.Sent].Samples(); tc.served != (n == 12) {
				t.Errorf("%d samples of the first queue's sent", n)
			}
			if n := got[2].Series[rates.Sent].Samples(); n != 12 {
				t.Errorf("%d samples of the third queue's sent, want 12", n)
			}
		})
	}
}

// TestCloudWatchRetries retries throttling and server errors with the
// SDK's retryer, and says so when the attempts run out.
func TestCloudWatchRetries(t *testing.T) {
	w := rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: 5 * time.Minute}
	for _, tc := range []struct {
		name                    string
		throttles, serverErrors int
		calls                   int
		err                     string
	}{
		{name: "throttled, then served", throttles: 3, calls: 4},
		{name: "server errors, then served", serverErrors: 3, calls: 4},
		{name: "throttled to the end", throttles: 10, calls: 4,
			err: "cloudwatch eu-west-1: GetMetricData still throttled after 4 attempts (Throttling): "},
		{name: "server errors to the end", serverErrors: 10, calls: 4,
			err: "cloudwatch eu-west-1: GetMetricData failed after 4 attempts (ServiceUnavailable): "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := cwtest.New(t)
			targets := queues(s, 1)
			s.Throttles, s.ServerErrors = tc.throttles, tc.serverErrors
			src := standInSource(t, s)
			got, err := src.Fetch(context.Background(), targets, w)
			if n := len(s.Calls()); n != tc.calls {
				t.Errorf("%d calls, want %d", n, tc.calls)
			}
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got[0].Err != nil || got[0].Series[rates.Sent].Samples() != 12 {
				t.Fatalf("error %v, fetched %+v", err, got)
			}
		})
	}
	t.Run("more attempts than the SDK's three by default", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		s.Throttles = 9
		cwtest.Offline(t)
		// The default attempts; waits of a millisecond.
		src, err := rates.NewCloudWatch(context.Background(), "eu-west-1", rates.CloudWatchEndpoint(s.URL()), rates.CloudWatchRetries(0, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := src.Fetch(context.Background(), targets, w); err != nil {
			t.Fatal(err)
		}
		if n := len(s.Calls()); n != 10 {
			t.Errorf("%d calls, want 10", n)
		}
	})
	t.Run("no retry quota to run out of", func(t *testing.T) {
		// The SDK's quota of 500 tokens, 5 a throttled retry, would
		// fail the 13th of these fetches.
		s := cwtest.New(t)
		targets := queues(s, 1)
		cwtest.Offline(t)
		src, err := rates.NewCloudWatch(context.Background(), "eu-west-1", rates.CloudWatchEndpoint(s.URL()), rates.CloudWatchRetries(0, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			s.Throttle(9)
			if _, err := src.Fetch(context.Background(), targets, w); err != nil {
				t.Fatalf("fetch %d: %v", i, err)
			}
		}
	})
	t.Run("AWS_MAX_ATTEMPTS unless the option is given", func(t *testing.T) {
		for _, tc := range []struct {
			opts  []rates.CloudWatchOption
			calls int
		}{
			{[]rates.CloudWatchOption{rates.CloudWatchRetries(0, time.Millisecond)}, 2},
			{[]rates.CloudWatchOption{rates.CloudWatchRetries(4, time.Millisecond)}, 4},
		} {
			s := cwtest.New(t)
			targets := queues(s, 1)
			s.ServerErrors = 10
			cwtest.Offline(t)
			t.Setenv("AWS_MAX_ATTEMPTS", "2")
			src, err := rates.NewCloudWatch(context.Background(), "eu-west-1", append(tc.opts, rates.CloudWatchEndpoint(s.URL()))...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := src.Fetch(context.Background(), targets, w); err == nil {
				t.Error("no error")
			}
			if n := len(s.Calls()); n != tc.calls {
				t.Errorf("%d calls, want %d", n, tc.calls)
			}
		}
	})
}

// TestCloudWatchFailures are the source's own errors: each names what
// failed and why.
func TestCloudWatchFailures(t *testing.T) {
	w := rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: 5 * time.Minute}
	t.Run("malformed response", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		s.Malformed = 1
		_, err := standInSource(t, s).Fetch(context.Background(), targets, w)
		if want := "cloudwatch eu-west-1: GetMetricData's response could not be read: "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("access denied", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		s.Denied = true
		_, err := standInSource(t, s).Fetch(context.Background(), targets, w)
		if want := "cloudwatch eu-west-1: GetMetricData refused (AccessDenied): the credentials need cloudwatch:GetMetricData: "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
		if n := len(s.Calls()); n != 1 {
			t.Errorf("%d calls, want 1: a refusal is not retried", n)
		}
	})
	t.Run("endpoint unreachable", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		src := standInSource(t, s)
		s.Close()
		_, err := src.Fetch(context.Background(), targets, w)
		if want := "cloudwatch eu-west-1: cannot reach CloudWatch at " + s.URL() + " after 4 attempts: "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("the same NextToken twice", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		s.Stuck = true
		_, err := standInSource(t, s).Fetch(context.Background(), targets, w)
		if want := `cloudwatch eu-west-1: GetMetricData returned NextToken "after-0" twice`; err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("fewer values than timestamps", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		s.Uneven = true
		_, err := standInSource(t, s).Fetch(context.Background(), targets, w)
		if want := "cloudwatch eu-west-1: GetMetricData returned 12 timestamps and 11 values for query q0_sent"; err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("canceled", func(t *testing.T) {
		s := cwtest.New(t)
		targets := queues(s, 1)
		src := standInSource(t, s)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := src.Fetch(ctx, targets, w); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
	t.Run("no credentials", func(t *testing.T) {
		cwtest.Offline(t)
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "")
		_, err := rates.NewCloudWatch(context.Background(), "eu-west-1", rates.CloudWatchEndpoint("http://127.0.0.1:1"))
		if want := "cloudwatch eu-west-1: no AWS credentials: "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("no region", func(t *testing.T) {
		cwtest.Offline(t)
		_, err := rates.NewCloudWatch(context.Background(), "")
		if want := "cloudwatch: no AWS Region: name one, or set AWS_REGION"; err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	})
}

// BenchmarkCloudWatch1000Queues fetches a day of 1,000 queues at 5
// minutes from the stand-in: 6,000 queries in 12 calls, 1.7 million
// datapoints.
func BenchmarkCloudWatch1000Queues(b *testing.B) {
	s := cwtest.New(b)
	var targets []rates.Target
	for i := range 1000 {
		name := fmt.Sprintf("q%04d", i)
		c := rates.Consumer{Addr: "aws_autoscaling_group." + name, Kind: rates.KindASG, Name: name}
		s.AddQueue(name, c, synth.Scenario{Start: start, Duration: 24 * time.Hour, PerConsumerRate: 10,
			Arrival: []synth.Segment{synth.At(0, float64(i%17+1))}, Consumers: []synth.Segment{synth.At(0, 2)}})
		targets = append(targets, rates.Target{Queue: "aws_sqs_queue." + name, QueueName: name, Consumer: c})
	}
	src := standInSource(b, s)
	w := rates.Window{End: start.Add(24 * time.Hour), Length: 24 * time.Hour, Step: 5 * time.Minute}
	b.ReportAllocs()
	for b.Loop() {
		got, err := src.Fetch(context.Background(), targets, w)
		if err != nil || got[999].Err != nil {
			b.Fatal(err, got[999].Err)
		}
	}
}
