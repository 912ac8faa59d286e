// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The settings of a `rates "prometheus"` block besides its queries (one
// per Metric, by the metric's name).
const (
	// PrometheusURL is the server's base URL (the /api/v1 paths are
	// under it); NewPrometheus's baseURL argument overrides it.
	PrometheusURL = "url"
	// PrometheusPeriod is the CloudWatch period, in seconds, the exporter
	// requests: its default queries divide a period's Sum by it.
	PrometheusPeriod = "period_seconds"
	// PrometheusTimeout is each HTTP request's timeout, in seconds.
	PrometheusTimeout = "timeout_seconds"
)

// The exporters' default periods, which the default queries divide by
// unless period_seconds says otherwise: prometheus/cloudwatch_exporter's
// period_seconds defaults to 60 (README.md, CloudWatchCollector.java),
// YACE's period to 300 (pkg/model/model.go DefaultPeriodSeconds).
const (
	CloudWatchExporterPeriod = 60 * time.Second
	YACEPeriod               = 300 * time.Second
)

// DefaultPrometheusTimeout is timeout_seconds's default.
const DefaultPrometheusTimeout = 30 * time.Second

// Limits of the client. Prometheus refuses a range query of more than
// 11,000 points per series, so longer windows are fetched in chunks.
const (
	prometheusMaxPoints        = 11000
	prometheusMaxResponseBytes = 32 << 20
	prometheusConcurrency      = 8
)

// The placeholders of queries, Grafana's way: $name or ${name}.
const (
	PlaceholderQueueName    = "queue_name"
	PlaceholderConsumerName = "consumer_name"
	PlaceholderClusterName  = "cluster_name"
	PlaceholderStep         = "step"
)

var promPlaceholders = []string{PlaceholderQueueName, PlaceholderConsumerName, PlaceholderClusterName, PlaceholderStep}

// PrometheusSettings are the attributes a `rates "prometheus"` block
// accepts: a query per metric, then the settings.
func PrometheusSettings() []string {
	out := make([]string, 0, len(Metrics)+3)
	for _, m := range Metrics {
		out = append(out, string(m))
	}
	return append(out, PrometheusURL, PrometheusPeriod, PrometheusTimeout)
}

// PrometheusSettingError is a `rates "prometheus"` attribute's error;
// Attr names the attribute, for the diagnostic's range.
type PrometheusSettingError struct {
	Attr string
	Err  error
}

func (e *PrometheusSettingError) Error() string {
	return fmt.Sprintf("rates \"prometheus\" %s: %v", e.Attr, e.Err)
}

func (e *PrometheusSettingError) Unwrap() error { return e.Err }

// ValidatePrometheusSettings checks a top-level `rates "prometheus"`
// block's attributes: known names, valid values, queries whose
// placeholders are known and quoted. The error joins one
// *PrometheusSettingError per attribute, in name order.
func ValidatePrometheusSettings(settings map[string]string) error {
	_, err := promParseSettings(settings)
	return err
}

