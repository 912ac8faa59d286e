// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"iter"
	"regexp"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/hashicorp/hcl/v2"
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Defaults AWS applies when an attribute is absent.
const (
	defaultRetentionSeconds  = 345600 // four days
	defaultVisibilitySeconds = 30
	defaultLambdaTimeout     = 3
	// The AWS provider's default max_message_size; SQS itself now takes
	// up to 1 MiB.
	defaultMaxMessageBytes = 262144
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
	// clusterRefs are the resources an ECS service's cluster not known
	// before apply is built from, and ecsClusters the known names of the
	// aws_ecs_cluster resources: the cluster's name is known when the
	// service names its cluster by id or ARN (linkClusters).
	clusterRefs map[*Fleet][]string
	ecsClusters map[string]string
	redrives    []redriveRef
	// failureDestinations are where Lambda sends what it failed to
	// process: a function's dead_letter_config, an event source mapping's
	// on_failure destination.
	failureDestinations []cty.Value
	linkOnly            []func() []*resourceInstance // read the resources read only to link others
	iam                 iamRefs                      // roles and what uses them (iam.go)
	pipes               []*pipe
	sns                 snsRefs
	lmi                 lmiRefs // Lambda Managed Instances (lmi.go)
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
	// unexpanded are the skips of resources whose instances are checked
	// as one, by address, with where each is in skips: a resource not
	// checked at all says so in a skip that takes its own in
	// (skipUnlinked).
	unexpanded map[string]*unexpandedAt
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
	// documents are the policy document data sources the front end
	// found, each by address with the reader of its instances, listed
	// when the linker first needs one.
	documents []iter.Seq2[string, documentReader]
}

// unexpandedAt is an unexpandedSkip, where it is in the builder's skips,
// and whether a skip of the resource took it in.
type unexpandedAt struct {
	*unexpandedSkip
	at    int
	taken bool
}

type redriveRef struct {
	queue, policy cty.Value // queue_url (or the queue itself) and redrive_policy
	inline        string    // the queue's address for an inline policy
	maxReceive    Num       // the policy's maxReceiveCount
}

