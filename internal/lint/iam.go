// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// A fleet whose role may receive and delete the messages of a queue
// consumes it: the link a real configuration writes when no mapping, tag or
// scaling policy names the queue. The role is a Lambda function's role, the
// task role of an ECS service's task definition, or the role of the
// instance profile in an auto scaling group's launch template or launch
// configuration. What it may do is read from its inline policies, the
// policies attached to it and the AWS managed policies that allow SQS,
// each written as jsonencode({...}), a JSON string or an
// aws_iam_policy_document (policy.go reads them).

// iamKind is a resource on the way from a fleet to its role's policies.
type iamKind uint8

const (
	iamRole     iamKind = iota // aws_iam_role
	iamProfile                 // aws_iam_instance_profile, naming its role
	iamTemplate                // aws_launch_template or aws_launch_configuration, naming its instance profile
	iamTaskDef                 // aws_ecs_task_definition, naming its task role
	iamPolicy                  // aws_iam_policy
	iamKinds
)

// nextIAM is the kind of resource each kind names on the way to a role.
var nextIAM = map[iamKind]iamKind{iamTemplate: iamProfile, iamProfile: iamRole, iamTaskDef: iamRole}

// iamNode is one such resource: its known name, for references by name or
// ARN, the values naming the next resource on the way to a role, and a
// role's or a policy's own policies.
type iamNode struct {
	addr     string
	name     string
	next     []cty.Value
	policies []policyRef
}

// policyRef is one policy of a role: a document, or policy ARNs (of an
// aws_iam_policy, or of an AWS managed policy).
type policyRef struct {
	doc *policyDoc
	arn cty.Value
	rng hcl.Range
}

// iamAttachment gives the roles it names a policy: aws_iam_role_policy,
// aws_iam_role_policy_attachment, aws_iam_policy_attachment.
type iamAttachment struct {
	roles  cty.Value
	policy policyRef
}

// fleetRole is what names a fleet's role: the kind of the first resource on
// the way and the values naming it.
type fleetRole struct {
	kind iamKind
	refs []cty.Value
}

// iamRefs are what the walk read of IAM, linked once every resource is
// known.
type iamRefs struct {
	nodes       [iamKinds]map[string]*iamNode
	byName      [iamKinds]map[string][]*iamNode
	attachments []iamAttachment
	fleets      map[string]fleetRole // by fleet address
	// documents are the aws_iam_policy_document data sources of every
	// module instance evaluated, by absolute address, and the statements
	// of those read so far.
	documents  map[string]documentReader
	statements map[string][]statement
	roleStmts  map[*iamNode][]statement
	// unmodeled are, by queue, the roles that may receive and delete its
	// messages but that no fleet the linter models runs with.
	unmodeled map[*Queue][]string
}

func (r *iamRefs) add(kind iamKind, addr string, name cty.Value, next ...cty.Value) *iamNode {
	if r.nodes[kind] == nil {
		r.nodes[kind] = map[string]*iamNode{}
	}
	n := &iamNode{addr: addr, name: knownString(name), next: next}
	r.nodes[kind][addr] = n
	return n
}

// addIAM records a role, a policy or attachment, or a resource on the way
// from a fleet to its role.
func (b *builder) addIAM(res *resourceInstance) {
	n, addr := res.body, res.addr
	switch res.typ {
	case "aws_iam_role":
		role := b.iam.add(iamRole, addr, n.val("name"))
		for _, inline := range n.blocks["inline_policy"] {
			if d := readPolicyDoc(inline.arg("policy")); d != nil {
				role.policies = append(role.policies, policyRef{doc: d, rng: d.rng})
			}
		}
		if a := n.arg("managed_policy_arns"); a != nil {
			role.policies = append(role.policies, policyRef{arn: a.value(), rng: a.rng})
		}
	case "aws_iam_policy":
		p := b.iam.add(iamPolicy, addr, n.val("name"))
		if d := readPolicyDoc(n.arg("policy")); d != nil {
			p.policies = append(p.policies, policyRef{doc: d, rng: d.rng})
		}
	case "aws_iam_role_policy":
		if d := readPolicyDoc(n.arg("policy")); d != nil {
			b.iam.attachments = append(b.iam.attachments, iamAttachment{roles: n.val("role"), policy: policyRef{doc: d, rng: d.rng}})
		}
	case "aws_iam_role_policy_attachment", "aws_iam_policy_attachment":
		roles := "role"
		if res.typ == "aws_iam_policy_attachment" {
			roles = "roles"
		}
		if a := n.arg("policy_arn"); a != nil {
			b.iam.attachments = append(b.iam.attachments, iamAttachment{roles: n.val(roles), policy: policyRef{arn: a.value(), rng: a.rng}})
		}
	case "aws_iam_instance_profile":
		b.iam.add(iamProfile, addr, n.val("name"), n.val("role"))
	case "aws_launch_template":
		var profile []cty.Value
		if p := n.first("iam_instance_profile"); p != nil {
			profile = append(profile, p.val("name"), p.val("arn"))
		}
		b.iam.add(iamTemplate, addr, n.val("name"), profile...)
	case "aws_launch_configuration":
		b.iam.add(iamTemplate, addr, n.val("name"), n.val("iam_instance_profile"))
	case "aws_ecs_task_definition":
		b.iam.add(iamTaskDef, addr, n.val("family"), n.val("task_role_arn"))
	}
}

