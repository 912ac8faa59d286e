// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/hashicorp/hcl/v2"
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Defaults AWS applies when an attribute is absent.
const (
	defaultRetentionSeconds  = 345600 // four days
	defaultVisibilitySeconds = 30
	defaultLambdaTimeout     = 3
)

// builder walks evaluated module instances into a Model and links it.
type builder struct {
	model    *Model
	config   *Config
	queues   map[string]*Queue
	fleets   map[string]*Fleet
	targets  map[string]*scalingTarget
	policies map[string]*Policy
	// pending links, resolved once every resource is known
	policyRefs  map[*Policy]cty.Value // the value naming the policy's fleet or target
	alarmDims   map[*Alarm][]cty.Value
	alarmActs   map[*Alarm]cty.Value
	policyDims  map[*Policy][]ref // a target tracking metric's QueueName dimensions
	mappingRefs map[*EventSourceMapping][2]cty.Value
	redrives    []redriveRef
	// failureDestinations are where Lambda sends what it failed to
	// process: a function's dead_letter_config, an event source mapping's
	// on_failure destination.
	failureDestinations []cty.Value
	linkOnly            []placedResource // resources read only to link others
	iam                 iamRefs          // roles and what uses them (iam.go)
	pipes               []*pipe
	sns                 snsRefs
	interesting         map[*Module]bool
	// dataArgs is the root instance's record of evaluated queuecap data
	// sources' arguments.
	dataArgs map[string]Rates
	// limits are the root instance's evaluation budgets and the errors
	// its evaluation found.
	limits *evalLimits
	// badTags are queuecap:* tags whose known value is no valid rate:
	// errors with or without a plan, once per place.
	badTags    []*hcl.Diagnostic
	badTagSeen map[hcl.Range]bool
	// configMatched records the .queuecap.hcl queue blocks whose queue
	// (and consumer, if named) exist in this root module.
	configMatched map[string]bool
	// refs are where each pending link was written, to say why it failed.
	refs map[any][]ref
	// skips are what the walk and the linker could not check.
	skips []Skip
	// instances are the module instances walked, the root first.
	instances []*instance
	// instancesIn indexes instances by their module's cleaned directory,
	// in walk order, once the walk is done (see instanceOf).
	instancesIn map[string][]*instance
	indexed     int // how many of instances instancesIn holds
	// addrIndex finds the instance at a finding's place (addressAt).
	addrIndex *instanceIndex
	// planAddrs are, for a plan, the resource instance each range given
	// to the model belongs to, by Range.String().
	planAddrs map[string]string
	// planDocuments are a plan's policy document data sources by address.
	planDocuments map[string]documentAt
}

// ref is one written reference: the attribute, the instance it is
// evaluated in and its value.
type ref struct {
	in   *instance
	attr *hcl.Attribute
	val  cty.Value
}

// refOf records where an attribute of n is written, evaluating it.
func refOf(in *instance, n *node, name string) ref {
	return ref{in: in, attr: n.attrs[name], val: evalAttr(in, n, name)}
}

type redriveRef struct {
	queue, policy cty.Value // queue_url (or the queue itself) and redrive_policy
	inline        string    // the queue's address for an inline policy
}

func newBuilder(dir string, cfg *Config) *builder {
	return &builder{
		model: &Model{Dir: dir, ConfigFile: cfg.FileName()}, config: cfg,
		queues: map[string]*Queue{}, fleets: map[string]*Fleet{}, targets: map[string]*scalingTarget{}, policies: map[string]*Policy{},
		policyRefs: map[*Policy]cty.Value{}, alarmDims: map[*Alarm][]cty.Value{}, alarmActs: map[*Alarm]cty.Value{},
		policyDims: map[*Policy][]ref{}, mappingRefs: map[*EventSourceMapping][2]cty.Value{},
		interesting: map[*Module]bool{}, configMatched: map[string]bool{}, refs: map[any][]ref{},
	}
}

