// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// Options are one run's inputs. The command line and .queuecap.hcl are
// merged into them by the caller.
type Options struct {
	// Dirs are the directories and files to lint, as rootsToLint reads them.
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
}

// UsageError is a mistake in the options themselves (an unknown rule ID, a
// malformed --var): nothing was linted.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// rootsToLint lists the root modules that paths name. A directory is a root
// module, or with recursive every folder below it that holds configuration
// files. A .tf, .tofu or .tfvars file stands for its folder's root module,
// linted once however many of its files are given (pre-commit passes each
// changed file) and not again when a directory given reaches it; it reads
// the nearest .queuecap.hcl up to the working directory, as --recursive
// from there would. A .queuecap.hcl stands for the roots it governs
// (configFinder.governed), linted as if a file of each were given.
//
// It also returns the terragrunt.hcl of each directory given or walked
// that holds no configuration but a Terragrunt unit (terragruntSkip).
func rootsToLint(paths []string, recursive bool, listed func(dir string, files []string), configs *configFinder) ([]rootAt, []ErrorEntry, []string) {
	var roots, fileRoots []rootAt
	var errs []ErrorEntry
	var units []string
	unit := func(p string) { units = append(units, p) }
	unreadable := func(path string, err error) {
		errs = append(errs, ErrorEntry{Message: fmt.Sprintf("cannot read %s: %v", path, err), Severity: Error})
	}
	for _, path := range paths {
		info, err := os.Stat(path)
		if err == nil {
			err = CheckPath(path)
		}
		switch {
		case err != nil:
			errs = append(errs, ErrorEntry{Message: err.Error(), Severity: Error})
		case !info.IsDir() && isConfigFile(path):
			fileRoots = append(fileRoots, configs.governed(path, unreadable, listed)...)
		case info.IsDir() && recursive:
			for _, r := range walkRoots(path, unreadable, listed, unit) {
				roots = append(roots, rootAt{dir: r, top: path})
			}
		case info.IsDir():
			roots = append(roots, rootAt{dir: path, top: path})
			// Listed once, for its loader as for a walked root.
			if entries, err := os.ReadDir(path); err == nil {
				noteDir(path, entries, listed, unit)
			}
		default:
			fileRoots = append(fileRoots, rootAt{dir: filepath.Dir(path), top: workingDirAbove(filepath.Dir(path))})
		}
	}
	seen := map[string]bool{}
	for _, r := range roots {
		seen[filepath.Clean(r.dir)] = true
	}
	for _, r := range fileRoots {
		if !seen[r.dir] {
			seen[r.dir] = true
			roots = append(roots, r)
		}
	}
	return roots, errs, units
}

// CheckPath reports why path, given to lint, cannot be: it does not exist,
// or is a file that is neither configuration nor variables.
func CheckPath(path string) error {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file or directory", path)
	case err != nil:
		return err
	case !info.IsDir() && configExt(filepath.Base(path)) == "" && !isVarsFile(path) && !isConfigFile(path):
		return errors.New(path + " is neither a directory nor a .tf, .tofu, .tfvars or " + DefaultConfigFile + " file")
	}
	return nil
}

// isConfigFile is whether path names a .queuecap.hcl.
func isConfigFile(path string) bool {
	return filepath.Base(path) == DefaultConfigFile
}

func isVarsFile(path string) bool {
	return strings.HasSuffix(path, ".tfvars") || strings.HasSuffix(path, ".tfvars.json")
}

