// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package cwtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/schemas"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/encoding/cbor"
	"github.com/aws/smithy-go/transport/http/protocol/rpcv2"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

var start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// TestStandInDecodesTheSDKsRequest sends a request through the SDK's
// client, serializer and signer, and reads back, from what the stand-in
// decoded, every field the client was given.
func TestStandInDecodesTheSDKsRequest(t *testing.T) {
	s := New(t)
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
						Dimensions: []types.Dimension{Dim("QueueName", "orders")}},
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
						Dimensions: []types.Dimension{Dim("ClusterName", "main"), Dim("ServiceName", "workers")}},
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
	s := New(t)
	s.AddQueue("orders", rates.Consumer{Kind: rates.KindASG, Name: "workers"}, sc)
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
	q := Dim("QueueName", "orders")
	in := &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(start), EndTime: aws.Time(start.Add(sc.Duration)),
		MetricDataQueries: []types.MetricDataQuery{
			query("sent", "AWS/SQS", "NumberOfMessagesSent", "Sum", q),
			query("visible", "AWS/SQS", "ApproximateNumberOfMessagesVisible", "Minimum", q),
			query("age", "AWS/SQS", "ApproximateAgeOfOldestMessage", "Maximum", q),
			query("consumers", "AWS/AutoScaling", "GroupInServiceInstances", "Average", Dim("AutoScalingGroupName", "workers")),
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
