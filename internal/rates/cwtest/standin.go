// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package cwtest is a stand-in for CloudWatch's GetMetricData, for tests:
// loopback only, never AWS.
package cwtest

// A stand-in for CloudWatch's GetMetricData, on loopback, speaking the
// protocol the SDK's client uses: Smithy RPC v2 CBOR (the service is
// awsQueryCompatible, so errors also carry X-Amzn-Query-Error). Its
// decoding and encoding are held to the SDK's own serializer and
// deserializer by TestStandIn*. It serves per-minute datapoints, as
// CloudWatch stores standard-resolution metrics, aggregated by the
// query's period and statistic.

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go/encoding/cbor"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

const (
	standInPath = "/service/GraniteServiceVersion20100801/operation/GetMetricData"
	// standInMaxDatapoints is CloudWatch's page: 100,800 datapoints.
	standInMaxDatapoints = 100800
)

// Call is one request as the stand-in decoded it.
type Call struct {
	Header http.Header
	Input  *cloudwatch.GetMetricDataInput
}

type StandIn struct {
	t   testing.TB
	srv *httptest.Server

	mu sync.Mutex
	// raw holds one datapoint a minute from each series' start, by
	// MetricKey; NaN is a minute without one.
	raw   map[string][]float64
	start map[string]time.Time
	// cache holds each query's datapoints, by query and request.
	cache map[string][]datapoint
	calls []Call

	// Faults: the next Throttles calls are throttled, the next
	// ServerErrors fail with a 503, the next Malformed get a body that is
	// no CBOR; every call is refused when Denied.
	Throttles, ServerErrors, Malformed int
	Denied                             bool
	// Stuck pages give the same NextToken again; Uneven results have a
	// value fewer than timestamps.
	Stuck, Uneven bool
	// PageDatapoints is a page's size, as CloudWatch's 100,800 when 0.
	PageDatapoints int
	// status gives a metric's results, by MetricKey, a status
	// (PartialData that stays, InternalError, Forbidden) and a message;
	// dropped metrics get no result, and a call's messages say why.
	Status   map[string]types.StatusCode
	Dropped  map[string]bool
	Messages []types.MessageData
}

func New(t testing.TB) *StandIn {
	s := &StandIn{t: t, raw: map[string][]float64{}, start: map[string]time.Time{}, cache: map[string][]datapoint{},
		Status: map[string]types.StatusCode{}, Dropped: map[string]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve)) // 127.0.0.1
	t.Cleanup(s.srv.Close)
	return s
}

func (s *StandIn) URL() string { return s.srv.URL }

func (s *StandIn) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func MetricKey(namespace, name string, dims []types.Dimension) string {
	d := make([]string, len(dims))
	for i, x := range dims {
		d[i] = aws.ToString(x.Name) + "=" + aws.ToString(x.Value)
	}
	sort.Strings(d)
	return namespace + " " + name + " " + strings.Join(d, ",")
}

func Dim(name, value string) types.Dimension {
	return types.Dimension{Name: aws.String(name), Value: aws.String(value)}
}

// put stores per-minute datapoints from start, before the first call
// (the calls' datapoints are kept).
func (s *StandIn) Put(namespace, name string, dims []types.Dimension, start time.Time, perMinute []float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := MetricKey(namespace, name, dims)
	s.raw[k], s.start[k] = perMinute, start
}

