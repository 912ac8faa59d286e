// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"encoding/json"
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

// The configurations here size a fleet with the real queuecap provider,
// which testaws serves beside the AWS stand-in: the plan holds what the
// provider computed, where the HCL front end computes it from the
// catalog itself.

// lintHCL lints dir's HCL, as `queuecap lint dir` does.
func lintHCL(t *testing.T, dir string) *lint.Result {
	t.Helper()
	res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameFindings requires the plan's findings to be the HCL's, as TestParity
// does.
func sameFindings(t *testing.T, fromPlan, fromHCL *lint.Result) {
	t.Helper()
	if got, want := summarize(fromPlan, false), summarize(fromHCL, true); !slices.Equal(got, want) {
		t.Errorf("plan findings\n%s\nHCL findings\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// skipsOf are the skipped checks as "rule file:line: reason", in order.
func skipsOf(res *lint.Result) []string {
	var out []string
	for _, s := range res.Skipped {
		out = append(out, fmt.Sprintf("%s %s:%d: %s", s.RuleList(), filepath.Base(s.Range.Filename), s.Range.Start.Line, s.Reason))
	}
	return out
}

// wantFacts compares the facts a finding has with those wanted.
func wantFacts(t *testing.T, is lint.Issue, want map[string]float64) {
	t.Helper()
	got := is.FactMap()
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s: fact %s = %v, want %v (all: %v)", is.Rule, name, got[name], v, got)
		}
	}
}

// editMain replaces from with to in a Workdir's main.tf, once.
func editMain(t *testing.T, w *testaws.Workdir, from, to string) {
	t.Helper()
	path := filepath.Join(w.Dir, "main.tf")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), from) {
		t.Fatalf("main.tf has no %q", from)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlanQueuecapData: the fleet's max_size is the steady_state_consumers
// of a queuecap_consumers data source, which the CLI read at plan (it is in
// prior_state): 25 × 400 msg/s is exactly the 10000 msg/s its arguments
// declare, so the surplus is zero and the 5 M message backlog never drains
// within the queue's retention. Resized to required_consumers - 1 (31) the
// backlog drains, but not within rto_seconds; at required_consumers (32)
// nothing is found. Each time the plan's findings are the HCL's, and
// without the configuration directory the plan's own data source values
// still declare the rates.
func TestPlanQueuecapData(t *testing.T) {
	dir := "testdata/queuecap_data"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		w := testaws.NewWorkdir(t, cli.Path, dir)
		plan := w.Plan()
		res := lintPlan(t, plan, dir)
		sameFindings(t, res, lintHCL(t, dir))
		main := filepath.Join(dir, "main.tf")
		got := findings(res)
		if len(got) != 2 || got[0].rule != "queuecap_retention_shorter_than_drain" || got[0].line != 21 ||
			got[1].rule != "queuecap_zero_surplus" || got[1].line != 35 || res.Issues[1].Range.Filename != main {
			t.Fatalf("findings %+v, want the retention at main.tf:21 and the zero surplus at main.tf:35 (max_size)", got)
		}
		steady := map[string]float64{"max_consumers": 25, "per_consumer_rate": 400, "arrival_rate": 10000, "capacity": 10000, "surplus": 0}
		wantFacts(t, res.Issues[1], steady)
		wantFacts(t, res.Issues[0], map[string]float64{"max_consumers": 25, "surplus": 0, "max_backlog": 5000000, "message_retention_seconds": 345600})

		alone := issuesOf(lintPlan(t, plan, t.TempDir()), "queuecap_zero_surplus")
		if len(alone) != 1 || alone[0].Address != "aws_autoscaling_group.workers" {
			t.Fatalf("without the configuration: %+v", alone)
		}
		wantFacts(t, alone[0], steady)

		editMain(t, w, "steady_state_consumers", "required_consumers - 1")
		res = lintPlan(t, w.Plan(), w.Dir)
		sameFindings(t, res, lintHCL(t, w.Dir))
		if got := findings(res); len(got) != 1 || got[0].rule != "queuecap_insufficient_headroom" || got[0].file != "main.tf" || got[0].line != 35 {
			t.Fatalf("at required_consumers - 1: %+v", got)
		}
		wantFacts(t, res.Issues[0], map[string]float64{"max_consumers": 31, "per_consumer_rate": 400, "arrival_rate": 10000, "surplus": 2400,
			"max_backlog": 5000000, "rto_seconds": 1800, "required_consumers": 32})

		editMain(t, w, "required_consumers - 1", "required_consumers")
		res = lintPlan(t, w.Plan(), w.Dir)
		sameFindings(t, res, lintHCL(t, w.Dir))
		if len(res.Issues) != 0 || len(res.Skipped) != 0 {
			t.Errorf("at required_consumers: findings %+v, skips %v", findings(res), skipsOf(res))
		}
	})
}