// addFleetRole records what names a fleet's role: a Lambda function's
// role, an ECS service's task definition, an auto scaling group's launch
// template (directly or in its mixed instances policy) or launch
// configuration.
func (b *builder) addFleetRole(res *resourceInstance) {
	n, addr := res.body, res.addr
	var fr fleetRole
	switch res.typ {
	case "aws_lambda_function":
		fr = fleetRole{kind: iamRole, refs: []cty.Value{n.val("role")}}
	case "aws_ecs_service":
		fr = fleetRole{kind: iamTaskDef, refs: []cty.Value{n.val("task_definition")}}
	case "aws_autoscaling_group":
		fr = fleetRole{kind: iamTemplate, refs: []cty.Value{n.val("launch_configuration")}}
		for _, lt := range n.blocks["launch_template"] {
			fr.refs = append(fr.refs, lt.val("id"), lt.val("name"))
		}
		for _, mip := range n.blocks["mixed_instances_policy"] {
			for _, lt := range mip.blocks["launch_template"] {
				for _, spec := range lt.blocks["launch_template_specification"] {
					fr.refs = append(fr.refs, spec.val("launch_template_id"), spec.val("launch_template_name"))
				}
			}
		}
	default:
		return
	}
	if b.iam.fleets == nil {
		b.iam.fleets = map[string]fleetRole{}
	}
	b.iam.fleets[addr] = fr
}

// readLinkOnly reads the resources that only link others (roles, topics),
// when there is a queue to link them to: most large configurations hold
// many roles and no queue.
func (l *linker) readLinkOnly() {
	if len(l.model.Queues) == 0 {
		return
	}
	for _, read := range l.linkOnly {
		for _, res := range read() {
			l.addResource(res)
		}
	}
}