// AddQueue serves a scenario's true series as CloudWatch would have
// them: each metric one datapoint a minute (the counts as the minute's
// sum), the consumers under the metric of c's kind.
func (s *StandIn) AddQueue(queue string, c rates.Consumer, sc synth.Scenario) {
	m := sc.Series(time.Minute)
	count := func(x rates.Series) []float64 {
		v := slices.Clone(x.Values)
		for i := range v {
			v[i] *= 60
		}
		return v
	}
	q := []types.Dimension{Dim("QueueName", queue)}
	s.Put("AWS/SQS", "NumberOfMessagesSent", q, sc.Start, count(m[rates.Sent]))
	s.Put("AWS/SQS", "NumberOfMessagesDeleted", q, sc.Start, count(m[rates.Deleted]))
	s.Put("AWS/SQS", "NumberOfMessagesReceived", q, sc.Start, count(m[rates.Received]))
	s.Put("AWS/SQS", "ApproximateNumberOfMessagesVisible", q, sc.Start, m[rates.Visible].Values)
	s.Put("AWS/SQS", "ApproximateAgeOfOldestMessage", q, sc.Start, m[rates.OldestAge].Values)
	switch c.Kind {
	case rates.KindASG:
		s.Put("AWS/AutoScaling", "GroupInServiceInstances", []types.Dimension{Dim("AutoScalingGroupName", c.Name)}, sc.Start, m[rates.Consumers].Values)
	case rates.KindECS:
		s.Put("ECS/ContainerInsights", "RunningTaskCount", []types.Dimension{Dim("ClusterName", c.Cluster), Dim("ServiceName", c.Name)}, sc.Start, m[rates.Consumers].Values)
	case rates.KindLambda:
		s.Put("AWS/Lambda", "ConcurrentExecutions", []types.Dimension{Dim("FunctionName", c.Name)}, sc.Start, m[rates.Consumers].Values)
	}
}

func (s *StandIn) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != standInPath ||
		r.Header.Get("Smithy-Protocol") != "rpc-v2-cbor" || r.Header.Get("Content-Type") != "application/cbor" {
		s.t.Errorf("stand-in: unexpected %s %s (Smithy-Protocol %q, Content-Type %q)", r.Method, r.URL.Path, r.Header.Get("Smithy-Protocol"), r.Header.Get("Content-Type"))
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("stand-in: %v", err)
		return
	}
	in, err := decodeInput(body)
	if err != nil {
		s.t.Errorf("stand-in: the SDK's request does not decode: %v", err)
		writeError(w, http.StatusBadRequest, "InvalidParameterValue", err.Error())
		return
	}
	if err := validate(in); err != nil {
		s.t.Errorf("stand-in: %v", err)
		writeError(w, http.StatusBadRequest, "InvalidParameterValue", err.Error())
		return
	}

	s.mu.Lock()
	s.calls = append(s.calls, Call{Header: r.Header.Clone(), Input: in})
	var fault string
	switch {
	case s.Denied:
		fault = "Denied"
	case s.Throttles > 0:
		s.Throttles--
		fault = "throttle"
	case s.ServerErrors > 0:
		s.ServerErrors--
		fault = "server"
	case s.Malformed > 0:
		s.Malformed--
		fault = "Malformed"
	}
	var out *cloudwatch.GetMetricDataOutput
	if fault == "" {
		out, err = s.page(in)
	}
	s.mu.Unlock()

	switch {
	case fault == "Denied":
		writeError(w, http.StatusBadRequest, "AccessDenied", "User: arn:aws:iam::123456789012:user/standin is not authorized to perform: cloudwatch:GetMetricData")
	case fault == "throttle":
		writeError(w, http.StatusBadRequest, "Throttling", "Rate exceeded")
	case fault == "server":
		writeError(w, http.StatusServiceUnavailable, "ServiceUnavailable", "Service is unavailable")
	case fault == "Malformed":
		w.Header().Set("Content-Type", "application/cbor")
		w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
		_, _ = w.Write([]byte{0xbf, 0x71, 'M', 'e', 't', 'r', 'i', 'c'}) // a map whose first key breaks off
	case err != nil:
		writeError(w, http.StatusBadRequest, "InvalidNextToken", err.Error())
	default:
		w.Header().Set("Content-Type", "application/cbor")
		w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
		_, _ = w.Write(cbor.Encode(encodeOutput(out)))
	}
}

