// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Limits and defaults of the CloudWatch source.
const (
	// CloudWatchMaxQueries is GetMetricData's limit of metric data
	// queries in one call.
	CloudWatchMaxQueries = 500
	// DefaultCloudWatchMaxAttempts is the attempts a GetMetricData call
	// gets before its throttling or server error is the source's: more
	// than the SDK's 3, as a thousand queues are a dozen calls, and
	// CloudWatch throttles GetMetricData per account and Region (50 calls
	// a second by default, fewer datapoints a second than a page holds).
	DefaultCloudWatchMaxAttempts = 10
	// DefaultCloudWatchMaxBackoff is the longest wait between attempts.
	DefaultCloudWatchMaxBackoff = 20 * time.Second
	// cloudWatchCallsInFlight is the GetMetricData calls made at once.
	cloudWatchCallsInFlight = 4
)

// CloudWatch is a Source over CloudWatch's GetMetricData: each queue's
// AWS/SQS metrics and its consumers in service, at the window's step as
// the period.
type CloudWatch struct {
	region   string
	endpoint string
	client   *cloudwatch.Client
}

// CloudWatchOption configures NewCloudWatch.
type CloudWatchOption func(*cloudWatchOptions)

type cloudWatchOptions struct {
	endpoint    string
	maxAttempts int
	maxBackoff  time.Duration
	attemptsSet bool
}

// CloudWatchEndpoint sends the calls to url instead of the Region's
// endpoint (a VPC endpoint, a test's server).
func CloudWatchEndpoint(url string) CloudWatchOption {
	return func(o *cloudWatchOptions) { o.endpoint = url }
}

// CloudWatchRetries sets the attempts a call gets when throttled or
// failing on the server's side, and the longest wait between two; zero
// keeps the default, or AWS_MAX_ATTEMPTS for the attempts.
func CloudWatchRetries(maxAttempts int, maxBackoff time.Duration) CloudWatchOption {
	return func(o *cloudWatchOptions) {
		if maxAttempts > 0 {
			o.maxAttempts, o.attemptsSet = maxAttempts, true
		}
		if maxBackoff > 0 {
			o.maxBackoff = maxBackoff
		}
	}
}

// NewCloudWatch is the CloudWatch source of region ("" for the one the
// environment or profile names), with the default credential chain. It
// fails when the chain finds no credentials, before any call.
func NewCloudWatch(ctx context.Context, region string, opts ...CloudWatchOption) (*CloudWatch, error) {
	o := cloudWatchOptions{maxAttempts: DefaultCloudWatchMaxAttempts, maxBackoff: DefaultCloudWatchMaxBackoff}
	for _, opt := range opts {
		opt(&o)
	}
	var load []func(*config.LoadOptions) error
	if region != "" {
		load = append(load, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, load...)
	if err != nil {
		return nil, fmt.Errorf("cloudwatch: reading the AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return nil, errors.New("cloudwatch: no AWS Region: name one, or set AWS_REGION")
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return nil, fmt.Errorf("cloudwatch %s: no AWS credentials: the default chain (environment, shared config and credentials files, SSO, web identity, container and instance roles) found none: %w", cfg.Region, err)
	}
	attempts := o.maxAttempts
	if !o.attemptsSet && cfg.RetryMaxAttempts > 0 {
		attempts = cfg.RetryMaxAttempts
	}
	client := cloudwatch.NewFromConfig(cfg, func(co *cloudwatch.Options) {
		if o.endpoint != "" {
			co.BaseEndpoint = aws.String(o.endpoint)
		}
		// The client-side retry quota would fail a long run's later
		// calls after enough throttling; the attempts bound it instead.
		co.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = attempts
			so.MaxBackoff = o.maxBackoff
			so.RateLimiter = ratelimit.None
		})
		// Else the client wraps the retryer in AWS_MAX_ATTEMPTS', which
		// attempts already took when no option set them.
		co.RetryMaxAttempts = 0
	})
	return &CloudWatch{region: cfg.Region, endpoint: o.endpoint, client: client}, nil
}

// Name is "cloudwatch REGION".
func (c *CloudWatch) Name() string { return "cloudwatch " + c.region }

// cwQuery is one metric data query: the target and metric it fills.
type cwQuery struct {
	target    int
	metric    Metric
	id        string
	namespace string
	name      string
	dims      []types.Dimension
	stat      string
	// perSecond divides a Sum by the period.
	perSecond bool
}