// hasInteresting reports whether a module or any module it calls declares
// a resource the linter models; other subtrees are never evaluated.
func (b *builder) hasInteresting(m *Module) bool {
	if v, ok := b.interesting[m]; ok {
		return v
	}
	b.interesting[m] = false // guards against cycles
	found := false
	for _, r := range m.Resources {
		if r.Mode == "resource" && resourceSchemas[r.Type] != nil {
			found = true
			break
		}
	}
	for _, c := range m.Calls {
		// A call the walk cannot enter is reported as not checked.
		if !found && (c.Child == nil || b.hasInteresting(c.Child)) {
			found = true
		}
	}
	b.interesting[m] = found
	return found
}

func (b *builder) walk(in *instance) {
	if !b.hasInteresting(in.mod) {
		return
	}
	b.instances = append(b.instances, in)
	for _, r := range in.mod.Resources {
		schema := resourceSchemas[r.Type]
		if r.Mode != "resource" || schema == nil {
			continue
		}
		if schema.linkOnly {
			b.linkOnly = append(b.linkOnly, placedResource{in: in, r: r}) // read by readLinkOnly, when there is a queue to link
			continue
		}
		b.addInstances(in, r, schema)
	}
	for _, c := range in.mod.Calls {
		switch {
		case c.Child == nil:
			b.skipModule(in, c)
		case c.Count == nil && c.ForEach == nil:
			b.walk(in.child(c, nil))
		default:
			e := in.expansionOf("module."+c.Name, c.Count, c.ForEach)
			if !e.known {
				b.skip(in.absAddr("module."+c.Name), e.expr.Range(), fmt.Sprintf("the %s of %s %s, so its instances are not told apart: it is checked once, as if each instance were unknown",
					e.meta(), in.absAddr("module."+c.Name), e.why))
				b.walk(in.child(c, nil))
				continue
			}
			for i := range e.instances {
				b.walk(in.child(c, &e.instances[i]))
			}
		}
	}
}

// addInstances models each instance of a resource, or the resource once
// when its count or for_each is not known.
func (b *builder) addInstances(in *instance, r *Resource, schema *blockSchema) {
	if r.Count == nil && r.ForEach == nil {
		b.addResource(in, r, schema, nil)
		return
	}
	e := in.expansionOf(r.LocalAddr(), r.Count, r.ForEach)
	if !e.known {
		alarms := len(b.model.Alarms)
		b.addResource(in, r, schema, nil)
		// An alarm on no SQS metric (logs, CPU) is about no queue: its
		// unknown count hides nothing the rules check.
		otherAlarm := len(b.model.Alarms) > alarms && !readsSQS(b.model.Alarms[alarms].Metrics)
		if !schema.linkOnly && !otherAlarm && !b.scalesOtherService(in.absAddr(r.LocalAddr())) {
			b.skip(in.absAddr(r.LocalAddr()), e.expr.Range(), fmt.Sprintf("the %s of %s %s, so its instances are not told apart: it is checked once, as if each instance were unknown",
				e.meta(), in.absAddr(r.LocalAddr()), e.why))
		}
		return
	}
	for i := range e.instances {
		b.addResource(in, r, schema, &e.instances[i])
	}
}

// scalesOtherService reports whether addr is an Application Auto Scaling
// target of another service than ECS (a DynamoDB table's capacity, a
// Lambda's provisioned concurrency), or a policy on one: it scales no
// queue consumer, so its unknown count hides nothing the rules check.
func (b *builder) scalesOtherService(addr string) bool {
	other := func(t *scalingTarget) bool { return t != nil && t.namespace != "" && t.namespace != "ecs" }
	if other(b.targets[addr]) {
		return true
	}
	p := b.policies[addr]
	if p == nil {
		return false
	}
	return slices.ContainsFunc(origins(b.policyRefs[p]), func(o string) bool { return other(b.targets[o]) })
}