// writeError answers as an awsQueryCompatible RPC v2 CBOR service: the
// error's type in the body, its query code and fault in the header.
func writeError(w http.ResponseWriter, status int, code, message string) {
	fault := "Sender"
	if status >= 500 {
		fault = "Receiver"
	}
	w.Header().Set("Content-Type", "application/cbor")
	w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
	w.Header().Set("X-Amzn-Query-Error", code+";"+fault)
	w.WriteHeader(status)
	_, _ = w.Write(cbor.Encode(cbor.Map{
		"__type":  cbor.String("com.amazon.coral.availability#" + code + "Exception"),
		"message": cbor.String(message),
	}))
}

var validID = regexp.MustCompile(`^[a-z][a-zA-Z0-9_]*$`)

// validate holds a request to GetMetricData's documented limits.
func validate(in *cloudwatch.GetMetricDataInput) error {
	if n := len(in.MetricDataQueries); n == 0 || n > 500 {
		return fmt.Errorf("%d queries: GetMetricData takes 1 to 500", n)
	}
	if in.StartTime == nil || in.EndTime == nil || !in.StartTime.Before(*in.EndTime) {
		return fmt.Errorf("StartTime %v must be before EndTime %v", in.StartTime, in.EndTime)
	}
	seen := map[string]bool{}
	for _, q := range in.MetricDataQueries {
		id := aws.ToString(q.Id)
		if !validID.MatchString(id) || len(id) > 255 || seen[id] {
			return fmt.Errorf("query Id %q: not unique, or not a lowercase letter then letters, digits and _", id)
		}
		seen[id] = true
		if q.MetricStat == nil || q.MetricStat.Metric == nil || q.MetricStat.Period == nil || aws.ToString(q.MetricStat.Stat) == "" {
			return fmt.Errorf("query %s: a MetricStat with a metric, a period and a statistic", id)
		}
		if p := *q.MetricStat.Period; p <= 0 || p%60 != 0 {
			return fmt.Errorf("query %s: period %d is not a multiple of 60", id, p)
		}
	}
	return nil
}

type datapoint struct {
	t time.Time
	v float64
}

// series is one query's datapoints over the request, in the order asked.
func (s *StandIn) series(in *cloudwatch.GetMetricDataInput, q types.MetricDataQuery) []datapoint {
	m := q.MetricStat.Metric
	k := MetricKey(aws.ToString(m.Namespace), aws.ToString(m.MetricName), m.Dimensions)
	period := time.Duration(*q.MetricStat.Period) * time.Second
	stat := aws.ToString(q.MetricStat.Stat)
	ck := fmt.Sprint(k, period, stat, *in.StartTime, *in.EndTime, in.ScanBy)
	if dps, ok := s.cache[ck]; ok {
		return dps
	}
	raw, from := s.raw[k], s.start[k]
	switch stat {
	case "Sum", "Average", "Minimum", "Maximum", "SampleCount":
	default:
		s.t.Errorf("stand-in: statistic %q not served", stat)
		return nil
	}
	var out []datapoint
	// CloudWatch rounds StartTime down to the minute.
	for t := in.StartTime.Truncate(time.Minute); t.Before(*in.EndTime); t = t.Add(period) {
		n, sum, lo, hi := 0, 0.0, math.Inf(1), math.Inf(-1)
		for u := t; u.Before(t.Add(period)); u = u.Add(time.Minute) {
			i := int(u.Sub(from) / time.Minute)
			if u.Before(from) || i >= len(raw) || math.IsNaN(raw[i]) {
				continue
			}
			n, sum, lo, hi = n+1, sum+raw[i], min(lo, raw[i]), max(hi, raw[i])
		}
		if n == 0 {
			continue
		}
		v := sum
		switch stat {
		case "Average":
			v /= float64(n)
		case "Minimum":
			v = lo
		case "Maximum":
			v = hi
		case "SampleCount":
			v = float64(n)
		}
		out = append(out, datapoint{t, v})
	}
	if in.ScanBy != types.ScanByTimestampAscending {
		slices.Reverse(out) // TimestampDescending, the default
	}
	s.cache[ck] = out
	return out
}

