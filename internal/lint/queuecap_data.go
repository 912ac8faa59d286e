package lint

import (
	"math"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// queuecapInputs are each queuecap data source's arguments, as the
// provider's schema names them.
var queuecapInputs = map[string][]string{
	"queuecap_consumers":   {"arrival_rate", "per_consumer_rate", "max_backlog", "rto_seconds", "retry_rate", "avg_retries", "min_headroom"},
	"queuecap_drain":       {"backlog", "arrival_rate", "completion_rate", "consumers", "per_consumer_rate", "retry_rate", "avg_retries", "ttl_seconds", "arrival_forecast", "forecast_step_seconds"},
	"queuecap_sla_depth":   {"arrival_rate", "sla_seconds"},
	"queuecap_ttl_backlog": {"arrival_rate", "incident_seconds", "ttl_seconds", "degraded_completion_rate", "retry_rate", "avg_retries"},
	"queuecap_alarm_thresholds": {"arrival_rate", "sla_seconds", "per_consumer_rate", "rto_seconds", "ttl_seconds", "provisioning_lag_seconds", "period_seconds",
		"queue_name", "dead_letter_queue_name", "fleet"},
	"queuecap_retry_storm":   {"arrival_rate", "per_consumer_rate", "consumers", "backlog", "retries_per_timeout", "timeout_window_seconds", "max_seconds", "rto_seconds"},
	"queuecap_wait_time":     {"arrival_rate", "per_consumer_rate", "consumers", "percentile", "target_wait_seconds"},
	"queuecap_replay_budget": {"downstream_limit", "live_usage", "retry_usage", "calls_per_job", "safety_margin", "dlq_depth"},
}

// queuecapStringInputs are the arguments that are strings, not numbers.
var queuecapStringInputs = map[string]bool{"queue_name": true, "dead_letter_queue_name": true, "fleet": true}

func isQueuecapData(typ string) bool {
	_, ok := queuecapInputs[typ]
	return ok
}

// queuecapArgs evaluates a queuecap data source's arguments. ok is false
// when any argument that is set is not known: its results are then
// unknown, as they are to Terraform at plan. A null argument is unset.
func (in *instance) queuecapArgs(r *Resource) (args map[string]float64, text map[string]string, forecast []float64, ok bool) {
	names := queuecapInputs[r.Type]
	schema := &hcl.BodySchema{}
	for _, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n})
	}
	content, _, _ := r.Body.PartialContent(schema)
	if content == nil {
		return nil, nil, nil, false
	}
	args = make(map[string]float64, len(content.Attributes))
	text = map[string]string{}
	for name, attr := range content.Attributes {
		v := in.eval(attr.Expr)
		if plain, _ := v.UnmarkDeep(); plain.IsKnown() && plain.IsNull() {
			continue
		}
		switch {
		case name == "arrival_forecast":
			if forecast, ok = numberList(v); !ok {
				return nil, nil, nil, false
			}
		case queuecapStringInputs[name]:
			plain, _ := v.UnmarkDeep()
			if !plain.IsKnown() || plain.Type() != cty.String {
				return nil, nil, nil, false
			}
			text[name] = plain.AsString()
		default:
			f, known := number(v)
			if !known {
				return nil, nil, nil, false
			}
			args[name] = f
		}
	}
	return args, text, forecast, true
}