// addResource models one instance of a resource the rules read (rep is
// nil for a resource without count or for_each), evaluating its arguments
// as that instance.
func (b *builder) addResource(in *instance, r *Resource, schema *blockSchema, rep *repetition) {
	outer := in.rep
	in.rep = rep
	defer func() { in.rep = outer }()
	n := decode(in.expandResource(r, schema), schema, r.DefRange)
	addr := in.absAddr(r.LocalAddr()) + rep.suffix()
	switch r.Type {
	case "aws_sqs_queue":
		b.addQueue(in, addr, r, n)
	case "aws_sqs_queue_redrive_policy":
		b.redrives = append(b.redrives, redriveRef{queue: evalAttr(in, n, "queue_url"), policy: evalAttr(in, n, "redrive_policy")})
	case "aws_autoscaling_group", "aws_ecs_service", "aws_lambda_function":
		b.addFleet(in, addr, r, n)
		b.addFleetRole(in, addr, r, n)
	case "aws_iam_role", "aws_iam_policy", "aws_iam_role_policy", "aws_iam_role_policy_attachment", "aws_iam_policy_attachment",
		"aws_iam_instance_profile", "aws_launch_template", "aws_launch_configuration", "aws_ecs_task_definition":
		b.addIAM(in, addr, r, n)
	case "aws_pipes_pipe":
		b.addPipe(in, addr, r, n)
	case "aws_sns_topic", "aws_sns_topic_subscription":
		b.addSNS(in, addr, r, n)
	case "aws_appautoscaling_target":
		tags := b.tagRates(in, n.attrs["tags"])
		t := &scalingTarget{addr: addr, maxCap: evalNum(in, n, "max_capacity"), minCap: evalNum(in, n, "min_capacity"),
			rates: tags.rates, resourceID: evalAttr(in, n, "resource_id"), rng: r.DefRange,
			namespace: knownString(evalAttr(in, n, "service_namespace"))}
		b.refs[t] = []ref{refOf(in, n, "resource_id")}
		if tags.queue != "" {
			t.queue = resolveAddr(in, tags.queue)
		}
		b.targets[addr] = t
	case "aws_autoscaling_policy", "aws_appautoscaling_policy":
		b.addPolicy(in, addr, r, n)
	case "aws_cloudwatch_metric_alarm":
		b.addAlarm(in, addr, r, n)
	case "aws_lambda_event_source_mapping":
		if v, _ := evalAttr(in, n, "enabled").UnmarkDeep(); v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool && v.False() {
			return // a disabled mapping consumes nothing
		}
		if d := n.first("destination_config"); d != nil {
			if f := d.first("on_failure"); f != nil {
				b.failureDestinations = append(b.failureDestinations, evalAttr(in, f, "destination_arn"))
			}
		}
		if n.attrs["starting_position"] != nil && !evalAttr(in, n, "starting_position").IsNull() {
			// Only a stream (Kinesis, DynamoDB, Kafka) has a starting
			// position; AWS refuses one on an SQS mapping.
			return
		}
		m := &EventSourceMapping{Addr: addr, DefRange: r.DefRange}
		if sc := n.first("scaling_config"); sc != nil {
			m.MaximumConcurrency = evalNum(in, sc, "maximum_concurrency")
		}
		src, fn := refOf(in, n, "event_source_arn"), refOf(in, n, "function_name")
		b.mappingRefs[m] = [2]cty.Value{src.val, fn.val}
		b.refs[m] = []ref{src, fn}
		b.model.Mappings = append(b.model.Mappings, m)
	}
}

func evalAttr(in *instance, n *node, name string) cty.Value {
	if a := n.attrs[name]; a != nil {
		return in.eval(a.Expr)
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// evalNum reads a numeric attribute: unset, set but unknown, or known.
func evalNum(in *instance, n *node, name string) Num {
	a := n.attrs[name]
	if a == nil {
		return Num{}
	}
	v := in.eval(a.Expr)
	if v.IsKnown() && v.IsNull() {
		return Num{} // null is Terraform's way of leaving an argument unset
	}
	f, ok := number(v)
	num := Num{V: f, Set: true, Known: ok, Range: a.Range, From: name, Origins: origins(v)}
	if !v.IsWhollyKnown() {
		num.Why = in.unknownBecause(a.Expr)
	}
	return num
}

var repetitionSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}}}