// page is the page of the response at in.NextToken: the queries'
// datapoints in order, the page's share of them per query, PartialData
// for a query with more on a later page.
func (s *StandIn) page(in *cloudwatch.GetMetricDataInput) (*cloudwatch.GetMetricDataOutput, error) {
	offset := 0
	if tok := aws.ToString(in.NextToken); tok != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(tok, "after-"))
		if err != nil || !strings.HasPrefix(tok, "after-") {
			return nil, fmt.Errorf("the NextToken %q is not one the stand-in gave", tok)
		}
		offset = n
	}
	size := standInMaxDatapoints
	if s.PageDatapoints > 0 {
		size = s.PageDatapoints
	}
	if in.MaxDatapoints != nil {
		size = min(size, int(*in.MaxDatapoints))
	}
	out := &cloudwatch.GetMetricDataOutput{}
	at := 0 // datapoints before the current query
	for _, q := range in.MetricDataQueries {
		dps := s.series(in, q)
		lo, hi := max(offset-at, 0), min(offset+size-at, len(dps))
		at += len(dps)
		first := len(dps) == 0 && offset == 0
		m := q.MetricStat.Metric
		name := MetricKey(aws.ToString(m.Namespace), aws.ToString(m.MetricName), m.Dimensions)
		if lo >= hi && !first || s.Dropped[name] {
			continue
		}
		r := types.MetricDataResult{Id: q.Id, Label: q.MetricStat.Metric.MetricName, StatusCode: types.StatusCodeComplete,
			Timestamps: []time.Time{}, Values: []float64{}}
		for _, dp := range dps[lo:max(lo, hi)] {
			r.Timestamps = append(r.Timestamps, dp.t)
			r.Values = append(r.Values, dp.v)
		}
		if hi < len(dps) {
			r.StatusCode = types.StatusCodePartialData
		}
		if s.Uneven && len(r.Values) > 0 {
			r.Values = r.Values[1:]
		}
		if st, ok := s.Status[name]; ok {
			r.StatusCode = st
			r.Messages = []types.MessageData{{Code: aws.String(string(st)), Value: aws.String("the stand-in says " + string(st))}}
		}
		out.MetricDataResults = append(out.MetricDataResults, r)
	}
	if len(s.Dropped) > 0 {
		out.Messages = s.Messages
	}
	if offset+size < at {
		out.NextToken = aws.String("after-" + strconv.Itoa(offset+size))
	}
	if s.Stuck {
		out.NextToken = aws.String("after-0")
	}
	return out, nil
}

