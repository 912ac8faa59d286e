// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/zclconf/go-cty/cty"
)

// link resolves every reference collected during the walk, one kind of
// link per step. References are followed through value origins first (they
// survive modules, locals and string interpolation), then through known
// names. The order matters: a step may read what an earlier one linked
// (alarms reach fleets through the policies linked before them), the steps
// that find consumers fix the order of a queue's Consumers, and rates are
// resolved only once every declaration and every consumer is known.
func (b *builder) link() {
	l := b.newLinker()
	l.linkRedrives()
	for _, v := range l.failureDestinations {
		for _, q := range l.queuesOf(v) {
			q.FailureDestination = true
		}
	}
	l.linkScalingTargets()
	l.linkPolicies()
	l.linkAlarms()
	l.linkEventSourceMappings()
	l.linkQueueTags()
	l.linkConfigQueues()
	l.linkScaleOutConsumers()
	l.readLinkOnly()
	l.linkManagedInstances()
	l.linkPipes()
	l.linkIAMConsumers()
	l.linkSNSProducers()
	b.linkClusters()
	l.resolveRates()
	l.computeSupply()
	l.reportUnlinked()
}

// linker is the builder while it links, with queues and fleets indexed by
// their known names.
type linker struct {
	*builder
	queuesByName map[string][]*Queue
	fleetsByName map[string]*Fleet // by kind/name
}

func (b *builder) newLinker() *linker {
	l := &linker{builder: b, queuesByName: map[string][]*Queue{}, fleetsByName: map[string]*Fleet{}}
	for _, q := range b.model.Queues {
		if q.Name != "" {
			l.queuesByName[q.Name] = append(l.queuesByName[q.Name], q)
		}
	}
	for _, f := range b.model.Fleets {
		if f.Name != "" {
			l.fleetsByName[string(f.Kind)+"/"+f.Name] = f
		}
	}
	return l
}

// linkRedrives marks the queues a redrive policy targets as dead-letter
// queues, and the queues an aws_sqs_queue_redrive_policy applies to as
// having one.
func (l *linker) linkRedrives() {
	for _, rd := range l.redrives {
		for _, o := range origins(rd.policy) {
			if q := l.queues[o]; q != nil && o != rd.inline {
				q.IsDeadLetter = true
				l.recordDeadLetter(rd, q)
			}
		}
		if rd.inline == "" {
			for _, q := range l.queuesOf(rd.queue) {
				q.HasRedrive, q.RedriveUnknown = true, false
				q.MaxReceiveCount = rd.maxReceive
			}
		}
	}
}

// linkScalingTargets gives an ECS service its aws_appautoscaling_target's
// max_capacity and min_capacity as its maximum and minimum size, the
// target's declared rates, and its queuecap:queue tag when the service has
// none.
func (l *linker) linkScalingTargets() {
	for _, t := range sortedValues(l.targets) {
		f := l.fleetFor(t.resourceID)
		if f == nil || f.Kind != FleetECS {
			continue
		}
		if t.maxCap.Set {
			f.MaxSize, f.SizeAttr = t.maxCap, "max_capacity"
			f.Declared.Add(model.SourceDataSource, l.dataSourceRates(t.maxCap))
		}
		f.MinSize = t.minCap
		f.Declared.Add(model.SourceTargetTags, t.rates)
		if f.QueueAddr == "" {
			f.QueueAddr = t.queue
		}
	}
}

// linkPolicies links each scaling policy to the fleet it resizes.
func (l *linker) linkPolicies() {
	for _, p := range l.model.Policies {
		if f := l.fleetFor(l.policyRefs[p]); f != nil {
			p.Fleet = f
			f.Policies = append(f.Policies, p)
		}
	}
}

// linkAlarms links each alarm to the policies its alarm_actions name and
// to the queues its QueueName dimensions name.
func (l *linker) linkAlarms() {
	for _, a := range l.model.Alarms {
		for _, o := range origins(l.alarmActs[a]) {
			if p := l.policies[o]; p != nil && !slices.Contains(a.Policies, p) {
				a.Policies = append(a.Policies, p)
				p.Alarms = append(p.Alarms, a)
			}
		}
		for _, d := range l.alarmDims[a] {
			for _, q := range l.queuesOf(d) {
				if !slices.Contains(a.Queues, q) {
					a.Queues = append(a.Queues, q)
					q.Alarms = append(q.Alarms, a)
				}
			}
		}
	}
}

// linkEventSourceMappings links each mapping to its queue and function; the
// function consumes the queue, and its maximum size is the mapping's
// ceiling (model.EventSourceMapping.Ceiling): the smallest of
// maximum_concurrency, the pollers or standard mode's cap, and the
// function's reserved concurrency. A function with several mappings takes
// the largest of their ceilings, a bound on each.
func (l *linker) linkEventSourceMappings() {
	ceilings := map[*Fleet]model.ConcurrencyCap{}
	defer func() {
		for f, c := range ceilings {
			f.SetSize(c)
		}
	}()
	for _, m := range l.model.Mappings {
		refs := l.mappingRefs[m]
		if qs := l.queuesOf(refs[0]); len(qs) == 1 {
			m.Queue = qs[0]
			m.Queue.Mappings = append(m.Queue.Mappings, m)
		}
		m.Function = l.fleetFor(refs[1])
		if m.Function == nil {
			m.Function = l.fleetsByName[string(FleetLambda)+"/"+lambdaFunctionName(knownString(refs[1]))]
		}
		if f := m.Function; f != nil && f.Kind == FleetLambda {
			if m.MaximumConcurrency.Set {
				f.Declared.Add(model.SourceDataSource, l.dataSourceRates(m.MaximumConcurrency))
			}
			c := m.Ceiling(f.Reserved)
			if prev, ok := ceilings[f]; !ok || (prev.Size.Known && (!c.Size.Known || c.Size.V > prev.Size.V)) {
				ceilings[f] = c
			}
			l.consume(m.Queue, m.Function)
		}
	}
}