// describe is the query for the values' provenance.
func (q cwQuery) describe(period int32) string {
	dims := make([]string, len(q.dims))
	for i, d := range q.dims {
		dims[i] = aws.ToString(d.Name) + "=" + aws.ToString(d.Value)
	}
	s := fmt.Sprintf("%s %s %s %s over %d s", q.namespace, q.name, strings.Join(dims, " "), q.stat, period)
	if q.perSecond {
		s += fmt.Sprintf(", ÷ %d for per second", period)
	}
	return s
}

func dimension(name, value string) types.Dimension {
	return types.Dimension{Name: aws.String(name), Value: aws.String(value)}
}

// queueQueries are the AWS/SQS metrics of a queue.
var queueQueries = []struct {
	metric    Metric
	name      string
	stat      string
	perSecond bool
}{
	{Sent, "NumberOfMessagesSent", "Sum", true},
	{Deleted, "NumberOfMessagesDeleted", "Sum", true},
	{Received, "NumberOfMessagesReceived", "Sum", true},
	{Visible, "ApproximateNumberOfMessagesVisible", "Minimum", false},
	{OldestAge, "ApproximateAgeOfOldestMessage", "Maximum", false},
}

// consumerQuery is the metric of a fleet's consumers in service.
func consumerQuery(c Consumer) (cwQuery, error) {
	q := cwQuery{metric: Consumers}
	switch c.Kind {
	case KindASG:
		q.namespace, q.name, q.stat = "AWS/AutoScaling", "GroupInServiceInstances", "Average"
		q.dims = []types.Dimension{dimension("AutoScalingGroupName", c.Name)}
	case KindECS:
		q.namespace, q.name, q.stat = "ECS/ContainerInsights", "RunningTaskCount", "Average"
		if c.Cluster == "" {
			return q, fmt.Errorf("the cluster of %s is not known: ECS/ContainerInsights RunningTaskCount needs ClusterName and ServiceName", consumerName(c))
		}
		q.dims = []types.Dimension{dimension("ClusterName", c.Cluster), dimension("ServiceName", c.Name)}
	case KindLambda:
		// Maximum, as Lambda's documentation reads it: the peak of the
		// step. Where the consumers are saturated the function runs at
		// its concurrency cap and the peak is the average; elsewhere more
		// consumers make a smaller per-consumer rate, the side a
		// capacity plan can err on.
		q.namespace, q.name, q.stat = "AWS/Lambda", "ConcurrentExecutions", "Maximum"
		q.dims = []types.Dimension{dimension("FunctionName", c.Name)}
	case "":
		return q, errors.New("no consumer to count consumers in service of")
	default:
		return q, fmt.Errorf("no in-service metric for %s: CloudWatch counts consumers in service of an %s, %s or %s", consumerName(c), KindASG, KindECS, KindLambda)
	}
	if c.Name == "" {
		return q, fmt.Errorf("the name of %s is not known", consumerName(c))
	}
	return q, nil
}

func consumerName(c Consumer) string {
	if c.Addr != "" {
		return c.Addr
	}
	return c.Kind
}

// emptyConsumers says why a consumer metric has no data.
func emptyConsumers(q cwQuery, c Consumer) string {
	why := "the name is wrong, or the fleet did not run in the window"
	switch c.Kind {
	case KindASG:
		why = `the group's metrics collection is off: enabled_metrics = ["GroupInServiceInstances"] on ` + consumerName(c) + " turns it on"
	case KindECS:
		why = "Container Insights is off on cluster " + c.Cluster + `: setting { name = "containerInsights", value = "enabled" } on its aws_ecs_cluster turns it on`
	case KindLambda:
		why = "the function did not run in the window, or the name is wrong"
	}
	return fmt.Sprintf("%s %s %s has no data in the window: %s", q.namespace, q.name, dimsText(q.dims), why)
}

func dimsText(dims []types.Dimension) string {
	s := make([]string, len(dims))
	for i, d := range dims {
		s[i] = aws.ToString(d.Name) + "=" + aws.ToString(d.Value)
	}
	return strings.Join(s, " ")
}

// cloudWatchPeriod is the window's step as a CloudWatch period.
func cloudWatchPeriod(w Window) (int32, error) {
	if w.Step <= 0 || w.Step%time.Minute != 0 {
		return 0, fmt.Errorf("cloudwatch: the step must be a whole number of minutes (CloudWatch periods are multiples of 60 s), got %s", w.Step)
	}
	if w.Steps() == 0 {
		return 0, fmt.Errorf("cloudwatch: the window (%s) is shorter than one step (%s)", w.Length, w.Step)
	}
	if w.Step/time.Second > math.MaxInt32 {
		return 0, fmt.Errorf("cloudwatch: the step %s is too long for a period", w.Step)
	}
	return int32(w.Step / time.Second), nil
}

