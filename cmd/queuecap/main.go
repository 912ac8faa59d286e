// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Command queuecap is the companion CLI of the queuecap Terraform provider.
//
//	queuecap lint [flags] [DIR|FILE ...]
//	queuecap lint --chdir DIR [flags] [DIR|FILE ...]
//	queuecap lint --plan FILE|- [--chdir DIR] [flags]
//	queuecap lint --explain [--format text|json|mermaid] [DIR ...]
//	queuecap init [flags] [DIR ...]
//	queuecap size [flags]
//	queuecap simulate [flags]
//	queuecap runtask serve [flags]
//
// Exit codes, as tflint's:
//
//	0  nothing at or above the failure severity (with --explain or --force: no error)
//	1  an error: a bad flag, an unreadable or invalid config, HCL that does not parse,
//	   a --var for an undeclared variable, a variable value that does not fit its type,
//	   a file outside the boundary or not regular, an internal error
//	2  findings at or above the failure severity (never with --explain or
//	   --write-baseline; a finding the baseline records is left out)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/baseline"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// Exit codes.
const (
	exitOK       = 0
	exitError    = 1
	exitFindings = 2
)

// version and commit are stamped by the release build:
// -ldflags "-X main.version=… -X main.commit=…".
var version, commit string

func main() {
	model.Version, model.Commit = version, commit
	if len(os.Args) > 1 && os.Args[1] == "lint" {
		tuneGC(os.LookupEnv)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// lintGCPercent is the collector's target for `queuecap lint` when GOGC
// does not set one. Linting allocates mostly short-lived syntax (a parse
// allocates tens of times a file's size, of which only the modules of
// the root modules being linted stay alive), so the live heap is small
// and, at Go's default of 100, the collector runs hundreds of times on a
// large tree, for about a quarter of the CPU time. At 400 it runs a
// quarter as often, and the heap peaks at about five times what is live
// instead of twice: on the 20,000-file benchmark tree (tools/bench-lint.sh)
// about 2.5 CPU seconds fewer of 15, for about 100 MiB more of peak memory.
const lintGCPercent = 400

// lintMemoryLimit caps what lintGCPercent lets the heap grow to, unless
// GOMEMLIMIT sets a limit: once the heap nears it the collector runs
// whatever GOGC says. Root modules are linted and released one after
// another, so what is live is the few being linted and the modules later
// roots will read, about the same in a tree of 1,000 files and of 100,000;
// at 400 alone the heap would peak at five times that, which the limit
// trims on large trees for a few more collections. A root module larger
// than the limit is still linted (the limit is soft; the collector then
// runs more often).
const lintMemoryLimit = 112 << 20

// tuneGC sets lintGCPercent unless the environment sets GOGC, and
// lintMemoryLimit unless it sets GOMEMLIMIT.
func tuneGC(lookupEnv func(string) (string, bool)) {
	if _, set := lookupEnv("GOGC"); !set {
		debug.SetGCPercent(lintGCPercent)
	}
	if _, set := lookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(lintMemoryLimit)
	}
}

const usage = `Usage: queuecap <command> [flags]

Commands:
  lint      check Terraform configurations for queues that cannot recover from a backlog
  size      size a consumer fleet for a backlog and an RTO: the capacity review table
  calc      compute any formula of the provider's data sources from flags
  simulate  simulate fleets through a retry storm: a summary and an SVG chart of depth
  diff      compare two runs of lint: new and fixed findings, and each queue's capacity before and after
  init      write a .queuecap.hcl queue block for each queue with a consumer: its names and the rates to declare
  rates     measure each queue's rates from Prometheus or CloudWatch, and write them into .queuecap.hcl
  version   print the version

Run 'queuecap <command> --help' for its flags.
`

// commands are the subcommands by name.
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"lint":     runLint,
	"size":     runSize,
	"simulate": runSimulate,
	"runtask":  runRuntask,
	"calc":     runCalc,
	"diff":     runDiff,
	"init":     runInit,
	"rates":    runRates,
}