// queuecapData computes a queuecap data source's results with
// internal/capacity, exactly as the provider would at plan. It returns
// cty.NilVal when they cannot be known (an unknown argument) or the
// provider would reject the arguments.
func (in *instance) queuecapData(r *Resource) cty.Value {
	args, text, forecast, ok := in.queuecapArgs(r)
	if !ok {
		return cty.NilVal
	}
	// Keep the arguments: a fleet sized from this data source declares its
	// rates through them.
	var rates Rates
	for name, v := range args {
		if f := rates.field(name); f != nil {
			*f = knownNum(v, r.DefRange, in.absAddr(r.LocalAddr()))
		}
	}
	in.root.dataArgs[in.absAddr(r.LocalAddr())] = rates
	retries := capacity.Retries{Rate: args["retry_rate"], Average: args["avg_retries"]}
	out := map[string]cty.Value{}
	for name, v := range args {
		out[name] = cty.NumberFloatVal(v)
	}
	switch r.Type {
	case "queuecap_consumers":
		s, err := capacity.Size(capacity.SizingInput{ArrivalRate: args["arrival_rate"], PerConsumerRate: args["per_consumer_rate"],
			MaxBacklog: args["max_backlog"], RTOSeconds: args["rto_seconds"], Retries: retries, MinHeadroom: args["min_headroom"]})
		if err != nil {
			return cty.NilVal
		}
		out["effective_arrival_rate"] = cty.NumberFloatVal(s.EffectiveArrivalRate)
		out["steady_state_consumers"] = cty.NumberIntVal(s.SteadyStateConsumers)
		out["required_consumers"] = cty.NumberIntVal(s.RequiredConsumers)
		out["capacity"] = cty.NumberFloatVal(s.Capacity)
		out["surplus"] = cty.NumberFloatVal(s.Surplus)
		out["utilization"] = cty.NumberFloatVal(s.Utilization)
		out["headroom"] = optionalNumber(s.Headroom)
		out["overhead"] = optionalNumber(s.Overhead)
		out["drain_seconds"] = optionalNumber(s.DrainSeconds)
	case "queuecap_drain":
		completion, has := args["completion_rate"]
		if !has {
			c, err := capacity.FleetCapacity(int64(args["consumers"]), args["per_consumer_rate"])
			if err != nil {
				return cty.NilVal
			}
			completion = c
		}
		step := args["forecast_step_seconds"]
		if step == 0 {
			step = capacity.DefaultForecastStepSeconds
		}
		d, err := capacity.DrainBacklog(capacity.DrainInput{Backlog: args["backlog"], ArrivalRate: args["arrival_rate"],
			CompletionRate: completion, Retries: retries, TTLSeconds: args["ttl_seconds"], Forecast: forecast, ForecastStepSeconds: step})
		if err != nil {
			return cty.NilVal
		}
		out["completion_rate"] = cty.NumberFloatVal(d.CompletionRate)
		out["effective_arrival_rate"] = cty.NumberFloatVal(d.EffectiveArrivalRate)
		out["net_rate"] = cty.NumberFloatVal(d.NetRate)
		out["drains"] = cty.BoolVal(d.Drains)
		out["drain_seconds"] = optionalNumber(d.DrainSeconds)
		out["wait_seconds"] = optionalNumber(d.WaitSeconds)
		out["should_shed"] = optionalBool(d.ShouldShed)
		out["forecast_drains"] = optionalBool(d.ForecastDrains)
		out["forecast_drain_seconds"] = optionalNumber(d.ForecastDrainSeconds)
	case "queuecap_sla_depth":
		depth, err := capacity.SLAMaxDepth(args["arrival_rate"], args["sla_seconds"])
		if err != nil {
			return cty.NilVal
		}
		out["max_depth"] = cty.NumberFloatVal(depth)
	case "queuecap_ttl_backlog":
		t, err := capacity.BacklogWithTTL(capacity.TTLInput{ArrivalRate: args["arrival_rate"], IncidentSeconds: args["incident_seconds"],
			TTLSeconds: args["ttl_seconds"], DegradedCompletionRate: args["degraded_completion_rate"], Retries: retries})
		if err != nil {
			return cty.NilVal
		}
		out["effective_arrival_rate"] = cty.NumberFloatVal(t.EffectiveArrivalRate)
		out["unbounded_backlog"] = cty.NumberFloatVal(t.UnboundedBacklog)
		out["ttl_bounded_backlog"] = cty.NumberFloatVal(t.TTLBoundedBacklog)
		out["ttl_bound_applies"] = cty.BoolVal(t.TTLBoundApplies)
	case "queuecap_alarm_thresholds":
		lag, ok := args["provisioning_lag_seconds"]
		if !ok {
			lag = capacity.DefaultProvisioningLagSeconds
		}
		period, ok := args["period_seconds"]
		if !ok {
			period = capacity.DefaultPeriodSeconds
		}
		fleet := text["fleet"]
		if fleet == "" {
			fleet = capacity.FleetEC2
		}
		p, err := capacity.AlarmThresholds(capacity.AlarmInput{ArrivalRate: args["arrival_rate"], SLASeconds: args["sla_seconds"],
			PerConsumerRate: args["per_consumer_rate"], RTOSeconds: args["rto_seconds"], TTLSeconds: args["ttl_seconds"],
			ProvisioningLagSeconds: lag, PeriodSeconds: period, QueueName: text["queue_name"],
			DeadLetterQueueName: text["dead_letter_queue_name"], Fleet: fleet})
		if err != nil {
			return cty.NilVal
		}
		for name, v := range text {
			out[name] = cty.StringVal(v)
		}
		out["fleet"] = cty.StringVal(fleet)
		out["provisioning_lag_seconds"] = cty.NumberFloatVal(lag)
		out["period_seconds"] = cty.NumberFloatVal(period)
		out["max_depth"] = cty.NumberFloatVal(p.MaxDepth)
		out["oldest_message_age_seconds"] = cty.NumberFloatVal(p.OldestMessageAgeSeconds)
		out["sla_exceeds_ttl"] = optionalBool(p.SLAExceedsTTL)
		out["backlog_per_consumer_target"] = cty.NumberFloatVal(p.BacklogPerConsumerTarget)
		out["backlog_per_consumer_metric"] = cty.StringVal(p.ConsumerCountMetric)
		out["projected_depth_expression"] = cty.StringVal(p.ProjectedDepthExpression)
		out["projected_depth_threshold"] = cty.NumberFloatVal(p.ProjectedDepthThreshold)
		out["drain_seconds_expression"] = cty.StringVal(p.DrainSecondsExpression)
		out["drain_seconds_threshold"] = cty.NumberFloatVal(p.DrainSecondsThreshold)
		out["not_draining_expression"] = cty.StringVal(p.NotDrainingExpression)
		out["not_draining_depth_floor"] = cty.NumberFloatVal(p.NotDrainingDepthFloor)
		out["alarms"] = alarmsValue(p.Alarms)
	case "queuecap_retry_storm":
		in := capacity.StormInput{ArrivalRate: args["arrival_rate"], PerConsumerRate: args["per_consumer_rate"],
			Consumers: int64(args["consumers"]), Backlog: args["backlog"], RetriesPerTimeout: args["retries_per_timeout"],
			TimeoutWindowSeconds: orDefault(args, "timeout_window_seconds", capacity.DefaultTimeoutWindowSeconds),
			MaxSeconds:           int64(orDefault(args, "max_seconds", capacity.DefaultStormMaxSeconds))}
		st, err := capacity.SimulateStorm(in, nil)
		if err != nil {
			return cty.NilVal
		}
		minAll, err := capacity.MinConsumersToDrain(in, 0)
		if err != nil {
			return cty.NilVal
		}
		out["drains"] = cty.BoolVal(st.Drains)
		out["drain_seconds"] = optionalNumber(st.DrainSeconds)
		out["steps"] = cty.NumberIntVal(st.Steps)
		out["peak_depth"] = cty.NumberFloatVal(st.PeakDepth)
		out["final_depth"] = cty.NumberFloatVal(st.FinalDepth)
		out["peak_effective_arrival_rate"] = cty.NumberFloatVal(st.PeakEffectiveArrivalRate)
		out["min_consumers_to_drain"] = cty.NumberIntVal(minAll)
		out["min_consumers_to_drain_within_rto"] = cty.NullVal(cty.Number)
		if rto, ok := args["rto_seconds"]; ok {
			minRTO, err := capacity.MinConsumersToDrain(in, int64(rto))
			if err != nil {
				return cty.NilVal
			}
			out["min_consumers_to_drain_within_rto"] = cty.NumberIntVal(minRTO)
		}
	case "queuecap_wait_time":
		w, err := capacity.WaitTime(capacity.WaitInput{ArrivalRate: args["arrival_rate"], PerConsumerRate: args["per_consumer_rate"],
			Consumers: int64(args["consumers"]), Percentile: orDefault(args, "percentile", capacity.DefaultWaitPercentile),
			TargetWaitSeconds: args["target_wait_seconds"]})
		if err != nil {
			return cty.NilVal
		}
		out["utilization"] = cty.NumberFloatVal(w.Utilization)
		out["stable"] = cty.BoolVal(w.Stable)
		out["probability_of_wait"] = optionalNumber(w.ProbabilityOfWait)
		out["mean_wait_seconds"] = optionalNumber(w.MeanWaitSeconds)
		out["percentile_wait_seconds"] = optionalNumber(w.PercentileWaitSeconds)
		out["min_consumers_for_target"] = cty.NullVal(cty.Number)
		if w.MinConsumersForTarget != nil {
			out["min_consumers_for_target"] = cty.NumberIntVal(*w.MinConsumersForTarget)
		}
	case "queuecap_replay_budget":
		var depth *float64
		if d, ok := args["dlq_depth"]; ok {
			depth = &d
		}
		rb, err := capacity.ReplayBudget(capacity.ReplayInput{DownstreamLimit: args["downstream_limit"], LiveUsage: args["live_usage"],
			RetryUsage: args["retry_usage"], CallsPerJob: orDefault(args, "calls_per_job", capacity.DefaultCallsPerJob),
			SafetyMargin: orDefault(args, "safety_margin", capacity.DefaultReplaySafetyMargin), DLQDepth: depth})
		if err != nil {
			return cty.NilVal
		}
		out["replay_calls_per_second"] = cty.NumberFloatVal(rb.CallsPerSecond)
		out["replay_jobs_per_second"] = cty.NumberFloatVal(rb.JobsPerSecond)
		out["replay_seconds"] = optionalNumber(rb.ReplaySeconds)
	}
	return cty.ObjectVal(out)
}