// linkIAMConsumers makes each fleet consume the queues its role may
// receive and delete messages from, naming the role as how. Of those, a
// dead-letter queue of a queue the fleet consumes is left out: a worker
// allowed to read its dead letters (to inspect or redrive them) does not
// consume them. So is a queue whose consumers are declared (an event
// source mapping, a queuecap:queue tag, a .queuecap.hcl consumer, a
// scaling policy on its metrics, a pipe): a role shared by the workers, a
// scheduler and a web server says nothing the declaration does not, and
// counting the others would hide the workers' shortfall; the queue keeps
// them as IgnoredConsumers for --explain. A role allowed every queue
// (Resource "*") links no queue; when its fleet consumes none otherwise,
// a skip says so, unless an AWS managed policy allows it: one attached
// to every function of a module is no sign of a consumer. A role no
// fleet runs with is recorded against the queues it may consume
// (unmodeledRoles).
func (l *linker) linkIAMConsumers() {
	if len(l.iam.nodes[iamRole]) == 0 || len(l.model.Queues) == 0 {
		return
	}
	l.indexIAM()
	fleetRoles := map[*iamNode]bool{}
	sources := l.deadLetterSources()
	declared := map[*Queue][]string{}
	for _, q := range l.model.Queues {
		for _, f := range q.Consumers {
			declared[q] = append(declared[q], f.Addr)
		}
	}
	for _, f := range l.model.Fleets {
		fr, ok := l.iam.fleets[f.Addr]
		if !ok {
			continue
		}
		type candidate struct {
			q    *Queue
			role *iamNode
		}
		var candidates []candidate
		var every *statement
		var everyRole *iamNode
		for _, role := range l.rolesOf(fr) {
			fleetRoles[role] = true
			stmts := l.roleStatements(role)
			for _, q := range l.model.Queues {
				if mayConsume(stmts, q) && !slices.ContainsFunc(candidates, func(c candidate) bool { return c.q == q }) {
					candidates = append(candidates, candidate{q, role})
				}
			}
			if s, ok := mayConsumeEvery(stmts); ok && every == nil && !s.managed {
				every, everyRole = &s, role
			}
		}
		consumed := func(q *Queue) bool {
			return slices.Contains(f.Queues, q) || slices.ContainsFunc(candidates, func(c candidate) bool { return c.q == q })
		}
		for _, c := range candidates {
			switch ds := declared[c.q]; {
			case slices.ContainsFunc(sources[c.q], consumed):
			case len(ds) > 0 && !slices.Contains(ds, f.Addr):
				c.q.IgnoredConsumers = append(c.q.IgnoredConsumers, IgnoredConsumer{Fleet: f, Reason: fmt.Sprintf(
					"IAM role %s lets it receive and delete the queue's messages, but the queue's consumers are declared (%s), and a declared consumer takes precedence over one IAM implies",
					c.role.addr, strings.Join(ds, ", "))})
			default:
				l.consumeThrough(c.q, f, "IAM role "+c.role.addr)
			}
		}
		if every != nil && len(f.Queues) == 0 && slices.ContainsFunc(l.model.Queues, func(q *Queue) bool { return !q.IsDeadLetter }) {
			l.skip(f.Addr, every.rng, fmt.Sprintf("IAM role %s lets %s receive and delete the messages of every queue (Resource \"*\"), so which queue it consumes is not known: "+
				"name the queue in the policy's Resource, tag the fleet queuecap:queue, or name it as the consumer in the queue's %s block", everyRole.addr, f.Addr, l.model.ConfigFileName()))
		}
	}
	l.unmodeledRoles(fleetRoles)
}

// unmodeledRoles records, by queue, the roles that may receive and delete
// its messages but that no Lambda function, ECS service or auto scaling
// group runs with (an EKS pod's through pod identity or IRSA, a lone EC2
// instance's): a consumer the linter cannot size, which the queue's
// coverage skip names rather than saying it has none.
func (l *linker) unmodeledRoles(fleetRoles map[*iamNode]bool) {
	l.iam.unmodeled = map[*Queue][]string{}
	for _, addr := range sortedKeys(l.iam.nodes[iamRole]) {
		role := l.iam.nodes[iamRole][addr]
		if fleetRoles[role] {
			continue
		}
		stmts := l.roleStatements(role)
		for _, q := range l.model.Queues {
			if mayConsume(stmts, q) {
				l.iam.unmodeled[q] = append(l.iam.unmodeled[q], role.addr)
			}
		}
	}
}

// consumeThrough records that f consumes q, linked through via, unless it
// already does.
func (l *linker) consumeThrough(q *Queue, f *Fleet, via string) {
	if slices.Contains(q.Consumers, f) {
		return
	}
	l.consume(q, f)
	if q.ConsumedThrough == nil {
		q.ConsumedThrough = map[*Fleet]string{}
	}
	q.ConsumedThrough[f] = via
}

// deadLetterSources are, for each dead-letter queue, the queues whose
// redrive policies name it.
func (l *linker) deadLetterSources() map[*Queue][]*Queue {
	out := map[*Queue][]*Queue{}
	for _, rd := range l.redrives {
		srcs := l.queuesOf(rd.queue)
		if rd.inline != "" {
			srcs = []*Queue{l.queues[rd.inline]}
		}
		for _, o := range origins(rd.policy) {
			if dlq := l.queues[o]; dlq != nil && o != rd.inline {
				out[dlq] = append(out[dlq], srcs...)
			}
		}
	}
	return out
}

