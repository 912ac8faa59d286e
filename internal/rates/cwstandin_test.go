// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

// A stand-in for CloudWatch's GetMetricData, on loopback, speaking the
// protocol the SDK's client uses: Smithy RPC v2 CBOR (the service is
// awsQueryCompatible, so errors also carry X-Amzn-Query-Error). Its
// decoding and encoding are held to the SDK's own serializer and
// deserializer by TestStandIn*. It serves per-minute datapoints, as
// CloudWatch stores standard-resolution metrics, aggregated by the
// query's period and statistic.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/schemas"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/encoding/cbor"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/aws/smithy-go/transport/http/protocol/rpcv2"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

const (
	standInPath = "/service/GraniteServiceVersion20100801/operation/GetMetricData"
	// standInMaxDatapoints is CloudWatch's page: 100,800 datapoints.
	standInMaxDatapoints = 100800
)

// standInCall is one request as the stand-in decoded it.
type standInCall struct {
	Header http.Header
	Input  *cloudwatch.GetMetricDataInput
}

type standIn struct {
	t   testing.TB
	srv *httptest.Server

	mu sync.Mutex
	// raw holds one datapoint a minute from each series' start, by
	// metricKey; NaN is a minute without one.
	raw   map[string][]float64
	start map[string]time.Time
	// cache holds each query's datapoints, by query and request.
	cache map[string][]datapoint
	calls []standInCall

	// Faults: the next throttles calls are throttled, the next
	// serverErrors fail with a 503, the next malformed get a body that is
	// no CBOR; every call is refused when denied.
	throttles, serverErrors, malformed int
	denied                             bool
	// stuck pages give the same NextToken again; uneven results have a
	// value fewer than timestamps.
	stuck, uneven bool
	// pageDatapoints is a page's size, as CloudWatch's 100,800 when 0.
	pageDatapoints int
	// status gives a metric's results, by metricKey, a status
	// (PartialData that stays, InternalError, Forbidden) and a message;
	// dropped metrics get no result, and a call's messages say why.
	status   map[string]types.StatusCode
	dropped  map[string]bool
	messages []types.MessageData
}

func newStandIn(t testing.TB) *standIn {
	s := &standIn{t: t, raw: map[string][]float64{}, start: map[string]time.Time{}, cache: map[string][]datapoint{},
		status: map[string]types.StatusCode{}, dropped: map[string]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve)) // 127.0.0.1
	t.Cleanup(s.srv.Close)
	return s
}

func (s *standIn) URL() string { return s.srv.URL }

func (s *standIn) Calls() []standInCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func metricKey(namespace, name string, dims []types.Dimension) string {
	d := make([]string, len(dims))
	for i, x := range dims {
		d[i] = aws.ToString(x.Name) + "=" + aws.ToString(x.Value)
	}
	sort.Strings(d)
	return namespace + " " + name + " " + strings.Join(d, ",")
}

func dim(name, value string) types.Dimension {
	return types.Dimension{Name: aws.String(name), Value: aws.String(value)}
}

// put stores per-minute datapoints from start, before the first call
// (the calls' datapoints are kept).
func (s *standIn) put(namespace, name string, dims []types.Dimension, start time.Time, perMinute []float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := metricKey(namespace, name, dims)
	s.raw[k], s.start[k] = perMinute, start
}