func run(args []string, stdout, stderr io.Writer) (code int) {
	// A bug must not exit 2 as an unrecovered panic does: that is the
	// code of findings, which --force and CI settings such as the
	// Action's fail-on-findings: false let pass.
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "Error: internal error: %v\n", p)
			code = exitError
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	name := args[0]
	if cmd, ok := commands[name]; ok {
		return cmd(args[1:], stdout, stderr)
	}
	switch name {
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	case "help", "--help", "-h":
		if len(args) > 1 && name == "help" {
			// queuecap help lint is queuecap lint --help.
			if cmd, ok := commands[args[1]]; ok {
				return cmd([]string{"--help"}, stdout, stderr)
			}
			fmt.Fprintf(stderr, "Error: unknown command %q%s\n\n%s", args[1], suggestCommand(args[1]), usage)
			return exitError
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if strings.HasPrefix(name, "-") {
		// Each command has its own flags: they follow its name.
		fmt.Fprintf(stderr, "Error: %s comes before the command; flags follow it, as in 'queuecap lint %s'\n\n%s", name, name, usage)
		return exitError
	}
	fmt.Fprintf(stderr, "Error: unknown command %q%s\n\n%s", name, suggestCommand(name), usage)
	return exitError
}

// suggestCommand is ": did you mean NAME?" for the command closest to a
// misspelled one, or "".
func suggestCommand(name string) string {
	names := []string{"help", "version"}
	for n := range commands {
		names = append(names, n)
	}
	if best := closest(name, names); best != "" {
		return ": did you mean " + best + "?"
	}
	return ""
}

// versionLine is "queuecap VERSION", with "(commit REVISION)" when the
// build knows its commit.
func versionLine() string {
	if c := model.BuildCommit(); c != "" {
		return "queuecap " + model.BuildVersion() + " (commit " + c + ")"
	}
	return "queuecap " + model.BuildVersion()
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// varFlag is --var or --var-file: both append to one list, whose order is
// their precedence.
type varFlag struct {
	list *[]lint.VarFlag
	file bool
}

func (v varFlag) String() string { return "" }
func (v varFlag) Set(s string) error {
	*v.list = append(*v.list, lint.VarFlag{File: v.file, Value: s})
	return nil
}

type lintFlags struct {
	recursive   bool
	format      string
	minSeverity string
	config      string
	noColor     bool
	color       string
	showSkipped bool
	explain     bool
	force       bool
	failSkipped bool
	// reportUnused reports ignores that silenced nothing, as notices.
	reportUnused bool
	outputs      multiFlag
	plan         string
	chdir        string
	baseline     string
	writeBase    string
	boundary     string
	vars         []lint.VarFlag
	enable       multiFlag
	disable      multiFlag
	only         multiFlag
	skipDirs     multiFlag
	set          map[string]bool // flags given on the command line
	dirs         []string
}

// lintCommand defines the lint flags, to be read into f.
func lintCommand(f *lintFlags) *command {
	cmd := newCommand("lint", "[flags] [DIR|FILE ...]")
	cmd.synopsis = append(cmd.synopsis, "--plan FILE|- [--chdir DIR] [flags]", "--explain [--format text|json|mermaid] [flags] [DIR ...]")
	cmd.positional = "DIR ..."
	fs := cmd.fs
	rootFlags(fs, f)
	fs.StringVar(&f.format, "format", "default", "output `format`: "+strings.Join(formatter.Names(), "|")+"; with --explain "+strings.Join(formatter.ExplainNames(), "|")+" (default text)")
	fs.StringVar(&f.minSeverity, "minimum-failure-severity", "warning", "lowest `severity` that fails the run (exit 2): error|warning|notice")
	fs.StringVar(&f.config, "config", "", "config `file` (default $QUEUECAP_CONFIG, else "+lint.DefaultConfigFile+" in the working directory or --chdir's DIR, if present)")
	fs.StringVar(&f.color, "color", "auto", "color the default format on standard output: `WHEN` is auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR turns it on), always or never")
	fs.BoolVar(&f.noColor, "no-color", false, "disable colored output, as --color never")
	fs.BoolVar(&f.showSkipped, "show-skipped", false, "list every check that was skipped, and why, in the default and compact formats")
	fs.BoolVar(&f.force, "force", false, "exit 0 even when findings fail the run (errors still exit 1)")
	fs.BoolVar(&f.failSkipped, "fail-on-skipped", false, "exit 2 when a queue with a consumer was not checked (no declared arrival rate, or a check skipped), as for findings")
	fs.Var(&f.outputs, "output", "write a report: `FORMAT=FILE` writes FORMAT to FILE, - being standard output (repeatable: every report from the one run); a bare FILE gets the --format output, and standard output then the default format. FILE is relative to the working directory, or to --chdir's DIR")
	fs.BoolVar(&f.explain, "explain", false, "print what was linked instead of findings: each queue's consumers, scaling policies, alarms, dead-letter queue and rates with where they came from, and what could not be linked and why")
	fs.StringVar(&f.plan, "plan", "", "lint a plan instead of HCL: `FILE` holds the JSON of terraform show -json PLANFILE (- for standard input), or is the plan file itself, read with terraform or tofu show -json")
	fs.StringVar(&f.chdir, "chdir", "", "lint as if run in `DIR`: DIR arguments (default DIR itself), --var-file, --config, QUEUECAP_CONFIG, --output, --boundary and .queuecap.hcl are found from there, and files are named from where queuecap runs; with --plan, only the configuration directory the plan was made in, for the file and line of each finding (default the working directory)")
	fs.StringVar(&f.baseline, "baseline", "", "leave out the findings the baseline `FILE` (written by --write-baseline) records, and list its entries no finding matches as fixed (default the config's baseline, if set)")
	fs.StringVar(&f.writeBase, "write-baseline", "", "record every finding of the run in the baseline `FILE`, relative to the working directory (or --chdir's DIR), and exit 0 unless an error stops the run")
	fs.Var(&f.enable, "enable-rule", "enable a rule by `ID` (repeatable)")
	fs.Var(&f.disable, "disable-rule", "disable a rule by `ID` (repeatable)")
	fs.Var(&f.only, "only", "run only the rule `ID`, whatever else enables or disables rules (repeatable)")
	fs.BoolVar(&f.reportUnused, "report-unused-ignores", true, "report each queuecap-ignore comment that silenced nothing as a notice ("+lint.UnusedIgnore+"); --report-unused-ignores=false to leave them unsaid")
	cmd.alias("f", "format")
	cmd.alias("c", "config")
	cmd.footer = "Root module variables, later ones winning: defaults, TF_VAR_name environment variables,\n" +
		"terraform.tfvars, terraform.tfvars.json, *.auto.tfvars in name order, then --var and --var-file\n" +
		"in the order given. A value that does not fit its variable's type is an error.\n" +
		"\nEnvironment: QUEUECAP_CONFIG (the --config default), TF_VAR_name, TF_WORKSPACE, TF_DATA_DIR (where\n" +
		"terraform init installed modules, relative to each root module), NO_COLOR and FORCE_COLOR (--color auto).\n" +
		"\nExit codes: 0 no findings at or above the failure severity, 1 an error, 2 findings, or with --fail-on-skipped a queue\nwith a consumer not checked (--explain, --force, --write-baseline: 0 or 1).\n"
	return cmd
}

// rootFlags defines the flags that choose the root modules and their
// variables, as lint and init read them.
func rootFlags(fs *flag.FlagSet, f *lintFlags) {
	fs.BoolVar(&f.recursive, "recursive", false, "lint every directory below DIR that holds .tf or .tofu files as its own root module, except those --skip-dir names")
	fs.StringVar(&f.boundary, "boundary", "", "read nothing outside `DIR`, which must hold every directory linted (default each one's repository: the nearest directory above it with .git, else the directory itself)")
	fs.Var(varFlag{&f.vars, true}, "var-file", "a .tfvars `file` setting root module variables (repeatable)")
	fs.Var(varFlag{&f.vars, false}, "var", "a root module variable as `NAME=VALUE` (repeatable); a NAME no root module declares is an error")
	fs.Var(&f.skipDirs, "skip-dir", "with --recursive, do not walk into folders matching `GLOB`: a name (vendor, test*), or a path relative to DIR with ** for any depth (envs/*/old, vendor/**); node_modules and hidden folders such as .terraform and .terragrunt-cache are always skipped (repeatable)")
}

// finish takes what cmd parsed and checks the flags against each other.
func (f *lintFlags) finish(cmd *command) error {
	f.set, f.dirs = cmd.set, cmd.args
	switch {
	case f.plan != "" && len(f.dirs) > 0:
		return &lint.UsageError{Msg: "--plan lints a plan, not directories: give its configuration directory with --chdir"}
	case f.plan != "" && (len(f.vars) > 0 || f.recursive):
		return &lint.UsageError{Msg: "--var, --var-file and --recursive do not apply to --plan: the plan holds its variables"}
	case f.baseline != "" && f.writeBase != "":
		return &lint.UsageError{Msg: "--baseline and --write-baseline: give one (--write-baseline records every finding, the baseline's too)"}
	case f.explain && (f.baseline != "" || f.writeBase != ""):
		return &lint.UsageError{Msg: "--baseline and --write-baseline do not apply to --explain, which prints no findings"}
	case !slices.Contains([]string{"auto", "always", "never"}, f.color):
		return &lint.UsageError{Msg: fmt.Sprintf("--color %q: want auto, always or never", f.color)}
	case f.noColor && f.set["color"] && f.color != "never":
		return &lint.UsageError{Msg: "--no-color and --color " + f.color + " contradict each other"}
	}
	return f.finishPaths()
}

// finishPaths checks --skip-dir and moves the paths --chdir moves; the
// directories linted default to the working directory (or --chdir's).
func (f *lintFlags) finishPaths() error {
	for _, g := range f.skipDirs {
		if err := lint.CheckSkipDir(g); err != nil {
			return &lint.UsageError{Msg: "--skip-dir: " + err.Error()}
		}
	}
	if f.plan != "" {
		f.dirs = []string{"."}
		if f.chdir != "" {
			f.dirs = []string{f.chdir}
		}
	}
	if f.plan == "" && f.chdir != "" {
		if info, err := os.Stat(f.chdir); err != nil || !info.IsDir() {
			return &lint.UsageError{Msg: "--chdir " + f.chdir + ": no such directory"}
		}
		for i, d := range f.dirs {
			f.dirs[i] = f.at(d)
		}
		for i, v := range f.vars {
			if v.File {
				f.vars[i].Value = f.at(v.Value)
			}
		}
		if f.config != "" {
			f.config = f.at(f.config)
		}
		if f.boundary != "" {
			f.boundary = f.at(f.boundary)
		}
		if f.baseline != "" {
			f.baseline = f.at(f.baseline)
		}
		if f.writeBase != "" {
			f.writeBase = f.at(f.writeBase)
		}
	}
	if len(f.dirs) == 0 {
		f.dirs = []string{f.at(".")}
	}
	for _, d := range f.dirs {
		// Not a finding nor part of a report: the run cannot start.
		if err := lint.CheckPath(d); err != nil {
			return &lint.UsageError{Msg: err.Error()}
		}
	}
	return nil
}

// at is a path given on the command line or in the environment as
// --chdir moves it: relative to DIR, and named from the working directory,
// as tflint's --chdir names files. With --plan, --chdir names the plan's
// configuration directory and moves nothing.
func (f *lintFlags) at(path string) string {
	if f.chdir == "" || f.plan != "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(f.chdir, path)
}

// workDir is the directory the run acts as if started in: --chdir's DIR,
// "" for the working directory.
func (f *lintFlags) workDir() string {
	if f.plan != "" {
		return ""
	}
	return f.chdir
}

func runLint(args []string, stdout, stderr io.Writer) int {
	f := &lintFlags{}
	cmd := lintCommand(f)
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	if err := f.finish(cmd); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	bound, err := lint.NewBoundary(f.boundary, f.dirs)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	var plan *lint.Plan
	if f.plan != "" {
		if plan, err = lint.LoadPlan(f.plan, f.dirs[0], os.Stdin, bound); err != nil {
			fmt.Fprintf(stderr, "Error: %s: %v\n", f.plan, err)
			return exitError
		}
	}
	cfg, fallback, diags := f.runConfig(bound)
	if diags.HasErrors() {
		for _, d := range diags {
			fmt.Fprintf(stderr, "Error: %s\n", d.Error())
		}
		return exitError
	}

	// The config file sets defaults; flags override only what they set.
	// Its format is one for findings: --explain has its own.
	format, formats, with := f.format, formatter.Names(), ""
	switch {
	case f.explain:
		formats, with = formatter.ExplainNames(), " with --explain"
		if !f.set["format"] {
			format = formats[0]
		}
	case !f.set["format"] && cfg.Format != nil:
		format = *cfg.Format
	}
	if !slices.Contains(formats, format) {
		fmt.Fprintf(stderr, "Error: %v\n", unknownFormat(format, formats, with))
		return exitError
	}
	reports, err := lintReports(f.outputs, format, f.set["format"], formats, with)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	for i, r := range reports {
		if r.path != "-" {
			reports[i].path = f.at(r.path)
		}
	}
	minSeverity, err := failureSeverity(f.minSeverity, f.set, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	recursive := f.recursive
	if !f.set["recursive"] && cfg.Recursive != nil {
		recursive = *cfg.Recursive
	}
	failSkipped := f.failSkipped
	if !f.set["fail-on-skipped"] && cfg.FailOnSkipped != nil {
		failSkipped = *cfg.FailOnSkipped
	}
	// Read before the run, which a bad baseline would waste.
	base, err := readBaseline(f, cfg, bound)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	force := f.force
	if !f.set["force"] && cfg.Force != nil {
		force = *cfg.Force
	}

	res, err := runner.Run(lint.Options{
		Dirs: f.dirs, Recursive: recursive, SkipDirs: append(slices.Clip(cfg.SkipDirs), f.skipDirs...), Vars: f.vars, Environ: os.Environ(),
		Config: fallback, DiscoverConfig: true, Rules: rules.All(), Enable: f.enable, Disable: f.disable, Only: f.only, Explain: f.explain,
		Plan: plan, Boundary: bound, WorkDir: f.workDir(), ReportUnusedIgnores: f.reportUnused,
	})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	if f.plan != "" {
		res.PlanFile = planFileName(f.plan)
	}
	workDir, _ := os.Getwd() // as the formats take it: on failure absolute names stay absolute
	if f.writeBase != "" {
		if err := baseline.Write(f.writeBase, res, workDir); err != nil {
			fmt.Fprintf(stderr, "Error: --write-baseline: %v\n", err)
			return exitError
		}
	}
	if base != nil {
		base.Apply(res, workDir)
	}
	opts := formatter.Options{NoColor: !colorOn(f, os.Getenv, isTerminal(stdout)), ShowSkipped: f.showSkipped, Version: model.BuildVersion(), WorkDir: workDir}
	out := lintOutput{res: res, explain: f.explain}
	// Every report is written whatever another's error: a job still gets
	// the ones that could be.
	wrote := true
	for _, r := range reports {
		var err error
		if r.path == "-" {
			err = out.write(stdout, r.format, opts)
		} else if err = out.writeFile(r.path, r.format, opts); err != nil {
			err = fmt.Errorf("--output: %w", err)
		}
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			wrote = false
		}
	}
	if !wrote {
		return exitError
	}
	// --explain prints what the run linked, --write-baseline records its
	// findings: only errors fail them.
	switch {
	case len(res.Errors) > 0:
		return exitError
	case f.writeBase != "":
		return exitOK
	case !f.explain && !force && res.Fails(minSeverity):
		return exitFindings
	case !f.explain && !force && failSkipped && len(res.QueuesNotChecked) > 0:
		return exitFindings
	}
	return exitOK
}

// runConfig reads the run's configuration: cfg sets the run's settings,
// fallback is what a root without a .queuecap.hcl of its own reads.
// --config, else QUEUECAP_CONFIG, names the file every such root reads;
// without either, the working directory's file (if any) sets the run's
// settings, and each root's queue blocks come only from the nearest file
// above it: fallback has none.
func (f *lintFlags) runConfig(bound *lint.Boundary) (cfg, fallback *lint.Config, diags hcl.Diagnostics) {
	configPath, required := f.config, true
	if configPath == "" && os.Getenv("QUEUECAP_CONFIG") != "" {
		configPath = f.at(os.Getenv("QUEUECAP_CONFIG"))
	}
	if configPath == "" {
		configPath, required = f.at(lint.DefaultConfigFile), false
	}
	cfg, diags = lint.LoadConfig(configPath, required, bound)
	if diags.HasErrors() || required {
		return cfg, cfg, diags
	}
	return cfg, cfg.WithoutQueues(), diags
}

// stdinPlanName is the file a plan read from standard input is named in
// the formats that want one for a finding located by its address alone
// (model.Result.PlanFile): no file of the repository, as Go's tools name
// standard input.
const stdinPlanName = "<stdin>"

// planFileName is the name of the --plan file in the formats.
func planFileName(plan string) string {
	if plan == "-" {
		return stdinPlanName
	}
	return plan
}

// readBaseline reads --baseline, else the config's baseline (not with
// --write-baseline, which records every finding); nil for neither. The
// error names the file. A file the user named is read as --config is, one
// the configuration names inside the boundary, as its other files.
func readBaseline(f *lintFlags, cfg *lint.Config, bound *lint.Boundary) (*baseline.Baseline, error) {
	path, read, from := f.baseline, bound.ReadUserFile, "--baseline "
	if path == "" && f.writeBase == "" && !f.explain && cfg.Baseline != nil {
		path, read, from = *cfg.Baseline, bound.ReadRepoFile, "baseline "
	}
	if path == "" {
		return nil, nil
	}
	b, err := baseline.Read(path, read)
	if err != nil {
		// A read error names the file already.
		return nil, fmt.Errorf("%s%s: %s", from, path, strings.TrimPrefix(err.Error(), path+": "))
	}
	return b, nil
}

// colorOn is whether the default format on standard output is colored:
// as --color says (--no-color is never), else, with auto, never when
// NO_COLOR is set and not empty (no-color.org), else always when
// FORCE_COLOR is (force-color.org), else on a terminal.
func colorOn(f *lintFlags, getenv func(string) string, terminal bool) bool {
	switch {
	case f.noColor || f.color == "never":
		return false
	case f.color == "always":
		return true
	case getenv("NO_COLOR") != "":
		return false
	case getenv("FORCE_COLOR") != "":
		return true
	}
	return terminal
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// failureSeverity is --minimum-failure-severity when given, else the
// config file's minimum_failure_severity, else the flag's default.
func failureSeverity(flag string, set map[string]bool, cfg *lint.Config) (lint.Severity, error) {
	s, err := lint.ParseSeverity(flag)
	if err != nil {
		return 0, fmt.Errorf("--minimum-failure-severity: %v", err)
	}
	if !set["minimum-failure-severity"] && cfg.MinimumFailureSeverity != nil {
		s = *cfg.MinimumFailureSeverity
	}
	return s, nil
}