// newBuilder is the builder of a root module whose evaluation records the
// arguments of queuecap data sources in dataArgs and its budgets and
// errors in limits.
func newBuilder(dir string, cfg *Config, dataArgs map[string]Rates, limits *evalLimits) *builder {
	return &builder{
		model: &Model{Dir: dir, ConfigFile: cfg.FileName()}, config: cfg, dataArgs: dataArgs, limits: limits, planAddrs: map[string]string{},
		queues: map[string]*Queue{}, fleets: map[string]*Fleet{}, targets: map[string]*scalingTarget{}, policies: map[string]*Policy{},
		policyRefs: map[*Policy]cty.Value{}, alarmDims: map[*Alarm][]cty.Value{}, alarmActs: map[*Alarm]cty.Value{},
		clusterRefs: map[*Fleet][]string{}, ecsClusters: map[string]string{},
		policyDims: map[*Policy][]ref{}, mappingRefs: map[*EventSourceMapping][2]cty.Value{},
		configMatched: map[string]bool{}, refs: map[any][]ref{}, unexpanded: map[string]*unexpandedAt{},
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

var _ intake = (*builder)(nil)

func (b *builder) addLinkOnly(read func() []*resourceInstance) { b.linkOnly = append(b.linkOnly, read) }

func (b *builder) addDocuments(docs iter.Seq2[string, documentReader]) {
	b.documents = append(b.documents, docs)
}

func (b *builder) addModuleInstance(in *instance) { b.instances = append(b.instances, in) }

func (b *builder) addSkip(s Skip) { b.skips = append(b.skips, s) }

func (b *builder) addDataArgs(addr string, r Rates) { b.dataArgs[addr] = r }

func (b *builder) placeAt(rng hcl.Range, addr string) { b.planAddrs[toRange(rng).String()] = addr }

// addResource models a resource instance a front end hands it. One whose
// siblings could not be told apart (an unknown count) is reported when
// its instances matter to a rule.
func (b *builder) addResource(res *resourceInstance) {
	alarms := len(b.model.Alarms)
	b.modelResource(res)
	if res.unexpanded == nil {
		return
	}
	// An alarm on no SQS metric (logs, CPU) is about no queue: its unknown
	// count hides nothing the rules check.
	otherAlarm := len(b.model.Alarms) > alarms && !readsSQS(b.model.Alarms[alarms].Metrics)
	if !resourceSchemas[res.typ].linkOnly && !otherAlarm && !b.scalesOtherService(res.addr) {
		b.unexpanded[res.addr] = &unexpandedAt{unexpandedSkip: res.unexpanded, at: len(b.skips)}
		b.addSkip(res.unexpanded.Skip)
	}
}

// modelResource models one resource instance.
func (b *builder) modelResource(res *resourceInstance) {
	n, addr := res.body, res.addr
	switch res.typ {
	case "aws_sqs_queue":
		b.addQueue(res)
	case "aws_ecs_cluster":
		b.ecsClusters[addr] = knownString(n.val("name"))
	case "aws_sqs_queue_redrive_policy":
		b.redrives = append(b.redrives, redriveRef{queue: n.val("queue_url"), policy: n.val("redrive_policy"), maxReceive: maxReceiveCount(n.arg("redrive_policy"))})
	case "aws_autoscaling_group", "aws_ecs_service", "aws_lambda_function":
		b.addFleet(res)
		b.addFleetRole(res)
	case "aws_iam_role", "aws_iam_policy", "aws_iam_role_policy", "aws_iam_role_policy_attachment", "aws_iam_policy_attachment",
		"aws_iam_instance_profile", "aws_launch_template", "aws_launch_configuration", "aws_ecs_task_definition":
		b.addIAM(res)
	case "aws_pipes_pipe":
		b.addPipe(res)
	case "aws_sns_topic", "aws_sns_topic_subscription":
		b.addSNS(res)
	case "aws_lambda_capacity_provider":
		b.addCapacityProvider(res)
	case "aws_appautoscaling_target":
		tags := b.tagRates(res.module, n.arg("tags"))
		t := &scalingTarget{addr: addr, maxCap: n.num("max_capacity"), minCap: n.num("min_capacity"),
			rates: tags.rates, resourceID: n.val("resource_id"), rng: res.defRange,
			namespace: knownString(n.val("service_namespace"))}
		b.refs[t] = []ref{n.ref("resource_id")}
		if tags.queue != "" {
			t.queue = resolveAddr(res.module, tags.queue)
		}
		b.targets[addr] = t
	case "aws_autoscaling_policy", "aws_appautoscaling_policy":
		b.addPolicy(res)
	case "aws_cloudwatch_metric_alarm":
		b.addAlarm(res)
	case "aws_lambda_event_source_mapping":
		if v, _ := n.val("enabled").UnmarkDeep(); v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool && v.False() {
			return // a disabled mapping consumes nothing
		}
		if d := n.first("destination_config"); d != nil {
			if f := d.first("on_failure"); f != nil {
				b.failureDestinations = append(b.failureDestinations, f.val("destination_arn"))
			}
		}
		if n.has("starting_position") && !n.val("starting_position").IsNull() {
			// Only a stream (Kinesis, DynamoDB, Kafka) has a starting
			// position; AWS refuses one on an SQS mapping.
			return
		}
		m := &EventSourceMapping{Addr: addr, DefRange: res.defRange, Limits: b.config.Limits(),
			BatchSize:      withDefault(n.num("batch_size"), capacity.DefaultSQSBatchSize, res.defRange, "batch_size"),
			BatchingWindow: withDefault(n.num("maximum_batching_window_in_seconds"), capacity.DefaultSQSBatchingWindowSeconds, res.defRange, "maximum_batching_window_in_seconds"),
			ResponseTypes:  n.responseTypes(res.defRange),
		}
		if sc := n.first("scaling_config"); sc != nil {
			m.MaximumConcurrency = sc.num("maximum_concurrency")
		}
		if pc := n.first("provisioned_poller_config"); pc != nil && pc.unknown {
			m.PollersRange = pc.rng
			m.ModeUnknown = dynamicUnknown + ", so whether the mapping is in provisioned mode is not known"
		} else if pc != nil {
			m.Provisioned, m.PollersRange = true, pc.rng
			m.MinimumPollers = withDefault(pc.num("minimum_pollers"), m.Limit(capacity.LimitLambdaMinimumPollersLeast), pc.rng, "minimum_pollers")
			m.MaximumPollers = withDefault(pc.num("maximum_pollers"), m.Limit(capacity.LimitLambdaMaximumPollersDefault), pc.rng, "maximum_pollers")
		}
		src, fn := n.ref("event_source_arn"), n.ref("function_name")
		b.mappingRefs[m] = [2]cty.Value{src.val, fn.val}
		b.refs[m] = []ref{src, fn}
		b.model.Mappings = append(b.model.Mappings, m)
	}
}

// num reads a numeric argument: unset, set but unknown, or known.
func (n *block) num(name string) Num {
	a := n.arg(name)
	if a == nil {
		return Num{}
	}
	v := a.value()
	if v.IsKnown() && v.IsNull() {
		return Num{} // null is Terraform's way of leaving an argument unset
	}
	f, ok := number(v)
	num := Num{V: f, Set: true, Known: ok, Range: a.rng, From: name, Origins: origins(v)}
	if !v.IsWhollyKnown() {
		num.Why = a.whyUnknown()
	}
	return num
}

// setting reads a string or bool argument, converted to typ as Terraform
// converts it ("true" is a bool): unset (or null), set but unknown, or
// known.
func setting[T string | bool](n *block, name string, typ cty.Type, get func(cty.Value) T) model.Setting[T] {
	a := n.arg(name)
	if a == nil {
		return model.Setting[T]{}
	}
	v := a.value()
	if v.IsKnown() && v.IsNull() {
		return model.Setting[T]{}
	}
	s := model.Setting[T]{Set: true, Range: a.rng}
	plain, _ := v.UnmarkDeep()
	switch c, err := convert.Convert(plain, typ); {
	case err == nil && c.IsKnown() && !c.IsNull():
		s.V, s.Known = get(c), true
	case plain.IsWhollyKnown():
		s.Why = "is not a " + typ.FriendlyName() // Terraform refuses it
	default:
		s.Why = a.whyUnknown()
	}
	return s
}

// responseTypes reads function_response_types: absent or null is none.
func (n *block) responseTypes(defRange hcl.Range) model.ResponseTypes {
	rt := model.ResponseTypes{Known: true, Range: defRange}
	a := n.arg("function_response_types")
	if a == nil {
		return rt
	}
	rt.Range = a.rng
	v, _ := a.value().UnmarkDeep()
	if !v.IsKnown() {
		rt.Known, rt.Why = false, a.whyUnknown()
		return rt
	}
	if v.IsNull() || !v.CanIterateElements() {
		return rt
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		switch {
		case !e.IsKnown():
			// One unknown element may be ReportBatchItemFailures.
			rt.Known, rt.Why = false, a.whyUnknown()
		case !e.IsNull() && e.Type() == cty.String && e.AsString() == model.ReportBatchItemFailures:
			rt.ReportBatchItemFailures, rt.Known, rt.Why = true, true, ""
			return rt
		}
	}
	return rt
}

// withDefault is a numeric attribute, or AWS's default when it is absent.
func withDefault(num Num, def float64, rng hcl.Range, name string) Num {
	if num.Set {
		return num
	}
	return Num{V: def, Set: true, Known: true, Range: rng, From: name + " (default)"}
}

// name is a string argument that names what AWS knows the resource by, or
// why it is not known before apply.
func (n *block) name(attr string) (string, string) {
	a := n.arg(attr)
	if a == nil || a.value().IsNull() {
		if attr == "cluster" {
			return "default", "" // ECS's default cluster
		}
		return "", attr + " is not set: AWS chooses it at apply"
	}
	if s := knownString(a.value()); s != "" {
		return s, ""
	}
	if why := a.whyUnknown(); why != "" {
		return "", attr + " " + why
	}
	return "", attr + " is not known before apply"
}

func knownString(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		return v.AsString()
	}
	return ""
}

// taggedRates are the queuecap:* tags of a resource.
type taggedRates struct {
	rates      Rates
	queue      string    // queuecap:queue
	queueRange hcl.Range // where it is written
}

// tagRates reads queuecap:* entries from a tags map, written in the
// module instance at module.
func (b *builder) tagRates(module string, a *arg) taggedRates {
	var out taggedRates
	if a == nil {
		return out
	}
	v, _ := a.value().UnmarkDeep()
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() || (!v.Type().IsMapType() && !v.Type().IsObjectType()) {
		return out
	}
	// Each entry written in place is placed at its value.
	places := a.entryRanges()
	for it := v.ElementIterator(); it.Next(); {
		k, val := it.Element()
		key := knownString(k)
		at, ok := places[key]
		if !ok {
			at = a.rng
		}
		b.addTag(module, &out, key, val, a.rng, at)
	}
	return out
}

// addTag reads one tag, written at rng, into t; a queuecap:* rate whose
// value is known but no valid rate is an error at its value, at.
func (b *builder) addTag(module string, t *taggedRates, key string, val cty.Value, rng, at hcl.Range) {
	if why := t.add(key, val, rng); why != "" {
		if b.badTagSeen == nil {
			b.badTagSeen = map[hcl.Range]bool{}
		}
		if !b.badTagSeen[at] {
			b.badTagSeen[at] = true
			b.badTags = append(b.badTags, inInstance(&hcl.Diagnostic{Severity: hcl.DiagError,
				Summary: "Invalid queuecap tag", Detail: why, Subject: at.Ptr()}, module))
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
		// A misspelt rate (queuecap:sla_second, queuecap:arrival-rate)
		// would switch its rule off without a word.
		return unknownTag(key, name)
	}
	v, known, why := tagNumber(name, val)
	if why != "" {
		return "tag " + key + strings.TrimPrefix(why, name)
	}
	*f = Num{V: v, Set: true, Known: known, Range: rng, From: "tag " + key}
	return ""
}

// unknownTag is why queuecap:name is no tag queuecap reads, with the
// closest one.
func unknownTag(key, name string) string {
	names := append([]string{"queue"}, rateNames()...)
	// - and spaces read as _, so that queuecap:arrival-rate finds
	// arrival_rate.
	fix := strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(name))
	hint := "."
	if best := textfmt.Closest(fix, names, len(fix)/2+2); best != "" {
		hint = "; did you mean queuecap:" + best + "?"
	}
	return fmt.Sprintf("tag %s is not a tag queuecap reads%s A misspelt rate is not declared, so no rule that needs it checks this resource. "+
		"queuecap reads queuecap:%s", key, hint, strings.Join(names, ", queuecap:"))
}

// rateNames are the rates a queuecap:* tag declares.
func rateNames() []string {
	out := make([]string, len(model.RateFields))
	for i, f := range model.RateFields {
		out[i] = f.Name
	}
	return out
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

func (b *builder) addQueue(res *resourceInstance) {
	n, addr := res.body, res.addr
	q := &Queue{Addr: addr, DefRange: res.defRange, Limits: b.config.Limits()}
	q.Name, q.NameWhy = n.name("name")
	q.Declared.Add(model.SourceTags, b.tagRates(res.module, n.arg("tags")).rates)
	q.Retention = withDefault(n.num("message_retention_seconds"), defaultRetentionSeconds, res.defRange, "message_retention_seconds")
	q.Visibility = withDefault(n.num("visibility_timeout_seconds"), defaultVisibilitySeconds, res.defRange, "visibility_timeout_seconds")
	q.MaxMessageBytes = withDefault(n.num("max_message_size"), defaultMaxMessageBytes, res.defRange, "max_message_size")
	q.FIFO = setting(n, "fifo_queue", cty.Bool, cty.Value.True)
	q.FIFOThroughputLimit = setting(n, "fifo_throughput_limit", cty.String, cty.Value.AsString)
	q.DeduplicationScope = setting(n, "deduplication_scope", cty.String, cty.Value.AsString)
	q.Region = setting(n, "region", cty.String, cty.Value.AsString)
	if a := n.arg("redrive_policy"); a != nil {
		v := a.value()
		if !v.IsKnown() || !v.IsNull() {
			// jsonencode() over a dead-letter queue's ARN is unknown
			// before apply but never null: a redrive policy all the same.
			plain, _ := v.UnmarkDeep()
			q.HasRedrive = plain.IsKnown() || !plain.Range().CouldBeNull()
			q.RedriveUnknown, q.RedriveRange = !q.HasRedrive, a.rng
			q.MaxReceiveCount = maxReceiveCount(a)
			b.redrives = append(b.redrives, redriveRef{policy: v, inline: addr})
		}
	}
	b.queues[addr] = q
	b.model.Queues = append(b.model.Queues, q)
}

func (b *builder) addFleet(res *resourceInstance) {
	n, addr := res.body, res.addr
	f := &Fleet{Kind: FleetKind(res.typ), Addr: addr, DefRange: res.defRange}
	var tags taggedRates
	switch f.Kind {
	case FleetASG:
		f.Name, f.NameWhy = n.name("name")
		f.MaxSize, f.SizeAttr = n.num("max_size"), "max_size"
		f.MinSize = n.num("min_size")
		for _, tag := range n.blocks["tag"] {
			at := tag.rng
			if a := tag.arg("value"); a != nil {
				at = a.valueRange
			}
			b.addTag(res.module, &tags, knownString(tag.val("key")), tag.val("value"), tag.rng, at)
		}
		f.Replacement = asgReplacement(n)
		f.Warmup = asgWarmup(n)
	case FleetECS:
		f.Name, f.NameWhy = n.name("name")
		f.Cluster, f.ClusterWhy = n.name("cluster")
		if f.Cluster == "" {
			b.clusterRefs[f] = origins(n.val("cluster"))
		}
		// cluster takes a name or an ARN, arn:aws:ecs:…:cluster/NAME.
		if i := strings.LastIndex(f.Cluster, ":cluster/"); i >= 0 && strings.HasPrefix(f.Cluster, "arn:") {
			f.Cluster = f.Cluster[i+len(":cluster/"):]
		}
		f.MaxSize, f.SizeAttr = n.num("desired_count"), "desired_count"
		f.Replacement = ecsReplacement(n, res.defRange)
		f.Warmup = model.Warmup{GracePeriod: n.num("health_check_grace_period_seconds"), GraceAttr: "health_check_grace_period_seconds"}
		tags = b.tagRates(res.module, n.arg("tags"))
	case FleetLambda:
		f.Name, f.NameWhy = n.name("function_name")
		f.MaxSize, f.SizeAttr = n.num("reserved_concurrent_executions"), "reserved_concurrent_executions"
		if f.MaxSize.Known && f.MaxSize.V < 0 {
			f.MaxSize.Known = false // -1: unreserved, bounded only by the account (Fleet.Unreserved)
		}
		f.Reserved = f.MaxSize
		f.TimeoutSeconds = withDefault(n.num("timeout"), defaultLambdaTimeout, res.defRange, "timeout")
		if dl := n.first("dead_letter_config"); dl != nil {
			b.failureDestinations = append(b.failureDestinations, dl.val("target_arn"))
		}
		b.readManagedInstances(f, n)
		tags = b.tagRates(res.module, n.arg("tags"))
	}
	f.Declared.Add(model.SourceTags, tags.rates)
	if tags.queue != "" {
		f.QueueAddr, f.QueueTagRange = resolveAddr(res.module, tags.queue), tags.queueRange
	}
	f.Declared.Add(model.SourceDataSource, b.dataSourceRates(f.MaxSize))
	b.fleets[addr] = f
	b.model.Fleets = append(b.model.Fleets, f)
}

// asgWarmup is what an auto scaling group says of how its new instances
// warm up, for --explain (model.Warmup).
func asgWarmup(n *block) model.Warmup {
	w := model.Warmup{DefaultInstanceWarmup: n.num("default_instance_warmup"), GracePeriod: n.num("health_check_grace_period"), GraceAttr: "health_check_grace_period"}
	if wp := n.first("warm_pool"); wp != nil {
		w.WarmPool = &model.WarmPool{Range: wp.rng, PoolState: setting(wp, "pool_state", cty.String, cty.Value.AsString),
			MinSize: wp.num("min_size"), MaxGroupPreparedCapacity: wp.num("max_group_prepared_capacity")}
	}
	return w
}

// asgReplacement is what an auto scaling group keeps in service while an
// instance refresh or its instance maintenance policy replaces instances:
// an instance refresh's preferences, else the policy's percentages, else
// AWS's defaults; nil when it has neither block.
func asgReplacement(n *block) *model.Replacement {
	refresh, policy := n.first("instance_refresh"), n.first("instance_maintenance_policy")
	for _, blk := range []struct {
		b    *block
		name string
	}{{refresh, "instance_refresh"}, {policy, "instance_maintenance_policy"}} {
		if blk.b != nil && blk.b.unknown {
			// Whether the group is replaced at all is not known.
			return &model.Replacement{Kind: model.ReplaceInstanceRefresh, Range: blk.b.rng, StrategyAttr: blk.name,
				Strategy: model.Setting[string]{Set: true, Range: blk.b.rng, Why: dynamicUnknown}}
		}
	}
	switch {
	case refresh != nil:
		r := &model.Replacement{Kind: model.ReplaceInstanceRefresh, Range: refresh.rng}
		if prefs := refresh.first("preferences"); prefs != nil {
			r.MinHealthy, r.MaxHealthy = prefs.num("min_healthy_percentage"), prefs.num("max_healthy_percentage")
			r.MinAttr, r.MaxAttr = "instance_refresh.preferences.min_healthy_percentage", "instance_refresh.preferences.max_healthy_percentage"
		}
		// AWS takes a percentage the refresh leaves unset from the
		// maintenance policy.
		if policy != nil && !r.MinHealthy.Set {
			r.MinHealthy, r.MinAttr = policy.num("min_healthy_percentage"), "instance_maintenance_policy.min_healthy_percentage"
		}
		if policy != nil && !r.MaxHealthy.Set {
			r.MaxHealthy, r.MaxAttr = policy.num("max_healthy_percentage"), "instance_maintenance_policy.max_healthy_percentage"
		}
		return defaultAttrs(r, "instance_refresh.preferences.min_healthy_percentage", "instance_refresh.preferences.max_healthy_percentage")
	case policy != nil:
		r := &model.Replacement{Kind: model.ReplaceInstanceMaintenance, Range: policy.rng,
			MinHealthy: policy.num("min_healthy_percentage"), MaxHealthy: policy.num("max_healthy_percentage")}
		return defaultAttrs(r, "instance_maintenance_policy.min_healthy_percentage", "instance_maintenance_policy.max_healthy_percentage")
	}
	return nil
}

// dynamicUnknown says why a block a dynamic block generates from a
// for_each not known before apply is not known (block.unknown).
const dynamicUnknown = "comes from a dynamic block whose for_each is not known before apply"

// defaultAttrs names the percentages a replacement leaves unset, or not
// yet named.
func defaultAttrs(r *model.Replacement, minAttr, maxAttr string) *model.Replacement {
	if r.MinAttr == "" || !r.MinHealthy.Set {
		r.MinAttr = minAttr
	}
	if r.MaxAttr == "" || !r.MaxHealthy.Set {
		r.MaxAttr = maxAttr
	}
	return r
}

// ecsReplacement is what an ECS service keeps running during a
// deployment: a rolling update (ECS's default controller and strategy)
// keeps deployment_minimum_healthy_percent; any other controller or
// strategy starts the new tasks beside the old.
func ecsReplacement(n *block, defRange hcl.Range) *model.Replacement {
	r := &model.Replacement{Kind: model.ReplaceECSRolling, Range: defRange,
		MinHealthy: n.num("deployment_minimum_healthy_percent"), MaxHealthy: n.num("deployment_maximum_percent"),
		MinAttr: "deployment_minimum_healthy_percent", MaxAttr: "deployment_maximum_percent"}
	for _, c := range []struct{ block, attr, rolling string }{
		{"deployment_controller", "type", "ECS"},
		{"deployment_configuration", "strategy", "ROLLING"},
	} {
		st := setting(n.first(c.block), c.attr, cty.String, cty.Value.AsString)
		switch {
		case !st.Set || (st.Known && st.V == c.rolling):
		case st.Known:
			return &model.Replacement{Kind: model.ReplaceECSBlueGreen, Range: st.Range}
		case !r.Strategy.Set:
			r.Strategy, r.StrategyAttr = st, c.block+"."+c.attr
		}
	}
	return r
}

// resolveAddr makes an address written inside a module absolute: a tag on
// a fleet in module.a naming aws_sqs_queue.q means module.a.aws_sqs_queue.q.
func resolveAddr(module, addr string) string {
	if module == "" || strings.HasPrefix(addr, "module.") {
		return addr
	}
	return module + "." + addr
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

func (b *builder) addPolicy(res *resourceInstance) {
	n, addr := res.body, res.addr
	p := &Policy{Addr: addr, DefRange: res.defRange, ScaleOut: true}
	refName := "autoscaling_group_name"
	kind := knownString(n.val("policy_type"))
	if res.typ == "aws_appautoscaling_policy" {
		refName = "resource_id"
		if kind == "" && !n.has("policy_type") {
			kind = string(PolicyStep)
		}
	} else if kind == "" && !n.has("policy_type") {
		kind = string(PolicySimple)
	}
	switch PolicyKind(kind) {
	case PolicyStep, PolicySimple, PolicyTargetTracking:
		p.Kind = PolicyKind(kind)
	default:
		p.Kind = PolicyOther
	}
	b.policyRefs[p] = n.val(refName)
	b.refs[p] = []ref{n.ref(refName)}

	// Adjustments known to be negative only ever scale in.
	var adjustments []Num
	if a := n.num("scaling_adjustment"); a.Set {
		adjustments = append(adjustments, a)
	}
	steps, conf := n.blocks["step_adjustment"], n
	if c := n.first("step_scaling_policy_configuration"); c != nil {
		steps, conf = append(steps, c.blocks["step_adjustment"]...), c
	}
	if v := conf.val("adjustment_type"); !v.IsKnown() || !v.IsNull() {
		if p.AdjustmentType = knownString(v); p.AdjustmentType == "" {
			p.AdjustmentType = "unknown"
		}
	}
	p.DynamicSteps = n.generates("step_adjustment", "step_scaling_policy_configuration")
	p.EstimatedInstanceWarmup = n.num("estimated_instance_warmup")
	for _, s := range steps {
		step := Step{Lower: s.num("metric_interval_lower_bound"), Upper: s.num("metric_interval_upper_bound"),
			Adjustment: s.num("scaling_adjustment")}
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
			p.Predefined = knownString(pre.val("predefined_metric_type"))
			if p.Predefined == "" {
				p.Predefined = "unknown"
			}
		}
		if cm := tt.first("customized_metric_specification"); cm != nil {
			p.Metrics, b.policyDims[p] = readCustomMetric(cm)
			if period := cm.num("period"); period.Set {
				p.MetricPeriods = append(p.MetricPeriods, period)
			}
			for _, m := range cm.blocks["metrics"] {
				if period := m.first("metric_stat").num("period"); period.Set {
					p.MetricPeriods = append(p.MetricPeriods, period)
				}
			}
		}
	}
	pc := n.first("predictive_scaling_configuration")
	if pc == nil {
		pc = n.first("predictive_scaling_policy_configuration")
	}
	if pc != nil {
		p.Predictive = &model.Predictive{Range: pc.rng,
			Mode:                      setting(pc, "mode", cty.String, cty.Value.AsString),
			MaxCapacityBreachBehavior: setting(pc, "max_capacity_breach_behavior", cty.String, cty.Value.AsString),
			MaxCapacityBuffer:         pc.num("max_capacity_buffer")}
		if pc.unknown {
			// Whether the policy exists is not known: it may forecast and
			// scale past the maximum.
			for _, s := range []*model.Setting[string]{&p.Predictive.Mode, &p.Predictive.MaxCapacityBreachBehavior} {
				if !s.Set {
					*s = model.Setting[string]{Set: true, Range: pc.rng, Why: dynamicUnknown}
				}
			}
		}
		// A forecast alone (ForecastOnly, AWS's default mode) scales
		// nothing.
		p.ScaleOut = p.Predictive.Mode.Set && (!p.Predictive.Mode.Known || p.Predictive.Mode.V != model.PredictiveForecastOnly)
	}
	b.policies[addr] = p
	b.model.Policies = append(b.model.Policies, p)
}

// readCustomMetric reads a target tracking customized metric: a single
// metric with dimensions, or metric math over metric_stat entries.
func readCustomMetric(cm *block) (MetricSet, []ref) {
	set := MetricSet{Known: true, NamesKnown: true}
	var dims []ref
	addName(&set, cm.val("metric_name"), cm.has("metric_name"))
	addNamespace(&set, cm.val("namespace"))
	for _, d := range append(cm.blocks["metric_dimension"], cm.blocks["dimensions"]...) {
		if knownString(d.val("name")) == "QueueName" {
			dims = append(dims, d.ref("value"))
		}
	}
	var queries []metricQuery
	for _, m := range cm.blocks["metrics"] {
		q := metricQuery{id: knownString(m.val("id")), returnData: m.val("return_data")}
		q.expression = m.val("expression")
		q.hasExpression = setTo(q.expression, m.has("expression"))
		if ms := m.first("metric_stat"); ms != nil {
			if metric := ms.first("metric"); metric != nil {
				q.metricName = metric.val("metric_name")
				q.hasMetric = setTo(q.metricName, metric.has("metric_name"))
				q.namespace = metric.val("namespace")
				for _, d := range metric.blocks["dimensions"] {
					if knownString(d.val("name")) == "QueueName" {
						dims = append(dims, d.ref("value"))
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

func (b *builder) addAlarm(res *resourceInstance) {
	n, addr := res.body, res.addr
	a := &Alarm{Addr: addr, DefRange: res.defRange, Metrics: MetricSet{Known: true, NamesKnown: true}}
	a.Comparison = knownString(n.val("comparison_operator"))
	a.Threshold = n.num("threshold")
	a.ThresholdRates = b.dataSourceRates(a.Threshold)
	a.EvaluationPeriods, a.DatapointsToAlarm = n.num("evaluation_periods"), n.num("datapoints_to_alarm")
	addPeriod := func(p Num) {
		if p.Set {
			a.Periods = append(a.Periods, p)
		}
	}
	addPeriod(n.num("period"))
	if n.generates("metric_query") || n.generates("metric", "metric_query") {
		a.PeriodsWhy = "a dynamic block generates its metric_query blocks"
	}
	var dims []cty.Value
	var dimRefs []ref // where each dimensions map is written, to say why it links no queue
	addDims := func(r ref) {
		dims = append(dims, queueDimension(r.val))
		if r.arg != nil {
			dimRefs = append(dimRefs, r)
		}
	}
	if n.has("metric_name") {
		a.Simple = true
		addName(&a.Metrics, n.val("metric_name"), true)
		addNamespace(&a.Metrics, n.val("namespace"))
		addDims(n.ref("dimensions"))
	}
	var queries []metricQuery
	for _, mq := range n.blocks["metric_query"] {
		q := metricQuery{id: knownString(mq.val("id")), returnData: mq.val("return_data")}
		q.expression = mq.val("expression")
		q.hasExpression = setTo(q.expression, mq.has("expression"))
		addPeriod(mq.num("period"))
		if m := mq.first("metric"); m != nil {
			addPeriod(m.num("period"))
			q.metricName = m.val("metric_name")
			q.hasMetric = setTo(q.metricName, m.has("metric_name"))
			q.namespace = m.val("namespace")
			addDims(m.ref("dimensions"))
		}
		queries = append(queries, q)
	}
	addQueries(&a.Metrics, queries)
	b.alarmDims[a] = dims
	b.refs[a] = dimRefs
	b.alarmActs[a] = n.val("alarm_actions")
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
