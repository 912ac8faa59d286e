// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// skip records a link that could not be made at rng, for the object at
// addr.
func (b *builder) skip(addr string, rng hcl.Range, reason string) {
	b.skips = append(b.skips, Skip{Rule: skipLink, Range: toRange(rng), Reason: reason, Address: addr})
}

// reportUnlinked is the linker's last step: what it could not link, and
// why.
func (l *linker) reportUnlinked() {
	for _, m := range l.model.Mappings {
		refs := l.refs[m]
		if m.Queue == nil {
			if why, relevant := l.whyUnlinked(refs[0], "aws_sqs_queue", "sqs"); relevant {
				l.skipUnlinked(m.Addr, refRange(refs[0], m.DefRange), fmt.Sprintf("event source mapping %s: its queue (event_source_arn) %s, so the queue's consumer is not checked", m.Addr, why))
			}
		}
		if m.Queue != nil && (m.Function == nil || m.Function.Kind != FleetLambda) {
			why, _ := l.whyUnlinked(refs[1], "aws_lambda_function", "lambda")
			l.skipUnlinked(m.Addr, refRange(refs[1], m.DefRange), fmt.Sprintf("event source mapping %s: its function (function_name) %s, so %s has no linked consumer here", m.Addr, why, m.Queue.Addr))
		}
	}
	for _, t := range sortedValues(l.targets) {
		if t.namespace != "" && t.namespace != "ecs" {
			continue // DynamoDB, Lambda provisioned concurrency, …: no queue consumer
		}
		if f := l.fleetFor(t.resourceID); f == nil || f.Kind != FleetECS {
			why, _ := l.whyUnlinked(l.refs[t][0], "aws_ecs_service", "")
			l.skipUnlinked(t.addr, refRange(l.refs[t][0], t.rng), fmt.Sprintf("scaling target %s: its resource_id %s, so its max_capacity sizes no fleet here", t.addr, why))
		}
	}
	for _, p := range l.model.Policies {
		if p.Fleet != nil {
			continue
		}
		r := l.refs[p][0]
		if s := knownString(r.val); s != "" && !strings.HasPrefix(s, "service/") && strings.Contains(s, "/") {
			continue // an Application Auto Scaling resource that is not an ECS service
		}
		if slices.ContainsFunc(origins(r.val), func(o string) bool {
			t := l.targets[o]
			return t != nil && t.namespace != "" && t.namespace != "ecs"
		}) {
			continue // the resource_id of a scaling target of DynamoDB, Lambda provisioned concurrency, …
		}
		why, _ := l.whyUnlinked(r, "fleet", "")
		l.skipUnlinked(p.Addr, refRange(r, p.DefRange), fmt.Sprintf("scaling policy %s: the fleet it scales %s, so it is not checked", p.Addr, why))
	}
	consuming := map[*Fleet]bool{}
	for _, q := range l.model.Queues {
		for _, f := range q.Consumers {
			consuming[f] = true
		}
	}
	for _, p := range l.model.Policies {
		// A target tracking policy on a customized SQS metric whose queue
		// is not linked, scaling a fleet that consumes no queue otherwise:
		// the alarms' case below.
		if p.Fleet == nil || consuming[p.Fleet] || !readsSQS(p.Metrics) ||
			slices.ContainsFunc(l.policyDims[p], func(d ref) bool { return len(l.queuesOf(d.val)) > 0 }) {
			continue
		}
		rng, why := p.DefRange, "names no aws_sqs_queue of this configuration in its QueueName dimension"
		for _, d := range l.policyDims[p] {
			if w, relevant := l.whyUnlinked(d, "aws_sqs_queue", "sqs"); relevant {
				rng, why = refRange(d, p.DefRange), w
				break
			}
		}
		l.skip(p.Addr, rng, fmt.Sprintf("scaling policy %s tracks SQS metrics, but its queue %s, so %s is linked to no queue through it", p.Addr, why, p.Fleet.Addr))
	}
	for _, a := range l.model.Alarms {
		if len(a.Queues) > 0 || !readsSQS(a.Metrics) {
			continue
		}
		rng := a.DefRange
		why := "names no aws_sqs_queue of this configuration in its QueueName dimension"
		// The first dimensions map whose reason says more than "names
		// no queue" (a module that is not installed, a variable without
		// a value) is the one to point at.
		for i, r := range l.refs[a] {
			w, relevant := l.whyUnlinked(ref{arg: r.arg, val: queueDimension(r.val)}, "aws_sqs_queue", "sqs")
			if !relevant {
				continue
			}
			if i == 0 || !strings.HasPrefix(w, "is not known before apply") {
				rng, why = refRange(r, a.DefRange), w
			}
			if !strings.HasPrefix(w, "is not known before apply") {
				break
			}
		}
		l.skipUnlinked(a.Addr, rng, fmt.Sprintf("alarm %s reads SQS metrics, but its queue %s, so it is not checked against the queue", a.Addr, why))
	}
	l.dropTaken()
	l.reportCoverage()
	for _, f := range l.model.Fleets {
		if f.QueueAddr != "" && l.queues[f.QueueAddr] == nil {
			l.skip(f.Addr, f.QueueTagRange, fmt.Sprintf("the queuecap:queue tag of %s names %s, which is no aws_sqs_queue in this configuration%s",
				f.Addr, f.QueueAddr, suggest(f.QueueAddr, sortedKeys(l.queues))))
		}
	}
}

