// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// Options are one run's inputs. The command line and .queuecap.hcl are
// merged into them by the caller.
type Options struct {
	// Dirs are the directories and files to lint, as rootsToLint reads them.
	Dirs      []string
	Recursive bool
	// SkipDirs are globs of folders the walks for root modules skip
	// (--skip-dir, skip_dirs; skipDir), besides DefaultSkipDirs.
	SkipDirs []string
	// WorkDir is the directory the run acts as if started in (--chdir),
	// up to which a root named by a file looks for its .queuecap.hcl; ""
	// for the working directory.
	WorkDir string
	// Vars are the --var and --var-file flags in command-line order; they
	// set root module variables after TF_VAR_ environment variables,
	// terraform.tfvars and *.auto.tfvars, later ones winning.
	Vars []VarFlag
	// Environ is the environment, as os.Environ returns it, for its
	// TF_VAR_name variables.
	Environ []string
	Config  *Config
	// DiscoverConfig makes each root module read the nearest .queuecap.hcl
	// from its folder up to the directory given, Config serving the roots
	// that have none (as `queuecap lint` does); without it every root
	// reads Config.
	DiscoverConfig bool
	// Rules are all known rules; Enable and Disable switch them by ID on
	// top of their defaults and the config file.
	Rules   []Rule
	Enable  []string
	Disable []string
	// Only, when not empty, are the only rules that run (--only), whatever
	// the defaults, the config file, Enable and Disable say.
	Only []string
	// Explain builds every root module but runs no rule: Result.Explanation
	// says what was linked instead.
	Explain bool
	// Plan, when set, is linted instead of the HCL: Dirs holds the one
	// configuration directory it was planned from, read (when present)
	// only for the places findings point at and their ignore comments.
	Plan *Plan
	// Host, when set, is the tool the linter runs inside (Host): its
	// files and values stand for the disk's and the linter's own.
	Host Host
	// Boundary is what the run may read (NewBoundary); nil for the
	// repositories of Dirs.
	Boundary *Boundary
	// ReportUnusedIgnores reports each ignore that suppressed nothing as
	// a notice of UnusedIgnore.
	ReportUnusedIgnores bool
	// Now is the clock ignores expire by; nil for time.Now.
	Now func() time.Time
}

type activeRule struct {
	rule     Rule
	severity Severity
}

