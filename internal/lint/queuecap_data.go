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
}

func isQueuecapData(typ string) bool {
	_, ok := queuecapInputs[typ]
	return ok
}

// queuecapArgs evaluates a queuecap data source's arguments. ok is false
// when any argument that is set is not a known number: its results are then
// unknown, as they are to Terraform at plan.
func (in *instance) queuecapArgs(r *Resource) (args map[string]float64, forecast []float64, ok bool) {
	names := queuecapInputs[r.Type]
	schema := &hcl.BodySchema{}
	for _, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n})
	}
	content, _, _ := r.Body.PartialContent(schema)
	if content == nil {
		return nil, nil, false
	}
	args = make(map[string]float64, len(content.Attributes))
	for name, attr := range content.Attributes {
		v := in.eval(attr.Expr)
		if name == "arrival_forecast" {
			if forecast, ok = numberList(v); !ok {
				return nil, nil, false
			}
			continue
		}
		f, known := number(v)
		if !known {
			return nil, nil, false
		}
		args[name] = f
	}
	return args, forecast, true
}

// queuecapData computes a queuecap data source's results with
// internal/capacity, exactly as the provider would at plan. It returns
// cty.NilVal when they cannot be known (an unknown argument) or the
// provider would reject the arguments.
func (in *instance) queuecapData(r *Resource) cty.Value {
	args, forecast, ok := in.queuecapArgs(r)
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
			step = 300
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
	}
	return cty.ObjectVal(out)
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
