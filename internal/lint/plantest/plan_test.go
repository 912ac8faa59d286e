// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package plantest tests `queuecap lint --plan` on plan JSON that the real
// Terraform and OpenTofu CLIs write, against the test-only AWS provider of
// internal/testaws. It is a package of its own because testaws runs the
// CLIs from TestMain, and must not import lint.
package plantest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

func TestMain(m *testing.M) { testaws.Main(m) }

// lintPlan lints plan JSON as `queuecap lint --plan - --chdir dir` does.
func lintPlan(t *testing.T, planJSON []byte, dir string) *lint.Result {
	t.Helper()
	plan, err := lint.ReadPlan(planJSON)
	if err != nil {
		t.Fatalf("ReadPlan: %v", err)
	}
	res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All(), Plan: plan})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, e := range res.Errors {
		t.Errorf("error: %s", e)
	}
	return res
}

// found is a finding reduced to what a test compares.
type found struct {
	rule, file string
	line       int
	facts      map[string]float64
}

func findings(res *lint.Result) []found {
	var out []found
	for _, is := range res.Issues {
		out = append(out, found{rule: is.Rule, file: filepath.Base(is.Range.Filename), line: is.Range.Start.Line, facts: is.FactMap()})
	}
	return out
}

func issuesOf(res *lint.Result, rule string) []lint.Issue {
	var out []lint.Issue
	for _, is := range res.Issues {
		if is.Rule == rule {
			out = append(out, is)
		}
	}
	return out
}

// forEachCLI runs test once per CLI, each skipped when it is not installed.
func forEachCLI(t *testing.T, test func(t *testing.T, cli testaws.CLI)) {
	for _, cli := range testaws.CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			test(t, cli)
		})
	}
}

// TestPlanZeroSurplus: terraform.tfvars sets max_size to 25 (the default
// says 20), so 25 × 400 msg/s is exactly the arrival rate; -var=max_size=40
// gives the fleet headroom.
func TestPlanZeroSurplus(t *testing.T) {
	dir := "testdata/zero_surplus"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		res := lintPlan(t, testaws.Plan(t, cli.Path, dir), dir)
		got := issuesOf(res, "queuecap_zero_surplus")
		if len(got) != 1 {
			t.Fatalf("zero surplus findings: %+v, all: %+v", got, findings(res))
		}
		is := got[0]
		if want := filepath.Join(dir, "main.tf"); is.Range.Filename != want || is.Range.Start.Line != 22 {
			t.Errorf("at %s, want %s:22 (max_size)", is.Range, want)
		}
		facts := is.FactMap()
		if facts["max_consumers"] != 25 || facts["per_consumer_rate"] != 400 || facts["arrival_rate"] != 10000 || facts["surplus"] != 0 {
			t.Errorf("facts %v", facts)
		}
		if len(res.Issues) != 1 {
			t.Errorf("findings %+v, want only the zero surplus", findings(res))
		}

		res = lintPlan(t, testaws.Plan(t, cli.Path, dir, "-var=max_size=40"), dir)
		if got := issuesOf(res, "queuecap_zero_surplus"); len(got) != 0 {
			t.Errorf("with -var=max_size=40: %+v", findings(res))
		}
	})
}

// TestPlanLocations: without the configuration directory a finding is
// located by its resource address; with it, an ignore comment there
// silences the plan's finding as it does the HCL's.
func TestPlanLocations(t *testing.T) {
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		plan := testaws.Plan(t, cli.Path, "testdata/zero_surplus")
		res := lintPlan(t, plan, t.TempDir())
		got := issuesOf(res, "queuecap_zero_surplus")
		if len(got) != 1 {
			t.Fatalf("findings %+v", findings(res))
		}
		if want := "aws_autoscaling_group.workers"; got[0].Range.Filename != want || !got[0].Range.AddressOnly() || got[0].Address != want {
			t.Errorf("located at %+v (address %q), want %s", got[0].Range, got[0].Address, want)
		}

		res = lintPlan(t, testaws.Plan(t, cli.Path, "testdata/ignored"), "testdata/ignored")
		if got := issuesOf(res, "queuecap_zero_surplus"); len(got) != 0 {
			t.Errorf("the ignore comment does not apply: %+v", findings(res))
		}
	})
}

