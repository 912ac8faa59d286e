// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// A RootResult is what linting one root module gave (Session.LintRoot),
// for Session.Fold.
type RootResult struct {
	queueAddrs []string // the queues modeled
	fleetAddrs []string
	// withConsumer counts the queues with a linked consumer; unchecked are
	// those of them the capacity rules could not check (no declared
	// arrival rate, or a queue rule skipped), by address.
	withConsumer int
	unchecked    []string
	// capacity is each checked queue's (model.CapacityOf), without its
	// root.
	capacity      []QueueCapacity
	issues        []placedIssue
	skips         []Skip
	errors        []ErrorEntry
	configMatched map[string]bool
	// variables are the names of the root module's variables; nil when
	// the root could not be read.
	variables map[string]bool
	explained *RootExplanation // with Options.Explain
}

// lintRoot lints one root module: builds and links its model (build),
// then runs the rules over each object of it (checkRules); with
// Options.Explain, says what was linked instead.
func lintRoot(l *loader, dir string, opts Options, flags []assignment, active []activeRule) (out RootResult) {
	// A bug must not take the other root modules down with it (a panic in
	// this goroutine would end the process): report it and go on.
	defer func() {
		if p := recover(); p != nil {
			out = RootResult{errors: []ErrorEntry{{Message: fmt.Sprintf("internal error while linting %s: %v", dir, p), Severity: Error}}}
		}
	}()
	b, out := build(l, dir, opts, flags)
	switch {
	case b == nil:
		return out
	case opts.Explain:
		out.explained = explainRoot(b, out.skips)
		return out
	}
	issues, skips, unchecked := checkRules(b, active)
	out.issues, out.skips = issues, append(out.skips, skips...)
	for _, q := range b.model.Queues {
		if len(q.Consumers) == 0 {
			continue
		}
		out.withConsumer++
		// No arrival rate is the coverage skip: no capacity rule ran.
		if !q.Rates.ArrivalRate.Set || unchecked[q] {
			out.unchecked = append(out.unchecked, q.Addr)
		}
		if c := model.CapacityOf(q); c != nil {
			out.capacity = append(out.capacity, *c)
		}
	}
	return out
}

// build is the front end's stage: the root's model from its HCL or from
// the plan, linked, with what building it found wrong (errors) or could
// not check (skips, placed as findings are). A nil builder means there is
// nothing to run rules over.
func build(l *loader, dir string, opts Options, flags []assignment) (*builder, RootResult) {
	var out RootResult
	var b *builder
	var built rootBuild
	if opts.Plan != nil {
		b = buildPlanRoot(l, dir, opts)
	} else {
		b, built = buildRoot(l, dir, opts, flags)
	}
	out.errors, out.skips, out.variables = built.errors, built.skips, built.variables
	if b == nil {
		return nil, out
	}
	// A root module whose evaluation ran out of a budget is that error
	// alone: what was evaluated of it is incomplete.
	if d := b.limits.exceeded; d != nil {
		return nil, RootResult{errors: append(out.errors, diagEntry(d)), variables: out.variables}
	}
	// What Terraform rejects is an error; a plan was made, so there is
	// none in a plan's configuration.
	if opts.Plan == nil {
		for _, d := range b.limits.rejected {
			out.errors = append(out.errors, diagEntry(d))
		}
	}
	// A queuecap tag that declares no valid rate is an error, in a plan's
	// values too.
	for _, d := range b.badTags {
		out.errors = append(out.errors, diagEntry(d))
	}
	out.configMatched = b.configMatched
	for _, sk := range b.skips {
		b.placeSkip(&sk)
		out.skips = append(out.skips, sk)
	}
	out.queueAddrs, out.fleetAddrs = sortedKeys(b.queues), sortedKeys(b.fleets)
	return b, out
}

