// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// place finds the module instance a finding lies in and records the module
// calls that reach it. A finding inside an installed remote module is
// moved to the call in the repository that brings the module in (the
// argument that carries the value, when the finding's attribute is just
// that variable), keeping where it lies in the module as ModuleRange: a
// pull request can only change the repository's files.
func (b *builder) place(p *placedIssue, subject string) {
	is := &p.Issue
	in := b.instanceOf(is, subject)
	is.Subject = subject
	if in == nil || in.parent == nil {
		p.key, p.local = issueKey(is, is.Message), is.Message
		return
	}
	is.Subject = strings.TrimPrefix(subject, in.addr+".")
	var chain []*instance // outermost call first
	for c := in; c.parent != nil; c = c.parent {
		chain = append([]*instance{c}, chain...)
	}
	for _, c := range chain {
		is.Callers = append(is.Callers, toRange(c.call.DefRange))
	}
	p.local = withoutPrefix(is.Message, in.addr+".")
	k := slices.IndexFunc(chain, func(c *instance) bool { return !isLocalSource(c.call.Source) })
	if k < 0 {
		// Local modules only: the finding stays where it lies, and the
		// caller's argument that sets the value at fault goes with it.
		if arg := argumentOf(in, is.Range); arg != nil {
			is.Arguments = []Range{*arg}
		}
	}
	if k >= 0 {
		call := chain[k]
		inner := is.Range
		is.ModuleRange = &inner
		is.Range = toRange(call.call.DefRange)
		if k == len(chain)-1 {
			if name := variableOnly(in.mod.source(inner.Filename), inner); name != "" {
				if arg, ok := call.call.Args[name]; ok {
					is.Range = toRange(arg.Range)
				}
			}
		}
		p.local = is.Message // the call is the place; its address names it
	}
	p.key = issueKey(is, p.local)
}

// placedIssue is a finding with what merging it with the same finding
// from other roots and instances needs.
type placedIssue struct {
	Issue
	// key groups identical findings: the rule, the place and the message
	// with the module instance's address taken out.
	key string
	// local is the message with that address taken out.
	local string
}

// argumentOf is the module argument that sets the value at rng in module
// instance in, when the attribute there is `name = var.x` and nothing
// else: x's argument in the call, followed up through callers that pass
// it on unchanged (`x = var.y`) to the call that gives the value. Nil
// in a root module, for any other expression, or when the call leaves
// x unset (the variable's default is the value); when an outer call
// leaves it unset, the last argument that passes it on.
func argumentOf(in *instance, rng Range) *Range {
	if in == nil || in.parent == nil {
		return nil
	}
	name := variableOnly(in.mod.source(rng.Filename), rng)
	var found *Range
	for c := in; name != "" && c.parent != nil; c = c.parent {
		arg, ok := c.call.Args[name]
		if !ok || arg == nil {
			break
		}
		r := toRange(arg.Range)
		found = &r
		if c.parent.parent == nil {
			break
		}
		name = variableOnly(c.parent.mod.source(r.Filename), r)
	}
	return found
}

// placeSkip moves a skip inside an installed remote module to the call in
// the repository that brings the module in, as place moves a finding; its
// reason ends with where in the module it lies.
func (b *builder) placeSkip(s *Skip) {
	in := b.instanceOf(&Issue{Range: s.Range, Message: s.Reason, Address: s.Address}, "")
	if in == nil || in.parent == nil {
		return
	}
	var call *instance // the outermost call of a remote source
	for c := in; c.parent != nil; c = c.parent {
		if !isLocalSource(c.call.Source) {
			call = c
		}
	}
	if call == nil {
		return
	}
	// Where in the module, from the root module's directory: the same
	// words whichever directory the linter or tflint ran in.
	file := s.Range.Filename
	if rel, err := filepath.Rel(b.model.Dir, file); err == nil && filepath.IsAbs(file) == filepath.IsAbs(b.model.Dir) {
		file = rel
	}
	s.Reason += fmt.Sprintf(" (at %s:%d, in the module %s brings in)", file, s.Range.Start.Line, call.addr)
	s.Range = toRange(call.call.DefRange)
}

func issueKey(is *Issue, message string) string {
	return fmt.Sprintf("%s\x00%s:%d:%d\x00%s", is.Rule, is.Range.Filename, is.Range.Start.Line, is.Range.Start.Column, message)
}

// subject is one object of the model for the rules to check: check hands
// it to a rule that judges its kind.
type subject struct {
	addr  string
	check func(Rule, Reporter)
	queue *Queue // the queue a queue subject is; nil for others
}