// addQueue serves a scenario's true series as CloudWatch would have
// them: each metric one datapoint a minute (the counts as the minute's
// sum), the consumers under the metric of c's kind.
func (s *standIn) addQueue(queue string, c rates.Consumer, sc synth.Scenario) {
	m := sc.Series(time.Minute)
	count := func(x rates.Series) []float64 {
		v := slices.Clone(x.Values)
		for i := range v {
			v[i] *= 60
		}
		return v
	}
	q := []types.Dimension{dim("QueueName", queue)}
	s.put("AWS/SQS", "NumberOfMessagesSent", q, sc.Start, count(m[rates.Sent]))
	s.put("AWS/SQS", "NumberOfMessagesDeleted", q, sc.Start, count(m[rates.Deleted]))
	s.put("AWS/SQS", "NumberOfMessagesReceived", q, sc.Start, count(m[rates.Received]))
	s.put("AWS/SQS", "ApproximateNumberOfMessagesVisible", q, sc.Start, m[rates.Visible].Values)
	s.put("AWS/SQS", "ApproximateAgeOfOldestMessage", q, sc.Start, m[rates.OldestAge].Values)
	switch c.Kind {
	case rates.KindASG:
		s.put("AWS/AutoScaling", "GroupInServiceInstances", []types.Dimension{dim("AutoScalingGroupName", c.Name)}, sc.Start, m[rates.Consumers].Values)
	case rates.KindECS:
		s.put("ECS/ContainerInsights", "RunningTaskCount", []types.Dimension{dim("ClusterName", c.Cluster), dim("ServiceName", c.Name)}, sc.Start, m[rates.Consumers].Values)
	case rates.KindLambda:
		s.put("AWS/Lambda", "ConcurrentExecutions", []types.Dimension{dim("FunctionName", c.Name)}, sc.Start, m[rates.Consumers].Values)
	}
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
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
	s.calls = append(s.calls, standInCall{Header: r.Header.Clone(), Input: in})
	var fault string
	switch {
	case s.denied:
		fault = "denied"
	case s.throttles > 0:
		s.throttles--
		fault = "throttle"
	case s.serverErrors > 0:
		s.serverErrors--
		fault = "server"
	case s.malformed > 0:
		s.malformed--
		fault = "malformed"
	}
	var out *cloudwatch.GetMetricDataOutput
	if fault == "" {
		out, err = s.page(in)
	}
	s.mu.Unlock()

	switch {
	case fault == "denied":
		writeError(w, http.StatusBadRequest, "AccessDenied", "User: arn:aws:iam::123456789012:user/standin is not authorized to perform: cloudwatch:GetMetricData")
	case fault == "throttle":
		writeError(w, http.StatusBadRequest, "Throttling", "Rate exceeded")
	case fault == "server":
		writeError(w, http.StatusServiceUnavailable, "ServiceUnavailable", "Service is unavailable")
	case fault == "malformed":
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
func (s *standIn) series(in *cloudwatch.GetMetricDataInput, q types.MetricDataQuery) []datapoint {
	m := q.MetricStat.Metric
	k := metricKey(aws.ToString(m.Namespace), aws.ToString(m.MetricName), m.Dimensions)
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
func (s *standIn) page(in *cloudwatch.GetMetricDataInput) (*cloudwatch.GetMetricDataOutput, error) {
	offset := 0
	if tok := aws.ToString(in.NextToken); tok != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(tok, "after-"))
		if err != nil || !strings.HasPrefix(tok, "after-") {
			return nil, fmt.Errorf("the NextToken %q is not one the stand-in gave", tok)
		}
		offset = n
	}
	size := standInMaxDatapoints
	if s.pageDatapoints > 0 {
		size = s.pageDatapoints
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
		name := metricKey(aws.ToString(m.Namespace), aws.ToString(m.MetricName), m.Dimensions)
		if lo >= hi && !first || s.dropped[name] {
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
		if s.uneven && len(r.Values) > 0 {
			r.Values = r.Values[1:]
		}
		if st, ok := s.status[name]; ok {
			r.StatusCode = st
			r.Messages = []types.MessageData{{Code: aws.String(string(st)), Value: aws.String("the stand-in says " + string(st))}}
		}
		out.MetricDataResults = append(out.MetricDataResults, r)
	}
	if len(s.dropped) > 0 {
		out.Messages = s.messages
	}
	if offset+size < at {
		out.NextToken = aws.String("after-" + strconv.Itoa(offset+size))
	}
	if s.stuck {
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
						err = fmt.Errorf("Dimension: unknown key %q", k)
					}
					return err
				})
				m.Dimensions = append(m.Dimensions, d)
				return err
			})
		default:
			err = fmt.Errorf("Metric: unknown key %q", k)
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