// TestPlanUnknownUntilApply: the mapping's event_source_arn is the queue's
// ARN, unknown in the plan; it links through the configuration's
// references, so the visibility timeout is checked against the function.
func TestPlanUnknownUntilApply(t *testing.T) {
	dir := "testdata/unknown_arn"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		res := lintPlan(t, testaws.Plan(t, cli.Path, dir), dir)
		got := issuesOf(res, "queuecap_visibility_timeout_too_short")
		if len(got) != 1 {
			t.Fatalf("findings %+v", findings(res))
		}
		if got[0].Address != "aws_sqs_queue.jobs" || got[0].Range.Filename != filepath.Join(dir, "main.tf") {
			t.Errorf("at %s (address %s)", got[0].Range, got[0].Address)
		}
		if f := got[0].FactMap(); f["visibility_timeout_seconds"] != 30 || f["function_timeout_seconds"] != 60 {
			t.Errorf("facts %v", f)
		}
	})
}

// TestPlanModules: instances of a for_each module and of a count module are
// linted one by one under their plan addresses (module.pipeline["billing"]
// has headroom); a mapping in one module links to the queue of another
// through a module output and a variable, both ARNs unknown until apply.
// With the configuration the instances' identical findings are one, at the
// module's line, listing both calls (module.batch and module.pipeline), as for HCL.
func TestPlanModules(t *testing.T) {
	dir := "testdata/modules"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		plan := testaws.Plan(t, cli.Path, dir)
		res := lintPlan(t, plan, t.TempDir())
		var got []string
		for _, is := range res.Issues {
			got = append(got, is.Rule+" "+is.Address)
		}
		want := []string{
			"queuecap_zero_surplus module.batch[0].aws_autoscaling_group.workers",
			"queuecap_zero_surplus module.batch[1].aws_autoscaling_group.workers",
			`queuecap_batch_retry_amplification module.consumer["a"].aws_lambda_event_source_mapping.m`,
			`queuecap_batch_retry_amplification module.consumer["b"].aws_lambda_event_source_mapping.m`,
			`queuecap_zero_surplus module.pipeline["orders"].aws_autoscaling_group.workers`,
			`queuecap_visibility_timeout_too_short module.queues["a"].aws_sqs_queue.q`,
			`queuecap_visibility_timeout_too_short module.queues["b"].aws_sqs_queue.q`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, is := range res.Issues {
			if is.Rule == "queuecap_visibility_timeout_too_short" && !strings.Contains(is.Message, strings.Replace(is.Address, "queues", "consumer", 1)[:len(`module.consumer["a"]`)]) {
				t.Errorf("%s links to the wrong consumer: %s", is.Address, is.Message)
			}
			if is.Rule == "queuecap_batch_retry_amplification" && !strings.Contains(is.Message, strings.Replace(is.Address, "consumer", "queues", 1)[:len(`module.queues["a"]`)]) {
				t.Errorf("%s links to the wrong queue: %s", is.Address, is.Message)
			}
		}

		res = lintPlan(t, plan, dir)
		zero := issuesOf(res, "queuecap_zero_surplus")
		if len(zero) != 1 || zero[0].Range.Filename != filepath.Join(dir, "modules/pipeline/main.tf") || zero[0].Range.Start.Line != 25 || len(zero[0].Callers) != 2 {
			t.Errorf("with the configuration: %+v", zero)
		}
	})
}