// withDefault is a numeric attribute, or AWS's default when it is absent.
func withDefault(num Num, def float64, rng hcl.Range, name string) Num {
	if num.Set {
		return num
	}
	return Num{V: def, Set: true, Known: true, Range: rng, From: name + " (default)"}
}

func knownString(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		return v.AsString()
	}
	return ""
}

// origins lists the resources a value was derived from.
func origins(v cty.Value) []string {
	_, pvm := v.UnmarkDeepWithPaths()
	var out []string
	for _, p := range pvm {
		for m := range p.Marks {
			if o, ok := m.(origin); ok {
				out = append(out, string(o))
			}
		}
	}
	return out
}

// taggedRates are the queuecap:* tags of a resource.
type taggedRates struct {
	rates      Rates
	queue      string    // queuecap:queue
	queueRange hcl.Range // where it is written
}

// tagRates reads queuecap:* entries from a tags map.
func (b *builder) tagRates(in *instance, attr *hcl.Attribute) taggedRates {
	var out taggedRates
	if attr == nil {
		return out
	}
	v, _ := in.eval(attr.Expr).UnmarkDeep()
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() || (!v.Type().IsMapType() && !v.Type().IsObjectType()) {
		return out
	}
	// Each entry written in place is placed at its value.
	places := map[string]hcl.Range{}
	if pairs, diags := hcl.ExprMap(attr.Expr); !diags.HasErrors() {
		for _, kv := range pairs {
			if k, diags := kv.Key.Value(nil); !diags.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() {
				places[k.AsString()] = kv.Value.Range()
			}
		}
	}
	for it := v.ElementIterator(); it.Next(); {
		k, val := it.Element()
		key := knownString(k)
		at, ok := places[key]
		if !ok {
			at = attr.Range
		}
		b.addTag(in, &out, key, val, attr.Range, at)
	}
	return out
}

// addTag reads one tag, written at rng, into t; a queuecap:* rate whose
// value is known but no valid rate is an error at its value, at.
func (b *builder) addTag(in *instance, t *taggedRates, key string, val cty.Value, rng, at hcl.Range) {
	if why := t.add(key, val, rng); why != "" {
		if b.badTagSeen == nil {
			b.badTagSeen = map[hcl.Range]bool{}
		}
		if !b.badTagSeen[at] {
			b.badTagSeen[at] = true
			b.badTags = append(b.badTags, inInstance(&hcl.Diagnostic{Severity: hcl.DiagError,
				Summary: "Invalid queuecap tag", Detail: why, Subject: at.Ptr()}, in.addr))
		}
	}
}

// add reads one tag, returning why a queuecap:* rate's known value is no
// valid rate (and leaving the rate unset), or "".
func (t *taggedRates) add(key string, val cty.Value, rng hcl.Range) string {
	name, ok := strings.CutPrefix(key, "queuecap:")
	if !ok {
		return ""
	}
	if name == "queue" {
		if s := knownString(val); s != "" {
			t.queue, t.queueRange = s, rng
		}
		return ""
	}
	f := t.rates.Field(name)
	if f == nil {
		return ""
	}
	v, known, why := tagNumber(name, val)
	if why != "" {
		return "tag " + key + strings.TrimPrefix(why, name)
	}
	*f = Num{V: v, Set: true, Known: known, Range: rng, From: "tag " + key}
	return ""
}