// TestStandInDecodesTheSDKsRequest sends a request through the SDK's
// client, serializer and signer, and reads back, from what the stand-in
// decoded, every field the client was given.
func TestStandInDecodesTheSDKsRequest(t *testing.T) {
	s := newStandIn(t)
	client := cloudwatch.New(cloudwatch.Options{
		Region:       "eu-west-1",
		BaseEndpoint: aws.String(s.URL()),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDSTANDIN", SecretAccessKey: "standin-secret"}, nil
		}),
	})
	given := &cloudwatch.GetMetricDataInput{
		StartTime:     aws.Time(start),
		EndTime:       aws.Time(start.Add(90 * time.Minute)),
		NextToken:     aws.String("after-0"),
		ScanBy:        types.ScanByTimestampAscending,
		MaxDatapoints: aws.Int32(1234),
		LabelOptions:  &types.LabelOptions{Timezone: aws.String("+0130")},
		MetricDataQueries: []types.MetricDataQuery{
			{
				Id: aws.String("q0_sent"),
				MetricStat: &types.MetricStat{
					Metric: &types.Metric{Namespace: aws.String("AWS/SQS"), MetricName: aws.String("NumberOfMessagesSent"),
						Dimensions: []types.Dimension{dim("QueueName", "orders")}},
					Period: aws.Int32(300), Stat: aws.String("Sum"), Unit: types.StandardUnitCount,
				},
				Label:      aws.String("sent"),
				ReturnData: aws.Bool(true),
			},
			{
				Id:        aws.String("q1_consumers"),
				AccountId: aws.String("123456789012"),
				MetricStat: &types.MetricStat{
					Metric: &types.Metric{Namespace: aws.String("ECS/ContainerInsights"), MetricName: aws.String("RunningTaskCount"),
						Dimensions: []types.Dimension{dim("ClusterName", "main"), dim("ServiceName", "workers")}},
					Period: aws.Int32(3600), Stat: aws.String("Average"),
				},
				ReturnData: aws.Bool(false),
			},
		},
	}
	if _, err := client.GetMetricData(context.Background(), given); err != nil {
		t.Fatal(err)
	}
	calls := s.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	if got := calls[0].Input; !reflect.DeepEqual(got, given) {
		t.Errorf("the stand-in decoded\n%s\nthe client was given\n%s", dump(got), dump(given))
	}
	if a := calls[0].Header.Get("Authorization"); !strings.Contains(a, "Credential=AKIDSTANDIN/") || !strings.Contains(a, "/eu-west-1/monitoring/aws4_request") {
		t.Errorf("Authorization %q: not signed for monitoring in eu-west-1 with the given key", a)
	}
	if q := calls[0].Header.Get("X-Amzn-Query-Mode"); q != "true" {
		t.Errorf("X-Amzn-Query-Mode %q, want true (the service is awsQueryCompatible)", q)
	}
}

func dump(in *cloudwatch.GetMetricDataInput) string {
	b, _ := json.MarshalIndent(in, "", "  ")
	return string(b)
}