// Fetch fetches every target's series over w, ending at w.End rounded
// down to a whole step: CloudWatch's periods start at whole minutes.
func (c *CloudWatch) Fetch(ctx context.Context, targets []Target, w Window) ([]Fetched, error) {
	period, err := cloudWatchPeriod(w)
	if err != nil {
		return nil, err
	}
	n := w.Steps()
	end := w.End.Truncate(w.Step)
	start := end.Add(-time.Duration(n) * w.Step)

	out := make([]Fetched, len(targets))
	errs := make([][]error, len(targets))
	var queries []cwQuery
	for i, t := range targets {
		out[i] = Fetched{Series: QueueSeries{}, Queries: map[Metric]string{}}
		if t.QueueName == "" {
			errs[i] = append(errs[i], errors.New("the queue's name is not known"))
			continue
		}
		for _, qq := range queueQueries {
			queries = append(queries, cwQuery{target: i, metric: qq.metric, namespace: "AWS/SQS", name: qq.name,
				dims: []types.Dimension{dimension("QueueName", t.QueueName)}, stat: qq.stat, perSecond: qq.perSecond})
		}
		q, err := consumerQuery(t.Consumer)
		if err != nil {
			errs[i] = append(errs[i], err)
			continue
		}
		q.target = i
		queries = append(queries, q)
	}
	for i := range queries {
		// Ids start with a lowercase letter; letters, digits and _ follow.
		queries[i].id = fmt.Sprintf("q%d_%s", i, queries[i].metric)
		out[queries[i].target].Queries[queries[i].metric] = queries[i].describe(period)
	}

	results, err := c.getMetricData(ctx, queries, start, end, period)
	if err != nil {
		return nil, err
	}
	for _, q := range queries {
		r := results[q.id]
		s := NewSeries(start, w.Step, n)
		what := q.namespace + " " + q.name
		switch {
		case r == nil:
			errs[q.target] = append(errs[q.target], fmt.Errorf("%s: CloudWatch returned no result%s", what, r.notes()))
		case r.status == types.StatusCodeInternalError || r.status == types.StatusCodeForbidden || r.status == types.StatusCodePartialData:
			errs[q.target] = append(errs[q.target], fmt.Errorf("%s: CloudWatch returned %s%s", what, r.status, r.notes()))
		}
		if r != nil {
			for k, ts := range r.timestamps {
				i := int(ts.Sub(start) / w.Step)
				if ts.Before(start) || i >= n {
					continue
				}
				v := r.values[k]
				if q.perSecond {
					v /= float64(period)
				}
				s.Values[i] = v
			}
		}
		out[q.target].Series[q.metric] = s
	}
	for i, t := range targets {
		if len(out[i].Series) > 0 && allEmpty(out[i].Series) {
			errs[i] = append(errs[i], fmt.Errorf("no data in the window: is queue %q in %s?", t.QueueName, c.region))
		} else if s, ok := out[i].Series[Consumers]; ok && s.Samples() == 0 {
			q, _ := consumerQuery(t.Consumer)
			errs[i] = append(errs[i], errors.New(emptyConsumers(q, t.Consumer)))
		}
		if len(errs[i]) > 0 {
			out[i].Err = fmt.Errorf("queue %s: %w", queueName(t), errors.Join(errs[i]...))
		}
	}
	return out, nil
}

func allEmpty(s QueueSeries) bool {
	for _, v := range s {
		if v.Samples() > 0 {
			return false
		}
	}
	return true
}

func queueName(t Target) string {
	switch {
	case t.Queue != "" && t.QueueName != "":
		return fmt.Sprintf("%s (%s)", t.QueueName, t.Queue)
	case t.QueueName != "":
		return t.QueueName
	}
	return t.Queue
}

// cwResult is one query's datapoints, merged over the pages.
type cwResult struct {
	timestamps []time.Time
	values     []float64
	status     types.StatusCode
	messages   []string
}

func (r *cwResult) notes() string {
	if r == nil || len(r.messages) == 0 {
		return ""
	}
	return " (" + strings.Join(r.messages, "; ") + ")"
}

func messages(ms []types.MessageData) []string {
	var s []string
	for _, m := range ms {
		s = append(s, aws.ToString(m.Code)+": "+aws.ToString(m.Value))
	}
	return s
}