// tagNumber is a tag's value as the rate name, known or not, or why a
// known value is none: not a number, not finite, out of the rate's range.
func tagNumber(name string, val cty.Value) (float64, bool, string) {
	val, _ = val.UnmarkDeep()
	if !val.IsWhollyKnown() || val.IsNull() {
		return 0, false, ""
	}
	if val.Type() == cty.String {
		val = cty.StringVal(strings.TrimSpace(val.AsString()))
	}
	n, err := convert.Convert(val, cty.Number)
	if err != nil || n.IsNull() {
		got := "a " + val.Type().FriendlyName()
		if val.Type() == cty.String {
			got = capacity.Quote(val.AsString())
		}
		return 0, false, fmt.Sprintf("%s must be a number, got %s", name, got)
	}
	f, why := checkRate(name, n.AsBigFloat())
	if why != "" {
		return 0, false, why
	}
	return f, true, ""
}

func (b *builder) addQueue(in *instance, addr string, r *Resource, n *node) {
	q := &Queue{Addr: addr, DefRange: r.DefRange, Name: knownString(evalAttr(in, n, "name"))}
	q.Declared.Add(model.SourceTags, b.tagRates(in, n.attrs["tags"]).rates)
	q.Retention = withDefault(evalNum(in, n, "message_retention_seconds"), defaultRetentionSeconds, r.DefRange, "message_retention_seconds")
	q.Visibility = withDefault(evalNum(in, n, "visibility_timeout_seconds"), defaultVisibilitySeconds, r.DefRange, "visibility_timeout_seconds")
	if a := n.attrs["redrive_policy"]; a != nil {
		v := in.eval(a.Expr)
		if !v.IsKnown() || !v.IsNull() {
			// jsonencode() over a dead-letter queue's ARN is unknown
			// before apply but never null: a redrive policy all the same.
			plain, _ := v.UnmarkDeep()
			q.HasRedrive = plain.IsKnown() || !plain.Range().CouldBeNull()
			q.RedriveUnknown, q.RedriveRange = !q.HasRedrive, a.Range
			b.redrives = append(b.redrives, redriveRef{policy: v, inline: addr})
		}
	}
	b.queues[addr] = q
	b.model.Queues = append(b.model.Queues, q)
}

func (b *builder) addFleet(in *instance, addr string, r *Resource, n *node) {
	f := &Fleet{Kind: FleetKind(r.Type), Addr: addr, DefRange: r.DefRange}
	var tags taggedRates
	switch f.Kind {
	case FleetASG:
		f.Name = knownString(evalAttr(in, n, "name"))
		f.MaxSize, f.SizeAttr = evalNum(in, n, "max_size"), "max_size"
		f.MinSize = evalNum(in, n, "min_size")
		for _, tag := range n.blocks["tag"] {
			at := tag.rng
			if a := tag.attrs["value"]; a != nil {
				at = a.Expr.Range()
			}
			b.addTag(in, &tags, knownString(evalAttr(in, tag, "key")), evalAttr(in, tag, "value"), tag.rng, at)
		}
	case FleetECS:
		f.Name = knownString(evalAttr(in, n, "name"))
		f.MaxSize, f.SizeAttr = evalNum(in, n, "desired_count"), "desired_count"
		tags = b.tagRates(in, n.attrs["tags"])
	case FleetLambda:
		f.Name = knownString(evalAttr(in, n, "function_name"))
		f.MaxSize, f.SizeAttr = evalNum(in, n, "reserved_concurrent_executions"), "reserved_concurrent_executions"
		if f.MaxSize.Known && f.MaxSize.V < 0 {
			f.MaxSize.Known = false // -1: unreserved, bounded only by the account (Fleet.Unreserved)
		}
		f.TimeoutSeconds = withDefault(evalNum(in, n, "timeout"), defaultLambdaTimeout, r.DefRange, "timeout")
		if dl := n.first("dead_letter_config"); dl != nil {
			b.failureDestinations = append(b.failureDestinations, evalAttr(in, dl, "target_arn"))
		}
		tags = b.tagRates(in, n.attrs["tags"])
	}
	f.Declared.Add(model.SourceTags, tags.rates)
	if tags.queue != "" {
		f.QueueAddr, f.QueueTagRange = resolveAddr(in, tags.queue), tags.queueRange
	}
	f.Declared.Add(model.SourceDataSource, b.dataSourceRates(f.MaxSize))
	b.fleets[addr] = f
	b.model.Fleets = append(b.model.Fleets, f)
}