// skipUnlinked records that the object at addr is not checked at all, for
// reason. The skip saying its instances are checked as one (its count or
// for_each not known), which is then not so, is taken in: one skip, what
// stops the check first, and the advice both give said once.
func (l *linker) skipUnlinked(addr string, rng hcl.Range, reason string) {
	if u := l.unexpanded[addr]; u != nil && !u.taken {
		why := u.why
		if i := strings.LastIndex(why, " ("); i > 0 && strings.HasSuffix(why, ")") && strings.Contains(reason, why[i:]) {
			why = why[:i]
		}
		reason += fmt.Sprintf("; nor are its instances told apart: its %s %s", u.meta, why)
		u.taken = true
	}
	l.skip(addr, rng, reason)
}

// dropTaken drops the skips skipUnlinked took in.
func (l *linker) dropTaken() {
	taken := map[int]bool{}
	for _, u := range l.unexpanded {
		if u.taken {
			taken[u.at] = true
		}
	}
	if len(taken) == 0 {
		return
	}
	kept := l.skips[:0]
	for i, s := range l.skips {
		if !taken[i] {
			kept = append(kept, s)
		}
	}
	l.skips = kept
}

// readsSQS reports an alarm on SQS metrics.
func readsSQS(m MetricSet) bool {
	if slices.Contains(m.Namespaces, "AWS/SQS") {
		return true
	}
	for _, n := range m.Names {
		if strings.HasPrefix(n, "ApproximateNumberOfMessages") || n == MetricAgeOfOldest || n == "NumberOfMessagesSent" ||
			n == "NumberOfMessagesReceived" || n == "NumberOfMessagesDeleted" || n == "NumberOfEmptyReceives" {
			return true
		}
	}
	return false
}

func refRange(r ref, fallback hcl.Range) hcl.Range {
	if r.arg != nil {
		return r.arg.rng
	}
	return fallback
}

// whyUnlinked says why a reference names nothing the linker knows, in
// words a user can act on. relevant is false when the reference clearly
// names something of another service (a DynamoDB stream, a Kinesis
// stream), which no queue rule is about. service is the ARN service the
// reference should have ("sqs", "lambda"), "" for none.
func (l *linker) whyUnlinked(r ref, kind, service string) (string, bool) {
	if r.arg == nil {
		return "is not set", true
	}
	// An ARN built in a template says its service in the text before
	// its first interpolation: "arn:aws:sqs:…:${random_pet.p.id}" is a
	// queue's, whatever resources it is built from.
	if service == "" || arnPrefixService(r.val) != service {
		for _, o := range origins(r.val) {
			if typ := resourceTypeOf(o); typ != "" && service != "" && !strings.HasPrefix(typ, "aws_"+service) && !strings.HasPrefix(typ, "data.") {
				return "", false // another service's resource
			}
		}
	}
	if s := knownString(r.val); s != "" {
		if service != "" && strings.HasPrefix(s, "arn:") {
			parts := strings.Split(s, ":")
			if len(parts) > 2 && parts[2] != service {
				return "", false
			}
		}
		return fmt.Sprintf("is %q, which matches no %s in the linted configuration (is it defined elsewhere?)", s, kind), true
	}
	if why := r.arg.whyUnknown(); why != "" {
		return why, true
	}
	return "is not known before apply and names no " + kind + " of this configuration", true
}

// arnPrefixService is the service of an ARN not known before apply whose
// known start names it ("arn:aws:sqs:eu-west-1:…${x}" is "sqs"), or "".
func arnPrefixService(v cty.Value) string {
	plain, _ := v.Unmark()
	if plain.IsKnown() || plain.Type() != cty.String {
		return ""
	}
	parts := strings.SplitN(plain.Range().StringPrefix(), ":", 4)
	if len(parts) < 4 || parts[0] != "arn" {
		return "" // the service part is not known whole
	}
	return parts[2]
}