// decodeInput reads a GetMetricData request's CBOR body into the SDK's
// input type; a key it does not know is an error.
func decodeInput(body []byte) (*cloudwatch.GetMetricDataInput, error) {
	v, err := cbor.Decode(body)
	if err != nil {
		return nil, err
	}
	in := &cloudwatch.GetMetricDataInput{}
	err = fields(v, "GetMetricDataInput", func(k string, v cbor.Value) error {
		var err error
		switch k {
		case "StartTime":
			in.StartTime, err = timestamp(v)
		case "EndTime":
			in.EndTime, err = timestamp(v)
		case "NextToken":
			in.NextToken, err = str(v)
		case "ScanBy":
			var s *string
			s, err = str(v)
			in.ScanBy = types.ScanBy(aws.ToString(s))
		case "MaxDatapoints":
			in.MaxDatapoints, err = int32Of(v)
		case "LabelOptions":
			in.LabelOptions = &types.LabelOptions{}
			err = fields(v, k, func(k string, v cbor.Value) error {
				if k != "Timezone" {
					return fmt.Errorf("LabelOptions: unknown key %q", k)
				}
				in.LabelOptions.Timezone, err = str(v)
				return err
			})
		case "MetricDataQueries":
			err = list(v, k, func(v cbor.Value) error {
				q, err := decodeQuery(v)
				in.MetricDataQueries = append(in.MetricDataQueries, q)
				return err
			})
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		return err
	})
	return in, err
}

func decodeQuery(v cbor.Value) (types.MetricDataQuery, error) {
	var q types.MetricDataQuery
	err := fields(v, "MetricDataQuery", func(k string, v cbor.Value) error {
		var err error
		switch k {
		case "Id":
			q.Id, err = str(v)
		case "AccountId":
			q.AccountId, err = str(v)
		case "Expression":
			q.Expression, err = str(v)
		case "Label":
			q.Label, err = str(v)
		case "Period":
			q.Period, err = int32Of(v)
		case "ReturnData":
			b, ok := v.(cbor.Bool)
			if !ok {
				return fmt.Errorf("ReturnData: %T, not a bool", v)
			}
			q.ReturnData = aws.Bool(bool(b))
		case "MetricStat":
			q.MetricStat = &types.MetricStat{}
			err = fields(v, k, func(k string, v cbor.Value) error {
				var err error
				switch k {
				case "Period":
					q.MetricStat.Period, err = int32Of(v)
				case "Stat":
					q.MetricStat.Stat, err = str(v)
				case "Unit":
					var s *string
					s, err = str(v)
					q.MetricStat.Unit = types.StandardUnit(aws.ToString(s))
				case "Metric":
					q.MetricStat.Metric = &types.Metric{}
					err = decodeMetric(v, q.MetricStat.Metric)
				default:
					err = fmt.Errorf("MetricStat: unknown key %q", k)
				}
				return err
			})
		default:
			err = fmt.Errorf("MetricDataQuery: unknown key %q", k)
		}
		return err
	})
	return q, err
}

func decodeMetric(v cbor.Value, m *types.Metric) error {
	return fields(v, "Metric", func(k string, v cbor.Value) error {
		var err error
		switch k {
		case "Namespace":
			m.Namespace, err = str(v)
		case "MetricName":
			m.MetricName, err = str(v)
		case "Dimensions":
			err = list(v, k, func(v cbor.Value) error {
				var d types.Dimension
				err := fields(v, "Dimension", func(k string, v cbor.Value) error {
					var err error
					switch k {
					case "Name":
						d.Name, err = str(v)
					case "Value":
						d.Value, err = str(v)
					default:
						err = fmt.Errorf("a Dimension with an unknown key %q", k)
					}
					return err
				})
				m.Dimensions = append(m.Dimensions, d)
				return err
			})
		default:
			err = fmt.Errorf("a Metric with an unknown key %q", k)
		}
		return err
	})
}

// fields calls f for each key of a map, in a stable order.
func fields(v cbor.Value, what string, f func(string, cbor.Value) error) error {
	m, ok := v.(cbor.Map)
	if !ok {
		return fmt.Errorf("%s: %T, not a map", what, v)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := f(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

func list(v cbor.Value, what string, f func(cbor.Value) error) error {
	l, ok := v.(cbor.List)
	if !ok {
		return fmt.Errorf("%s: %T, not a list", what, v)
	}
	for _, x := range l {
		if err := f(x); err != nil {
			return err
		}
	}
	return nil
}

func str(v cbor.Value) (*string, error) {
	s, ok := v.(cbor.String)
	if !ok {
		return nil, fmt.Errorf("%T, not a text string", v)
	}
	return aws.String(string(s)), nil
}

func int32Of(v cbor.Value) (*int32, error) {
	n, err := cbor.AsInt32(v)
	if err != nil {
		return nil, err
	}
	return aws.Int32(n), nil
}

// timestamp is RPC v2 CBOR's: tag 1 around epoch seconds.
func timestamp(v cbor.Value) (*time.Time, error) {
	tag, ok := v.(*cbor.Tag)
	if !ok || tag.ID != 1 {
		return nil, fmt.Errorf("timestamp: %T, not tag 1", v)
	}
	var secs float64
	switch x := tag.Value.(type) {
	case cbor.Float64:
		secs = float64(x)
	case cbor.Uint:
		secs = float64(x)
	default:
		return nil, fmt.Errorf("timestamp: tag 1 around %T", tag.Value)
	}
	t := time.UnixMilli(int64(math.Round(secs * 1e3))).UTC()
	return &t, nil
}

// encodeOutput is a GetMetricData response body: absent members left
// out, timestamps as tag 1 around float epoch seconds, doubles as float64.
func encodeOutput(out *cloudwatch.GetMetricDataOutput) cbor.Value {
	m := cbor.Map{}
	if out.Messages != nil {
		m["Messages"] = encodeMessages(out.Messages)
	}
	if out.MetricDataResults != nil {
		results := cbor.List{}
		for _, r := range out.MetricDataResults {
			e := cbor.Map{}
			if r.Id != nil {
				e["Id"] = cbor.String(*r.Id)
			}
			if r.Label != nil {
				e["Label"] = cbor.String(*r.Label)
			}
			if r.Messages != nil {
				e["Messages"] = encodeMessages(r.Messages)
			}
			if r.StatusCode != "" {
				e["StatusCode"] = cbor.String(r.StatusCode)
			}
			if r.Timestamps != nil {
				ts := cbor.List{}
				for _, t := range r.Timestamps {
					ts = append(ts, &cbor.Tag{ID: 1, Value: cbor.Float64(float64(t.UnixMilli()) / 1e3)})
				}
				e["Timestamps"] = ts
			}
			if r.Values != nil {
				vs := cbor.List{}
				for _, v := range r.Values {
					vs = append(vs, cbor.Float64(v))
				}
				e["Values"] = vs
			}
			results = append(results, e)
		}
		m["MetricDataResults"] = results
	}
	if out.NextToken != nil {
		m["NextToken"] = cbor.String(*out.NextToken)
	}
	return m
}

func encodeMessages(ms []types.MessageData) cbor.List {
	l := cbor.List{}
	for _, x := range ms {
		e := cbor.Map{}
		if x.Code != nil {
			e["Code"] = cbor.String(*x.Code)
		}
		if x.Value != nil {
			e["Value"] = cbor.String(*x.Value)
		}
		l = append(l, e)
	}
	return l
}

// Throttle has the next n calls throttled, between calls of a running
// source.
func (s *StandIn) Throttle(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Throttles = n
}

// Close stops the stand-in before the test ends: its URL no longer
// answers.
func (s *StandIn) Close() { s.srv.Close() }

// Offline keeps the SDK's default chain away from real AWS: static keys
// in the environment, no shared files, no instance metadata.
func Offline(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID":                      "AKIDSTANDIN",
		"AWS_SECRET_ACCESS_KEY":                  "standin-secret",
		"AWS_SESSION_TOKEN":                      "",
		"AWS_EC2_METADATA_DISABLED":              "true",
		"AWS_CONFIG_FILE":                        filepath.Join(dir, "config"),
		"AWS_SHARED_CREDENTIALS_FILE":            filepath.Join(dir, "credentials"),
		"AWS_PROFILE":                            "",
		"AWS_DEFAULT_PROFILE":                    "",
		"AWS_REGION":                             "",
		"AWS_DEFAULT_REGION":                     "",
		"AWS_MAX_ATTEMPTS":                       "",
		"AWS_RETRY_MODE":                         "",
		"AWS_ENDPOINT_URL":                       "",
		"AWS_ENDPOINT_URL_CLOUDWATCH":            "",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI":     "",
		"AWS_WEB_IDENTITY_TOKEN_FILE":            "",
		"AWS_ROLE_ARN":                           "",
	} {
		t.Setenv(k, v)
	}
}