// resolveAddr makes an address written inside a module absolute: a tag on
// a fleet in module.a naming aws_sqs_queue.q means module.a.aws_sqs_queue.q.
func resolveAddr(in *instance, addr string) string {
	if in.addr == "" || strings.HasPrefix(addr, "module.") {
		return addr
	}
	return in.addr + "." + addr
}

// dataSourceRates are the arguments of the queuecap_consumers or
// queuecap_drain data sources a fleet's size was computed from.
func (b *builder) dataSourceRates(size Num) Rates {
	var out Rates
	for _, o := range size.Origins {
		if r, ok := b.dataArgs[o]; ok {
			out.Merge(r)
		}
	}
	return out
}

func (b *builder) addPolicy(in *instance, addr string, r *Resource, n *node) {
	p := &Policy{Addr: addr, DefRange: r.DefRange, ScaleOut: true}
	refName := "autoscaling_group_name"
	kind := knownString(evalAttr(in, n, "policy_type"))
	if r.Type == "aws_appautoscaling_policy" {
		refName = "resource_id"
		if kind == "" && n.attrs["policy_type"] == nil {
			kind = string(PolicyStep)
		}
	} else if kind == "" && n.attrs["policy_type"] == nil {
		kind = string(PolicySimple)
	}
	switch PolicyKind(kind) {
	case PolicyStep, PolicySimple, PolicyTargetTracking:
		p.Kind = PolicyKind(kind)
	default:
		p.Kind = PolicyOther
	}
	b.policyRefs[p] = evalAttr(in, n, refName)
	b.refs[p] = []ref{refOf(in, n, refName)}

	// Adjustments known to be negative only ever scale in.
	var adjustments []Num
	if a := evalNum(in, n, "scaling_adjustment"); a.Set {
		adjustments = append(adjustments, a)
	}
	steps, conf := n.blocks["step_adjustment"], n
	if c := n.first("step_scaling_policy_configuration"); c != nil {
		steps, conf = append(steps, c.blocks["step_adjustment"]...), c
	}
	if v := evalAttr(in, conf, "adjustment_type"); !v.IsKnown() || !v.IsNull() {
		if p.AdjustmentType = knownString(v); p.AdjustmentType == "" {
			p.AdjustmentType = "unknown"
		}
	}
	p.DynamicSteps = generates(r.Body, "step_adjustment", "step_scaling_policy_configuration")
	for _, s := range steps {
		step := Step{Lower: evalNum(in, s, "metric_interval_lower_bound"), Upper: evalNum(in, s, "metric_interval_upper_bound"),
			Adjustment: evalNum(in, s, "scaling_adjustment")}
		p.Steps = append(p.Steps, step)
		adjustments = append(adjustments, step.Adjustment)
	}
	if len(adjustments) > 0 {
		allNegative := true
		for _, a := range adjustments {
			if !a.Known || a.V >= 0 {
				allNegative = false
			}
		}
		p.ScaleOut = !allNegative
	}

	tt := n.first("target_tracking_configuration")
	if tt == nil {
		tt = n.first("target_tracking_scaling_policy_configuration")
	}
	if tt != nil {
		if pre := tt.first("predefined_metric_specification"); pre != nil {
			p.Predefined = knownString(evalAttr(in, pre, "predefined_metric_type"))
			if p.Predefined == "" {
				p.Predefined = "unknown"
			}
		}
		if cm := tt.first("customized_metric_specification"); cm != nil {
			p.Metrics, b.policyDims[p] = readCustomMetric(in, cm)
		}
	}
	b.policies[addr] = p
	b.model.Policies = append(b.model.Policies, p)
}

// dynamicSchema finds dynamic blocks, which the linter does not expand.
var dynamicSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}}