// activeRules applies defaults, then the config file, then the flags.
func activeRules(opts Options) ([]activeRule, error) {
	byName := map[string]Rule{}
	for _, r := range opts.Rules {
		if !model.Judges(r) {
			return nil, fmt.Errorf("rule %s judges nothing: it must be a QueueRule, FleetRule, PolicyRule, AlarmRule or MappingRule", r.Name())
		}
		byName[r.Name()] = r
	}
	unknown := func(id, where string) error {
		names := make([]string, 0, len(byName))
		for n := range byName {
			names = append(names, n)
		}
		slices.Sort(names)
		if best := textfmt.Closest(id, names, len(id)/3+1); best != "" {
			return &UsageError{Msg: fmt.Sprintf("unknown rule ID %q %s: did you mean %s? Known rules: %s", id, where, best, strings.Join(names, ", "))}
		}
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
	if len(opts.Only) > 0 {
		clear(enabled)
		for _, id := range opts.Only {
			if byName[id] == nil {
				return nil, unknown(id, "in --only")
			}
			enabled[id] = true
		}
	}
	var out []activeRule
	for _, r := range opts.Rules {
		if enabled[r.Name()] {
			out = append(out, activeRule{rule: r, severity: severity[r.Name()]})
		}
	}
	return out, nil
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
func unmatchedConfig(cfg *Config, outs []RootResult) []Skip {
	// With no root checked (none could be read, or their input values do
	// not fit), no block can be judged.
	if !slices.ContainsFunc(outs, func(o RootResult) bool { return o.configMatched != nil }) {
		return nil
	}
	var skips []Skip
	for _, addr := range sortedKeys(cfg.Queues) {
		qc := cfg.Queues[addr]
		if slices.ContainsFunc(outs, func(o RootResult) bool { return o.configMatched[addr] }) {
			continue
		}
		var queues, fleets []string
		for _, o := range outs {
			queues, fleets = append(queues, o.queueAddrs...), append(fleets, o.fleetAddrs...)
		}
		reason := fmt.Sprintf("queue block %q matches no aws_sqs_queue in the linted configuration%s", addr, suggest(addr, queues))
		if slices.ContainsFunc(outs, func(o RootResult) bool { _, found := o.configMatched[addr]; return found }) {
			reason = fmt.Sprintf("queue block %q names consumer %q, which matches no fleet in the linted configuration%s", addr, qc.Consumer, suggest(qc.Consumer, fleets))
		}
		skips = append(skips, Skip{Rule: "config", Range: toRange(qc.Range), Reason: reason})
	}
	return skips
}

// A Session is one run's state, stage to stage. Package runner runs the
// stages in order (runner.Run): Prepare, DiscoverRoots, LintRoot for each
// root on its workers with Fold in root order, SkipRunInputs, then the
// post-processors (Processors).
type Session struct {
	opts   Options
	active []activeRule
	bound  *Boundary
	flags  []assignment
	res    *Result
	loader *loader
	// roots, their configurations and the Terragrunt units found
	// (discoverRoots).
	roots   []rootAt
	configs []*Config
	units   []string
	// outs are what each root left once folded (lintRoots): what the
	// post-process still needs of it.
	outs     []RootResult
	reads    [][]string // the module directories each root reads (predictReads)
	issues   issueMerger
	skips    skipMerger
	declared []map[string]bool // each root's variables, for --var
	now      time.Time         // ignores expire by it
	ignores  *ignoreSet
	blocks   map[string]*blockUse // by the ignore block's place
	// topBlocks are the top-level blocks of the files with an ignore
	// notice, by file (annotatedBlock).
	topBlocks map[string]hclsyntax.Blocks
}

// Prepare checks the options (rules, --var flags, the boundary) and
// starts the result with the rules that run. Its error is a usage error.
func Prepare(opts Options) (*Session, error) {
	if opts.Config == nil {
		opts.Config = &Config{}
	}
	active, err := activeRules(opts)
	if err != nil {
		return nil, err
	}
	bound := opts.Boundary
	if bound == nil {
		if bound, err = NewBoundary("", opts.Dirs); err != nil {
			return nil, err
		}
	}
	flags, flagDiags, err := parseVarFlags(bound, opts.Vars)
	if err != nil {
		return nil, err
	}
	res := &Result{Issues: []Issue{}, Errors: []ErrorEntry{}, Skipped: []Skip{}, Rules: ruleInfos(active),
		Source: func(path string) ([]byte, error) { return bound.readFile(path, maxFileBytes, "a configuration file") }}
	for _, d := range flagDiags {
		res.Errors = append(res.Errors, diagEntry(d))
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	return &Session{opts: opts, active: active, bound: bound, flags: flags, res: res, now: now()}, nil
}

// ruleInfos describe the rules that run, for the formats.
func ruleInfos(active []activeRule) []RuleInfo {
	var out []RuleInfo
	for _, a := range active {
		info := RuleInfo{Name: a.rule.Name(), Severity: a.severity, Link: a.rule.Link(), Summary: a.rule.Summary()}
		if d, ok := a.rule.(DocumentedRule); ok {
			info.Doc = d.Doc()
		}
		out = append(out, info)
	}
	return out
}

// DiscoverRoots finds the root modules to lint (rootsToLint) and the
// configuration each reads; Roots says how many.
func (r *Session) DiscoverRoots() {
	l := newLoader(r.bound)
	l.host = r.opts.Host
	l.sources.tflint = r.opts.Host != nil && r.opts.Host.Name() == "tflint"
	finder := newConfigFinder(r.opts.Config, r.bound)
	finder.workDir = r.opts.WorkDir
	var errs []ErrorEntry
	r.roots, errs, r.units = rootsToLint(r.opts.Dirs, r.opts.Recursive, r.opts.SkipDirs, l.listed, finder)
	r.res.Errors = append(r.res.Errors, errs...)
	r.configs = make([]*Config, len(r.roots))
	for i, root := range r.roots {
		r.configs[i] = r.opts.Config
		if r.opts.DiscoverConfig {
			r.configs[i] = finder.forRoot(root)
		}
	}
	r.res.Errors = append(r.res.Errors, finder.errs...)
	r.loader = l
}

// Roots is the number of root modules DiscoverRoots found.
func (r *Session) Roots() int { return len(r.roots) }

// StartLinting readies the loader for the roots: which module
// directories each will read, so that one is dropped from the cache once
// no root still to lint reads it (LintRoot), and the spare parsers that
// read ahead. The parsed-file cache is shared by every root. StopLinting
// stops the parsers.
func (r *Session) StartLinting() {
	r.reads = r.loader.predictReads(r.rootDirs())
	r.outs = make([]RootResult, len(r.roots))
	r.loader.startSpare(runtime.GOMAXPROCS(0))
}

// StopLinting stops what StartLinting started.
func (r *Session) StopLinting() { r.loader.stopSpare() }

// LintRoot lints root i (lintRoot), from any goroutine.
func (r *Session) LintRoot(i int) RootResult {
	opts := r.opts
	opts.Config = r.configs[i]
	out := lintRoot(r.loader, r.roots[i].dir, opts, r.flags, r.active)
	r.loader.release(r.reads[i])
	return out
}

func (r *Session) rootDirs() []string {
	dirs := make([]string, len(r.roots))
	for i, root := range r.roots {
		dirs[i] = root.dir
	}
	return dirs
}

// Fold merges root i's results into the run's, in root order (so that
// which of two reasons for one place stands does not depend on timing),
// keeping of them only what the post-process needs: the configuration it
// read, what it matched, and (for unmatchedConfig's suggestions, or
// --explain) the addresses it modeled. A run thus holds the roots in
// flight and the merged results, not every root's until the end.
func (r *Session) Fold(i int, out RootResult) {
	r.res.Errors = append(r.res.Errors, out.errors...)
	out.issues = r.configIgnored(r.configs[i], out.issues, out.skips)
	for _, is := range out.issues {
		r.issues.add(is)
	}
	for _, sk := range out.skips {
		r.skips.add(sk, r.roots[i].dir)
	}
	r.res.Queues += len(out.queueAddrs)
	r.res.QueuesWithConsumer += out.withConsumer
	r.res.QueuesNotChecked = append(r.res.QueuesNotChecked, out.unchecked...)
	for _, c := range out.capacity {
		c.Root = r.roots[i].dir
		r.res.Capacity = append(r.res.Capacity, c)
	}
	if out.variables != nil && len(r.flags) > 0 {
		r.declared = append(r.declared, out.variables)
	}
	if out.explained != nil && r.configs[i] != nil {
		out.explained.Config = r.configs[i].Path
	}
	out.errors, out.issues, out.skips, out.variables, out.capacity = nil, nil, nil, nil, nil
	if len(r.configs[i].Queues) == 0 && !r.opts.Explain {
		out.queueAddrs, out.fleetAddrs = nil, nil
	}
	r.outs[i] = out
}

// SkipRunInputs adds what the run as a whole did not check: --var values
// no root declares (a usage error when none declares any), and
// Terragrunt units found instead of configuration.
func (r *Session) SkipRunInputs() error {
	flagSkips, err := undeclaredFlags(r.flags, r.declared)
	if err != nil {
		return err
	}
	for _, sk := range flagSkips {
		r.skips.add(sk, "")
	}
	for _, u := range r.units {
		if sk, ok := terragruntSkip(r.bound, u); ok {
			r.skips.add(sk, "")
		}
	}
	return nil
}

// A Processor is one step of the post-process: it turns the merged
// findings and skips into the result.
type Processor struct {
	Name string
	Run  func()
}

// Processors are the post-process's steps, in the order they run, each
// one's place in it said beside it.
func (r *Session) Processors() []Processor {
	return []Processor{
		// Findings were merged across roots and instances as they were
		// folded, so an ignore comment drops the one finding at its place.
		{"ignores", func() { r.res.Issues = append(r.res.Issues, r.unignored(r.issues.out)...) }},
		{"skips", func() { r.res.Skipped = append(r.res.Skipped, r.skips.result()...) }},
		// After the ignores were applied and the rules' skips are known:
		// an ignore is unused when no finding was silenced by it and its
		// rule did not skip at its place.
		{"check ignores", r.checkIgnores},
		// After every root is folded: a block is unmatched only when no
		// root reading its file matched it.
		{"unmatched config", func() { r.res.Skipped = append(r.res.Skipped, r.unmatchedConfigs()...) }},
		// Notices of the configuration files, as the ignores' are: after
		// the ignores, which do not silence them.
		{"stale rates", func() {
			if !r.opts.Explain {
				r.res.Issues = append(r.res.Issues, r.staleRates()...)
			}
		}},
		// After the skips are complete, whose run-wide ones it lists.
		{"explain", func() {
			if r.opts.Explain {
				r.res.Explanation = explanation(r.outs, r.res.Skipped)
			}
		}},
		{"loader errors", func() {
			for _, d := range r.loader.errs {
				r.res.Errors = append(r.res.Errors, diagEntry(d))
			}
			r.res.Errors = dedupeErrors(r.res.Errors)
		}},
		{"sort", r.res.Sort},
		// After sorting: the skips of several rules at one place for one
		// reason become one, named for the first rule in sorted order.
		{"merge rules", func() { r.res.Skipped = mergeRules(r.res.Skipped) }},
	}
}

// Result is the run's result, complete once the processors have run.
func (r *Session) Result() *Result { return r.res }

// unignored are the findings no ignore comment covers: at their place,
// for a finding moved out of an installed module inside the module, on
// every caller's argument that sets the value at fault, or on one of the
// module calls that reach it. Every comment that covers a finding is
// marked used, not only the first.
func (r *Session) unignored(issues []placedIssue) []Issue {
	r.ignores = newIgnoreSet(r.loader.sources, r.now)
	var out []Issue
	for _, p := range issues {
		ignored := r.ignores.silence(p.Rule, p.Range)
		if p.ModuleRange != nil {
			ignored = r.ignores.silence(p.Rule, *p.ModuleRange) || ignored
		}
		ignored = r.ignores.silence(p.Rule, p.Arguments...) || ignored
		for _, c := range p.Callers {
			ignored = r.ignores.silence(p.Rule, c) || ignored
		}
		if !ignored {
			out = append(out, p.Issue)
		}
	}
	return out
}

// UnusedIgnore is the pseudo-rule of the notices about ignores: one that
// suppressed nothing (Options.ReportUnusedIgnores), one past its expiry.
const UnusedIgnore = "queuecap_unused_ignore"

// ignoreDocs is where ignores are documented, for the notices about them.
func ignoreDocs() string {
	return model.DocURL(model.BuildVersion(), "docs/rules/README.md#suppressing-findings")
}

// checkIgnores reports the ignore blocks and comments that cannot work
// as errors (a rule no one knows, a file-level ignore below the top, a
// malformed expiry), and those that did nothing as notices: expired, or
// (with ReportUnusedIgnores) unused. Comments in installed modules are
// left alone: the user does not edit them.
func (r *Session) checkIgnores() {
	for _, sk := range r.res.Skipped {
		r.ignores.undecide(sk)
	}
	known := make([]string, 0, len(r.opts.Rules))
	for _, rule := range r.opts.Rules {
		known = append(known, rule.Name())
	}
	active := map[string]bool{"all": len(r.active) > 0}
	for _, a := range r.active {
		active[a.rule.Name()] = true
	}
	r.checkIgnoreBlocks(known, active)
	for _, path := range r.loader.sources.paths() {
		if r.loader.isRemote(filepath.Dir(path)) {
			continue
		}
		anns := r.ignores.of(path)
		r.res.Errors = append(r.res.Errors, r.ignores.errs[path]...)
		for _, a := range anns {
			for _, name := range a.rules {
				if name != "all" && !a.tflint && !slices.Contains(known, name) {
					rng := a.rng
					r.res.Errors = append(r.res.Errors, ErrorEntry{Severity: Error, Range: &rng,
						Message: fmt.Sprintf("queuecap-ignore names rule %q, which does not exist%s", name, suggest(name, known))})
				}
			}
			if is, ok := r.idleIgnore(a, active); ok {
				r.res.Issues = append(r.res.Issues, is)
			}
		}
	}
	// The formats that describe each rule (SARIF) describe this one too.
	if slices.ContainsFunc(r.res.Issues, func(is Issue) bool { return is.Rule == UnusedIgnore }) {
		r.res.Rules = append(r.res.Rules, RuleInfo{Name: UnusedIgnore, Severity: Notice, Link: ignoreDocs(),
			Summary: "An ignore comment or block silences no finding, or is past its expiry date."})
	}
}

// idleIgnore is the notice about an annotation that did nothing: expired,
// or, with ReportUnusedIgnores, naming rules that ran and found nothing
// there.
func (r *Session) idleIgnore(a *annotation, active map[string]bool) (Issue, bool) {
	is := Issue{Rule: UnusedIgnore, Severity: Notice, Range: a.rng, Subject: strings.Join(a.rules, ","),
		Link: ignoreDocs()}
	if a.expired(r.now) {
		day := a.expires.Format(time.DateOnly)
		is.Summary = fmt.Sprintf("ignore of %s expired on %s: its findings are reported again", strings.Join(a.rules, ", "), day)
		is.Message = fmt.Sprintf("the ignore of %s worked until the end of %s (UTC); fix what it ignored, or give it a new exp: date with a reason that still holds", strings.Join(a.rules, ", "), day)
		is.Address = r.annotatedBlock(a)
		return is, true
	}
	if !r.opts.ReportUnusedIgnores || r.opts.Explain {
		return Issue{}, false
	}
	var unused []string
	for _, name := range a.rules {
		// tflint's `all` covers every ruleset's rules, not only ours.
		if active[name] && !a.used[name] && !a.undecided[name] && (name != "all" || !a.tflint) {
			unused = append(unused, name)
		}
	}
	if len(unused) == 0 {
		return Issue{}, false
	}
	where := "on this line or the next"
	if a.file {
		where = "in this file"
	}
	list := strings.Join(unused, ", ")
	is.Summary = fmt.Sprintf("ignore of %s suppresses nothing: remove it", list)
	is.Message = fmt.Sprintf("no finding of %s is %s, nor in a module a call here reaches; an ignore that silences nothing would hide the next finding unseen", list, where)
	if len(unused) < len(a.rules) {
		is.Summary = fmt.Sprintf("ignore of %s suppresses nothing: remove it from the list", list)
	}
	is.Address = r.annotatedBlock(a)
	return is, true
}

// unmatchedConfigs are the queue blocks of each configuration file that no
// root reading it has.
func (r *Session) unmatchedConfigs() []Skip {
	var out []Skip
	seen := map[*Config]bool{}
	for _, cfg := range r.configs {
		if seen[cfg] {
			continue
		}
		seen[cfg] = true
		var readers []RootResult
		for i := range r.outs {
			if r.configs[i] == cfg {
				readers = append(readers, r.outs[i])
			}
		}
		out = append(out, unmatchedConfig(cfg, readers)...)
	}
	return out
}

// annotatedBlock is the address, in its module, of the top-level block an
// ignore comment annotates (the one on its line or the next: resource,
// data source or module call), or "" for a file-level ignore or one by no
// such block: the address of the notice about it. Each file is parsed
// once, and only for the comments that get a notice.
func (r *Session) annotatedBlock(a *annotation) string {
	if a.file {
		return ""
	}
	path := a.rng.Filename
	blocks, ok := r.topBlocks[path]
	if !ok {
		blocks = topLevelBlocks(r.loader.sources.lookup(path))
		if r.topBlocks == nil {
			r.topBlocks = map[string]hclsyntax.Blocks{}
		}
		r.topBlocks[path] = blocks
	}
	line := a.rng.Start.Line
	for _, b := range blocks {
		r := b.Range()
		if r.End.Line < line || r.Start.Line > line+1 {
			continue
		}
		switch {
		case b.Type == "resource" && len(b.Labels) == 2:
			return b.Labels[0] + "." + b.Labels[1]
		case b.Type == "data" && len(b.Labels) == 2:
			return "data." + b.Labels[0] + "." + b.Labels[1]
		case b.Type == "module" && len(b.Labels) == 1:
			return "module." + b.Labels[0]
		}
	}
	return ""
}

// topLevelBlocks are the blocks at the top of a native-syntax file; none
// for a JSON file, one not kept, or one that does not parse.
func topLevelBlocks(pf *parsedFile) hclsyntax.Blocks {
	if pf == nil || strings.HasSuffix(pf.path, ".json") {
		return nil
	}
	f, diags := hclsyntax.ParseConfig(pf.src, pf.path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	return body.Blocks
}