// indexIAM indexes the IAM resources by known name, and the policy
// documents by address.
func (l *linker) indexIAM() {
	for kind, nodes := range l.iam.nodes {
		l.iam.byName[kind] = map[string][]*iamNode{}
		for _, addr := range sortedKeys(nodes) {
			if n := nodes[addr]; n.name != "" {
				l.iam.byName[kind][n.name] = append(l.iam.byName[kind][n.name], n)
			}
		}
	}
	l.iam.documents = map[string]documentReader{}
	l.iam.statements = map[string][]statement{}
	l.iam.roleStmts = map[*iamNode][]statement{}
	for _, docs := range l.documents {
		for addr, read := range docs {
			l.iam.documents[addr] = read
		}
	}
}

// rolesOf are the roles a fleet runs with.
func (l *linker) rolesOf(fr fleetRole) []*iamNode {
	kind, refs := fr.kind, fr.refs
	for kind != iamRole {
		var next []cty.Value
		for _, n := range l.iamNodes(kind, refs) {
			next = append(next, n.next...)
		}
		kind, refs = nextIAM[kind], next
	}
	return l.iamNodes(iamRole, refs)
}

// iamNodes are the resources of a kind that values name: by origin, else
// by a known name or ARN (a value may be a list of them).
func (l *linker) iamNodes(kind iamKind, vals []cty.Value) []*iamNode {
	var out []*iamNode
	add := func(n *iamNode) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, v := range vals {
		found := false
		for _, o := range origins(v) {
			if n := l.iam.nodes[kind][o]; n != nil {
				add(n)
				found = true
			}
		}
		if found {
			continue
		}
		elems, _ := elementsOf(v)
		for _, e := range elems {
			if s := knownString(e); s != "" {
				for _, n := range l.iam.byName[kind][iamName(kind, s)] {
					add(n)
				}
			}
		}
	}
	return out
}

// iamName is the name a reference by name or ARN gives: a role, instance
// profile or policy ARN ends in its name (after a path), a task definition
// is its family (with a revision, or in an ARN).
func iamName(kind iamKind, s string) string {
	if strings.HasPrefix(s, "arn:") {
		s = s[strings.LastIndex(s, "/")+1:]
	}
	if kind == iamTaskDef {
		s, _, _ = strings.Cut(s, ":")
	}
	return s
}

// roleStatements are the statements of every policy of a role, once.
func (l *linker) roleStatements(role *iamNode) []statement {
	if s, ok := l.iam.roleStmts[role]; ok {
		return s
	}
	refs := slices.Clone(role.policies)
	for _, a := range l.iam.attachments {
		if slices.Contains(l.iamNodes(iamRole, []cty.Value{a.roles}), role) {
			refs = append(refs, a.policy)
		}
	}
	var out []statement
	for _, p := range refs {
		out = append(out, l.policyStatements(p)...)
	}
	l.iam.roleStmts[role] = out
	return out
}

// policyStatements are the statements of one policy of a role.
func (l *linker) policyStatements(p policyRef) []statement {
	if p.doc != nil {
		return l.documentStatements(p.doc)
	}
	var out []statement
	for _, policy := range l.iamNodes(iamPolicy, []cty.Value{p.arn}) {
		for _, pp := range policy.policies {
			out = append(out, l.policyStatements(pp)...)
		}
	}
	arns, _ := elementsOf(p.arn)
	for _, a := range arns {
		out = append(out, managedPolicyStatements(knownString(a), p.rng)...)
	}
	return out
}

// managedSQSPolicies are the AWS managed policies that allow receiving
// and deleting messages, with the SQS actions each allows on every
// resource.
var managedSQSPolicies = map[string][]string{
	"AmazonSQSFullAccess":                         {"sqs:*"},
	"service-role/AWSLambdaSQSQueueExecutionRole": {"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"},
}

// managedPolicyStatements are the SQS statements of an AWS managed policy
// ARN (arn:aws:iam::aws:policy/NAME), none for any other.
func managedPolicyStatements(arn string, rng hcl.Range) []statement {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] != "iam" || parts[4] != "aws" {
		return nil
	}
	actions := managedSQSPolicies[strings.TrimPrefix(parts[5], "policy/")]
	if actions == nil {
		return nil
	}
	s := statement{resources: []cty.Value{cty.StringVal("*")}, rng: rng, managed: true}
	for _, a := range actions {
		s.actions = append(s.actions, strings.ToLower(a))
	}
	return []statement{s}
}