// TestPlanDestroy: after an apply, a plan that destroys a queue and its
// consumer lints what remains (unchanged, so no-op in the plan) and not the
// destroyed queue.
func TestPlanDestroy(t *testing.T) {
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		w := testaws.NewWorkdir(t, cli.Path, "testdata/destroy")
		w.Apply()
		res := lintPlan(t, w.Plan(), w.Dir)
		if got := len(issuesOf(res, "queuecap_visibility_timeout_too_short")); got != 1 {
			t.Fatalf("before: %+v", findings(res))
		}
		src, err := os.ReadFile(filepath.Join(w.Dir, "main.tf"))
		if err != nil {
			t.Fatal(err)
		}
		kept, _, _ := strings.Cut(string(src), "\n# Removed before")
		if err := os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(kept), 0o644); err != nil {
			t.Fatal(err)
		}
		res = lintPlan(t, w.Plan(), t.TempDir())
		var got []string
		for _, is := range res.Issues {
			got = append(got, is.Rule+" "+is.Address)
		}
		if want := []string{"queuecap_zero_surplus aws_autoscaling_group.workers"}; !slices.Equal(got, want) {
			t.Errorf("after destroying aws_sqs_queue.legacy: %v, want %v", got, want)
		}
		if res.Queues != 2 {
			t.Errorf("%d queues modeled, want 2 (orders and its dead-letter queue)", res.Queues)
		}
	})
}

// TestPlanBinaryFile: given the plan file itself, LoadPlan reads it with
// `terraform show -json`, or with `tofu show -json` when Terraform is not
// on PATH or cannot read the plan (one OpenTofu made), as a user's PATH
// would offer them: each CLI's plan is read with that CLI named as a user
// has it (terraform or tofu), beside the other one where this machine has it.
func TestPlanBinaryFile(t *testing.T) {
	clis := testaws.CLIs()
	for _, cli := range clis {
		// Not in parallel: the test sets the process's PATH.
		t.Run(cli.Name, func(t *testing.T) { testPlanBinaryFile(t, cli, clis[2]) })
	}
}

func testPlanBinaryFile(t *testing.T, cli, onPath testaws.CLI) {
	w := testaws.NewWorkdir(t, cli.Path, "testdata/zero_surplus")
	w.Plan()
	name := "terraform"
	if strings.HasPrefix(cli.Name, "tofu") {
		name = "tofu"
	}
	bin := t.TempDir()
	link := func(name, target string) {
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(name, cli.Path)
	if name == "tofu" && onPath.Path != "" {
		// Terraform first on PATH, failing on a plan it did not make.
		link("terraform", onPath.Path)
	}
	t.Setenv("PATH", bin)
	// What the Workdir's own runs of the CLI are given.
	t.Setenv("TF_CLI_CONFIG_FILE", filepath.Join(filepath.Dir(w.Dir), "cli.tfrc"))
	t.Setenv("TF_DATA_DIR", filepath.Join(w.Dir, ".terraform"))
	plan, err := lint.LoadPlan(filepath.Join(w.Dir, "tfplan"), w.Dir, nil, nil)
	if err != nil {
		t.Fatalf("LoadPlan: %v", err)
	}
	res, err := runner.Run(lint.Options{Dirs: []string{w.Dir}, Config: &lint.Config{}, Rules: rules.All(), Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	if got := issuesOf(res, "queuecap_zero_surplus"); len(got) != 1 || got[0].Range.Filename != filepath.Join(w.Dir, "main.tf") {
		t.Errorf("findings %+v", findings(res))
	}
}

// TestPlanLocals: a link through a local value is made from the
// configuration directory's HCL, as the plan records no local; without the
// directory the queue has no known consumer, and its check is skipped.
func TestPlanLocals(t *testing.T) {
	dir := "testdata/locals"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		plan := testaws.Plan(t, cli.Path, dir)
		if got := issuesOf(lintPlan(t, plan, dir), "queuecap_visibility_timeout_too_short"); len(got) != 1 {
			t.Errorf("with the configuration: %+v", got)
		}
		if got := issuesOf(lintPlan(t, plan, t.TempDir()), "queuecap_visibility_timeout_too_short"); len(got) != 0 {
			t.Errorf("without the configuration: %+v", got)
		}
	})
}

// TestPlanRemoteModule: a module installed by `terraform get` from a git
// repository (so found through .terraform/modules/modules.json): the
// finding inside it is reported at the call's argument in the repository,
// with its place in the module as ModuleRange, the same from the plan as
// from the HCL.
func TestPlanRemoteModule(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	src, err := os.ReadFile("testdata/modules/modules/pipeline/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "main.tf"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "main.tf"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "pipeline"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		w := testaws.NewWorkdir(t, cli.Path, "testdata/remote")
		call := fmt.Sprintf("module \"pipeline\" {\n  source   = \"git::file://%s\"\n  name     = \"orders\"\n  max_size = var.max_size\n}\n\nvariable \"max_size\" {\n  default = 25\n}\n", repo)
		if err := os.WriteFile(filepath.Join(w.Dir, "main.tf"), []byte(call), 0o644); err != nil {
			t.Fatal(err)
		}
		fromPlan := lintPlan(t, w.Plan(), w.Dir)
		fromHCL, err := runner.Run(lint.Options{Dirs: []string{w.Dir}, Config: &lint.Config{}, Rules: rules.All()})
		if err != nil {
			t.Fatal(err)
		}
		got := issuesOf(fromPlan, "queuecap_zero_surplus")
		if len(got) != 1 || got[0].Range.Filename != filepath.Join(w.Dir, "main.tf") || got[0].Range.Start.Line != 4 ||
			got[0].ModuleRange == nil || !strings.Contains(got[0].ModuleRange.Filename, filepath.Join(".terraform", "modules", "pipeline")) {
			t.Fatalf("from the plan: %+v", got)
		}
		if want := issuesOf(fromHCL, "queuecap_zero_surplus"); len(want) != 1 || want[0].Range != got[0].Range || *want[0].ModuleRange != *got[0].ModuleRange {
			t.Errorf("from the HCL: %+v", want)
		}
	})
}

