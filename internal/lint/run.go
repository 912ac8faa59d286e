package lint

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// Options are one run's inputs. The command line and .queuecap.hcl are
// merged into them by the caller.
type Options struct {
	Dirs      []string
	Recursive bool
	// Vars are the --var and --var-file flags in command-line order; they
	// set root module variables after TF_VAR_ environment variables,
	// terraform.tfvars and *.auto.tfvars, later ones winning.
	Vars []VarFlag
	// Environ is the environment, as os.Environ returns it, for its
	// TF_VAR_name variables.
	Environ []string
	Config  *Config
	// Rules are all known rules; Enable and Disable switch them by ID on
	// top of their defaults and the config file.
	Rules   []Rule
	Enable  []string
	Disable []string
}

// UsageError is a mistake in the options themselves (an unknown rule ID, a
// malformed --var): nothing was linted.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

type activeRule struct {
	rule     Rule
	severity Severity
}

// Run lints every root module the options name. Problems with individual
// files or directories are collected in Result.Errors and the run goes on;
// the error return is for usage errors only.
func Run(opts Options) (*Result, error) {
	if opts.Config == nil {
		opts.Config = &Config{}
	}
	active, err := activeRules(opts)
	if err != nil {
		return nil, err
	}
	flags, flagDiags, err := parseVarFlags(opts.Vars)
	if err != nil {
		return nil, err
	}
	res := &Result{Issues: []Issue{}, Errors: []ErrorEntry{}, Skipped: []Skip{}}
	for _, d := range flagDiags {
		res.Errors = append(res.Errors, diagEntry(d))
	}
	for _, a := range active {
		res.Rules = append(res.Rules, RuleInfo{Name: a.rule.Name(), Severity: a.severity, Link: a.rule.Link(), Summary: a.rule.Summary()})
	}

	l := newLoader()
	var roots []string
	for _, dir := range opts.Dirs {
		info, err := os.Stat(dir)
		switch {
		case err != nil:
			res.Errors = append(res.Errors, ErrorEntry{Message: err.Error(), Severity: Error})
			continue
		case !info.IsDir():
			res.Errors = append(res.Errors, ErrorEntry{Message: dir + " is not a directory", Severity: Error})
			continue
		}
		if opts.Recursive {
			roots = append(roots, rootModuleDirs(dir, func(path string, err error) {
				res.Errors = append(res.Errors, ErrorEntry{Message: fmt.Sprintf("cannot read %s: %v", path, err), Severity: Error})
			})...)
		} else {
			roots = append(roots, dir)
		}
	}

	// Root modules are independent: lint them in parallel, sharing the
	// parsed-file cache, and merge in root order so output is stable.
	outs := make([]rootResult, len(roots))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, dir := range roots {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			outs[i] = lintRoot(l, dir, opts, flags, active)
		}()
	}
	wg.Wait()
	var declared []map[string]*Variable
	for _, out := range outs {
		if out.variables != nil {
			declared = append(declared, out.variables)
		}
	}
	flagSkips, err := undeclaredFlags(flags, declared)
	if err != nil {
		return nil, err
	}
	res.Skipped = append(res.Skipped, flagSkips...)

	seen := map[string]bool{}
	anns := map[string][]annotation{}
	for _, out := range outs {
		res.Errors = append(res.Errors, out.errors...)
		for _, is := range out.issues {
			key := fmt.Sprintf("%s\x00%s\x00%d:%d", is.Rule, is.Range.Filename, is.Range.Start.Line, is.Range.Start.Column) + "\x00" + is.Message
			if seen[key] {
				continue // a module reached from two root modules
			}
			seen[key] = true
			a, ok := anns[is.Range.Filename]
			if !ok {
				a = annotations(l.sources.lookup(is.Range.Filename))
				anns[is.Range.Filename] = a
			}
			if !ignores(a, is.Rule, is.Range.Start.Line) {
				res.Issues = append(res.Issues, is)
			}
		}
		res.Skipped = append(res.Skipped, out.skips...)
	}
	res.Skipped = append(res.Skipped, unmatchedConfig(opts.Config, outs)...)
	for _, d := range l.errs {
		res.Errors = append(res.Errors, diagEntry(d))
	}
	res.Errors = dedupeErrors(res.Errors)
	res.Sort()
	return res, nil
}

type rootResult struct {
	issues        []Issue
	skips         []Skip
	errors        []ErrorEntry
	configMatched map[string]bool
	// variables are the root module's declarations; nil when the root
	// could not be read.
	variables map[string]*Variable
}