// workingDirAbove is the working directory, spelled as dir is (relative or
// absolute), when dir is within it; else dir itself.
func workingDirAbove(dir string) string {
	wd := "."
	if filepath.IsAbs(dir) {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return dir
		}
	}
	if within(dir, wd) {
		return wd
	}
	return dir
}

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
	res := &Result{Issues: []Issue{}, Errors: []ErrorEntry{}, Skipped: []Skip{},
		Source: func(path string) ([]byte, error) { return bound.readFile(path, maxFileBytes, "a configuration file") }}
	for _, d := range flagDiags {
		res.Errors = append(res.Errors, diagEntry(d))
	}
	for _, a := range active {
		info := RuleInfo{Name: a.rule.Name(), Severity: a.severity, Link: a.rule.Link(), Summary: a.rule.Summary()}
		if d, ok := a.rule.(DocumentedRule); ok {
			info.Doc = d.Doc()
		}
		res.Rules = append(res.Rules, info)
	}

	l := newLoader(bound)
	l.host = opts.Host
	l.sources.tflint = opts.Host != nil && opts.Host.Name() == "tflint"
	finder := newConfigFinder(opts.Config, bound)
	roots, errs, units := rootsToLint(opts.Dirs, opts.Recursive, l.listed, finder)
	res.Errors = append(res.Errors, errs...)
	configs := make([]*Config, len(roots))
	for i, r := range roots {
		configs[i] = opts.Config
		if opts.DiscoverConfig {
			configs[i] = finder.forRoot(r)
		}
	}
	res.Errors = append(res.Errors, finder.errs...)

	// Root modules are independent: lint them in parallel, sharing the
	// parsed-file cache, and merge in root order so output is stable.
	// Each module directory stays in the cache while a root still to
	// finish may read it.
	rootDirs := make([]string, len(roots))
	for i, r := range roots {
		rootDirs[i] = r.dir
	}
	reads := l.predictReads(rootDirs)
	// Each root's findings and skips are folded into the run's as soon as
	// it and every root before it are done, in root order (so that which
	// of two reasons for one place stands does not depend on timing), and
	// then dropped: what a run holds is the roots in flight and the merged
	// results, not every root's until the end.
	outs := make([]rootResult, len(roots))
	done := make([]bool, len(roots))
	keepAddrs := make([]bool, len(roots)) // for unmatchedConfig's suggestions
	for i := range roots {
		keepAddrs[i] = len(configs[i].Queues) > 0 || opts.Explain
	}
	var issues issueMerger
	var skips skipMerger
	var declared []map[string]bool
	var mu sync.Mutex
	next := 0
	fold := func(i int, out rootResult) {
		mu.Lock()
		defer mu.Unlock()
		outs[i], done[i] = out, true
		for ; next < len(outs) && done[next]; next++ {
			o := &outs[next]
			res.Errors = append(res.Errors, o.errors...)
			for _, is := range o.issues {
				issues.add(is)
			}
			for _, sk := range o.skips {
				skips.add(sk, roots[next].dir)
			}
			res.Queues += len(o.queueAddrs)
			if o.variables != nil && len(flags) > 0 {
				declared = append(declared, o.variables)
			}
			o.errors, o.issues, o.skips, o.variables = nil, nil, nil, nil
			if !keepAddrs[next] {
				o.queueAddrs, o.fleetAddrs = nil, nil
			}
		}
	}
	var wg sync.WaitGroup
	// Twice as many roots in flight as processors: a root that needs a
	// module another root is still reading waits for it (moduleDecl reads
	// each directory once), and with one root per processor that
	// processor would sit idle. On the 20,000-file benchmark tree this
	// took the wall time from 9.7 s to 7.3 s on 2 CPUs, for 10 MiB more
	// at the peak; more roots in flight bought nothing more.
	// They are long-lived workers taking roots in order, not a goroutine
	// per root: the parser recurses deeply, and a new goroutine's stack
	// grows by copying, again for each root.
	l.startSpare(runtime.GOMAXPROCS(0))
	defer l.stopSpare()
	var nextRoot atomic.Int64
	for range min(2*runtime.GOMAXPROCS(0), len(roots)) {
		wg.Go(func() {
			for {
				i := int(nextRoot.Add(1)) - 1
				if i >= len(roots) {
					return
				}
				rootOpts := opts
				rootOpts.Config = configs[i]
				out := lintRoot(l, roots[i].dir, rootOpts, flags, active)
				out.config = configs[i]
				l.release(reads[i])
				fold(i, out)
			}
		})
	}
	wg.Wait()
	flagSkips, err := undeclaredFlags(flags, declared)
	if err != nil {
		return nil, err
	}
	for _, sk := range flagSkips {
		skips.add(sk, "")
	}
	for _, u := range units {
		if sk, ok := terragruntSkip(bound, u); ok {
			skips.add(sk, "")
		}
	}

	anns := map[string][]annotation{}
	ignored := func(rule string, rng Range) bool {
		a, ok := anns[rng.Filename]
		if !ok {
			a = annotations(l.sources.lookup(rng.Filename), l.sources.tflint)
			anns[rng.Filename] = a
		}
		return ignores(a, rule, rng.Start.Line)
	}
	// A module reached from two root modules, or through two calls, with
	// the same result is one finding.
	for _, p := range issues.out {
		is := p.Issue
		if !ignored(is.Rule, is.Range) && (is.ModuleRange == nil || !ignored(is.Rule, *is.ModuleRange)) {
			res.Issues = append(res.Issues, is)
		}
	}
	res.Skipped = append(res.Skipped, skips.result()...)
	// A queue block is unmatched when no root reading its file has it.
	seenConfig := map[*Config]bool{}
	for _, cfg := range configs {
		if seenConfig[cfg] {
			continue
		}
		seenConfig[cfg] = true
		var readers []rootResult
		for i := range outs {
			if outs[i].config == cfg {
				readers = append(readers, outs[i])
			}
		}
		res.Skipped = append(res.Skipped, unmatchedConfig(cfg, readers)...)
	}
	if opts.Explain {
		res.Explanation = explanation(outs, res.Skipped)
	}
	for _, d := range l.errs {
		res.Errors = append(res.Errors, diagEntry(d))
	}
	res.Errors = dedupeErrors(res.Errors)
	res.Sort()
	res.Skipped = mergeRules(res.Skipped)
	return res, nil
}