// skipWithoutProviderFunctions skips the test under a CLI that cannot call
// provider functions: Terraform before 1.8, OpenTofu before 1.7.
func skipWithoutProviderFunctions(t *testing.T, cli testaws.CLI) {
	t.Helper()
	if cli.Path == "" {
		t.Skip("the CLI is not installed")
	}
	if _, err := exec.LookPath(cli.Path); err != nil {
		t.Skipf("%s is not installed", cli.Path)
	}
	// An empty CLI configuration: a missing one makes OpenTofu warn on
	// standard output, before the JSON.
	rc := filepath.Join(t.TempDir(), "empty.tfrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cli.Path, "version", "-json")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE="+rc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s version -json: %v", cli.Path, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version -json: %v: %s", cli.Path, err, out)
	}
	var major, minor int
	if _, err := fmt.Sscanf(v.Version, "%d.%d", &major, &minor); err != nil {
		t.Fatalf("%s: version %q: %v", cli.Path, v.Version, err)
	}
	name, since := "Terraform", 8
	if strings.HasPrefix(filepath.Base(cli.Path), "tofu") {
		name, since = "OpenTofu", 7
	}
	if major < 1 || major == 1 && minor < since {
		t.Skipf("%s %s has no provider functions (they came with %s 1.%d): provider::queuecap::* cannot be planned", name, v.Version, name, since)
	}
}