// TestStandInEncodesAsTheSDK holds the stand-in's responses to the SDK:
// its body is read back whole by the SDK's deserializer, and decodes to
// the same CBOR as the SDK's own serializer writes for the same output;
// its throttling is an error the SDK's retryer takes for throttling.
func TestStandInEncodesAsTheSDK(t *testing.T) {
	ctx := context.Background()
	protocol := rpcv2.NewCBOR(schemas.GraniteServiceVersion20100801)
	op := smithy.NewOperationSchema(schemas.GetMetricData, schemas.GetMetricDataInput, schemas.GetMetricDataOutput)
	want := &cloudwatch.GetMetricDataOutput{
		Messages: []types.MessageData{{Code: aws.String("MaxMetricsExceeded"), Value: aws.String("Maximum number of allowed metrics exceeded")}},
		MetricDataResults: []types.MetricDataResult{
			{
				Id: aws.String("q0_sent"), Label: aws.String("NumberOfMessagesSent"), StatusCode: types.StatusCodePartialData,
				Timestamps: []time.Time{start, start.Add(5*time.Minute + 1500*time.Millisecond)},
				Values:     []float64{1.5, 0},
				Messages:   []types.MessageData{{Code: aws.String("Note"), Value: aws.String("more on the next page")}},
			},
			{Id: aws.String("q1_visible"), StatusCode: types.StatusCodeComplete, Timestamps: []time.Time{}, Values: []float64{}},
		},
		NextToken: aws.String("after-2"),
	}
	body := cbor.Encode(encodeOutput(want))

	var got cloudwatch.GetMetricDataOutput
	resp := &smithyhttp.Response{Response: &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body))}}
	if err := protocol.DeserializeResponse(ctx, op, cloudwatch.TypeRegistry, resp, &got); err != nil {
		t.Fatalf("the SDK's deserializer: %v", err)
	}
	for i := range got.MetricDataResults {
		for j, ts := range got.MetricDataResults[i].Timestamps {
			got.MetricDataResults[i].Timestamps[j] = ts.UTC()
		}
	}
	if !reflect.DeepEqual(&got, want) {
		t.Errorf("the SDK read the stand-in's body as\n%+v\nwant\n%+v", got, *want)
	}

	// The SDK's serializer writes an output like any other shape.
	req, ok := smithyhttp.NewStackRequest().(*smithyhttp.Request)
	if !ok {
		t.Fatal("smithyhttp.NewStackRequest is no *smithyhttp.Request")
	}
	if err := protocol.SerializeRequest(ctx, smithy.NewOperationSchema(schemas.GetMetricData, schemas.GetMetricDataOutput, nil), want, req); err != nil {
		t.Fatal(err)
	}
	sdkBody, err := io.ReadAll(req.GetStream())
	if err != nil {
		t.Fatal(err)
	}
	sdkTree, err := cbor.Decode(sdkBody)
	if err != nil {
		t.Fatal(err)
	}
	ourTree, err := cbor.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ourTree, sdkTree) {
		t.Errorf("the stand-in encodes\n%#v\nthe SDK\n%#v", ourTree, sdkTree)
	}

	rec := httptest.NewRecorder()
	writeError(rec, http.StatusBadRequest, "Throttling", "Rate exceeded")
	throttled := func() *smithyhttp.Response {
		return &smithyhttp.Response{Response: &http.Response{StatusCode: rec.Code, Header: rec.Header().Clone(),
			Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes()))}}
	}
	err = protocol.DeserializeResponse(ctx, op, cloudwatch.TypeRegistry, throttled(), &got)
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "Throttling" || api.ErrorFault() != smithy.FaultClient {
		t.Fatalf("the SDK read the stand-in's throttling as %#v, want a client fault with code Throttling", err)
	}
	if !retry.IsErrorThrottles(retry.DefaultThrottles).IsErrorThrottle(err).Bool() {
		t.Errorf("the SDK's retryer does not take %v for throttling", err)
	}
	// Without the query header, the body's type is the code.
	resp = throttled()
	resp.Header.Del("X-Amzn-Query-Error")
	err = protocol.DeserializeResponse(ctx, op, cloudwatch.TypeRegistry, resp, &got)
	if !errors.As(err, &api) || api.ErrorCode() != "ThrottlingException" || !retry.IsErrorThrottles(retry.DefaultThrottles).IsErrorThrottle(err).Bool() {
		t.Errorf("the SDK read the body of the stand-in's throttling as %#v, want ThrottlingException", err)
	}
}