// generates reports whether a dynamic block in body, or in one of its
// blocks of the types within, generates blocks of type name.
func generates(body hcl.Body, name string, within ...string) bool {
	c, _, _ := body.PartialContent(dynamicSchema)
	if c == nil {
		return false
	}
	for _, b := range c.Blocks {
		if b.Labels[0] == name {
			return true
		}
	}
	for _, w := range within {
		inner, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: w}}})
		if inner == nil {
			continue
		}
		for _, b := range inner.Blocks {
			if generates(b.Body, name) {
				return true
			}
		}
	}
	return false
}

// readCustomMetric reads a target tracking customized metric: a single
// metric with dimensions, or metric math over metric_stat entries.
func readCustomMetric(in *instance, cm *node) (MetricSet, []ref) {
	set := MetricSet{Known: true, NamesKnown: true}
	var dims []ref
	addName(&set, evalAttr(in, cm, "metric_name"), cm.attrs["metric_name"] != nil)
	addNamespace(&set, evalAttr(in, cm, "namespace"))
	for _, d := range append(cm.blocks["metric_dimension"], cm.blocks["dimensions"]...) {
		if knownString(evalAttr(in, d, "name")) == "QueueName" {
			dims = append(dims, refOf(in, d, "value"))
		}
	}
	var queries []metricQuery
	for _, m := range cm.blocks["metrics"] {
		q := metricQuery{id: knownString(evalAttr(in, m, "id")), returnData: evalAttr(in, m, "return_data")}
		q.expression = evalAttr(in, m, "expression")
		q.hasExpression = setTo(q.expression, m.attrs["expression"] != nil)
		if ms := m.first("metric_stat"); ms != nil {
			if metric := ms.first("metric"); metric != nil {
				q.metricName = evalAttr(in, metric, "metric_name")
				q.hasMetric = setTo(q.metricName, metric.attrs["metric_name"] != nil)
				q.namespace = evalAttr(in, metric, "namespace")
				for _, d := range metric.blocks["dimensions"] {
					if knownString(evalAttr(in, d, "name")) == "QueueName" {
						dims = append(dims, refOf(in, d, "value"))
					}
				}
			}
		}
		queries = append(queries, q)
	}
	addQueries(&set, queries)
	return set, dims
}

// metricQuery is one entry of metric math: a metric or an expression.
type metricQuery struct {
	id                       string
	expression, metricName   cty.Value
	hasExpression, hasMetric bool
	namespace, returnData    cty.Value
}

// idPattern matches the query IDs an expression may reference.
var idPattern = regexp.MustCompile(`[a-z][a-zA-Z0-9_]*`)

// addQueries adds what metric math actually returns: the query with
// return_data = true and, through the IDs its expression names, every
// query it depends on. A metric fetched but not used (GroupInServiceInstances
// next to an expression returning the visible messages alone) does not
// count. When the returned query cannot be told, or an expression reads
// every query (METRICS(), SEARCH()), all of them count.
func addQueries(m *MetricSet, queries []metricQuery) {
	byID := map[string]int{}
	var returned []int
	for i, q := range queries {
		if q.id != "" {
			byID[q.id] = i
		}
		if v, _ := q.returnData.Unmark(); v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool && v.True() {
			returned = append(returned, i)
		}
	}
	use := make([]bool, len(queries))
	all := func() {
		for i := range use {
			use[i] = true
		}
	}
	if len(returned) != 1 {
		all()
	} else {
		stack := returned
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if use[i] {
				continue
			}
			use[i] = true
			if !queries[i].hasExpression {
				continue
			}
			expr := knownString(queries[i].expression)
			if expr == "" || strings.Contains(expr, "METRICS(") || strings.Contains(expr, "SEARCH(") {
				all()
				break
			}
			for _, id := range idPattern.FindAllString(expr, -1) {
				if j, ok := byID[id]; ok && !use[j] {
					stack = append(stack, j)
				}
			}
		}
	}
	for i, q := range queries {
		if !use[i] {
			continue
		}
		addExpression(m, q.expression, q.hasExpression)
		addName(m, q.metricName, q.hasMetric)
		addNamespace(m, q.namespace)
	}
}