// subjects are the model's objects one by one, in model order.
func (b *builder) subjects() []subject {
	m := b.model
	out := make([]subject, 0, len(m.Queues)+len(m.Fleets)+len(m.Alarms)+len(m.Mappings)+len(m.Policies))
	for _, q := range m.Queues {
		out = append(out, subject{q.Addr, func(rule Rule, r Reporter) {
			if c, ok := rule.(model.QueueRule); ok {
				c.CheckQueue(q, r)
			}
		}, q})
	}
	for _, f := range m.Fleets {
		out = append(out, subject{f.Addr, func(rule Rule, r Reporter) {
			if c, ok := rule.(model.FleetRule); ok {
				c.CheckFleet(f, r)
			}
		}, nil})
	}
	for _, p := range m.Policies {
		out = append(out, subject{p.Addr, func(rule Rule, r Reporter) {
			if c, ok := rule.(model.PolicyRule); ok {
				c.CheckPolicy(p, r)
			}
		}, nil})
	}
	for _, a := range m.Alarms {
		out = append(out, subject{a.Addr, func(rule Rule, r Reporter) {
			if c, ok := rule.(model.AlarmRule); ok {
				c.CheckAlarm(a, r)
			}
		}, nil})
	}
	for _, mp := range m.Mappings {
		out = append(out, subject{mp.Addr, func(rule Rule, r Reporter) {
			if c, ok := rule.(model.MappingRule); ok {
				c.CheckMapping(mp, r)
			}
		}, nil})
	}
	return out
}

// instanceOf is the walked module instance whose directory holds the
// finding's file; of several (one module called twice, or with for_each),
// the one the finding's subject lies in, else the one whose address the
// message names, longest first.
func (b *builder) instanceOf(is *Issue, subject string) *instance {
	if b.instancesIn == nil || len(b.instances) != b.indexed {
		b.instancesIn, b.indexed = make(map[string][]*instance), len(b.instances)
		for _, in := range b.instances {
			dir := filepath.Clean(in.mod.Dir)
			b.instancesIn[dir] = append(b.instancesIn[dir], in)
		}
	}
	candidates := b.instancesIn[filepath.Clean(filepath.Dir(is.Range.Filename))]
	if len(candidates) == 0 {
		return nil
	}
	var best *instance
	// The instance the finding lies in (its address, from addressAt)
	// before the subject's: a mapping's finding at its queue's attribute
	// lies in the queue's module instance, not the mapping's.
	for _, of := range []string{is.Address, subject} {
		for _, in := range candidates {
			if of != "" && (in.addr == "" || strings.HasPrefix(of, in.addr+".")) && (best == nil || len(in.addr) > len(best.addr)) {
				best = in
			}
		}
		if best != nil && best.addr != "" {
			break
		}
	}
	if best != nil && best.addr == "" && len(candidates) > 1 {
		best = nil // the subject is in the root; the file is a module's
	}
	for _, in := range candidates {
		if best == nil && in.addr != "" && strings.Contains(is.Message, in.addr+".") {
			best = in
		}
	}
	if best == nil {
		best = candidates[0]
	}
	return best
}

// variableOnly is NAME when the attribute at rng is written `… = var.NAME`.
var variableOnlyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+\s*=\s*var\.([A-Za-z0-9_-]+)\s*$`)

func variableOnly(pf *parsedFile, rng Range) string {
	if pf == nil {
		return ""
	}
	r := hcl.Range{Filename: rng.Filename, Start: hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column}, End: hcl.Pos{Line: rng.End.Line, Column: rng.End.Column}}
	if r.Start.Line != r.End.Line || r.Start.Line < 1 {
		return ""
	}
	text, ok := lineOf(pf.src, r.Start.Line)
	if !ok {
		return ""
	}
	line := []rune(string(text))
	from, to := r.Start.Column-1, r.End.Column-1
	if from < 0 || to > len(line) || from > to {
		return ""
	}
	if m := variableOnlyPattern.FindStringSubmatch(string(line[from:to])); m != nil {
		return m[1]
	}
	return ""
}

// lineOf is line n (from 1) of src without its newline, as
// strings.Split(src, "\n") would give it; false past the last line.
func lineOf(src []byte, n int) ([]byte, bool) {
	for ; n > 1; n-- {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return nil, false
		}
		src = src[i+1:]
	}
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return src, true
}

// withoutPrefix is text with prefix removed where it starts an address:
// not where it follows another address's part, so that
// "module.runners.module.runners.aws_lambda_function.f" loses only the
// first "module.runners." (the instance's own child module of the same
// name keeps its), as the module linted as its own root writes it.
func withoutPrefix(text, prefix string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, prefix)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		if i > 0 && isAddressByte(text[i-1]) {
			b.WriteString(text[:i+len(prefix)])
		} else {
			b.WriteString(text[:i])
		}
		text = text[i+len(prefix):]
		// The address that lost its prefix continues here: a repeat of
		// the prefix right after is its own child module's.
		for strings.HasPrefix(text, prefix) {
			b.WriteString(prefix)
			text = text[len(prefix):]
		}
	}
}

// isAddressByte reports a byte that continues a resource address.
func isAddressByte(c byte) bool {
	return c == '.' || c == '_' || c == '-' || c == ']' || c == '"' || c == '[' ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