// TestStandInServes reads a queue's metrics from the stand-in with the
// SDK's own paginator, newest first and 100 datapoints a page, and gets
// the scenario's series back, aggregated by period and statistic.
func TestStandInServes(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: 6 * time.Hour, PerConsumerRate: 20, InitialBacklog: 1e5,
		Arrival:   []synth.Segment{synth.At(0, 100)},
		Consumers: []synth.Segment{synth.At(0, 3), synth.At(time.Hour+90*time.Second, 9)}}
	s := newStandIn(t)
	s.addQueue("orders", rates.Consumer{Kind: rates.KindASG, Name: "workers"}, sc)
	client := cloudwatch.New(cloudwatch.Options{
		Region:       "eu-west-1",
		BaseEndpoint: aws.String(s.URL()),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDSTANDIN", SecretAccessKey: "standin-secret"}, nil
		}),
	})
	step := 10 * time.Minute
	query := func(id, namespace, name, stat string, dims ...types.Dimension) types.MetricDataQuery {
		return types.MetricDataQuery{Id: aws.String(id), MetricStat: &types.MetricStat{
			Metric: &types.Metric{Namespace: aws.String(namespace), MetricName: aws.String(name), Dimensions: dims},
			Period: aws.Int32(int32(step / time.Second)), Stat: aws.String(stat)}}
	}
	q := dim("QueueName", "orders")
	in := &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(start), EndTime: aws.Time(start.Add(sc.Duration)),
		MetricDataQueries: []types.MetricDataQuery{
			query("sent", "AWS/SQS", "NumberOfMessagesSent", "Sum", q),
			query("visible", "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Minimum", q),
			query("age", "AWS/SQS", "ApproximateAgeOfOldestMessage", "Maximum", q),
			query("consumers", "AWS/AutoScaling", "GroupInServiceInstances", "Average", dim("AutoScalingGroupName", "workers")),
		},
	}
	got := map[string]map[time.Time]float64{}
	pages := 0
	for p := cloudwatch.NewGetMetricDataPaginator(client, in, func(o *cloudwatch.GetMetricDataPaginatorOptions) { o.Limit = 100 }); p.HasMorePages(); pages++ {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.MetricDataResults {
			if got[*r.Id] == nil {
				got[*r.Id] = map[time.Time]float64{}
			}
			for i, ts := range r.Timestamps {
				if i > 0 && !ts.Before(r.Timestamps[i-1]) {
					t.Fatalf("%s: %s after %s, want newest first", *r.Id, ts, r.Timestamps[i-1])
				}
				got[*r.Id][ts.UTC()] = r.Values[i]
			}
		}
	}
	if pages != 2 { // 4 × 36 datapoints, 100 a page
		t.Errorf("%d pages, want 2", pages)
	}
	for _, c := range s.Calls() {
		if aws.ToInt32(c.Input.MaxDatapoints) != 100 {
			t.Errorf("MaxDatapoints %v, want 100", c.Input.MaxDatapoints)
		}
	}
	want := sc.Series(step)
	for id, m := range map[string]rates.Metric{"sent": rates.Sent, "visible": rates.Visible, "age": rates.OldestAge, "consumers": rates.Consumers} {
		scale := 1.0
		if m == rates.Sent {
			scale = step.Seconds() // a Sum is the step's count
		}
		if len(got[id]) != want[m].Len() {
			t.Errorf("%s: %d datapoints, want %d", id, len(got[id]), want[m].Len())
		}
		for i, v := range want[m].Values {
			ts := start.Add(time.Duration(i) * step)
			if g, ok := got[id][ts]; !ok || math.Abs(g-v*scale) > 1e-9*math.Max(1, v*scale) {
				t.Fatalf("%s at %s: %v, want %v", id, ts, g, v*scale)
			}
		}
	}
}