// TestPlanVariableSources: values from a TF_VAR_ environment variable and
// from the selected workspace reach the plan's findings as they reach the
// HCL's: the batch fleet's 25 from TF_VAR_batch_max_size, the stream
// fleet's from the workspace (40 in default, 25 in prod).
func TestPlanVariableSources(t *testing.T) {
	dir := "testdata/variable_sources"
	env := []string{"TF_VAR_batch_max_size=25"}
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		w := testaws.NewWorkdir(t, cli.Path, dir)
		w.Setenv("TF_VAR_batch_max_size", "25")
		for _, c := range []struct {
			workspace string
			want      []string // zero surplus fleets
		}{
			{"default", []string{"aws_autoscaling_group.batch"}},
			{"prod", []string{"aws_autoscaling_group.batch", "aws_autoscaling_group.stream"}},
		} {
			if c.workspace != "default" {
				w.Workspace(c.workspace)
			}
			res := lintPlan(t, w.Plan(), w.Dir)
			var got []string
			for _, is := range issuesOf(res, "queuecap_zero_surplus") {
				got = append(got, is.Address)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("workspace %s: zero surplus on %v, want %v; all: %+v", c.workspace, got, c.want, findings(res))
			}
			fromHCL, err := runner.Run(lint.Options{Dirs: []string{w.Dir}, Config: &lint.Config{}, Rules: rules.All(), Environ: env})
			if err != nil {
				t.Fatal(err)
			}
			if p, h := summarizeAll(res, false), summarizeAll(fromHCL, true); !slices.Equal(p, h) {
				t.Errorf("workspace %s: plan findings\n%s\nHCL findings\n%s", c.workspace, strings.Join(p, "\n"), strings.Join(h, "\n"))
			}
		}
	})
}