// resourceTypeOf is the resource type in an absolute address
// ("module.a.aws_sqs_queue.q[\"x\"]" is aws_sqs_queue), or "".
func resourceTypeOf(addr string) string {
	parts := strings.Split(addr, ".")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "module" {
			i++
			continue
		}
		if parts[i] == "data" && i+1 < len(parts) {
			return "data." + parts[i+1]
		}
		return parts[i]
	}
	return ""
}

// suggest is "; did you mean X?" for the closest of candidates, or "".
func suggest(name string, candidates []string) string {
	if best := textfmt.Closest(name, candidates, len(name)/2+2); best != "" {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return ""
}

// reportCoverage names each queue the capacity rules (zero surplus,
// headroom, retention, retry storm, depth alarms) cannot check: one with no
// linked consumer, or with no declared arrival rate. A dead-letter queue
// (or a queue Lambda sends what it failed to process to: a function's
// dead_letter_config, a stream mapping's on_failure destination) is
// consumed by a replay, not a fleet: it is listed only when a consumer is
// linked to it all the same (a function that handles failed messages),
// which the capacity rules check as any queue's once its rates are
// declared.
func (l *linker) reportCoverage() {
	for _, q := range l.model.Queues {
		if (q.IsDeadLetter || q.FailureDestination) && len(q.Consumers) == 0 {
			continue
		}
		var reason string
		switch roles := l.iam.unmodeled[q]; {
		case len(q.Consumers) == 0 && len(roles) > 0:
			what, it := "IAM role "+roles[0], "it"
			if len(roles) > 1 {
				what, it = "IAM roles "+strings.Join(roles, ", "), "them"
			}
			reason = fmt.Sprintf("%s may be consumed through %s, which may receive and delete its messages, but no Lambda function, ECS service or auto scaling group "+
				"of the linted configuration runs with %s (the compute the linter sizes; an EKS pod's or a lone EC2 instance's is not), "+
				"so that consumer could not be sized and the queue's capacity was not checked", q.Addr, what, it)
		case len(q.Consumers) == 0 && len(q.Mappings) > 0:
			reason = fmt.Sprintf("%s is read by %s, whose function is not a Lambda function of the linted configuration (the link skip there says why), "+
				"so that consumer could not be sized and the queue's capacity was not checked", q.Addr, q.Mappings[0].Addr)
		case len(q.Consumers) == 0:
			reason = fmt.Sprintf("no consumer of %s is linked (an event source mapping, an EventBridge pipe, an IAM role allowed to receive and delete its messages, "+
				"a queuecap:queue tag, a scaling policy on its metrics, or a consumer in its %s queue block), so its capacity was not checked", q.Addr, l.model.ConfigFileName())
		case !q.Rates.ArrivalRate.Set:
			reason = fmt.Sprintf("%s has a consumer (%s) but no declared arrival_rate, so its capacity was not checked: it needs %s, declared in its %s queue block%s, "+
				"as queuecap:* tags (arrival_rate also on an SNS topic feeding it), or by the queuecap data source that sizes its consumer",
				q.Addr, q.Consumers[0].Addr, strings.Join(missingRates(q), ", "), l.model.ConfigFileName(), l.blockHint(q))
		default:
			continue
		}
		l.skips = append(l.skips, Skip{Rule: skipCoverage, Range: toRange(q.DefRange), Reason: reason, Address: q.Addr})
	}
}

// missingRates are the rates a queue without an arrival rate still needs
// for the capacity checks: arrival_rate, each consumer's
// per_consumer_rate, and for the recovery checks max_backlog and
// rto_seconds, those not declared.
func missingRates(q *Queue) []string {
	out := []string{"arrival_rate"}
	var fleets []string
	for _, f := range q.Consumers {
		if r := f.RatesFor(q); !r.PerConsumerRate.Set {
			fleets = append(fleets, f.Addr)
		}
	}
	if len(fleets) > 0 {
		out = append(out, "per_consumer_rate (of "+strings.Join(fleets, ", ")+")")
	}
	var recovery []string
	if !q.Rates.MaxBacklog.Set {
		recovery = append(recovery, "max_backlog")
	}
	if !q.Rates.RTOSeconds.Set {
		recovery = append(recovery, "rto_seconds")
	}
	if len(recovery) > 0 {
		out = append(out, strings.Join(recovery, " and ")+" (for the recovery checks)")
	}
	return out
}

// blockHint says, for a .queuecap.hcl, which commands fill q's queue
// block: none for the tflint plugin's .tflint.hcl, and queuecap init
// writes none for a dead-letter queue.
func (l *linker) blockHint(q *Queue) string {
	switch {
	case l.model.ConfigFileName() != DefaultConfigFile:
		return ""
	case q.IsDeadLetter:
		return " (queuecap rates measures the rates)"
	}
	return " (queuecap init writes it; queuecap rates measures the rates)"
}
