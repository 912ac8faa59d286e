// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// IAM policy documents as the linker reads them: which SQS actions a
// statement allows or denies, on which queues.

// The two actions a consumer needs.
const (
	actionReceive = "sqs:receivemessage"
	actionDelete  = "sqs:deletemessage"
)

// policyDoc is a policy argument: its value or, when it is written with
// jsonencode({...}), the object encoded. A queue's ARN is not known before
// apply, which makes the encoded string unknown as a whole; the object
// keeps each Resource entry apart, with its origin.
type policyDoc struct {
	val, obj cty.Value // obj is cty.NilVal when the argument is not jsonencode(...)
	rng      hcl.Range
}

// statement is one statement of a policy, as far as the linker reads it.
type statement struct {
	deny      bool
	actions   []string // lower case, with IAM's wildcards
	notAction bool
	// resources are each a known ARN or pattern, or a value not known
	// before apply with the origins it comes from.
	resources   []cty.Value
	notResource bool
	rng         hcl.Range
	// managed is true for an AWS managed policy's statement.
	managed bool
}

func readPolicyDoc(a *arg) *policyDoc {
	if a == nil {
		return nil
	}
	// From a plan, a jsonencode over an ARN is unknown: the front end
	// gives the configuration's jsonencode, when the directory holds it.
	d := &policyDoc{obj: a.object(), rng: a.rng}
	d.val = d.obj // it holds the origins of the string it encodes
	if d.obj == cty.NilVal {
		d.val = a.value()
	}
	return d
}

// documentStatements are the statements of a policy argument: of the
// object jsonencode encodes, of a JSON string known before apply, and of
// the aws_iam_policy_document data sources its value comes from.
func (l *linker) documentStatements(d *policyDoc) []statement {
	var out []statement
	switch {
	case d.obj != cty.NilVal:
		out = statementsOf(d.obj, d.rng)
	case knownString(d.val) != "":
		out = statementsOf(parseJSON(knownString(d.val)), d.rng)
	}
	for _, o := range origins(d.val) {
		if resourceTypeOf(o) == "data.aws_iam_policy_document" {
			out = append(out, l.policyDocumentStatements(o)...)
		}
	}
	return out
}

// statementsOf reads the Statement of a policy object: one statement or a
// list of them, with Effect, Action or NotAction, Resource or NotResource.
// A statement whose effect or actions are not known before apply is left
// out: it can neither link nor unlink a queue.
func statementsOf(doc cty.Value, rng hcl.Range) []statement {
	stmts, ok := field(doc, "Statement")
	if !ok {
		return nil
	}
	list := []cty.Value{stmts}
	if plain, _ := stmts.Unmark(); !plain.Type().IsObjectType() && !plain.Type().IsMapType() {
		list, _ = elementsOf(stmts)
	}
	var out []statement
	for _, v := range list {
		s := statement{rng: rng}
		effect, _ := field(v, "Effect")
		switch knownString(effect) {
		case "Allow":
		case "Deny":
			s.deny = true
		default:
			continue
		}
		actions, ok := field(v, "Action")
		if !ok {
			actions, s.notAction = field(v, "NotAction")
		}
		resources, ok := field(v, "Resource")
		if !ok {
			resources, s.notResource = field(v, "NotResource")
		}
		if s.read(actions, resources) {
			out = append(out, s)
		}
	}
	return out
}

// read sets a statement's actions and resources; false when they are not
// there (no statement of an identity policy), or an action is not known
// before apply.
func (s *statement) read(actions, resources cty.Value) bool {
	var ok bool
	if actions == cty.NilVal || resources == cty.NilVal {
		return false
	}
	if s.actions, ok = actionList(actions); !ok {
		return false
	}
	s.resources, _ = elementsOf(resources)
	return true
}