// dedupeSkips keeps one skip per rule and place: a module reached from
// several root modules (or calls) is not checked once, whatever reached it.
// The most telling reason stands (a queue that has a consumer but no rate
// over the same queue with no consumer in the module's own root), then
// the shortest, which names the module-local address.
func dedupeSkips(skips []Skip) []Skip {
	var m skipMerger
	for _, s := range skips {
		m.add(s, "")
	}
	return m.result()
}

// skipMerger is dedupeSkips one skip at a time. A large tree has tens of
// thousands of skips, many of them the same place reached again, so what
// it keeps of the others is their count: each distinct other reason as a
// hash, not the text.
type skipMerger struct {
	best map[skipPlace]int
	out  []Skip
	// roots are the root modules each kept skip was found linting.
	roots []string
	// others are the other reasons of the same rank merged into each kept
	// skip: the other instances a place stands for (of a resource or a
	// module with count or for_each, or of a module several roots call).
	others map[int]map[uint64]struct{}
	// elsewhere are the kept skips some of whose other reasons come from
	// another root module than theirs.
	elsewhere map[int]bool
	seed      maphash.Seed
}

// skipPlace is what dedupeSkips keeps one skip of.
type skipPlace struct {
	rule, file   string
	line, column int
}

func (m *skipMerger) add(s Skip, root string) {
	if m.best == nil {
		m.best, m.others, m.elsewhere, m.seed = map[skipPlace]int{}, map[int]map[uint64]struct{}{}, map[int]bool{}, maphash.MakeSeed()
	}
	key := skipPlace{s.Rule, s.Range.Filename, s.Range.Start.Line, s.Range.Start.Column}
	i, ok := m.best[key]
	if !ok {
		m.best[key] = len(m.out)
		m.out, m.roots = append(m.out, s), append(m.roots, root)
		return
	}
	kept := &m.out[i]
	switch r, k := skipRank(s), skipRank(*kept); {
	case r < k:
		*kept, m.roots[i] = s, root
		delete(m.others, i)
		delete(m.elsewhere, i)
	case r > k:
	case sameVerdict(s, *kept):
		// Another instance (count, for_each, a module called twice)
		// skipped for the same reason: one skip listing them, in the
		// words of the first.
		instances := addInstance(kept.Instances, kept.Address, s.Address)
		if addressLess(s.Address, kept.Address) {
			*kept, m.roots[i] = s, root
		}
		kept.Instances = instances
	case moduleLocal(s.Reason) == moduleLocal(kept.Reason):
		// One module instance seen from two roots (a root, and an
		// example calling it as a module): the same reason, in the
		// module's own words.
		instances := addInstance(kept.Instances, kept.Address, s.Address)
		if len(s.Reason) < len(kept.Reason) {
			*kept, m.roots[i] = s, root
		}
		kept.Instances = instances
	default:
		if len(s.Reason) < len(kept.Reason) {
			instances := addInstance(kept.Instances, kept.Address, s.Address)
			s, *kept = *kept, s
			root, m.roots[i] = m.roots[i], root
			kept.Instances = instances
		} else {
			kept.Instances = addInstance(kept.Instances, kept.Address, s.Address)
		}
		if m.others[i] == nil {
			m.others[i] = map[uint64]struct{}{}
		}
		m.others[i][maphash.String(m.seed, s.Reason)] = struct{}{}
		if root != m.roots[i] {
			m.elsewhere[i] = true
		}
	}
}

// sameVerdict reports whether two skips at one place give one reason, but
// for the instance each names: "max_size of aws_autoscaling_group.w[0] is
// not known before apply" and the same of w[1].
func sameVerdict(s, kept Skip) bool {
	if s.Reason == kept.Reason {
		return true
	}
	return s.Address != "" && kept.Address != "" && strings.Contains(s.Reason, s.Address) &&
		strings.ReplaceAll(s.Reason, s.Address, kept.Address) == kept.Reason
}

func (m *skipMerger) result() []Skip {
	for i, o := range m.others {
		switch n := len(o); {
		case n > 0 && m.elsewhere[i]:
			// The module's own root and a root calling it (an example)
			// give different reasons.
			m.out[i].Reason += fmt.Sprintf(" (and %d more like it at this place, where another root module calls this one)", n)
		case n > 0:
			m.out[i].Reason += fmt.Sprintf(" (and %d more like it at this place, for other instances)", n)
		}
	}
	m.others, m.elsewhere = nil, nil
	return m.out
}