// checkRules is the rules' stage. Each rule runs over one subject at a
// time (every rule judges one kind of object), so each finding is known
// to be about one queue, fleet, policy, alarm or mapping, and so about
// one module instance: the finding names the instance at its place
// (addressAt) and is placed at the module calls that reach it (place),
// as its skips are.
func checkRules(b *builder, active []activeRule) ([]placedIssue, []Skip, map[*Queue]bool) {
	var issues []placedIssue
	var skips []Skip
	unchecked := map[*Queue]bool{} // queues a queue rule skipped
	subjects := b.subjects()
	for _, a := range active {
		r := &reporter{rule: a.rule, severity: a.severity}
		for _, s := range subjects {
			from, fromSkip := len(r.issues), len(r.skips)
			s.check(a.rule, r)
			for _, is := range r.issues[from:] {
				p := placedIssue{Issue: is}
				p.Address = b.addressAt(is.Range, s.addr, is.Message)
				b.place(&p, s.addr)
				issues = append(issues, p)
			}
			for i := fromSkip; i < len(r.skips); i++ {
				r.skips[i].Address = b.addressAt(r.skips[i].Range, s.addr, r.skips[i].Reason)
			}
			if s.queue != nil && len(r.skips) > fromSkip {
				unchecked[s.queue] = true
			}
		}
		for _, sk := range r.skips {
			b.placeSkip(&sk)
			skips = append(skips, sk)
		}
	}
	return issues, skips, unchecked
}

// rootBuild is what reading a root module's configuration and variables
// produced besides the model.
type rootBuild struct {
	errors []ErrorEntry
	skips  []Skip
	// variables are the names of the root module's variables (the
	// declarations stay with the module, which is dropped once no root
	// may read it); nil when the root could not be read.
	variables map[string]bool
}

// buildRoot loads a root module and the modules it calls, sets its
// variables, and evaluates and links them into the model the rules read.
// A nil builder means the root could not be read at all, or a variable's
// value does not fit its type (Terraform stops there too).
func buildRoot(l *loader, dir string, opts Options, flags []assignment) (*builder, rootBuild) {
	var out rootBuild
	manifest := l.readModuleManifest(dir)
	if d := manifest.diag(); d != nil {
		out.errors = append(out.errors, diagEntry(d))
	}
	mod, err := l.loadModule(dir, dir, "", nil, manifest)
	if err != nil {
		out.errors = append(out.errors, ErrorEntry{Message: fmt.Sprintf("cannot read %s: %v", dir, err), Severity: Error})
		return nil, out
	}
	out.variables = make(map[string]bool, len(mod.Variables))
	for name := range mod.Variables {
		out.variables[name] = true
	}
	assigned, diags := rootAssignments(l.bound, dir, opts.Environ, flags)
	vars, varDiags, varSkips, fits := rootVariables(mod, assigned)
	for _, d := range append(diags, varDiags...) {
		out.errors = append(out.errors, diagEntry(d))
	}
	out.skips = append(out.skips, varSkips...)
	if !fits {
		return nil, out
	}
	root := newInstance(mod, "", nil, vars)
	root.host = opts.Host
	b := newBuilder(dir, opts.Config, root.dataArgs, root.limits)
	readHCL(b, root)
	b.link()
	return b, out
}

// buildPlanRoot builds the model of opts.Plan, its findings pointing into
// dir's configuration where it holds the plan's resources.
func buildPlanRoot(l *loader, dir string, opts Options) *builder {
	mod, err := l.loadModule(dir, dir, "", nil, l.readModuleManifest(dir))
	if err != nil {
		mod = nil // findings carry resource addresses instead
	}
	return buildPlan(opts.Plan, dir, mod, opts.Config)
}

// buildPlan builds the model of a plan; rootMod is the configuration
// directory's root module, nil when it is absent.
func buildPlan(plan *Plan, dir string, rootMod *Module, cfg *Config) *builder {
	mod := rootMod
	if mod == nil {
		mod = &Module{}
	}
	rootIn := newInstance(mod, "", nil, planVariables(plan.p, mod))
	b := newBuilder(dir, cfg, rootIn.dataArgs, rootIn.limits)
	readPlanResources(b, plan.p, rootIn, rootMod)
	b.link()
	return b
}