// policyDocumentStatements are the statements of the
// aws_iam_policy_document data source at addr (of each of its instances),
// with those of the documents it merges, read once.
func (l *linker) policyDocumentStatements(addr string) []statement {
	if s, ok := l.iam.statements[addr]; ok {
		return s
	}
	l.iam.statements[addr] = nil // a document that merges itself reads as empty
	at, ok := l.iam.documents[addr]
	if !ok {
		return nil
	}
	var out []statement
	for _, n := range at() {
		out = append(out, l.documentInstance(n)...)
	}
	l.iam.statements[addr] = out
	return out
}

// documentInstance reads one instance of an aws_iam_policy_document: its
// statement blocks (effect defaults to Allow) and the JSON documents it
// merges through source_policy_documents and override_policy_documents.
func (l *linker) documentInstance(n *block) []statement {
	var out []statement
	for _, st := range n.blocks["statement"] {
		s := statement{rng: st.rng}
		if st.has("effect") {
			switch knownString(st.val("effect")) {
			case "Allow":
			case "Deny":
				s.deny = true
			default:
				continue
			}
		}
		actions, resources := attrValue(st, "actions"), attrValue(st, "resources")
		if actions == cty.NilVal {
			actions, s.notAction = attrValue(st, "not_actions"), true
		}
		if resources == cty.NilVal {
			resources, s.notResource = attrValue(st, "not_resources"), true
		}
		if s.read(actions, resources) {
			out = append(out, s)
		}
	}
	for _, name := range []string{"source_policy_documents", "override_policy_documents"} {
		a := n.arg(name)
		if a == nil {
			continue
		}
		docs, _ := elementsOf(a.value())
		for _, d := range docs {
			out = append(out, l.documentStatements(&policyDoc{val: d, obj: cty.NilVal, rng: a.rng})...)
		}
	}
	return out
}

// actionList reads actions as lower-case patterns; ok is false when any is
// not known before apply.
func actionList(v cty.Value) ([]string, bool) {
	elems, ok := elementsOf(v)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		s := knownString(e)
		if s == "" {
			return nil, false
		}
		out = append(out, strings.ToLower(s))
	}
	return out, true
}

// elementsOf is a string, or the elements of a list, tuple or set, each
// with the marks of the whole; ok is false when the collection itself is
// not known before apply (it is then its one element).
func elementsOf(v cty.Value) (_ []cty.Value, ok bool) {
	if v == cty.NilVal {
		return nil, true
	}
	plain, marks := v.Unmark()
	switch {
	case !plain.IsKnown():
		return []cty.Value{v}, false
	case plain.IsNull():
		return nil, true
	case plain.Type() == cty.String:
		return []cty.Value{v}, true
	case plain.Type().IsListType() || plain.Type().IsTupleType() || plain.Type().IsSetType():
		var out []cty.Value
		for it := plain.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, e.WithMarks(marks))
		}
		return out, true
	}
	return nil, true
}

// field is the attribute of an object or map whose name is name, in any
// case, with the marks of the whole.
func field(v cty.Value, name string) (cty.Value, bool) {
	if v == cty.NilVal {
		return cty.NilVal, false
	}
	plain, marks := v.Unmark()
	if !plain.IsKnown() || plain.IsNull() || (!plain.Type().IsObjectType() && !plain.Type().IsMapType()) {
		return cty.NilVal, false
	}
	for it := plain.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if strings.EqualFold(knownString(k), name) {
			return e.WithMarks(marks), true
		}
	}
	return cty.NilVal, false
}

// attrValue is an attribute of a block evaluated, cty.NilVal when it is
// not set.
func attrValue(n *block, name string) cty.Value {
	if !n.has(name) {
		return cty.NilVal
	}
	return n.val(name)
}

// allows reports whether a statement's actions include action.
func (s statement) allows(action string) bool {
	return slices.ContainsFunc(s.actions, func(p string) bool { return globMatch(p, action) }) != s.notAction
}

// allowsSQS reports whether a statement allows action through a pattern
// of the SQS service ("sqs:*", "sqs:Receive*"), not through "*" alone.
func (s statement) allowsSQS(action string) bool {
	return !s.notAction && slices.ContainsFunc(s.actions, func(p string) bool { return strings.HasPrefix(p, "sqs:") && globMatch(p, action) })
}

