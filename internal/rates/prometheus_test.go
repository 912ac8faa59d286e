// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

func TestPrometheusSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]string
		// attrs are the attributes the errors name, in order; none when
		// the settings are valid.
		attrs []string
		want  string
	}{
		{name: "queries and settings", settings: map[string]string{
			"sent": `sum(rate(jobs_enqueued_total{queue="$queue_name"}[$step]))`, "consumers": `sum(up{job="${consumer_name}"})`,
			"url": "http://prometheus:9090", "period_seconds": "300", "timeout_seconds": "10"}},
		{name: "unknown attribute", settings: map[string]string{"sent_query": "x"}, attrs: []string{"sent_query"},
			want: "unknown attribute; accepted: sent, deleted, received, visible, oldest_age, consumers, url, period_seconds, timeout_seconds"},
		{name: "unknown placeholder", settings: map[string]string{"sent": `x{queue="$queue"}`}, attrs: []string{"sent"},
			want: "unknown placeholder $queue; accepted: $queue_name, $consumer_name, $cluster_name, $step"},
		{name: "placeholder outside a string", settings: map[string]string{"visible": `x{queue=$queue_name}`}, attrs: []string{"visible"},
			want: `$queue_name outside a quoted string: write "$queue_name"`},
		{name: "string not closed", settings: map[string]string{"visible": `x{queue="$queue_name}`}, attrs: []string{"visible"}, want: "not closed"},
		{name: "empty query", settings: map[string]string{"deleted": " "}, attrs: []string{"deleted"}, want: "the query is empty"},
		{name: "bad numbers and URL, each named", settings: map[string]string{
			"period_seconds": "5m", "timeout_seconds": "0", "url": "prometheus:9090"},
			attrs: []string{"period_seconds", "timeout_seconds", "url"}, want: "want a whole number of seconds above 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := rates.ValidatePrometheusSettings(tc.settings)
			_, newErr := rates.NewPrometheus("", tc.settings, nil)
			if len(tc.attrs) == 0 {
				if err != nil || newErr != nil {
					t.Fatalf("valid settings: %v; NewPrometheus: %v", err, newErr)
				}
				return
			}
			if err == nil || newErr == nil || err.Error() != newErr.Error() {
				t.Fatalf("got %v; NewPrometheus: %v", err, newErr)
			}
			if got := settingAttrs(err); strings.Join(got, " ") != strings.Join(tc.attrs, " ") {
				t.Errorf("attributes %v, want %v: %v", got, tc.attrs, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want it to say %q", err, tc.want)
			}
		})
	}
}

// settingAttrs are the attributes an error's *PrometheusSettingErrors name.
func settingAttrs(err error) []string {
	var out []string
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var se *rates.PrometheusSettingError
		if errors.As(e, &se) {
			out = append(out, se.Attr)
		}
	}
	return out
}

func TestPrometheusQueries(t *testing.T) {
	got, err := rates.PrometheusQueries(map[string]string{"deleted": `sum(rate(done_total{q="$queue_name"}[$step]))`})
	if err != nil || got[rates.Deleted] != `sum(rate(done_total{q="$queue_name"}[$step]))` || len(got) != 1 {
		t.Errorf("got %v, %v", got, err)
	}
	_, err = rates.PrometheusQueries(map[string]string{"period_seconds": "60", "sent": "x"})
	if got := settingAttrs(err); len(got) != 1 || got[0] != "period_seconds" ||
		!strings.Contains(err.Error(), "unknown attribute in a queue's block; accepted: sent, deleted, received, visible, oldest_age, consumers") {
		t.Errorf("a queue's block with a setting: %v", err)
	}
}

func TestPrometheusURL(t *testing.T) {
	p, err := rates.NewPrometheus("", map[string]string{"url": "https://user:secret@prom.example/prefix"}, nil)
	if err != nil || p.Name() != "prometheus https://user:xxxxx@prom.example/prefix" {
		t.Errorf("the url attribute: %v, %v", p, err)
	}
	p, err = rates.NewPrometheus("http://flag:9090", map[string]string{"url": "http://attr:9090"}, nil)
	if err != nil || p.Name() != "prometheus http://flag:9090" {
		t.Errorf("the argument over the attribute: %v, %v", p, err)
	}
	if _, err := rates.NewPrometheus("", nil, nil); err == nil || !strings.Contains(err.Error(), "no URL") {
		t.Errorf("no URL: %v", err)
	}
}