// moduleAddress is the part of an address that names a module call with
// neither count nor for_each: one instance, whichever root reaches it.
var moduleAddress = regexp.MustCompile(`\bmodule\.[A-Za-z0-9_-]+\.`)

// moduleLocal is a reason with the calls of single module instances taken
// out of the addresses it names, as a finding's key takes its module
// instance out of its message; the keys of count and for_each instances
// stay, so that those are still counted apart. Most reasons name no
// module, and are not handed to the regular expression.
func moduleLocal(reason string) string {
	if !strings.Contains(reason, "module.") {
		return reason
	}
	return moduleAddress.ReplaceAllString(reason, "")
}

// skipRank orders the reasons for one place, lower first: a coverage skip
// that names the queue's consumer says what to declare, where the same
// module linted as its own root has no consumer to name.
func skipRank(s Skip) int {
	if s.Rule == skipCoverage && !strings.HasPrefix(s.Reason, "no consumer of ") {
		return 0
	}
	return 1
}

type rootResult struct {
	config        *Config  // the configuration the root read
	queueAddrs    []string // the queues modeled
	fleetAddrs    []string
	issues        []placedIssue
	skips         []Skip
	errors        []ErrorEntry
	configMatched map[string]bool
	// variables are the names of the root module's variables; nil when
	// the root could not be read.
	variables map[string]bool
	explained *RootExplanation // with Options.Explain
}

func lintRoot(l *loader, dir string, opts Options, flags []assignment, active []activeRule) (out rootResult) {
	// A bug must not take the other root modules down with it (a panic in
	// this goroutine would end the process): report it and go on.
	defer func() {
		if p := recover(); p != nil {
			out = rootResult{errors: []ErrorEntry{{Message: fmt.Sprintf("internal error while linting %s: %v", dir, p), Severity: Error}}}
		}
	}()
	var b *builder
	var built rootBuild
	if opts.Plan != nil {
		b = buildPlanRoot(l, dir, opts)
	} else {
		b, built = buildRoot(l, dir, opts, flags)
	}
	out.errors, out.skips, out.variables = built.errors, built.skips, built.variables
	if b == nil {
		return out
	}
	// A root module whose evaluation ran out of a budget is that error
	// alone: what was evaluated of it is incomplete.
	if d := b.limits.exceeded; d != nil {
		return rootResult{errors: append(out.errors, diagEntry(d)), variables: out.variables}
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
	// The skips of the model and of the rules are placed as findings are.
	for _, sk := range b.skips {
		b.placeSkip(&sk)
		out.skips = append(out.skips, sk)
	}
	out.queueAddrs, out.fleetAddrs = sortedKeys(b.queues), sortedKeys(b.fleets)
	if opts.Explain {
		out.explained = explainRoot(b, out.skips)
		return out
	}
	// Each rule runs over one subject at a time (every rule iterates one
	// kind of object), so each finding is known to be about one queue,
	// fleet, alarm or mapping, and so about one module instance.
	subjects := b.subjects()
	for _, a := range active {
		r := &reporter{rule: a.rule, severity: a.severity}
		for _, s := range subjects {
			from, fromSkip := len(r.issues), len(r.skips)
			s.check(a.rule, r)
			for _, is := range r.issues[from:] {
				p := placedIssue{Issue: is}
				p.Address = b.addressAt(is.Range, s.addr)
				b.place(&p, s.addr)
				out.issues = append(out.issues, p)
			}
			for i := fromSkip; i < len(r.skips); i++ {
				r.skips[i].Address = b.addressAt(r.skips[i].Range, s.addr)
			}
		}
		for _, sk := range r.skips {
			b.placeSkip(&sk)
			out.skips = append(out.skips, sk)
		}
	}
	return out
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
	b := newBuilder(dir, opts.Config)
	root := newInstance(mod, "", nil, vars)
	root.host = opts.Host
	b.dataArgs, b.limits = root.dataArgs, root.limits
	b.walk(root)
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
		var queues, fleets []string
		for _, o := range outs {
			queues, fleets = append(queues, o.queueAddrs...), append(fleets, o.fleetAddrs...)
		}
		reason := fmt.Sprintf("queue block %q matches no aws_sqs_queue in the linted configuration%s", addr, suggest(addr, queues))
		if slices.ContainsFunc(outs, func(o rootResult) bool { _, found := o.configMatched[addr]; return found }) {
			reason = fmt.Sprintf("queue block %q names consumer %q, which matches no fleet in the linted configuration%s", addr, qc.Consumer, suggest(qc.Consumer, fleets))
		}
		skips = append(skips, Skip{Rule: "config", Range: toRange(qc.Range), Reason: reason, Address: addr})
	}
	return skips
}