// reach is what a statement's resources reach: queue q itself (by origin,
// when the value may be its ARN, or by a known ARN or pattern that matches
// its name; q may be nil), and every queue ("*", arn:aws:sqs:*:*:*, or
// NotResource).
func (s statement) reach(q *Queue) (named, every bool) {
	for _, r := range s.resources {
		if q != nil && slices.Contains(origins(r), q.Addr) && mayBeQueueARN(r, q) {
			named = true
			continue
		}
		if p, ok := queueNamePattern(knownString(r)); ok {
			if strings.Trim(p, "*") == "" {
				every = true
			} else if q != nil && q.Name != "" && globMatch(p, q.Name) {
				named = true
			}
		}
	}
	if s.notResource {
		return false, !named
	}
	return named, every
}

// mayBeQueueARN reports whether r, derived from queue q, may be q's ARN.
// Its origin survives any string built around it, so a string Terraform
// builds (a template, format(), join(): not null, with its known start as
// the only text the linter sees) may be only when that start begins an
// ARN of q, as "arn:${var.partition}:sqs:*:*:${aws_sqs_queue.q.name}"
// does; "${aws_sqs_queue.q.arn}-x" names something else. A reference
// passed on as it is (through a local, a variable, try()) may be, and so
// may a value of a plan whose type the plan does not say.
func mayBeQueueARN(r cty.Value, q *Queue) bool {
	plain, marks := r.Unmark()
	if _, guessed := marks[typeGuessed{}]; guessed || plain.IsKnown() || plain.Type() != cty.String || plain.Range().CouldBeNull() {
		return true
	}
	parts := strings.SplitN(plain.Range().StringPrefix(), ":", 6)
	if len(parts) < 2 || parts[0] != "arn" {
		return false
	}
	// Each part known whole fits; the last may be cut short.
	last := len(parts) - 1
	fits := func(i int, want string) bool {
		if i > last || want == "" {
			return true
		}
		if i == last {
			return globMatch(parts[i]+"*", want)
		}
		return globMatch(parts[i], want)
	}
	return fits(2, "sqs") && fits(5, q.Name)
}

// queueNamePattern is the queue name part of an SQS ARN or pattern
// (arn:aws:sqs:region:account:name), or "*" for "*".
func queueNamePattern(s string) (string, bool) {
	if s == "*" {
		return s, true
	}
	parts := strings.SplitN(s, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || !globMatch(parts[2], "sqs") {
		return "", false
	}
	return parts[5], true
}

// mayConsume reports whether statements let a role receive and delete the
// messages of q: each action allowed on q and denied on none of it, and at
// least one of them allowed on q by name, so that Resource "*" alone links
// no queue.
func mayConsume(stmts []statement, q *Queue) bool {
	byName := false
	for _, action := range []string{actionReceive, actionDelete} {
		allowed := false
		for _, s := range stmts {
			if !s.allows(action) {
				continue
			}
			named, every := s.reach(q)
			if s.deny && (named || every) {
				return false
			}
			if named || every {
				allowed, byName = true, byName || named
			}
		}
		if !allowed {
			return false
		}
	}
	return byName
}

// mayConsumeEvery reports whether statements let a role receive and delete
// the messages of every queue through SQS actions (sqs:*, or
// sqs:ReceiveMessage and sqs:DeleteMessage on "*"), with the statement
// that allows receiving.
func mayConsumeEvery(stmts []statement) (statement, bool) {
	var receive statement
	for i, action := range []string{actionReceive, actionDelete} {
		allowed := false
		for _, s := range stmts {
			if _, every := s.reach(nil); !every || !s.allows(action) {
				continue
			}
			if s.deny {
				return statement{}, false
			}
			if s.allowsSQS(action) && !allowed {
				allowed = true
				if i == 0 {
					receive = s
				}
			}
		}
		if !allowed {
			return statement{}, false
		}
	}
	return receive, true
}

// globMatch matches s against an IAM pattern, where * is any run of
// characters and ? any one.
func globMatch(pattern, s string) bool {
	p, i, star, mark := 0, 0, -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p, mark = star+1, mark+1
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