func TestPrometheusQuery(t *testing.T) {
	p, err := rates.NewPrometheus("http://prometheus:9090", map[string]string{
		"sent":    `sum(rate(enqueued_total{queue="$queue_name", q2='$queue_name', q3=` + "`${queue_name}`" + `}[$step])) # $not_a_placeholder "`,
		"visible": `depth{queue="$queue_name", re=~"a\"$|b"}`,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ecs := rates.Target{QueueName: `we"ird\q'ueue`, Consumer: rates.Consumer{Kind: rates.KindECS, Name: "svc", Cluster: "main"}}
	for _, tc := range []struct {
		name   string
		target rates.Target
		metric rates.Metric
		step   time.Duration
		want   string
		err    string
	}{
		{name: "escaped for each quote, step in minutes", target: ecs, metric: rates.Sent, step: 5 * time.Minute,
			want: `sum(rate(enqueued_total{queue="we\"ird\\q'ueue", q2='we"ird\\q\'ueue', q3=` + "`we\"ird\\q'ueue`" + `}[5m])) # $not_a_placeholder "`},
		{name: "an escape and a regex $ left as they are", target: ecs, metric: rates.Visible, step: 90 * time.Second,
			want: `depth{queue="we\"ird\\q'ueue", re=~"a\"$|b"}`},
		{name: "a queue's query over the block's", metric: rates.Sent, step: time.Hour,
			target: rates.Target{QueueName: "q", Queries: map[rates.Metric]string{rates.Sent: `x{a="$queue_name"}[$step]`}},
			want:   `x{a="q"}[1h]`},
		{name: "step in milliseconds", metric: rates.Sent, step: 1500 * time.Millisecond,
			target: rates.Target{QueueName: "q", Queries: map[rates.Metric]string{rates.Sent: `x[$step]`}}, want: `x[1500ms]`},
		{name: "no queue name", target: rates.Target{}, metric: rates.Visible, step: time.Minute,
			err: "$queue_name: the queue's name is not known: set queue_name in its queue block"},
		{name: "no cluster", target: rates.Target{QueueName: "q", Consumer: rates.Consumer{Kind: rates.KindECS, Name: "svc"}},
			metric: rates.Consumers, step: time.Minute, err: "$cluster_name: the consumer's ECS cluster is not known"},
		{name: "no consumer kind", target: rates.Target{QueueName: "q"}, metric: rates.Consumers, step: time.Minute,
			err: `no default query for a consumer of kind ""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := p.Query(tc.target, tc.metric, tc.step)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("got %q, %v; want the error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %v\n%s\nwant\n%s", err, got, tc.want)
			}
		})
	}
}

// TestPrometheusPeriod: the default rate queries divide each exporter's
// Sum by its period, or by period_seconds.
func TestPrometheusPeriod(t *testing.T) {
	target := rates.Target{QueueName: "q"}
	for _, tc := range []struct {
		settings map[string]string
		want     []string
	}{
		{nil, []string{"60", "300", "300"}},
		{map[string]string{"period_seconds": "120"}, []string{"120", "120", "120"}},
	} {
		p, err := rates.NewPrometheus("http://prometheus:9090", tc.settings, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []rates.Metric{rates.Sent, rates.Deleted, rates.Received} {
			q, err := p.Query(target, m, 5*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, branch := range strings.Split(q, " or on() ") {
				_, div, ok := strings.Cut(branch, "[5m]) / ")
				if !ok {
					t.Fatalf("%s: a branch without a division: %s", m, branch)
				}
				got = append(got, div)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("%v %s: divisors %v, want %v: %s", tc.settings, m, got, tc.want, q)
			}
		}
	}
}

// fakePrometheus serves /api/v1/query_range from answer, recording the
// requests' points.
type fakePrometheus struct {
	answer func(query string, start, end time.Time, step time.Duration) (int, string)
	mu     sync.Mutex
	points []int
}

func (f *fakePrometheus) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/query_range" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	start, end, step := promFormTime(r.FormValue("start")), promFormTime(r.FormValue("end")), promFormStep(r.FormValue("step"))
	f.mu.Lock()
	f.points = append(f.points, int(end.Sub(start)/step)+1)
	f.mu.Unlock()
	code, body := f.answer(r.FormValue("query"), start, end, step)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body))
}

func promFormTime(s string) time.Time {
	f, _ := strconv.ParseFloat(s, 64)
	return time.UnixMilli(int64(math.Round(f * 1000)))
}

func promFormStep(s string) time.Duration {
	f, _ := strconv.ParseFloat(s, 64)
	return time.Duration(math.Round(f*1000)) * time.Millisecond
}

// matrix is a range query's answer holding each series' value at the
// step each evaluation time ends: NaN and ±Inf as Prometheus writes them.
func matrix(start, end time.Time, step time.Duration, series ...rates.Series) string {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"matrix","result":[`)
	for k, s := range series {
		if k > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"metric":{"series":"%d"},"values":[`, k)
		first := true
		for at := start; !at.After(end); at = at.Add(step) {
			i := int(at.Add(time.Millisecond).Sub(s.Start)/s.Step) - 1
			if i < 0 || i >= s.Len() {
				continue
			}
			if !first {
				b.WriteString(",")
			}
			first = false
			fmt.Fprintf(&b, `[%s,"%s"]`, strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64), strconv.FormatFloat(s.Values[i], 'f', -1, 64))
		}
		b.WriteString("]}")
	}
	b.WriteString("]}}")
	return b.String()
}

func ramp(n int) rates.Series {
	s := rates.NewSeries(start, time.Minute, n)
	for i := range s.Values {
		s.Values[i] = float64(i + 1)
	}
	return s
}

// appQueries are queries by metric, each naming its metric, for a fake
// server to answer by.
var appQueries = map[string]string{
	"sent": `s{q="$queue_name"}`, "deleted": `d{q="$queue_name"}`, "received": `r{q="$queue_name"}`,
	"visible": `v{q="$queue_name"}`, "oldest_age": `o{q="$queue_name"}`, "consumers": `c{q="$queue_name"}`,
}

func newFake(t *testing.T, settings map[string]string, answer func(query string, start, end time.Time, step time.Duration) (int, string)) (*rates.Prometheus, *fakePrometheus) {
	t.Helper()
	f := &fakePrometheus{answer: answer}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	p, err := rates.NewPrometheus(srv.URL, settings, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return p, f
}

func TestPrometheusFetchErrors(t *testing.T) {
	w := rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: time.Minute}
	good := func(_ string, s, e time.Time, step time.Duration) (int, string) {
		return 200, matrix(s, e, step, ramp(60))
	}
	for _, tc := range []struct {
		name string
		// bad answers the sent query; the others are good.
		bad  func(start, end time.Time, step time.Duration) (int, string)
		want string
	}{
		{name: "malformed JSON", bad: func(time.Time, time.Time, time.Duration) (int, string) {
			return 200, `{"status":"success","data":{"resultType":"matrix","result":[`
		},
			want: "malformed response: not JSON at byte 60: unexpected end of JSON input"},
		{name: "a malformed sample", bad: func(time.Time, time.Time, time.Duration) (int, string) {
			return 200, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,2]]}]}}`
		}, want: "malformed response: a sample's value is 2, not a number in a string"},
		{name: "not a matrix", bad: func(time.Time, time.Time, time.Duration) (int, string) {
			return 200, `{"status":"success","data":{"resultType":"vector","result":[]}}`
		}, want: `malformed response: a "vector" result, not a range query's matrix`},
		{name: "Prometheus's error", bad: func(time.Time, time.Time, time.Duration) (int, string) {
			return 400, `{"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected \"}\""}`
		}, want: `400 Bad Request: bad_data: 1:5: parse error: unexpected "}"`},
		{name: "an error without JSON", bad: func(time.Time, time.Time, time.Duration) (int, string) { return 502, "bad gateway\n" },
			want: "502 Bad Gateway: bad gateway"},
		{name: "too many series", bad: func(s, e time.Time, step time.Duration) (int, string) {
			return 200, matrix(s, e, step, ramp(60), ramp(60), ramp(60))
		}, want: `returned 3 series ({series="0"}, {series="1"}, {series="2"}): aggregate it, e.g. sum(...), or select one`},
		{name: "no series", bad: func(s, e time.Time, step time.Duration) (int, string) { return 200, matrix(s, e, step) },
			want: "the query returned no series: check its metric and label names"},
		{name: "a sample off the steps", bad: func(time.Time, time.Time, time.Duration) (int, string) {
			return 200, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1.5,"2"]]}]}}`
		}, want: "malformed response: a sample at 1970-01-01T00:00:01.5Z is not at a step of the query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := newFake(t, appQueries, func(q string, s, e time.Time, step time.Duration) (int, string) {
				if strings.HasPrefix(q, "s{") {
					return tc.bad(s, e, step)
				}
				return good(q, s, e, step)
			})
			got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "orders"}, {QueueName: "billing"}}, w)
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range []string{"orders", "billing"} {
				want := fmt.Sprintf(`queue %q: sent (messages sent): %s; the query: s{q=%q}`, name, tc.want, name)
				if got[i].Err == nil || !strings.Contains(got[i].Err.Error(), want) {
					t.Errorf("%s: got %v, want %q", name, got[i].Err, want)
				}
				if _, ok := got[i].Series[rates.Sent]; ok {
					t.Errorf("%s: a series of sent beside its error", name)
				}
				if v := got[i].Series[rates.Deleted]; v.Samples() != 60 || got[i].Queries[rates.Sent] != fmt.Sprintf("s{q=%q}", name) {
					t.Errorf("%s: the other metrics: %d samples of deleted, queries %v", name, v.Samples(), got[i].Queries)
				}
			}
		})
	}
}

func TestPrometheusNaNAndInf(t *testing.T) {
	w := rates.Window{End: start.Add(10 * time.Minute), Length: 10 * time.Minute, Step: time.Minute}
	want := ramp(10)
	want.Values[2], want.Values[5], want.Values[7] = math.NaN(), math.Inf(1), math.Inf(-1)
	p, _ := newFake(t, appQueries, func(_ string, s, e time.Time, step time.Duration) (int, string) { return 200, matrix(s, e, step, want) })
	got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "q"}}, w)
	if err != nil || got[0].Err != nil {
		t.Fatal(err, got[0].Err)
	}
	s := got[0].Series[rates.Visible]
	for i, v := range s.Values {
		if special := i == 2 || i == 5 || i == 7; special != math.IsNaN(v) || !special && v != want.Values[i] {
			t.Errorf("step %d: %v, want %v as %v", i, v, want.Values[i], map[bool]string{true: "NaN", false: "itself"}[special])
		}
	}
	if s.Samples() != 7 || !s.Start.Equal(w.Start()) || s.Step != w.Step {
		t.Errorf("%d samples from %v by %v", s.Samples(), s.Start, s.Step)
	}
}

// TestPrometheusChunks: a window of more points than a request may hold
// is fetched in requests of at most that many, stitched together.
func TestPrometheusChunks(t *testing.T) {
	const steps, most = 50, 7
	w := rates.Window{End: start.Add(steps * time.Minute), Length: steps * time.Minute, Step: time.Minute}
	p, f := newFake(t, appQueries, func(_ string, s, e time.Time, step time.Duration) (int, string) {
		return 200, matrix(s, e, step, ramp(steps))
	})
	rates.SetPrometheusLimits(p, most, 1<<20)
	got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "q"}}, w)
	if err != nil || got[0].Err != nil {
		t.Fatal(err, got[0].Err)
	}
	for _, m := range rates.Metrics {
		if s := got[0].Series[m]; s.Len() != steps || s.Samples() != steps || s.Values[0] != 1 || s.Values[steps-1] != steps {
			t.Errorf("%s: %v", m, s.Values)
		}
	}
	total := 0
	for _, n := range f.points {
		if n > most {
			t.Errorf("a request of %d points", n)
		}
		total += n
	}
	if total != steps*len(rates.Metrics) {
		t.Errorf("%d points requested, want %d", total, steps*len(rates.Metrics))
	}
}

// TestPrometheusLongWindow: a window ten times longer than the data is
// NaN where there is none, and measures as the data alone does.
func TestPrometheusLongWindow(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: 24 * time.Hour, PerConsumerRate: 50,
		Arrival:   []synth.Segment{synth.At(0, 300)},
		Consumers: []synth.Segment{synth.At(0, 8), synth.At(6*time.Hour, 2), synth.At(7*time.Hour, 8)}}
	step := 5 * time.Minute
	data := sc.Series(step)
	w := rates.Window{End: start.Add(24 * time.Hour), Length: 240 * time.Hour, Step: step}
	p, _ := newFake(t, appQueries, func(q string, s, e time.Time, step time.Duration) (int, string) {
		return 200, matrix(s, e, step, data[rates.Metric(appMetric(q))])
	})
	got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "q"}}, w)
	if err != nil || got[0].Err != nil {
		t.Fatal(err, got[0].Err)
	}
	offset := w.Steps() - data[rates.Sent].Len()
	for _, m := range rates.Metrics {
		s := got[0].Series[m]
		if s.Len() != w.Steps() || s.Samples() != data[m].Samples() {
			t.Fatalf("%s: %d steps, %d samples, want %d and %d", m, s.Len(), s.Samples(), w.Steps(), data[m].Samples())
		}
		for i, v := range data[m].Values {
			if s.Values[offset+i] != v {
				t.Fatalf("%s: step %d is %v, want %v", m, offset+i, s.Values[offset+i], v)
			}
		}
	}
	long, err := rates.Measure(got[0].Series, rates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	short, err := rates.Measure(data, rates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(long.Values) != fmt.Sprint(short.Values) {
		t.Errorf("the long window measures %+v, the data %+v", long.Values, short.Values)
	}
}

// appMetric is the metric an appQueries query names.
func appMetric(query string) string {
	for m, q := range appQueries {
		if strings.HasPrefix(query, q[:2]) {
			return m
		}
	}
	return ""
}

func TestPrometheusSourceErrors(t *testing.T) {
	w := rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: time.Minute}
	targets := []rates.Target{{QueueName: "a"}, {QueueName: "b"}}
	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := "http://" + l.Addr().String()
		_ = l.Close()
		p, err := rates.NewPrometheus(addr, appQueries, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Fetch(context.Background(), targets, w)
		if got != nil || err == nil || !strings.HasPrefix(err.Error(), "prometheus "+addr+": unreachable: ") {
			t.Errorf("got %v, %v", got, err)
		}
	})
	t.Run("401 stops the fetch", func(t *testing.T) {
		var calls atomic.Int32
		p, _ := newFake(t, appQueries, func(string, time.Time, time.Time, time.Duration) (int, string) {
			calls.Add(1)
			return 401, `{"status":"error","errorType":"unauthorized","error":"no token"}`
		})
		got, err := p.Fetch(context.Background(), targets, w)
		if got != nil || err == nil || !strings.Contains(err.Error(), ": 401 Unauthorized: unauthorized: no token") || !strings.HasPrefix(err.Error(), p.Name()) {
			t.Errorf("got %v, %v", got, err)
		}
		if n := calls.Load(); n >= int32(len(targets)*len(rates.Metrics)) {
			t.Errorf("%d requests after the first 401", n)
		}
	})
	t.Run("a wrong path is the source's", func(t *testing.T) {
		srv := httptest.NewServer(&fakePrometheus{})
		t.Cleanup(srv.Close)
		p, err := rates.NewPrometheus(srv.URL+"/not-prometheus", appQueries, srv.Client())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Fetch(context.Background(), targets, w); err == nil || !strings.Contains(err.Error(), "404 Not Found") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("the caller's cancel", func(t *testing.T) {
		p, _ := newFake(t, appQueries, func(_ string, s, e time.Time, step time.Duration) (int, string) {
			return 200, matrix(s, e, step, ramp(60))
		})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := p.Fetch(ctx, targets, w); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v", err)
		}
	})
}

func TestPrometheusLimits(t *testing.T) {
	w := rates.Window{End: start.Add(time.Hour), Length: time.Hour, Step: time.Minute}
	t.Run("body cap", func(t *testing.T) {
		p, _ := newFake(t, appQueries, func(_ string, s, e time.Time, step time.Duration) (int, string) {
			return 200, matrix(s, e, step, ramp(60))
		})
		body := matrix(w.Start().Add(w.Step-time.Millisecond), w.End.Add(-time.Millisecond), w.Step, ramp(60))
		rates.SetPrometheusLimits(p, 11000, int64(len(body)))
		got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "q"}}, w)
		if err != nil || got[0].Err != nil {
			t.Fatalf("a body at the cap: %v, %v", err, got[0].Err)
		}
		rates.SetPrometheusLimits(p, 11000, int64(len(body)-1))
		got, err = p.Fetch(context.Background(), []rates.Target{{QueueName: "q"}}, w)
		if err != nil || got[0].Err == nil || !strings.Contains(got[0].Err.Error(), fmt.Sprintf("the response is over %d bytes", len(body)-1)) {
			t.Errorf("a body over the cap: %v, %v", err, got[0].Err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		block := make(chan struct{})
		p, _ := newFake(t, map[string]string{"sent": appQueries["sent"], "timeout_seconds": "1"}, func(string, time.Time, time.Time, time.Duration) (int, string) {
			<-block
			return 200, ""
		})
		defer close(block)
		begin := time.Now()
		got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "q", Queries: appQueriesOf("sent")}}, w)
		if err != nil || got[0].Err == nil || !strings.Contains(got[0].Err.Error(), "no answer within 1s (timeout_seconds)") {
			t.Errorf("got %v, %v", err, got)
		}
		if d := time.Since(begin); d > 10*time.Second {
			t.Errorf("took %v", d)
		}
	})
}

// appQueriesOf are appQueries but metric's, as a queue's queries.
func appQueriesOf(metric string) map[rates.Metric]string {
	out := map[rates.Metric]string{}
	for m, q := range appQueries {
		if m != metric {
			out[rates.Metric(m)] = q
		}
	}
	return out
}

// TestPrometheusConcurrency: queries run a few at a time, never more.
func TestPrometheusConcurrency(t *testing.T) {
	var now, most atomic.Int32
	p, _ := newFake(t, appQueries, func(_ string, s, e time.Time, step time.Duration) (int, string) {
		n := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		return 200, matrix(s, e, step, ramp(10))
	})
	targets := make([]rates.Target, 20)
	for i := range targets {
		targets[i].QueueName = fmt.Sprint("q", i)
	}
	w := rates.Window{End: start.Add(10 * time.Minute), Length: 10 * time.Minute, Step: time.Minute}
	got, err := p.Fetch(context.Background(), targets, w)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range got {
		if f.Err != nil || len(f.Series) != len(rates.Metrics) {
			t.Errorf("%d: %v, %d series", i, f.Err, len(f.Series))
		}
	}
	if m := most.Load(); m < 2 || m > 8 {
		t.Errorf("%d queries at once, want from 2 to 8", m)
	}
}

// TestPrometheusSampleForms: times in other forms than three decimals
// land on their steps; malformed samples are errors.
func TestPrometheusSampleForms(t *testing.T) {
	w := rates.Window{End: start.Add(3 * time.Minute), Length: 3 * time.Minute, Step: time.Minute}
	first := start.Add(time.Minute - time.Millisecond).UnixMilli()
	for _, tc := range []struct {
		values string
		want   string
	}{
		{values: fmt.Sprintf(`[ [%d.%03d, "1"] , [%d.%03d0,"2"],[%se9,"3"] ]`, first/1000, first%1000, (first+60000)/1000, (first+60000)%1000,
			strconv.FormatFloat(float64(first+120000)/1e12, 'f', -1, 64)), want: "[1 2 3]"},
		{values: fmt.Sprintf(`[[%d,"1"]]`, first/1000+1), want: "malformed response: a sample at 2026-11-01T00:01:00Z is not at a step of the query"},
		{values: `[["1","1"]]`, want: `malformed response: a sample's time is "1", not a number of seconds`},
		{values: `[[[1],"1"]]`, want: `malformed response: a sample is [[1], not [time, "value"]`},
		{values: `[[1]]`, want: `malformed response: a sample is [1], not [time, "value"]`},
		{values: `[1]`, want: `malformed response: a sample is 1, not [time, "value"]`},
		{values: `[[1,"one"]]`, want: `malformed response: a sample's value is "one", not a number`},
		{values: `[[1,"1",2]]`, want: `malformed response: a sample's value is "1",2, not a number in a string`},
		{values: `{}`, want: `malformed response: values are {}, not an array`},
		{values: `null`, want: "[NaN NaN NaN]"},
	} {
		t.Run(tc.values, func(t *testing.T) {
			p, _ := newFake(t, appQueries, func(string, time.Time, time.Time, time.Duration) (int, string) {
				return 200, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":` + tc.values + `}]}}`
			})
			got, err := p.Fetch(context.Background(), []rates.Target{{QueueName: "q"}}, w)
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Err != nil {
				if !strings.Contains(got[0].Err.Error(), "sent (messages sent): "+tc.want+"; the query") {
					t.Errorf("got %v, want %s", got[0].Err, tc.want)
				}
				return
			}
			if v := fmt.Sprint(got[0].Series[rates.Sent].Values); v != tc.want {
				t.Errorf("got %s, want %s", v, tc.want)
			}
		})
	}
}

// TestPrometheusQueryErrorsInFetch: a query that cannot be written for a
// queue is its error; its other metrics are fetched.
func TestPrometheusQueryErrorsInFetch(t *testing.T) {
	w := rates.Window{End: start.Add(10 * time.Minute), Length: 10 * time.Minute, Step: time.Minute}
	p, _ := newFake(t, nil, func(_ string, s, e time.Time, step time.Duration) (int, string) {
		return 200, matrix(s, e, step, ramp(10))
	})
	got, err := p.Fetch(context.Background(), []rates.Target{
		{Queue: "aws_sqs_queue.a", QueueName: "a"},
		{Queue: "aws_sqs_queue.b", Consumer: rates.Consumer{Kind: rates.KindLambda, Name: "f"}},
	}, w)
	if err != nil {
		t.Fatal(err)
	}
	if want := `queue "a": consumers (consumers in service): no default query for a consumer of kind ""`; got[0].Err == nil || !strings.HasPrefix(got[0].Err.Error(), want) {
		t.Errorf("a: %v, want %s", got[0].Err, want)
	}
	if len(got[0].Series) != len(rates.Metrics)-1 || len(got[0].Queries) != len(rates.Metrics)-1 {
		t.Errorf("a: %d series, %d queries", len(got[0].Series), len(got[0].Queries))
	}
	if want := "queue \"aws_sqs_queue.b\": sent (messages sent): $queue_name: the queue's name is not known"; got[1].Err == nil || !strings.HasPrefix(got[1].Err.Error(), want) ||
		strings.Count(got[1].Err.Error(), "$queue_name: the queue's name is not known") != 5 {
		t.Errorf("b: %v, want %s for each of the queue's metrics", got[1].Err, want)
	}
	if s := got[1].Series[rates.Consumers]; s.Samples() != 10 || !strings.Contains(got[1].Queries[rates.Consumers], `function_name="f"`) {
		t.Errorf("b's consumers: %v, %s", s.Values, got[1].Queries[rates.Consumers])
	}
}
