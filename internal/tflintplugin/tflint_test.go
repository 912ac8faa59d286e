// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/queuecap/terraform-provider-queuecap/internal/corpustest"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/tflintplugin"
)

// The tests here run the real tflint (TFLINT, else tflint on PATH; `make
// test` sets TFLINT to the 0.64.0 that tools/install-cli.sh builds) with
// the plugin built from this tree in a TFLINT_PLUGIN_DIR, as a user installs
// a local build without `tflint --init`, and compare what it reports with
// what `queuecap lint` finds in the same directory.

var plugin struct {
	once sync.Once
	dir  string
	err  error
}

// tflint returns the tflint CLI and a plugin directory holding this
// tree's tflint-ruleset-queuecap, built once; it skips without tflint.
func tflint(t *testing.T) (cli, pluginDir string) {
	t.Helper()
	cli = os.Getenv("TFLINT")
	if cli == "" {
		var err error
		if cli, err = exec.LookPath("tflint"); err != nil {
			t.Skip("no tflint: set TFLINT (make test installs tflint 0.64.0 with tools/install-cli.sh)")
		}
	}
	plugin.once.Do(func() {
		dir, err := os.MkdirTemp("", "queuecap-tflint-plugins") //nolint:usetesting // one build for every test, removed by TestMain
		if err != nil {
			plugin.err = err
			return
		}
		plugin.dir = dir
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "tflint-ruleset-queuecap"), "../../cmd/tflint-ruleset-queuecap").CombinedOutput()
		if err != nil {
			plugin.err = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if plugin.err != nil {
		t.Fatal(plugin.err)
	}
	return cli, plugin.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if plugin.dir != "" {
		_ = os.RemoveAll(plugin.dir)
	}
	os.Exit(code)
}

// finding is one line of either tool's report, comparable across both:
// the rule, the file (absolute), the line and column, the message.
type finding struct {
	Rule     string
	Severity string
	File     string
	Line     int
	Column   int
	Message  string
}

func (f finding) String() string {
	return fmt.Sprintf("%s %s:%d:%d %s: %s", f.Rule, f.File, f.Line, f.Column, f.Severity, f.Message)
}

// tflintReport is `tflint --format json`.
type tflintReport struct {
	Issues []struct {
		Rule struct {
			Name     string `json:"name"`
			Severity string `json:"severity"`
		} `json:"rule"`
		Message string `json:"message"`
		Range   struct {
			Filename string `json:"filename"`
			Start    struct {
				Line   int `json:"line"`
				Column int `json:"column"`
			} `json:"start"`
		} `json:"range"`
	} `json:"issues"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

// run is one tflint run in dir with a .tflint.hcl of config.
type run struct {
	dir       string
	config    string
	args      []string
	recursive bool
	env       []string
}

// runTflint runs tflint and returns its queuecap findings, each rule's
// severity, and its errors. Exit status 2 (issues found) is success.
func runTflint(t *testing.T, r run) (found []finding, severities map[string]string, errs []string) {
	t.Helper()
	cli, plugins := tflint(t)
	cfg := filepath.Join(t.TempDir(), "tflint.hcl")
	if err := os.WriteFile(cfg, []byte(r.config), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--format", "json", "--config", cfg}, r.args...)
	if r.recursive {
		args = append(args, "--recursive")
	}
	cmd := exec.Command(cli, args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins, "TFLINT_LOG=")
	cmd.Env = append(cmd.Env, r.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	var rep tflintReport
	if jsonErr := json.Unmarshal(stdout.Bytes(), &rep); jsonErr != nil || (err != nil && !errors.As(err, &exit)) {
		t.Fatalf("tflint %s in %s: %v %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.dir, err, jsonErr, stdout.String(), stderr.String())
	}
	// Exit status 2 is issues found; 1 an error, which the JSON lists.
	if err != nil && exit.ExitCode() == 1 && len(rep.Errors) == 0 {
		t.Fatalf("tflint %s in %s failed without an error in its report:\nstderr: %s", strings.Join(args, " "), r.dir, stderr.String())
	}
	severities = map[string]string{}
	for _, is := range rep.Issues {
		if !strings.HasPrefix(is.Rule.Name, "queuecap_") {
			continue
		}
		severity := is.Rule.Severity
		if severity == "info" { // tflint's JSON name for notice
			severity = "notice"
		}
		severities[is.Rule.Name] = severity
		found = append(found, finding{Rule: is.Rule.Name, Severity: severity, File: tflintFile(r.dir, is.Range.Filename),
			Line: is.Range.Start.Line, Column: is.Range.Start.Column, Message: is.Message})
	}
	for _, e := range rep.Errors {
		errs = append(errs, e.Message)
	}
	return found, severities, errs
}

// tflintFile is the file a tflint issue names, absolute. tflint names a
// file by its path from the directory it runs in, except that it prints a
// module at an absolute directory (as modules.json may record one) without
// its leading slash: filepath.Join(".", "/m") is "m".
func tflintFile(dir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		if _, err := os.Stat(string(filepath.Separator) + name); err == nil {
			return string(filepath.Separator) + name
		}
	}
	return p
}

// runQueuecap is `queuecap lint` on dir with the .queuecap.hcl at cfgPath
// (none when empty): its findings, and its skips and errors as the
// plugin's queuecap_not_checked reports them.
func runQueuecap(t *testing.T, dir, cfgPath string, recursive bool) []finding {
	t.Helper()
	return runQueuecapWith(t, dir, cfgPath, recursive, nil, nil)
}

// runQueuecapWith is runQueuecap with --var and --var-file flags and
// environment variables.
func runQueuecapWith(t *testing.T, dir, cfgPath string, recursive bool, vars []lint.VarFlag, env []string) []finding {
	t.Helper()
	cfg := &lint.Config{Rules: map[string]lint.RuleConfig{}, Queues: map[string]lint.QueueConfig{}}
	if cfgPath != "" {
		var diags hcl.Diagnostics
		if cfg, diags = lint.LoadConfig(cfgPath, true, nil); diags.HasErrors() {
			t.Fatal(diags)
		}
	}
	// Messages name the file queue blocks are in: under tflint, .tflint.hcl.
	cfg.File = ".tflint.hcl"
	res, err := runner.Run(lint.Options{Dirs: []string{dir}, Recursive: recursive, Config: cfg, Rules: rules.All(), Environ: append(os.Environ(), env...), Vars: vars})
	if err != nil {
		t.Fatal(err)
	}
	abs := func(f string) string {
		if filepath.IsAbs(f) {
			return f
		}
		a, _ := filepath.Abs(f)
		return a
	}
	var out []finding
	for _, is := range res.Issues {
		out = append(out, finding{Rule: is.Rule, Severity: is.Severity.String(), File: abs(is.Range.Filename), Line: is.Range.Start.Line, Column: is.Range.Start.Column, Message: is.Message})
	}
	for _, s := range res.Skipped {
		out = append(out, finding{Rule: tflintplugin.NotChecked, Severity: "notice", File: abs(s.Range.Filename), Line: s.Range.Start.Line, Column: s.Range.Start.Column,
			Message: "not checked (" + s.RuleList() + "): " + s.Reason})
	}
	for _, e := range res.Errors {
		f := finding{Rule: tflintplugin.NotChecked, Severity: "notice", Message: "not checked (error): " + e.Message}
		if e.Range != nil {
			f.File, f.Line, f.Column = abs(e.Range.Filename), e.Range.Start.Line, e.Range.Start.Column
		}
		out = append(out, f)
	}
	return out
}

// notCheckedOn switches on queuecap_not_checked, which is off by default.
const notCheckedOn = "rule \"queuecap_not_checked\" {\n  enabled = true\n}\n"

// pluginConfig is the .tflint.hcl that carries a .queuecap.hcl: its queue
// blocks inside the plugin block, its rule blocks as tflint's, and tflint's
// bundled terraform ruleset off (these tests compare queuecap's rules).
// queuecap_not_checked is on, so that what queuecap lint lists as skipped
// is compared too.
func pluginConfig(t *testing.T, queuecapHCL string, extra string) string {
	t.Helper()
	var queues, ruleBlocks []string
	if queuecapHCL != "" {
		src, err := os.ReadFile(queuecapHCL)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := hclsyntax.ParseConfig(src, queuecapHCL, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		for _, b := range f.Body.(*hclsyntax.Body).Blocks { //nolint:forcetypeassert // a native-syntax file's body
			text := string(b.Range().SliceBytes(src))
			switch b.Type {
			case "queue":
				queues = append(queues, "  "+strings.ReplaceAll(text, "\n", "\n  "))
			case "rule":
				// tflint's rule blocks require enabled; queuecap's
				// default it to the rule's default, on for every rule.
				if _, ok := b.Body.Attributes["enabled"]; !ok {
					text = strings.Replace(text, "{", "{\n  enabled = true", 1)
				}
				ruleBlocks = append(ruleBlocks, text)
			}
		}
	}
	return fmt.Sprintf("%s\nplugin \"terraform\" {\n  enabled = false\n}\n\nplugin \"queuecap\" {\n  enabled = true\n%s\n}\n\n%s\n%s",
		extra, strings.Join(queues, "\n"), strings.Join(ruleBlocks, "\n\n"), notCheckedOn)
}

// difference is a finding one tool reports and the other does not, and
// why: where tflint's loading or evaluation sees other than queuecap's.
type difference struct {
	only string // "queuecap" or "tflint"
	// match is a substring of the finding's String(), its file relative
	// to the case's directory.
	match string
	why   string
}

// compare checks that the two reports are the same but for the stated
// differences, each of which must occur.
func compare(t *testing.T, dir string, tf, qc []finding, stated []difference) {
	t.Helper()
	compareAs(t, dir, tf, qc, stated, false)
}

// compareRecursive compares the reports of a --recursive run. tflint lints
// each directory in a process of its own, so what one module shows to two
// root modules (the module's own directory and a root that calls it) is
// reported once from each; queuecap lint merges it into one. So each
// distinct finding and each place something was not checked count once,
// and a not-checked notice is compared by its place, not by its words
// (which name the module instance, and under queuecap lint how many more
// instances the merged one stands for).
func compareRecursive(t *testing.T, dir string, tf, qc []finding, stated []difference) {
	t.Helper()
	compareAs(t, dir, tf, qc, stated, true)
}

func compareAs(t *testing.T, dir string, tf, qc []finding, stated []difference, recursive bool) {
	t.Helper()
	key := func(f finding) string {
		rel, err := filepath.Rel(dir, f.File)
		if err != nil || f.File == "" {
			rel = f.File
		}
		f.File = rel
		if recursive && f.Rule == tflintplugin.NotChecked {
			f.Message = ""
		}
		return f.String()
	}
	count := func(fs []finding) map[string]int {
		m := map[string]int{}
		for _, f := range fs {
			if k := key(f); !recursive || m[k] == 0 {
				m[k]++
			}
		}
		return m
	}
	tfm, qcm := count(tf), count(qc)
	var onlyTF, onlyQC []string
	for k, n := range tfm {
		for range n - qcm[k] {
			onlyTF = append(onlyTF, k)
		}
	}
	for k, n := range qcm {
		for range n - tfm[k] {
			onlyQC = append(onlyQC, k)
		}
	}
	sort.Strings(onlyTF)
	sort.Strings(onlyQC)
	used := make([]bool, len(stated))
	explained := func(side, k string) bool {
		for i, d := range stated {
			if d.only == side && strings.Contains(k, d.match) {
				used[i] = true
				return true
			}
		}
		return false
	}
	for _, k := range onlyTF {
		if !explained("tflint", k) {
			t.Errorf("only tflint reports: %s", k)
		}
	}
	for _, k := range onlyQC {
		if !explained("queuecap", k) {
			t.Errorf("only queuecap lint reports: %s", k)
		}
	}
	for i, d := range stated {
		if !used[i] {
			t.Errorf("stated difference did not occur: only %s reports %q (%s)", d.only, d.match, d.why)
		}
	}
}

func ruleIDs(fs []finding) []string {
	var ids []string
	for _, f := range fs {
		if f.Rule != tflintplugin.NotChecked && !slices.Contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	sort.Strings(ids)
	return ids
}

// TestExamples: examples/lint/bad has one finding of each of the eight
// rules under tflint as under queuecap lint, and examples/lint/good none,
// with examples/lint/queuecap.hcl's queue block carried in .tflint.hcl.
func TestExamples(t *testing.T) {
	t.Parallel()
	cfg := pluginConfig(t, "../../examples/lint/queuecap.hcl", "")
	for _, name := range []string{"bad", "good"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir, _ := filepath.Abs("../../examples/lint/" + name)
			tf, _, errs := runTflint(t, run{dir: dir, config: cfg})
			if len(errs) > 0 {
				t.Fatalf("tflint errors: %v", errs)
			}
			qc := runQueuecap(t, dir, "../../examples/lint/queuecap.hcl", false)
			compare(t, dir, tf, qc, nil)
			ids := ruleIDs(tf)
			if name == "good" && len(ids) > 0 {
				t.Errorf("examples/lint/good: tflint reports %v", ids)
			}
			if name == "bad" {
				var want []string
				for _, r := range rules.All() {
					want = append(want, r.Name())
				}
				sort.Strings(want)
				if !slices.Equal(ids, want) {
					t.Errorf("examples/lint/bad: tflint reports rules %v, want all eight %v", ids, want)
				}
			}
		})
	}
}

// TestChdir: run from the repository's root with --chdir, tflint names
// each file from where it was started, and the plugin's findings are at
// those names: the same findings as from inside the directory.
func TestChdir(t *testing.T) {
	t.Parallel()
	root, _ := filepath.Abs("../..")
	dir := filepath.Join(root, "internal", "lint", "testdata", "e2e", "modules_headroom")
	cfg := pluginConfig(t, "", "")
	inside, _, errs := runTflint(t, run{dir: dir, config: cfg})
	if len(errs) > 0 {
		t.Fatalf("tflint errors: %v", errs)
	}
	from, _, errs := runTflint(t, run{dir: root, config: cfg, args: []string{"--chdir", "internal/lint/testdata/e2e/modules_headroom"}})
	if len(errs) > 0 {
		t.Fatalf("tflint --chdir errors: %v", errs)
	}
	if len(inside) == 0 || !slices.ContainsFunc(inside, func(f finding) bool { return strings.HasSuffix(f.File, "modules/worker/main.tf") }) {
		t.Fatalf("no finding in the local module: %v", inside)
	}
	compare(t, root, from, inside, nil)
}

// e2eDifferences are where tflint sees the end-to-end cases otherwise
// than queuecap lint, and why.
var e2eDifferences = map[string][]difference{
	"opentofu_twins": {
		// OpenTofu reads x.tofu in place of x.tf, and queuecap lint does
		// too; tflint reads only .tf and .tf.json. The .tofu files set
		// the redrive policy and visibility timeout the .tf files leave
		// out, and the .tf twin of the mapping names no function.
		{"queuecap", "queuecap_missing_dead_letter_queue main.tofu:4:1", "tflint reads main.tf, not its OpenTofu twin main.tofu"},
		{"queuecap", "queuecap_visibility_timeout_too_short main.tofu:6:3", "tflint reads main.tf, not main.tofu"},
		{"queuecap", "queuecap_not_checked main.tofu:4:1", "the same skip at main.tofu, where tflint reads main.tf"},
		{"tflint", "queuecap_not_checked main.tf:4:1", "the same skip at main.tf, where queuecap lint reads main.tofu"},
		{"tflint", "queuecap_not_checked mapping.tf.json:6:", "mapping.tf.json names no function; queuecap lint reads mapping.tofu.json, which does"},
		{"queuecap", "queuecap_batch_retry_amplification mapping.tofu.json:4:", "tflint reads mapping.tf.json, not its OpenTofu twin mapping.tofu.json"},
		{"tflint", "queuecap_batch_retry_amplification mapping.tf.json:4:", "the same finding at mapping.tf.json, where queuecap lint reads mapping.tofu.json"},
	},
}

// TestEndToEndCases runs every case of internal/lint/testdata/e2e, its
// .queuecap.hcl carried into .tflint.hcl.
func TestEndToEndCases(t *testing.T) {
	t.Parallel()
	cases, err := filepath.Glob("../lint/testdata/e2e/*")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no e2e cases: %v", err)
	}
	for _, c := range cases {
		name := filepath.Base(c)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir, _ := filepath.Abs(c)
			qcCfg := filepath.Join(dir, ".queuecap.hcl")
			if _, err := os.Stat(qcCfg); err != nil {
				qcCfg = ""
			}
			tf, _, errs := runTflint(t, run{dir: dir, config: pluginConfig(t, qcCfg, "")})
			if name == "parse_error_keeps_going" {
				// tflint stops at a file that does not parse; queuecap
				// lint reports it and lints the others.
				if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), "The JSON data ends prematurely") {
					t.Fatalf("tflint errors %v, want the parse error of audit.tf.json", errs)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("tflint errors: %v", errs)
			}
			compare(t, dir, tf, runQueuecap(t, dir, qcCfg, false), e2eDifferences[name])
		})
	}
}

// corpusDifferences are where tflint --recursive sees a repository of
// ../shared/corpus otherwise than queuecap lint --recursive, and why.
var corpusDifferences = map[string][]difference{}

// failedDir is a directory tflint --recursive could not build ("Failed to
// run in DIR"): tflint's own evaluation fails there, before any plugin
// runs.
var failedDir = regexp.MustCompile(`Failed to run in (\S+); exit status`)

// TestCorpus runs tflint --recursive over each repository of
// ../shared/corpus/real (modules and stacks) and ../shared/corpus/wild
// (production layouts: Terragrunt roots, remote zip and git modules,
// for_each modules) with tflint's default call_module_type, "local", and
// compares it with queuecap lint --recursive. Where tflint cannot build a
// directory's configuration itself, nothing in that directory is linted
// under tflint: queuecap lint's findings there are left out, and the
// directories are listed.
func TestCorpus(t *testing.T) {
	t.Parallel()
	cfg := pluginConfig(t, "", "")
	for _, which := range []string{"real", "wild"} {
		t.Run(which, func(t *testing.T) {
			t.Parallel()
			corpus := corpustest.Dir(t, which)
			repos, err := os.ReadDir(corpus)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range repos {
				if !e.IsDir() {
					continue
				}
				t.Run(e.Name(), func(t *testing.T) {
					dir := filepath.Join(corpus, e.Name())
					tf, _, errs := runTflint(t, run{dir: dir, config: cfg, recursive: true})
					var failed []string
					for _, msg := range errs {
						m := failedDir.FindStringSubmatch(msg)
						if m == nil {
							t.Fatalf("tflint error: %s", msg)
						}
						failed = append(failed, filepath.Join(dir, m[1]))
					}
					if len(failed) > 0 {
						t.Logf("tflint cannot build %d directories (its own evaluation): %v", len(failed), failed)
					}
					qc := slices.DeleteFunc(runQueuecap(t, dir, "", true), func(f finding) bool {
						return slices.ContainsFunc(failed, func(d string) bool { return strings.HasPrefix(f.File, d+string(filepath.Separator)) })
					})
					compareRecursive(t, dir, tf, qc, corpusDifferences[e.Name()])
				})
			}
		})
	}
}

// TestTerraformInitStandIn lints the NHS digital-letters stack with its
// remote zip modules installed (corpustest.DigitalLetters stands for
// terraform init). With call_module_type = "all" tflint loads them from
// .terraform/modules as queuecap lint does, and the two reports are the
// same. With tflint's default, "local", tflint loads none of them, and the
// plugin says so at each call instead of checking less in silence.
func TestTerraformInitStandIn(t *testing.T) {
	t.Parallel()
	root := corpustest.DigitalLetters(t)
	qc := runQueuecap(t, root, "", false)
	var mappingSkips int
	for _, f := range qc {
		if strings.Contains(f.Message, "event source mapping aws_lambda_event_source_mapping.") {
			mappingSkips++
		}
	}
	if mappingSkips > 0 {
		t.Fatalf("queuecap lint leaves %d of the stack's mappings unlinked: the stand-in did not install the modules", mappingSkips)
	}

	t.Run("all", func(t *testing.T) {
		tf, _, errs := runTflint(t, run{dir: root, config: pluginConfig(t, "", "config {\n  call_module_type = \"all\"\n}\n")})
		if len(errs) > 0 {
			t.Fatalf("tflint errors: %v", errs)
		}
		compare(t, root, tf, qc, nil)
	})

	t.Run("local", func(t *testing.T) {
		tf, _, errs := runTflint(t, run{dir: root, config: pluginConfig(t, "", "")})
		if len(errs) > 0 {
			t.Fatalf("tflint errors: %v", errs)
		}
		calls := map[string]bool{}
		for _, f := range tf {
			if f.Rule != tflintplugin.NotChecked {
				t.Errorf("with the modules not loaded, tflint reports a finding: %s", f)
				continue
			}
			if strings.HasPrefix(f.Message, "not checked (module): ") {
				if !strings.Contains(f.Message, `was not loaded: tflint loads installed remote modules only with call_module_type = "all"`) {
					t.Errorf("a module skip that does not name call_module_type: %s", f)
				}
				calls[fmt.Sprintf("%s:%d", f.File, f.Line)] = true
			}
		}
		// Every call of a shared-modules zip in the stack's own files is
		// one the plugin says tflint did not load, but module.pdm_mock:
		// its count is var.enable_pdm_mock ? 1 : 0, false by default, so
		// it makes no instance and hides nothing.
		want := 0
		files, _ := filepath.Glob(filepath.Join(root, "*.tf"))
		for _, file := range files {
			src, _ := os.ReadFile(file)
			want += strings.Count(string(src), "/terraform-") - strings.Count(string(src), "/terraform-aws")
			if strings.Contains(string(src), "count  = var.enable_pdm_mock ? 1 : 0") {
				want--
				if line := 1 + strings.Count(string(src[:strings.Index(string(src), `module "pdm_mock"`)]), "\n"); calls[fmt.Sprintf("%s:%d", filepath.Base(file), line)] {
					t.Errorf("module.pdm_mock, which makes no instance, is reported as not loaded")
				}
			}
		}
		if len(calls) == 0 || len(calls) != want {
			t.Errorf("%d module calls reported as not loaded, want the stack's %d zip module calls", len(calls), want)
		}
	})
}

// copyCase copies an e2e case into a temporary directory, applying each
// edit (old text → new) to the file it names, and returns the copy.
func copyCase(t *testing.T, name string, edits map[string][2]string, extra map[string]string) string {
	t.Helper()
	src := filepath.Join("..", "lint", "testdata", "e2e", name)
	dst := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	for file, e := range edits {
		p := filepath.Join(dst, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(e[0])) {
			t.Fatalf("%s has no %q", file, e[0])
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(e[0]), []byte(e[1]), 1), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for file, text := range extra {
		if err := os.WriteFile(filepath.Join(dst, file), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func rulesOf(fs []finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	sort.Strings(out)
	return out
}

// TestVariables: a root module value is tflint's, so that tflint's --var,
// --var-file and the varfile of its config block count as they do for
// tflint's own rules. The workers' max_size comes from a variable without
// a default: unset, the check is skipped under both tools; set through
// tflint, the plugin checks it as queuecap lint does with the same value.
func TestVariables(t *testing.T) {
	t.Parallel()
	dir := copyCase(t, "asg_zero_surplus", map[string][2]string{
		"main.tf": {"  max_size            = 25\n", "  max_size            = var.max_size\n"},
	}, map[string]string{
		"variables.tf": "variable \"max_size\" {\n  type = number\n}\n",
		"prod.tfvars":  "max_size = 25\n",
		"big.tfvars":   "max_size = 40\n",
	})
	cfg := pluginConfig(t, "", "")
	cases := []struct {
		name      string
		args      []string
		config    string
		vars      []lint.VarFlag
		wantRules []string
	}{
		{"unset", nil, cfg, nil, []string{tflintplugin.NotChecked}}, // zero surplus and headroom, one reason
		{"--var", []string{"--var", "max_size=25"}, cfg, []lint.VarFlag{{Value: "max_size=25"}}, []string{"queuecap_zero_surplus"}},
		{"--var-file", []string{"--var-file", "big.tfvars"}, cfg, []lint.VarFlag{{File: true, Value: filepath.Join(dir, "big.tfvars")}}, nil},
		{"varfile", nil, pluginConfig(t, "", "config {\n  varfile = [\"prod.tfvars\"]\n}\n"), []lint.VarFlag{{File: true, Value: filepath.Join(dir, "prod.tfvars")}}, []string{"queuecap_zero_surplus"}},
		{"variables", nil, pluginConfig(t, "", "config {\n  variables = [\"max_size=25\"]\n}\n"), []lint.VarFlag{{Value: "max_size=25"}}, []string{"queuecap_zero_surplus"}},
		{"TF_VAR_", nil, cfg, nil, []string{"queuecap_zero_surplus"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run{dir: dir, config: c.config, args: c.args}
			if c.name == "TF_VAR_" {
				// The environment both tools read: not t.Setenv, which
				// the parallel tests of this package cannot share.
				r.env = []string{"TF_VAR_max_size=25"}
			}
			tf, _, errs := runTflint(t, r)
			if len(errs) > 0 {
				t.Fatalf("tflint errors: %v", errs)
			}
			if got := rulesOf(tf); !slices.Equal(got, c.wantRules) {
				t.Errorf("tflint reports %v, want %v:\n%v", got, c.wantRules, tf)
			}
			compare(t, dir, tf, runQueuecapWith(t, dir, "", false, c.vars, r.env), nil)
		})
	}
}

// TestIgnoreComments: `# tflint-ignore: rule` silences a finding in the
// root module (tflint applies it) and in a module's file (the plugin
// does: tflint applies annotations only to the files of the module whose
// runner emits), and queuecap's own `# queuecap-ignore: rule` works under
// tflint too.
func TestIgnoreComments(t *testing.T) {
	t.Parallel()
	cfg := pluginConfig(t, "", "")
	module := func(comment string) string {
		return copyCase(t, "modules_headroom", map[string][2]string{
			"modules/worker/main.tf": {"  max_size = ", comment + "\n  max_size = "},
		}, nil)
	}
	root := func(comment string) string {
		return copyCase(t, "asg_zero_surplus", map[string][2]string{
			"main.tf": {"  max_size            = 25\n", comment + "\n  max_size            = 25\n"},
		}, nil)
	}
	cases := []struct {
		name, dir, rule string
	}{
		{"tflint-ignore in a module", module("  # tflint-ignore: queuecap_insufficient_headroom"), "queuecap_insufficient_headroom"},
		{"tflint-ignore all in a module", module("  # tflint-ignore: all # the reason"), "queuecap_insufficient_headroom"},
		{"queuecap-ignore in a module", module("  # queuecap-ignore: queuecap_insufficient_headroom"), "queuecap_insufficient_headroom"},
		{"tflint-ignore in the root", root("  # tflint-ignore: queuecap_zero_surplus"), "queuecap_zero_surplus"},
		{"queuecap-ignore in the root", root("  # queuecap-ignore: queuecap_zero_surplus"), "queuecap_zero_surplus"},
		{"tflint-ignore-file in a module", copyCase(t, "modules_headroom", map[string][2]string{
			"modules/worker/main.tf": {"variable \"queue_name\" {", "# tflint-ignore-file: queuecap_insufficient_headroom\nvariable \"queue_name\" {"},
		}, nil), "queuecap_insufficient_headroom"},
		{"tflint-ignore-file in the root", copyCase(t, "asg_zero_surplus", map[string][2]string{
			"main.tf": {"# Order workers on EC2", "# tflint-ignore-file: queuecap_zero_surplus\n# Order workers on EC2"},
		}, nil), "queuecap_zero_surplus"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tf, _, errs := runTflint(t, run{dir: c.dir, config: cfg})
			if len(errs) > 0 {
				t.Fatalf("tflint errors: %v", errs)
			}
			if slices.Contains(rulesOf(tf), c.rule) {
				t.Errorf("the ignore comment did not silence %s: %v", c.rule, tf)
			}
		})
	}
	// Without the comment the finding is there, at the line the comment
	// would precede.
	for _, c := range []struct{ dir, rule string }{{module(""), "queuecap_insufficient_headroom"}, {root(""), "queuecap_zero_surplus"}} {
		tf, _, _ := runTflint(t, run{dir: c.dir, config: cfg})
		if !slices.Contains(rulesOf(tf), c.rule) {
			t.Errorf("%s: no %s without the comment: %v", c.dir, c.rule, tf)
		}
	}
}

// TestRuleConfig: tflint's rule blocks, --only, --enable-rule,
// --disable-rule and disabled_by_default switch queuecap's rules, and
// queuecap_not_checked is off until switched on; a rule block's severity
// sets the rule's; a bad severity or queue block stops tflint with the
// place and the reason.
func TestRuleConfig(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs("../../examples/lint/bad")
	qcCfg := "../../examples/lint/queuecap.hcl"
	all := rulesOf(runQueuecap(t, dir, qcCfg, false))
	without := func(rs []string, drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(rs), func(r string) bool { return slices.Contains(drop, r) })
	}
	// byDefault leaves queuecap_not_checked at its default, off.
	byDefault := func(config string) string { return strings.Replace(config, notCheckedOn, "", 1) }
	cases := []struct {
		name   string
		config string
		args   []string
		want   []string
		sev    map[string]string
	}{
		{"defaults", byDefault(pluginConfig(t, qcCfg, "")), nil, without(all, tflintplugin.NotChecked), map[string]string{"queuecap_zero_surplus": "error", "queuecap_depth_only_scaling": "warning"}},
		{"not checked on", pluginConfig(t, qcCfg, ""), nil, all, map[string]string{tflintplugin.NotChecked: "notice"}},
		{"--enable-rule not checked", byDefault(pluginConfig(t, qcCfg, "")), []string{"--enable-rule", tflintplugin.NotChecked}, all, nil},
		{"rule block off", pluginConfig(t, qcCfg, "rule \"queuecap_zero_surplus\" {\n  enabled = false\n}\n"), nil, without(all, "queuecap_zero_surplus"), nil},
		{"--disable-rule", pluginConfig(t, qcCfg, ""), []string{"--disable-rule", "queuecap_depth_only_scaling"}, without(all, "queuecap_depth_only_scaling"), nil},
		{"--only", pluginConfig(t, qcCfg, ""), []string{"--only", "queuecap_zero_surplus"}, []string{"queuecap_zero_surplus"}, nil},
		{"disabled_by_default", byDefault(pluginConfig(t, qcCfg, "config {\n  disabled_by_default = true\n}\nrule \"queuecap_missing_dead_letter_queue\" {\n  enabled = true\n}\n")), nil, []string{"queuecap_missing_dead_letter_queue"}, nil},
		{"severity", pluginConfig(t, qcCfg, "rule \"queuecap_zero_surplus\" {\n  enabled  = true\n  severity = \"warning\"\n}\n"), nil, all, map[string]string{"queuecap_zero_surplus": "warning"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tf, sev, errs := runTflint(t, run{dir: dir, config: c.config, args: c.args})
			if len(errs) > 0 {
				t.Fatalf("tflint errors: %v", errs)
			}
			if got := rulesOf(tf); !slices.Equal(got, c.want) {
				t.Errorf("tflint reports %v, want %v", got, c.want)
			}
			for rule, want := range c.sev {
				if sev[rule] != want {
					t.Errorf("%s has severity %q, want %q", rule, sev[rule], want)
				}
			}
		})
	}
}