// setTo reports whether an attribute that is present sets a value: one
// set to null, as a dynamic block's content often sets one, is unset.
func setTo(v cty.Value, present bool) bool { return present && (!v.IsKnown() || !v.IsNull()) }

func addName(m *MetricSet, v cty.Value, set bool) {
	if !setTo(v, set) {
		return
	}
	if s := knownString(v); s != "" {
		m.Names = append(m.Names, s)
	} else {
		m.Known, m.NamesKnown = false, false
	}
}

func addNamespace(m *MetricSet, v cty.Value) {
	if s := knownString(v); s != "" {
		m.Namespaces = append(m.Namespaces, s)
	}
}

func addExpression(m *MetricSet, v cty.Value, set bool) {
	if !setTo(v, set) {
		return
	}
	if s := knownString(v); s != "" {
		m.Expressions = append(m.Expressions, s)
	} else {
		m.Known = false
	}
}

func (b *builder) addAlarm(in *instance, addr string, r *Resource, n *node) {
	a := &Alarm{Addr: addr, DefRange: r.DefRange, Metrics: MetricSet{Known: true, NamesKnown: true}}
	a.Comparison = knownString(evalAttr(in, n, "comparison_operator"))
	a.Threshold = evalNum(in, n, "threshold")
	a.ThresholdRates = b.dataSourceRates(a.Threshold)
	var dims []cty.Value
	var dimRefs []ref // where each dimensions map is written, to say why it links no queue
	addDims := func(r ref) {
		dims = append(dims, queueDimension(r.val))
		if r.attr != nil {
			dimRefs = append(dimRefs, r)
		}
	}
	if n.attrs["metric_name"] != nil {
		a.Simple = true
		addName(&a.Metrics, evalAttr(in, n, "metric_name"), true)
		addNamespace(&a.Metrics, evalAttr(in, n, "namespace"))
		addDims(refOf(in, n, "dimensions"))
	}
	var queries []metricQuery
	for _, mq := range n.blocks["metric_query"] {
		q := metricQuery{id: knownString(evalAttr(in, mq, "id")), returnData: evalAttr(in, mq, "return_data")}
		q.expression = evalAttr(in, mq, "expression")
		q.hasExpression = setTo(q.expression, mq.attrs["expression"] != nil)
		if m := mq.first("metric"); m != nil {
			q.metricName = evalAttr(in, m, "metric_name")
			q.hasMetric = setTo(q.metricName, m.attrs["metric_name"] != nil)
			q.namespace = evalAttr(in, m, "namespace")
			addDims(refOf(in, m, "dimensions"))
		}
		queries = append(queries, q)
	}
	addQueries(&a.Metrics, queries)
	b.alarmDims[a] = dims
	b.refs[a] = dimRefs
	b.alarmActs[a] = evalAttr(in, n, "alarm_actions")
	b.model.Alarms = append(b.model.Alarms, a)
}

// queueDimension is the QueueName entry of a dimensions map, with its
// marks; the whole map when the entry cannot be singled out.
func queueDimension(dims cty.Value) cty.Value {
	if dims.IsNull() {
		return dims
	}
	plain, marks := dims.Unmark()
	if plain.IsKnown() && plain.CanIterateElements() && (plain.Type().IsMapType() || plain.Type().IsObjectType()) {
		for it := plain.ElementIterator(); it.Next(); {
			k, v := it.Element()
			if knownString(k) == "QueueName" {
				return v.WithMarks(marks)
			}
		}
		return cty.NullVal(cty.String)
	}
	return dims
}

// scalingTarget is an aws_appautoscaling_target.
type scalingTarget struct {
	rng        hcl.Range
	namespace  string // service_namespace when known
	addr       string
	maxCap     Num
	minCap     Num
	rates      Rates
	resourceID cty.Value
	queue      string // queuecap:queue tag, made absolute
}