// PrometheusQueries checks a queue block's `rates "prometheus"`
// attributes, which may only be queries, and returns them as
// Target.Queries. Errors are as ValidatePrometheusSettings's.
func PrometheusQueries(attrs map[string]string) (map[Metric]string, error) {
	var errs []error
	out := map[Metric]string{}
	for _, name := range promSorted(attrs) {
		m := Metric(name)
		if !slices.Contains(Metrics, m) {
			errs = append(errs, &PrometheusSettingError{Attr: name, Err: fmt.Errorf("unknown attribute in a queue's block; accepted: %s", promMetricNames())})
			continue
		}
		if err := promCheckTemplate(attrs[name]); err != nil {
			errs = append(errs, &PrometheusSettingError{Attr: name, Err: err})
			continue
		}
		out[m] = attrs[name]
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func promMetricNames() string {
	names := make([]string, len(Metrics))
	for i, m := range Metrics {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

func promSorted(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// promSettings are a top-level block's attributes, parsed.
type promSettings struct {
	url     string
	queries map[Metric]string
	// period is period_seconds, 0 when unset (each exporter's default).
	period  time.Duration
	timeout time.Duration
}

func promParseSettings(settings map[string]string) (promSettings, error) {
	s := promSettings{queries: map[Metric]string{}, timeout: DefaultPrometheusTimeout}
	var errs []error
	fail := func(attr string, err error) { errs = append(errs, &PrometheusSettingError{Attr: attr, Err: err}) }
	seconds := func(attr, v string) time.Duration {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			fail(attr, fmt.Errorf("want a whole number of seconds above 0, got %q", v))
			return 0
		}
		return time.Duration(n) * time.Second
	}
	for _, name := range promSorted(settings) {
		v := settings[name]
		switch name {
		case PrometheusURL:
			if _, err := promParseURL(v); err != nil {
				fail(name, err)
			}
			s.url = v
		case PrometheusPeriod:
			s.period = seconds(name, v)
		case PrometheusTimeout:
			if d := seconds(name, v); d > 0 {
				s.timeout = d
			}
		default:
			m := Metric(name)
			if !slices.Contains(Metrics, m) {
				fail(name, fmt.Errorf("unknown attribute; accepted: %s", strings.Join(PrometheusSettings(), ", ")))
				continue
			}
			if err := promCheckTemplate(v); err != nil {
				fail(name, err)
				continue
			}
			s.queries[m] = v
		}
	}
	return s, errors.Join(errs...)
}

func promParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("not a URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("want an http:// or https:// URL, got %q", u.Redacted())
	}
	return u, nil
}

// Prometheus is a Source over the Prometheus HTTP API's range queries.
type Prometheus struct {
	base   *url.URL
	client *http.Client
	// queries are the block's, by metric, over the defaults.
	queries map[Metric]string
	// period is period_seconds, 0 for each exporter's default.
	period  time.Duration
	timeout time.Duration
	// Limits, which tests lower.
	maxPoints        int
	maxResponseBytes int64
}

// NewPrometheus is the source of a `rates "prometheus"` block: baseURL,
// when not "", overrides its url attribute; settings are its attributes;
// client nil is http.DefaultClient.
func NewPrometheus(baseURL string, settings map[string]string, client *http.Client) (*Prometheus, error) {
	s, err := promParseSettings(settings)
	if err != nil {
		return nil, err
	}
	if baseURL == "" {
		baseURL = s.url
	}
	if baseURL == "" {
		return nil, errors.New("prometheus: no URL: set url in the rates \"prometheus\" block")
	}
	u, err := promParseURL(baseURL)
	if err != nil {
		return nil, fmt.Errorf("prometheus URL: %w", err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	return &Prometheus{base: u, client: client, queries: s.queries, period: s.period, timeout: s.timeout,
		maxPoints: prometheusMaxPoints, maxResponseBytes: prometheusMaxResponseBytes}, nil
}

// Name is "prometheus URL", without the URL's password.
func (p *Prometheus) Name() string { return "prometheus " + p.base.Redacted() }

// Query is the PromQL p runs for a target's metric at a step: the
// queue's query, else the block's, else the default, placeholders filled.
func (p *Prometheus) Query(t Target, m Metric, step time.Duration) (string, error) {
	tmpl, ok := t.Queries[m]
	if !ok {
		tmpl, ok = p.queries[m]
	}
	if !ok {
		var err error
		if tmpl, err = p.defaultQuery(m, t.Consumer.Kind); err != nil {
			return "", err
		}
	}
	if step <= 0 || step%time.Millisecond != 0 {
		return "", fmt.Errorf("the step %v is not a positive whole number of milliseconds", step)
	}
	return promExpand(tmpl, func(name string) (string, error) {
		var v, what string
		switch name {
		case PlaceholderStep:
			return promDuration(step), nil
		case PlaceholderQueueName:
			v, what = t.QueueName, "the queue's name is not known: set queue_name in its queue block"
		case PlaceholderConsumerName:
			v, what = t.Consumer.Name, "the consumer's name is not known: set consumer_name in the queue's block"
		case PlaceholderClusterName:
			v, what = t.Consumer.Cluster, `the consumer's ECS cluster is not known: set consumer_name = "CLUSTER/SERVICE" in the queue's block`
		}
		if v == "" {
			return "", fmt.Errorf("$%s: %s", name, what)
		}
		return v, nil
	})
}

// promDuration is d as a PromQL duration in its largest whole unit:
// 5m, 90s, 1500ms.
func promDuration(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		unit string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.unit
		}
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

// promCheckTemplate checks a query's placeholders without values.
func promCheckTemplate(tmpl string) error {
	if strings.TrimSpace(tmpl) == "" {
		return errors.New("the query is empty")
	}
	_, err := promExpand(tmpl, func(string) (string, error) { return "x", nil })
	return err
}

// promExpand fills a query's placeholders. A name's value is escaped for
// the PromQL string it stands in; only $step, a duration, may stand
// outside one.
func promExpand(tmpl string, value func(name string) (string, error)) (string, error) {
	var b strings.Builder
	quote := rune(0) // the open string's quote, 0 outside strings
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		switch {
		case quote != 0 && quote != '`' && c == '\\' && i+1 < len(tmpl):
			b.WriteString(tmpl[i : i+2])
			i++
			continue
		case quote == 0 && c == '#':
			end := strings.IndexByte(tmpl[i:], '\n')
			if end < 0 {
				end = len(tmpl) - i
			}
			b.WriteString(tmpl[i : i+end])
			i += end - 1
			continue
		case quote == 0 && (c == '"' || c == '\'' || c == '`'):
			quote = rune(c)
		case quote != 0 && rune(c) == quote:
			quote = 0
		}
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		name, n := promPlaceholderAt(tmpl[i+1:])
		if n == 0 {
			b.WriteByte(c)
			continue
		}
		if !slices.Contains(promPlaceholders, name) {
			return "", fmt.Errorf("unknown placeholder $%s; accepted: $%s", name, strings.Join(promPlaceholders, ", $"))
		}
		v, err := value(name)
		if err != nil {
			return "", err
		}
		switch {
		case name == PlaceholderStep:
			b.WriteString(v)
		case quote == 0:
			return "", fmt.Errorf("$%s outside a quoted string: write \"$%s\"", name, name)
		case quote == '`':
			if strings.ContainsRune(v, '`') {
				return "", fmt.Errorf("$%s's value %q has a backquote: quote it with \" in the query", name, v)
			}
			b.WriteString(v)
		default:
			promEscape(&b, v, quote)
		}
		i += n
	}
	if quote != 0 {
		return "", fmt.Errorf("a string opened with %c is not closed", quote)
	}
	return b.String(), nil
}

// promPlaceholderAt reads a placeholder's name after its $: name or
// {name}; n is the bytes read, 0 when there is none.
func promPlaceholderAt(s string) (name string, n int) {
	braced := strings.HasPrefix(s, "{")
	if braced {
		s = s[1:]
	}
	end := 0
	for end < len(s) && (s[end] == '_' || s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z' || end > 0 && s[end] >= '0' && s[end] <= '9') {
		end++
	}
	if end == 0 {
		return "", 0
	}
	if braced {
		if end >= len(s) || s[end] != '}' {
			return "", 0
		}
		return s[:end], end + 2
	}
	return s[:end], end
}

// promEscape writes v escaped for a PromQL string opened with quote.
func promEscape(b *strings.Builder, v string, quote rune) {
	for _, r := range v {
		switch {
		case r == '\\' || r == quote:
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
}

// promSourceError is a failure of the source as a whole: Fetch returns
// it rather than a queue's error.
type promSourceError struct{ err error }

func (e *promSourceError) Error() string { return e.err.Error() }
func (e *promSourceError) Unwrap() error { return e.err }

// Fetch runs each target's query of each metric over w, a few at a time.
// A query's failure is its queue's Fetched.Err, naming the queue, the
// metric and the query; an unreachable or refusing server stops the fetch
// and is the error.
func (p *Prometheus) Fetch(ctx context.Context, targets []Target, w Window) ([]Fetched, error) {
	if w.Steps() <= 0 || w.Step%time.Millisecond != 0 {
		return nil, fmt.Errorf("%s: the window %v in steps of %v has no step", p.Name(), w.Length, w.Step)
	}
	type job struct {
		target int
		metric Metric
		query  string
	}
	// A queue's errors, by metric.
	type failure struct {
		metric Metric
		err    error
	}
	out := make([]Fetched, len(targets))
	errs := make([][]failure, len(targets))
	var jobs []job
	for i, t := range targets {
		out[i] = Fetched{Series: QueueSeries{}, Queries: map[Metric]string{}}
		for _, m := range Metrics {
			q, err := p.Query(t, m, w.Step)
			if err != nil {
				errs[i] = append(errs[i], failure{m, err})
				continue
			}
			out[i].Queries[m] = q
			jobs = append(jobs, job{i, m, q})
		}
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex
	next := make(chan job)
	var wg sync.WaitGroup
	for range min(prometheusConcurrency, len(jobs)) {
		wg.Go(func() {
			for j := range next {
				s, err := p.series(ctx, j.query, w)
				if se := (*promSourceError)(nil); errors.As(err, &se) {
					cancel(se)
					continue
				}
				mu.Lock()
				if err != nil {
					errs[j.target] = append(errs[j.target], failure{j.metric, fmt.Errorf("%w; the query: %s", err, j.query)})
				} else {
					out[j.target].Series[j.metric] = s
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	for i, t := range targets {
		if len(errs[i]) == 0 {
			continue
		}
		// In the metrics' order, whichever query ended first.
		slices.SortFunc(errs[i], func(a, b failure) int {
			return slices.Index(Metrics, a.metric) - slices.Index(Metrics, b.metric)
		})
		joined := make([]error, len(errs[i]))
		for k, f := range errs[i] {
			joined[k] = fmt.Errorf("%s (%s): %w", f.metric, describe(f.metric), f.err)
		}
		name := t.QueueName
		if name == "" {
			name = t.Queue
		}
		out[i].Err = fmt.Errorf("queue %q: %w", name, errors.Join(joined...))
	}
	return out, nil
}

// series runs a query over the window's steps, in chunks of at most
// maxPoints. Step i is evaluated a millisecond before its end: the range
// [$step] then holds the samples from the step's start on and not its
// end's, under Prometheus 2's closed ranges and 3's left-open ones alike,
// so a sample stamped at a step's boundary (cloudwatch_exporter stamps
// a period's start) counts in the step it opens.
func (p *Prometheus) series(ctx context.Context, query string, w Window) (Series, error) {
	n := w.Steps()
	out := NewSeries(w.Start(), w.Step, n)
	first := w.Start().Add(w.Step - time.Millisecond)
	found := false
	for c := 0; c < n; c += p.maxPoints {
		points := min(p.maxPoints, n-c)
		start := first.Add(time.Duration(c) * w.Step)
		got, err := p.queryRange(ctx, query, start, start.Add(time.Duration(points-1)*w.Step), w.Step)
		if err != nil {
			return Series{}, err
		}
		if len(got) > 0 {
			found = true
		}
		if err := promPlace(out.Values[c:c+points], got, start, w.Step); err != nil {
			return Series{}, err
		}
	}
	if !found {
		return Series{}, errors.New("the query returned no series: check its metric and label names")
	}
	return out, nil
}

// promPlace puts a chunk's samples at their steps. Several series are an
// error where they have a sample at the same step: a query switching
// series between steps (a branch of `or`) is still one value a step.
func promPlace(values []float64, result []promSeries, start time.Time, step time.Duration) error {
	seen := make([]bool, len(values))
	from, every := start.UnixMilli(), step.Milliseconds()
	for _, s := range result {
		err := promEachPoint(s.Values, func(ms int64, v float64) error {
			k := ms - from
			i := int(k / every)
			if k%every != 0 || k < 0 || i >= len(values) {
				return promMalformed("a sample at %s is not at a step of the query", time.UnixMilli(ms).UTC().Format(time.RFC3339Nano))
			}
			if seen[i] {
				return fmt.Errorf("returned %d series (%s): aggregate it, e.g. sum(...), or select one", len(result), promLabelSets(result))
			}
			seen[i] = true
			values[i] = v
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func promLabelSets(result []promSeries) string {
	const most = 3
	var sets []string
	for _, s := range result[:min(most, len(result))] {
		var pairs []string
		for _, k := range promSorted(s.Metric) {
			pairs = append(pairs, fmt.Sprintf("%s=%q", k, s.Metric[k]))
		}
		sets = append(sets, "{"+strings.Join(pairs, ", ")+"}")
	}
	if len(result) > most {
		sets = append(sets, "…")
	}
	return strings.Join(sets, ", ")
}

// promBodies are the buffers responses are read into, those of at most
// promPooledBodyBytes kept for the next.
var promBodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const promPooledBodyBytes = 1 << 20

// queryRange runs one /api/v1/query_range request.
func (p *Prometheus) queryRange(ctx context.Context, query string, start, end time.Time, step time.Duration) ([]promSeries, error) {
	endpoint := p.base.JoinPath("api", "v1", "query_range")
	form := url.Values{
		"query": {query},
		"start": {promTime(start)},
		"end":   {promTime(end)},
		"step":  {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)},
	}
	rctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, endpoint.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &promSourceError{fmt.Errorf("%s: %w", p.Name(), err)}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, &promSourceError{context.Cause(ctx)}
		case rctx.Err() != nil:
			return nil, fmt.Errorf("no answer within %v (timeout_seconds)", p.timeout)
		}
		return nil, &promSourceError{fmt.Errorf("%s: unreachable: %w", p.Name(), err)}
	}
	defer func() { _ = resp.Body.Close() }()
	// The body is read into a pooled buffer: it is parsed here, and what
	// outlives the call (the series' values, the error's text) is copied.
	buf, ok := promBodies.Get().(*bytes.Buffer)
	if !ok {
		buf = new(bytes.Buffer)
	}
	buf.Reset()
	defer func() {
		if buf.Cap() <= promPooledBodyBytes {
			promBodies.Put(buf)
		}
	}()
	_, err = buf.ReadFrom(io.LimitReader(resp.Body, p.maxResponseBytes+1))
	body := buf.Bytes()
	if err != nil {
		if rctx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("no answer within %v (timeout_seconds)", p.timeout)
		}
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	if int64(len(body)) > p.maxResponseBytes {
		return nil, fmt.Errorf("the response is over %d bytes: does the query select many series? aggregate it", p.maxResponseBytes)
	}
	var r promResponse
	jsonErr := promUnmarshal(body, &r)
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusProxyAuthRequired:
		// Every query would fail the same way: the URL or credentials.
		return nil, &promSourceError{fmt.Errorf("%s: %s%s", p.Name(), resp.Status, promDetail(r, jsonErr, body))}
	default:
		return nil, fmt.Errorf("%s%s", resp.Status, promDetail(r, jsonErr, body))
	}
	if jsonErr != nil {
		return nil, fmt.Errorf("malformed response: %w", jsonErr)
	}
	if r.Status != "success" {
		return nil, fmt.Errorf("status %q%s", r.Status, promDetail(r, nil, body))
	}
	if r.Data.ResultType != "matrix" {
		return nil, fmt.Errorf("malformed response: a %q result, not a range query's matrix", r.Data.ResultType)
	}
	return r.Data.Result, nil
}

// promDetail is Prometheus's error (errorType, error) after ": ", else the
// start of a body that is not its JSON.
func promDetail(r promResponse, jsonErr error, body []byte) string {
	if jsonErr == nil && r.Error != "" {
		return fmt.Sprintf(": %s: %s", r.ErrorType, r.Error)
	}
	text := strings.TrimSpace(string(body))
	if text == "" {
		return ""
	}
	const most = 200
	if len(text) > most {
		text = text[:most] + "…"
	}
	return ": " + text
}

func promTime(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', 3, 64)
}
