package lint

import (
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// link resolves every reference collected during the walk. References are
// followed through value origins first (they survive modules, locals and
// string interpolation), then through known names.
func (b *builder) link() {
	queuesByName := map[string][]*Queue{}
	for _, q := range b.model.Queues {
		if q.Name != "" {
			queuesByName[q.Name] = append(queuesByName[q.Name], q)
		}
	}
	fleetsByName := map[string]*Fleet{}
	for _, f := range b.model.Fleets {
		if f.Name != "" {
			fleetsByName[string(f.Kind)+"/"+f.Name] = f
		}
	}
	queuesOf := func(v cty.Value) []*Queue {
		var out []*Queue
		for _, o := range origins(v) {
			if q := b.queues[o]; q != nil && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
		if len(out) == 0 {
			name := knownString(v)
			if strings.HasPrefix(name, "arn:") {
				name = name[strings.LastIndex(name, ":")+1:] // arn:aws:sqs:region:account:name
			}
			out = queuesByName[name]
		}
		return out
	}

	for _, rd := range b.redrives {
		for _, o := range origins(rd.policy) {
			if q := b.queues[o]; q != nil && o != rd.inline {
				q.IsDeadLetter = true
			}
		}
		if rd.inline == "" {
			for _, q := range queuesOf(rd.queue) {
				q.HasRedrive, q.RedriveUnknown = true, false
			}
		}
	}

	for _, t := range sortedValues(b.targets) {
		f := b.fleetFor(t.resourceID, fleetsByName)
		if f == nil || f.Kind != FleetECS {
			continue
		}
		if t.maxCap.Set {
			f.MaxSize, f.SizeAttr = t.maxCap, "max_capacity"
			f.Rates.merge(b.dataSourceRates(t.maxCap))
		}
		f.Rates.merge(t.rates)
		if f.QueueAddr == "" {
			f.QueueAddr = t.queue
		}
	}

	for _, p := range b.model.Policies {
		if f := b.fleetFor(b.policyRefs[p], fleetsByName); f != nil {
			p.Fleet = f
			f.Policies = append(f.Policies, p)
		}
	}

	for _, a := range b.model.Alarms {
		for _, o := range origins(b.alarmActs[a]) {
			if p := b.policies[o]; p != nil && !slices.Contains(a.Policies, p) {
				a.Policies = append(a.Policies, p)
				p.Alarms = append(p.Alarms, a)
			}
		}
		for _, d := range b.alarmDims[a] {
			for _, q := range queuesOf(d) {
				if !slices.Contains(a.Queues, q) {
					a.Queues = append(a.Queues, q)
					q.Alarms = append(q.Alarms, a)
				}
			}
		}
	}

	consume := func(q *Queue, f *Fleet) {
		if q != nil && f != nil && !slices.Contains(q.Consumers, f) {
			q.Consumers = append(q.Consumers, f)
			f.Queues = append(f.Queues, q)
		}
	}

	for _, m := range b.model.Mappings {
		refs := b.mappingRefs[m]
		if qs := queuesOf(refs[0]); len(qs) == 1 {
			m.Queue = qs[0]
		}
		m.Function = b.fleetFor(refs[1], fleetsByName)
		if m.Function == nil {
			m.Function = fleetsByName[string(FleetLambda)+"/"+lambdaFunctionName(knownString(refs[1]))]
		}
		if m.Function != nil && m.Function.Kind == FleetLambda {
			if m.MaximumConcurrency.Set {
				m.Function.MaxSize, m.Function.SizeAttr = m.MaximumConcurrency, "maximum_concurrency"
				m.Function.Rates.merge(b.dataSourceRates(m.MaximumConcurrency))
			}
			consume(m.Queue, m.Function)
		}
	}

	for _, f := range b.model.Fleets {
		if f.QueueAddr != "" {
			consume(b.queues[f.QueueAddr], f)
		}
	}
	for addr, qc := range b.config.Queues {
		q := b.queues[addr]
		if q == nil {
			continue
		}
		q.Rates.merge(qc.Rates)
		b.configMatched[addr] = qc.Consumer == "" || b.fleets[qc.Consumer] != nil
		if qc.Consumer != "" {
			consume(q, b.fleets[qc.Consumer])
		}
	}
	// A fleet scaled out by an alarm on a queue, or tracking a metric of
	// that queue, consumes it.
	for _, p := range b.model.Policies {
		if p.Fleet == nil || !p.ScaleOut {
			continue
		}
		for _, a := range p.Alarms {
			if scalesOut(a) {
				for _, q := range a.Queues {
					consume(q, p.Fleet)
				}
			}
		}
		for _, d := range b.policyDims[p] {
			for _, q := range queuesOf(d) {
				consume(q, p.Fleet)
			}
		}
	}
	// Rates declared through a consumer's queuecap data source describe
	// the queue too.
	for _, q := range b.model.Queues {
		for _, f := range q.Consumers {
			q.Rates.merge(f.Rates)
		}
	}
}

// fleetFor finds the fleet a reference names: by origin (the fleet itself,
// or a scaling target of it), else by a known name or resource ID.
func (b *builder) fleetFor(v cty.Value, byName map[string]*Fleet) *Fleet {
	if f := b.fleetByOrigin(v, byName); f != nil {
		return f
	}
	s := knownString(v)
	if s == "" {
		return nil
	}
	if f := byName[string(FleetASG)+"/"+s]; f != nil {
		return f
	}
	if f := ecsByResourceID(s, byName); f != nil {
		return f
	}
	for _, t := range sortedValues(b.targets) {
		if knownString(t.resourceID) == s {
			if f := b.fleetByOrigin(t.resourceID, byName); f != nil {
				return f
			}
		}
	}
	return byName[string(FleetLambda)+"/"+s]
}

func (b *builder) fleetByOrigin(v cty.Value, byName map[string]*Fleet) *Fleet {
	for _, o := range origins(v) {
		if f := b.fleets[o]; f != nil {
			return f
		}
		if t := b.targets[o]; t != nil {
			for _, to := range origins(t.resourceID) {
				if f := b.fleets[to]; f != nil {
					return f
				}
			}
			if f := ecsByResourceID(knownString(t.resourceID), byName); f != nil {
				return f
			}
		}
	}
	return nil
}

// ecsByResourceID reads an Application Auto Scaling resource ID of the
// form service/<cluster>/<service>.
func ecsByResourceID(s string, byName map[string]*Fleet) *Fleet {
	if parts := strings.Split(s, "/"); len(parts) == 3 && parts[0] == "service" {
		return byName[string(FleetECS)+"/"+parts[2]]
	}
	return nil
}

// scalesOut reports whether an alarm fires on a metric rising: every
// GreaterThan comparison, and an unknown one.
func scalesOut(a *Alarm) bool {
	return a.Comparison == "" || strings.HasPrefix(a.Comparison, "GreaterThan")
}

func sortedValues[V any](m map[string]V) []V {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]V, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// lambdaFunctionName reads the function name out of the forms
// function_name accepts: a name, a name with a qualifier (name:alias), a
// partial ARN (account:function:name) or a full ARN, qualified or not.
func lambdaFunctionName(s string) string {
	parts := strings.Split(s, ":")
	if i := slices.Index(parts, "function"); i >= 0 && i+1 < len(parts) {
		return parts[i+1]
	}
	return parts[0]
}