// TestBadConfig: what the plugin cannot read stops tflint with the reason
// and the place in .tflint.hcl (a configuration named by --config, or by
// $TFLINT_CONFIG_FILE with envConfig).
func TestBadConfig(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs("../../examples/lint/good")
	badSeverity := "plugin \"queuecap\" {\n  enabled = true\n}\nrule \"queuecap_zero_surplus\" {\n  enabled  = true\n  severity = \"loud\"\n}\n"
	cases := []struct {
		name, config, want string
		envConfig          bool
	}{
		{"severity", badSeverity,
			`tflint.hcl:6:14: rule "queuecap_zero_surplus": severity: unknown severity "loud": want error, warning or notice`, false},
		{"severity, TFLINT_CONFIG_FILE", badSeverity,
			`tflint.hcl:6:14: rule "queuecap_zero_surplus": severity: unknown severity "loud": want error, warning or notice`, true},
		{"queue rate", "plugin \"queuecap\" {\n  enabled = true\n  queue \"aws_sqs_queue.orders\" {\n    arrival_rate = \"fast\"\n  }\n}\n",
			"arrival_rate must be a number", false},
		{"queue argument", "plugin \"queuecap\" {\n  enabled = true\n  queue \"aws_sqs_queue.orders\" {\n    arrival_rat = 10\n  }\n}\n",
			`An argument named "arrival_rat" is not expected here. Did you mean "arrival_rate"?`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cli, plugins := tflint(t)
			cfg := filepath.Join(t.TempDir(), "tflint.hcl")
			if err := os.WriteFile(cfg, []byte(c.config), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(cli, "--config", cfg)
			cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins)
			if c.envConfig {
				cmd = exec.Command(cli)
				cmd.Env = append(os.Environ(), "TFLINT_PLUGIN_DIR="+plugins, "TFLINT_CONFIG_FILE="+cfg)
			}
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("tflint accepted the config:\n%s", out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("tflint says:\n%s\nwant it to say %q", out, c.want)
			}
		})
	}
}