// TestPlanLinks: fleets that only their configuration links to their
// queues, the links read from the plan as from the HCL. An auto scaling
// group's role is its launch template's or launch configuration's instance
// profile's, an ECS service's its task definition's task role, each named
// by an ARN or ID unknown until apply; a queue's arrivals are what the SNS
// topics subscribed to it declare. Each finding says how its fleet or rate
// is linked, as the HCL's does.
func TestPlanLinks(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want map[string]string // a zero surplus finding's address and what its message says of the link
		// alone: the plan links without the configuration directory too
		// (through an aws_iam_policy_document or a topic's ARN, which the
		// plan records; a jsonencode policy over an ARN is unknown in the
		// plan, and only the directory's HCL says what it allows).
		alone bool
	}{
		{"testdata/launch_template", map[string]string{
			"aws_autoscaling_group.workers": "aws_autoscaling_group.workers (linked through IAM role aws_iam_role.worker) max_size 10 × 100 msg/s",
			"aws_autoscaling_group.batch":   "aws_autoscaling_group.batch (linked through IAM role aws_iam_role.batch) max_size 4 × 50 msg/s",
		}, false},
		{"testdata/launch_configuration", map[string]string{
			"aws_autoscaling_group.reporters": "aws_autoscaling_group.reporters (linked through IAM role aws_iam_role.reporter) max_size 3 × 100 msg/s",
		}, false},
		{"testdata/task_role", map[string]string{
			"aws_ecs_service.worker": "aws_ecs_service.worker (linked through IAM role aws_iam_role.task) desired_count 2 × 50 msg/s",
		}, true},
		{"testdata/sns", map[string]string{
			"aws_lambda_function.ledger": "the declared arrival rate 100 msg/s of SNS topics aws_sns_topic.orders + aws_sns_topic.refunds",
		}, true},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
				plan := testaws.Plan(t, cli.Path, tc.dir)
				check := func(res *lint.Result, want map[string]string) {
					t.Helper()
					got := map[string]string{}
					for _, is := range issuesOf(res, "queuecap_zero_surplus") {
						got[is.Address] = is.Message
						if f := is.FactMap(); f["surplus"] != 0 || f["capacity"] != f["arrival_rate"] {
							t.Errorf("%s: facts %v", is.Address, f)
						}
					}
					if len(got) != len(want) {
						t.Errorf("zero surplus findings %v, want %d", got, len(want))
					}
					for addr, link := range want {
						if !strings.Contains(got[addr], link) {
							t.Errorf("%s: %q, want it to say %q", addr, got[addr], link)
						}
					}
				}
				check(lintPlan(t, plan, tc.dir), tc.want)
				if tc.alone {
					check(lintPlan(t, plan, t.TempDir()), tc.want)
				} else {
					check(lintPlan(t, plan, t.TempDir()), nil)
				}
			})
		})
	}
}

// TestPlanBatching: the batching window, batch size and response types
// are read from the plan's planned values alone (no configuration
// directory), where the variables that set them are known: the window
// adds to six function timeouts, and of the two mappings only the one
// without ReportBatchItemFailures re-drives its batches.
func TestPlanBatching(t *testing.T) {
	dir := "testdata/batch"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		res := lintPlan(t, testaws.Plan(t, cli.Path, dir), t.TempDir())
		var got []string
		for _, is := range res.Issues {
			got = append(got, is.Rule+" "+is.Address)
		}
		want := []string{
			"queuecap_batch_retry_amplification aws_lambda_event_source_mapping.invoices",
			"queuecap_visibility_timeout_too_short aws_sqs_queue.invoices",
		}
		if !slices.Equal(got, want) {
			t.Fatalf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if f := res.Issues[1].FactMap(); f["maximum_batching_window_in_seconds"] != 20 || f["required_visibility_timeout_seconds"] != 200 {
			t.Errorf("visibility facts %v, want a window of 20 s and 6 × 30 + 20 = 200 s", f)
		}
		if f := res.Issues[0].FactMap(); f["batch_size"] != 10 || f["retry_rate"] != 0.05 || f["receives_per_message"] != 1.67018257011509 {
			t.Errorf("batch facts %v, want batch_size 10, retry_rate 0.05, 1.67018257011509 receives per message", f)
		}
	})
}