func lintRoot(l *loader, dir string, opts Options, flags []assignment, active []activeRule) (out rootResult) {
	// A bug must not take the other root modules down with it (a panic in
	// this goroutine would end the process): report it and go on.
	defer func() {
		if p := recover(); p != nil {
			out = rootResult{errors: []ErrorEntry{{Message: fmt.Sprintf("internal error while linting %s: %v", dir, p), Severity: Error}}}
		}
	}()
	mod, err := l.loadModule(dir, dir, "", nil, readModuleManifest(dir))
	if err != nil {
		out.errors = append(out.errors, ErrorEntry{Message: fmt.Sprintf("cannot read %s: %v", dir, err), Severity: Error})
		return out
	}
	out.variables = mod.Variables
	assigned, diags := rootAssignments(dir, opts.Environ, flags)
	vars, varDiags, varSkips, fits := rootVariables(mod, assigned)
	for _, d := range append(diags, varDiags...) {
		out.errors = append(out.errors, diagEntry(d))
	}
	out.skips = append(out.skips, varSkips...)
	if !fits {
		return out
	}
	b := newBuilder(dir, opts.Config)
	root := newInstance(mod, "", nil, vars)
	b.dataArgs = root.dataArgs
	b.walk(root)
	b.link()
	out.configMatched = b.configMatched
	for _, a := range active {
		r := &reporter{rule: a.rule, severity: a.severity}
		a.rule.Check(b.model, r)
		out.issues = append(out.issues, r.issues...)
		out.skips = append(out.skips, r.skips...)
	}
	return out
}

// activeRules applies defaults, then the config file, then the flags.
func activeRules(opts Options) ([]activeRule, error) {
	byName := map[string]Rule{}
	for _, r := range opts.Rules {
		byName[r.Name()] = r
	}
	unknown := func(id, where string) error {
		names := make([]string, 0, len(byName))
		for n := range byName {
			names = append(names, n)
		}
		slices.Sort(names)
		return &UsageError{Msg: fmt.Sprintf("unknown rule ID %q %s; known rules: %s", id, where, strings.Join(names, ", "))}
	}
	enabled := map[string]bool{}
	severity := map[string]Severity{}
	for _, r := range opts.Rules {
		enabled[r.Name()] = r.EnabledByDefault()
		severity[r.Name()] = r.DefaultSeverity()
	}
	for _, id := range sortedKeys(opts.Config.Rules) {
		rc := opts.Config.Rules[id]
		if byName[id] == nil {
			return nil, unknown(id, "in "+rc.Range.String())
		}
		if rc.Enabled != nil {
			enabled[id] = *rc.Enabled
		}
		if rc.Severity != nil {
			severity[id] = *rc.Severity
		}
	}
	for _, id := range opts.Enable {
		if byName[id] == nil {
			return nil, unknown(id, "in --enable-rule")
		}
		enabled[id] = true
	}
	for _, id := range opts.Disable {
		if byName[id] == nil {
			return nil, unknown(id, "in --disable-rule")
		}
		enabled[id] = false
	}
	var out []activeRule
	for _, r := range opts.Rules {
		if enabled[r.Name()] {
			out = append(out, activeRule{rule: r, severity: severity[r.Name()]})
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func diagEntry(d *hcl.Diagnostic) ErrorEntry {
	e := ErrorEntry{Message: diagText(d), Severity: Error}
	if d.Subject != nil {
		r := toRange(*d.Subject)
		e.Range = &r
	}
	return e
}

func dedupeErrors(errs []ErrorEntry) []ErrorEntry {
	seen := map[string]bool{}
	out := errs[:0]
	for _, e := range errs {
		if k := e.String(); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// unmatchedConfig reports .queuecap.hcl queue blocks that name a queue, or
// a consumer, found in none of the linted root modules: a mistyped address
// would otherwise silently turn checks off.
func unmatchedConfig(cfg *Config, outs []rootResult) []Skip {
	// With no root checked (none could be read, or their input values do
	// not fit), no block can be judged.
	if !slices.ContainsFunc(outs, func(o rootResult) bool { return o.configMatched != nil }) {
		return nil
	}
	var skips []Skip
	for _, addr := range sortedKeys(cfg.Queues) {
		qc := cfg.Queues[addr]
		if slices.ContainsFunc(outs, func(o rootResult) bool { return o.configMatched[addr] }) {
			continue
		}
		reason := fmt.Sprintf("queue block %q matches no aws_sqs_queue in the linted configuration", addr)
		if slices.ContainsFunc(outs, func(o rootResult) bool { _, found := o.configMatched[addr]; return found }) {
			reason = fmt.Sprintf("queue block %q names consumer %q, which matches no fleet in the linted configuration", addr, qc.Consumer)
		}
		skips = append(skips, Skip{Rule: "config", Range: toRange(qc.Range), Reason: reason})
	}
	return skips
}