// getMetricData runs the queries in calls of at most CloudWatchMaxQueries,
// following each call's pages, and merges the results by query Id.
func (c *CloudWatch) getMetricData(ctx context.Context, queries []cwQuery, start, end time.Time, period int32) (map[string]*cwResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := slices.Collect(slices.Chunk(queries, CloudWatchMaxQueries))
	found := make([]map[string]*cwResult, len(batches))
	errs := make([]error, len(batches))
	sem := make(chan struct{}, cloudWatchCallsInFlight)
	var wg sync.WaitGroup
	for b, batch := range batches {
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[b] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			found[b], errs[b] = c.batch(ctx, batch, start, end, period)
			if errs[b] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	// The first error that is not another call's cancellation.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	all := map[string]*cwResult{}
	for _, f := range found {
		for id, r := range f {
			all[id] = r
		}
	}
	return all, nil
}

// batch is one GetMetricData call, all its pages followed.
func (c *CloudWatch) batch(ctx context.Context, queries []cwQuery, start, end time.Time, period int32) (map[string]*cwResult, error) {
	in := &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(start),
		EndTime:   aws.Time(end),
		ScanBy:    types.ScanByTimestampAscending,
	}
	for _, q := range queries {
		in.MetricDataQueries = append(in.MetricDataQueries, types.MetricDataQuery{
			Id: aws.String(q.id),
			MetricStat: &types.MetricStat{
				Metric: &types.Metric{Namespace: aws.String(q.namespace), MetricName: aws.String(q.name), Dimensions: q.dims},
				Period: aws.Int32(period),
				Stat:   aws.String(q.stat),
			},
			ReturnData: aws.Bool(true),
		})
	}
	res := map[string]*cwResult{}
	var callNotes []string
	seen := map[string]bool{}
	for {
		out, err := c.client.GetMetricData(ctx, in)
		if err != nil {
			return nil, c.callError(err)
		}
		callNotes = append(callNotes, messages(out.Messages)...)
		for _, r := range out.MetricDataResults {
			id := aws.ToString(r.Id)
			m := res[id]
			if m == nil {
				m = &cwResult{}
				res[id] = m
			}
			if len(r.Timestamps) != len(r.Values) {
				return nil, fmt.Errorf("%s: GetMetricData returned %d timestamps and %d values for query %s", c.Name(), len(r.Timestamps), len(r.Values), id)
			}
			m.timestamps = append(m.timestamps, r.Timestamps...)
			m.values = append(m.values, r.Values...)
			m.messages = append(m.messages, messages(r.Messages)...)
			// An error on any page stands; otherwise the last page's
			// status is the query's.
			if m.status != types.StatusCodeInternalError && m.status != types.StatusCodeForbidden {
				m.status = r.StatusCode
			}
		}
		next := aws.ToString(out.NextToken)
		if next == "" {
			break
		}
		if seen[next] {
			return nil, fmt.Errorf("%s: GetMetricData returned NextToken %q twice", c.Name(), next)
		}
		seen[next] = true
		in.NextToken = aws.String(next)
	}
	for _, q := range queries {
		if r := res[q.id]; r == nil && len(callNotes) > 0 {
			res[q.id] = &cwResult{status: types.StatusCodeInternalError, messages: callNotes}
		}
	}
	return res, nil
}

// callError is a failed call as the source's error.
func (c *CloudWatch) callError(err error) error {
	attempts := ""
	var maxAttempts *retry.MaxAttemptsError
	if errors.As(err, &maxAttempts) {
		attempts = fmt.Sprintf(" after %d attempts", maxAttempts.Attempt)
	}
	var api smithy.APIError
	var de *smithy.DeserializationError
	var send *smithyhttp.RequestSendError
	switch {
	case errors.As(err, &de):
		return fmt.Errorf("%s: GetMetricData's response could not be read%s: %w", c.Name(), attempts, err)
	case errors.As(err, &api):
		code := api.ErrorCode()
		switch {
		case retry.IsErrorThrottles(retry.DefaultThrottles).IsErrorThrottle(err).Bool():
			return fmt.Errorf("%s: GetMetricData still throttled%s (%s): %w", c.Name(), attempts, code, err)
		case strings.Contains(code, "AccessDenied") || strings.Contains(code, "Unauthorized") ||
			code == "InvalidClientTokenId" || code == "UnrecognizedClientException" || strings.HasPrefix(code, "ExpiredToken") || code == "SignatureDoesNotMatch":
			return fmt.Errorf("%s: GetMetricData refused (%s): the credentials need cloudwatch:GetMetricData: %w", c.Name(), code, err)
		}
		return fmt.Errorf("%s: GetMetricData failed%s (%s): %w", c.Name(), attempts, code, err)
	case errors.As(err, &send):
		where := "the " + c.region + " endpoint"
		if c.endpoint != "" {
			where = c.endpoint
		}
		return fmt.Errorf("%s: cannot reach CloudWatch at %s%s: %w", c.Name(), where, attempts, err)
	}
	return fmt.Errorf("%s: GetMetricData%s: %w", c.Name(), attempts, err)
}