// TestPlanQueuecapFunction: the fleet's max_size is
// provider::queuecap::required_consumers(var.arrival_rate, 400, 0, 1800),
// which the plan records only as its result (25), not as a call: the
// rates its arguments declare are found by evaluating the configuration's
// HCL with the plan's variables, and only when that gives the planned
// value. With -var=arrival_rate=12000 the call is 30, again exactly the
// arrival rate. Without the configuration directory nothing declares an
// arrival rate, and the check is skipped rather than guessed; with the
// arrival rate known only after apply (terraform_data's output) the call
// is unknown in the plan, and skipped as the HCL skips it.
func TestPlanQueuecapFunction(t *testing.T) {
	dir := "testdata/queuecap_function"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		skipWithoutProviderFunctions(t, cli)
		w := testaws.NewWorkdir(t, cli.Path, dir)
		plan := w.Plan()
		res := lintPlan(t, plan, dir)
		sameFindings(t, res, lintHCL(t, dir))
		got := issuesOf(res, "queuecap_zero_surplus")
		if len(got) != 1 || len(res.Issues) != 1 || got[0].Range.Filename != filepath.Join(dir, "main.tf") || got[0].Range.Start.Line != 38 {
			t.Fatalf("findings %+v, want only the zero surplus at main.tf:38 (max_size)", findings(res))
		}
		wantFacts(t, got[0], map[string]float64{"max_consumers": 25, "per_consumer_rate": 400, "arrival_rate": 10000, "capacity": 10000, "surplus": 0})

		res = lintPlan(t, w.Plan("-var=arrival_rate=12000"), dir)
		if got := issuesOf(res, "queuecap_zero_surplus"); len(got) != 1 || len(res.Issues) != 1 {
			t.Fatalf("with -var=arrival_rate=12000: %+v", findings(res))
		} else {
			wantFacts(t, got[0], map[string]float64{"max_consumers": 30, "per_consumer_rate": 400, "arrival_rate": 12000, "surplus": 0})
		}

		res = lintPlan(t, plan, t.TempDir())
		if len(res.Issues) != 0 {
			t.Errorf("without the configuration: %+v", findings(res))
		}
		if s := res.Skipped; len(s) != 1 || s[0].Rule != "coverage" || s[0].Range.Filename != "aws_sqs_queue.orders" || !strings.Contains(s[0].Reason, "no declared arrival_rate") {
			t.Errorf("without the configuration: skips %q, want the coverage skip of aws_sqs_queue.orders for want of an arrival rate", skipsOf(res))
		}

		editMain(t, w, "required_consumers(var.arrival_rate,", "required_consumers(terraform_data.arrival_rate.output,")
		res = lintPlan(t, w.Plan(), w.Dir)
		hcl := lintHCL(t, w.Dir)
		sameFindings(t, res, hcl)
		if len(res.Issues) != 0 {
			t.Errorf("sized by an unknown rate: %+v", findings(res))
		}
		if got, want := skipsOf(res), skipsOf(hcl); !slices.Equal(got, want) || len(got) != 1 || !strings.Contains(got[0], "no declared arrival_rate") {
			t.Errorf("sized by an unknown rate: skips\n%s\nwant the HCL's\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestPlanQueuecapDeferred: the data source's arrival_rate is
// terraform_data's output, known only after apply, so the CLI defers the
// read to apply (planned_values holds the data source with its known
// arguments, resource_changes a read "because config unknown") and the
// fleet's max_size is unknown. The plan gives the HCL's skip: nothing
// declares an arrival rate (the plan, reading the data source's known
// arguments, does not count per_consumer_rate among the rates missing). With the arrival rate known but max_backlog
// deferred, the plan reads the rates the data source's known arguments
// declare and skips the fleet's checks because max_size is not known
// before apply, where the HCL, which drops a data source's arguments when
// one is not known, skips for want of an arrival rate: a clearer skip,
// and never a number.
func TestPlanQueuecapDeferred(t *testing.T) {
	dir := "testdata/queuecap_deferred"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		w := testaws.NewWorkdir(t, cli.Path, dir)
		raw := w.Plan()
		deferred(t, raw, "data.queuecap_consumers.orders")
		res := lintPlan(t, raw, dir)
		hcl := lintHCL(t, dir)
		sameFindings(t, res, hcl)
		if len(res.Issues) != 0 {
			t.Errorf("findings %+v", findings(res))
		}
		// The plan reads the data source's known per_consumer_rate; the
		// HCL drops its arguments, one being unknown.
		skip := func(perConsumer string) []string {
			return []string{"coverage main.tf:23: aws_sqs_queue.orders has a consumer (aws_autoscaling_group.workers) but no declared arrival_rate, so its capacity was not checked: " +
				"it needs arrival_rate, " + perConsumer + "max_backlog and rto_seconds (for the recovery checks), declared in its .queuecap.hcl queue block " +
				"(queuecap init writes it; queuecap rates measures the rates), as queuecap:* tags (arrival_rate also on an SNS topic feeding it), or by the queuecap data source that sizes its consumer"}
		}
		wantPlan, wantHCL := skip(""), skip("per_consumer_rate (of aws_autoscaling_group.workers), ")
		if got := skipsOf(res); !slices.Equal(got, wantPlan) || !slices.Equal(skipsOf(hcl), wantHCL) {
			t.Errorf("skips from the plan\n%s\nwant\n%s\nfrom the HCL\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantPlan, "\n"), strings.Join(skipsOf(hcl), "\n"), strings.Join(wantHCL, "\n"))
		}

		editMain(t, w, "arrival_rate      = terraform_data.arrival_rate.output",
			"arrival_rate      = 10000\n  max_backlog       = terraform_data.arrival_rate.output\n  rto_seconds       = 1800")
		raw = w.Plan()
		deferred(t, raw, "data.queuecap_consumers.orders")
		res = lintPlan(t, raw, w.Dir)
		hcl = lintHCL(t, w.Dir)
		sameFindings(t, res, hcl)
		if len(res.Issues) != 0 {
			t.Errorf("max_backlog deferred: findings %+v", findings(res))
		}
		if got := skipsOf(hcl); len(got) != 1 || !strings.HasPrefix(got[0], "coverage main.tf:25: ") || !strings.Contains(got[0], "no declared arrival_rate") {
			t.Errorf("max_backlog deferred: HCL skips %q", got)
		}
		if got, want := skipsOf(res), []string{
			"queuecap_insufficient_headroom, queuecap_zero_surplus main.tf:38: max_size of aws_autoscaling_group.workers is not known before apply",
		}; !slices.Equal(got, want) {
			t.Errorf("max_backlog deferred: plan skips\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// deferred requires the plan to read the data source at apply: it is in
// planned_values, not prior_state, and changes with a read whose
// configuration is unknown.
func deferred(t *testing.T, raw []byte, addr string) {
	t.Helper()
	type resource struct {
		Address string `json:"address"`
	}
	var plan struct {
		PlannedValues struct {
			RootModule struct{ Resources []resource } `json:"root_module"`
		} `json:"planned_values"`
		PriorState struct {
			Values struct {
				RootModule struct{ Resources []resource } `json:"root_module"`
			} `json:"values"`
		} `json:"prior_state"`
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions []string `json:"actions"`
			} `json:"change"`
			ActionReason string `json:"action_reason"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(raw, &plan); err != nil {
		t.Fatal(err)
	}
	has := func(rs []resource) bool {
		return slices.ContainsFunc(rs, func(r resource) bool { return r.Address == addr })
	}
	if has(plan.PriorState.Values.RootModule.Resources) || !has(plan.PlannedValues.RootModule.Resources) {
		t.Errorf("%s was read at plan: it is in prior_state, or not in planned_values", addr)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address == addr {
			if !slices.Equal(rc.Change.Actions, []string{"read"}) || rc.ActionReason != "read_because_config_unknown" {
				t.Errorf("%s: actions %v, action_reason %q, want a read because its configuration is unknown", addr, rc.Change.Actions, rc.ActionReason)
			}
			return
		}
	}
	t.Errorf("%s has no change: it is not deferred to apply", addr)
}