// orDefault is an argument, or the provider's default when it is unset.
func orDefault(args map[string]float64, name string, def float64) float64 {
	if v, ok := args[name]; ok {
		return v
	}
	return def
}

func optionalNumber(p *float64) cty.Value {
	if p == nil {
		return cty.NullVal(cty.Number)
	}
	return cty.NumberFloatVal(*p)
}

func optionalBool(p *bool) cty.Value {
	if p == nil {
		return cty.NullVal(cty.Bool)
	}
	return cty.BoolVal(*p)
}

// number reads a known, finite number, converting strings as Terraform does
// ("400" from a tag is 400). Marks are ignored.
func number(v cty.Value) (float64, bool) {
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() || v.IsNull() {
		return 0, false
	}
	if v.Type() == cty.String {
		v = cty.StringVal(strings.TrimSpace(v.AsString()))
	}
	n, err := convert.Convert(v, cty.Number)
	if err != nil || n.IsNull() {
		return 0, false
	}
	f, _ := n.AsBigFloat().Float64()
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

func numberList(v cty.Value) ([]float64, bool) {
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() || v.IsNull() || !v.CanIterateElements() {
		return nil, false
	}
	var out []float64
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		f, ok := number(e)
		if !ok {
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}

// The object types of queuecap_alarm_thresholds' alarms, as the provider
// declares them.
var (
	metricType      = cty.Object(map[string]cty.Type{"metric_name": cty.String, "namespace": cty.String, "stat": cty.String, "period": cty.Number, "dimensions": cty.Map(cty.String)})
	metricQueryType = cty.Object(map[string]cty.Type{"id": cty.String, "expression": cty.String, "label": cty.String, "return_data": cty.Bool, "metric": metricType})
	alarmType       = cty.Object(map[string]cty.Type{
		"name": cty.String, "description": cty.String, "comparison_operator": cty.String, "threshold": cty.Number,
		"evaluation_periods": cty.Number, "datapoints_to_alarm": cty.Number, "metric_name": cty.String, "namespace": cty.String,
		"statistic": cty.String, "period": cty.Number, "dimensions": cty.Map(cty.String), "metric_queries": cty.List(metricQueryType),
	})
)

// alarmsValue is the alarms list as Terraform sees it, so expressions
// over it (for_each, indexing) evaluate in the linter too.
func alarmsValue(alarms []capacity.Alarm) cty.Value {
	values := make([]cty.Value, len(alarms))
	for i, a := range alarms {
		queries := make([]cty.Value, len(a.Queries))
		for j, q := range a.Queries {
			expr := cty.NullVal(cty.String)
			if q.Expression != "" {
				expr = cty.StringVal(q.Expression)
			}
			queries[j] = cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(q.ID), "expression": expr,
				"label": cty.StringVal(q.Label), "return_data": cty.BoolVal(q.ReturnData), "metric": metricValue(q.Metric)})
		}
		list := cty.ListValEmpty(metricQueryType)
		if len(queries) > 0 {
			list = cty.ListVal(queries)
		}
		fields := map[string]cty.Value{
			"name": cty.StringVal(a.Name), "description": cty.StringVal(a.Description), "comparison_operator": cty.StringVal(a.ComparisonOperator),
			"threshold": cty.NumberFloatVal(a.Threshold), "evaluation_periods": cty.NumberIntVal(a.EvaluationPeriods),
			"datapoints_to_alarm": cty.NumberIntVal(a.DatapointsToAlarm), "metric_name": cty.NullVal(cty.String),
			"namespace": cty.NullVal(cty.String), "statistic": cty.NullVal(cty.String), "period": cty.NullVal(cty.Number),
			"dimensions": cty.NullVal(cty.Map(cty.String)), "metric_queries": list,
		}
		if m := a.Metric; m != nil {
			fields["metric_name"], fields["namespace"], fields["statistic"] = cty.StringVal(m.Name), cty.StringVal(m.Namespace), cty.StringVal(m.Stat)
			fields["period"], fields["dimensions"] = cty.NumberIntVal(m.Period), dimensionsValue(m.Dimensions)
		}
		values[i] = cty.ObjectVal(fields)
	}
	if len(values) == 0 {
		return cty.ListValEmpty(alarmType)
	}
	return cty.ListVal(values)
}

func metricValue(m *capacity.Metric) cty.Value {
	if m == nil {
		return cty.NullVal(metricType)
	}
	return cty.ObjectVal(map[string]cty.Value{"metric_name": cty.StringVal(m.Name), "namespace": cty.StringVal(m.Namespace),
		"stat": cty.StringVal(m.Stat), "period": cty.NumberIntVal(m.Period), "dimensions": dimensionsValue(m.Dimensions)})
}

func dimensionsValue(dims map[string]string) cty.Value {
	if len(dims) == 0 {
		return cty.MapValEmpty(cty.String)
	}
	vals := make(map[string]cty.Value, len(dims))
	for k, v := range dims {
		vals[k] = cty.StringVal(v)
	}
	return cty.MapVal(vals)
}