// linkQueueTags makes a fleet consume the queue its queuecap:queue tag
// names.
func (l *linker) linkQueueTags() {
	for _, f := range l.model.Fleets {
		if f.QueueAddr != "" {
			l.consume(l.queues[f.QueueAddr], f)
		}
	}
}

// linkConfigQueues gives each queue the rates of its .queuecap.hcl queue
// block and makes the block's consumer consume it, recording whether the
// block matched this root module.
func (l *linker) linkConfigQueues() {
	for addr, qc := range l.config.Queues {
		q := l.queues[addr]
		if q == nil {
			continue
		}
		q.Declared.Add(model.SourceConfig, qc.Rates)
		l.configMatched[addr] = qc.Consumer == "" || l.fleets[qc.Consumer] != nil
		if qc.Consumer != "" {
			l.consume(q, l.fleets[qc.Consumer])
		}
	}
}

// linkScaleOutConsumers makes a fleet consume a queue when one of its
// scale-out policies is driven by an alarm on that queue or tracks a metric
// of it.
func (l *linker) linkScaleOutConsumers() {
	for _, p := range l.model.Policies {
		if p.Fleet == nil || !p.ScaleOut {
			continue
		}
		for _, a := range p.Alarms {
			if scalesOut(a) {
				for _, q := range a.Queues {
					l.consume(q, p.Fleet)
				}
			}
		}
		for _, d := range l.policyDims[p] {
			for _, q := range l.queuesOf(d.val) {
				l.consume(q, p.Fleet)
			}
		}
	}
}

// resolveRates settles each fleet's rates, then each queue's, which take
// in what its consumers declare, in the order of model.Precedence.
func (l *linker) resolveRates() {
	for _, f := range l.model.Fleets {
		f.Rates = f.Declared.Resolve(model.ForFleet)
	}
	for _, q := range l.model.Queues {
		for _, f := range q.Consumers {
			q.Declared.Add(model.SourceConsumers, f.Rates)
		}
		q.Rates = q.Declared.Resolve(model.ForQueue)
	}
}

// consume records that f consumes q, once.
func (l *linker) consume(q *Queue, f *Fleet) {
	if q != nil && f != nil && !slices.Contains(q.Consumers, f) {
		q.Consumers = append(q.Consumers, f)
		f.Queues = append(f.Queues, q)
	}
}

// queuesOf finds the queues a value names: by origin, else by a known name
// or ARN.
func (l *linker) queuesOf(v cty.Value) []*Queue {
	var out []*Queue
	for _, o := range origins(v) {
		if q := l.queues[o]; q != nil && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	if len(out) == 0 {
		name := knownString(v)
		if strings.HasPrefix(name, "arn:") {
			name = name[strings.LastIndex(name, ":")+1:] // arn:aws:sqs:region:account:name
		}
		out = l.queuesByName[name]
	}
	return out
}

// fleetFor finds the fleet a reference names: by origin (the fleet itself,
// or a scaling target of it), else by a known name or resource ID.
func (l *linker) fleetFor(v cty.Value) *Fleet {
	if f := l.fleetByOrigin(v); f != nil {
		return f
	}
	s := knownString(v)
	if s == "" {
		return nil
	}
	if f := l.fleetsByName[string(FleetASG)+"/"+s]; f != nil {
		return f
	}
	if f := l.ecsByResourceID(s); f != nil {
		return f
	}
	for _, t := range sortedValues(l.targets) {
		if knownString(t.resourceID) == s {
			if f := l.fleetByOrigin(t.resourceID); f != nil {
				return f
			}
		}
	}
	return l.fleetsByName[string(FleetLambda)+"/"+s]
}

func (l *linker) fleetByOrigin(v cty.Value) *Fleet {
	for _, o := range origins(v) {
		if f := l.fleets[o]; f != nil {
			return f
		}
		if t := l.targets[o]; t != nil {
			for _, to := range origins(t.resourceID) {
				if f := l.fleets[to]; f != nil {
					return f
				}
			}
			if f := l.ecsByResourceID(knownString(t.resourceID)); f != nil {
				return f
			}
		}
	}
	return nil
}

// ecsByResourceID reads an Application Auto Scaling resource ID of the
// form service/<cluster>/<service>.
func (l *linker) ecsByResourceID(s string) *Fleet {
	if parts := strings.Split(s, "/"); len(parts) == 3 && parts[0] == "service" {
		return l.fleetsByName[string(FleetECS)+"/"+parts[2]]
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

// computeSupply settles each queue's supply once its consumers and rates
// are linked (model.SupplyOf): the one place it is computed.
func (l *linker) computeSupply() {
	for _, q := range l.model.Queues {
		q.Groups, q.GroupsGap = model.MessageGroupsBound(q, l.model.ConfigFileName())
		q.Supply, q.SupplyGap = model.SupplyOf(q, l.model.ConfigFileName())
	}
}

// linkClusters names the cluster of each ECS service whose cluster
// argument is an aws_ecs_cluster's id or ARN (not known before apply)
// with that cluster's name, when it is known: what the service's metrics
// are dimensioned by.
func (b *builder) linkClusters() {
	for f, refs := range b.clusterRefs {
		for _, r := range refs {
			if name := b.ecsClusters[r]; name != "" {
				f.Cluster, f.ClusterWhy = name, ""
				break
			}
		}
	}
}
