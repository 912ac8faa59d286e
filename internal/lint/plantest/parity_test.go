// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// planWins are the ways a plan's finding may differ from its HCL's, each
// because the plan knows more. Each maps the HCL's message to the plan's.
var planWins = []struct {
	why     string
	replace func(hclMessage string) string
}{
	{
		// The plan holds the provider's defaults as planned values: an
		// argument left out is a value the plan sets, not a default the
		// linter assumes.
		why:     "the plan sets the provider's defaults",
		replace: strings.NewReplacer(" (the default)", "", ", the default)", ")").Replace,
	},
}

// TestParity lints configurations both ways, their HCL and their plan (with
// the configuration directory) under each CLI, and requires the same
// findings (rule, place, instances, facts and message, but for planWins)
// and the same skips (instances too).
func TestParity(t *testing.T) {
	for _, dir := range []string{"testdata/zero_surplus", "testdata/unknown_arn", "testdata/modules", "testdata/ignored", "testdata/scaling", "testdata/iam", "testdata/iam_unknown_list", "testdata/locals",
		"testdata/launch_template", "testdata/launch_configuration", "testdata/task_role", "testdata/sns", "testdata/queuecap_data", "testdata/instances", "testdata/fifo", "testdata/batch", "testdata/deploy", "testdata/lag", "testdata/lambda_ceiling",
		"testdata/managed_instances"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			fromHCL, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All()})
			if err != nil {
				t.Fatal(err)
			}
			want := summarizeAll(fromHCL, true)
			if len(want) == 0 && dir != "testdata/ignored" {
				t.Error("no finding to compare")
			}
			forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
				got := summarizeAll(lintPlan(t, testaws.Plan(t, cli.Path, dir), dir), false)
				if !slices.Equal(got, want) {
					var whys []string
					for _, w := range planWins {
						whys = append(whys, w.why)
					}
					t.Errorf("plan findings\n%s\nHCL findings (allowed to differ where %s)\n%s", strings.Join(got, "\n"), strings.Join(whys, "; "), strings.Join(want, "\n"))
				}
			})
		})
	}
}

// summarize is each finding as one comparable line; the HCL's messages are
// rewritten by planWins.
func summarize(res *lint.Result, hcl bool) []string {
	var out []string
	for _, is := range res.Issues {
		msg := is.Message
		if hcl {
			for _, w := range planWins {
				msg = w.replace(msg)
			}
		}
		facts := is.FactMap()
		var fs []string
		for _, name := range slices.Sorted(maps.Keys(facts)) {
			fs = append(fs, fmt.Sprintf("%s=%v", name, facts[name]))
		}
		out = append(out, fmt.Sprintf("%s %s in %s %v %s callers=%d [%s]", is.Rule, is.Range, is.Address, is.Instances, msg, len(is.Callers), strings.Join(fs, " ")))
	}
	return out
}

// summarizeAll is summarize with each skip as a line after the findings.
func summarizeAll(res *lint.Result, hcl bool) []string {
	out := summarize(res, hcl)
	for _, s := range res.Skipped {
		out = append(out, fmt.Sprintf("skipped %s %s in %s %v %s", s.Rule, s.Range, s.Address, s.Instances, s.Reason))
	}
	return out
}
