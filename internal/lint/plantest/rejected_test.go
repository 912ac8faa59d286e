// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestLintRejectsWhatTerraformRejects: each configuration of
// testdata/rejected (with the providers of its versions.tf) fails
// `terraform plan` (and OpenTofu's), and the
// linter, which used to count each as a check skipped, reports an error
// at the line the CLI names (issue 28, item 7). The cycle has no line in
// the CLI's words; the linter places it at the reference that closes it.
func TestLintRejectsWhatTerraformRejects(t *testing.T) {
	cases := []struct {
		dir string
		// cli is what the CLI says, lint the linter's error, line its line.
		cli, lint string
		line      int
		functions bool // needs provider functions
	}{
		{dir: "cycle", cli: "Error: Cycle: ", lint: "Cycle: local.a depends on itself: local.a → local.b → local.a", line: 3},
		{dir: "count", cli: "Error: Invalid count argument", lint: "Invalid count argument: the count of aws_sqs_queue.orders is -1", line: 2},
		{dir: "for_each", cli: "Error: Invalid for_each argument", lint: "Invalid for_each argument: the for_each of aws_sqs_queue.orders is a tuple", line: 2},
		{dir: "range", cli: "more than 1024 values were generated", lint: `Error in function call: Call to function "range" failed: more than 1024 values`, line: 3},
		{dir: "zero_by_zero", cli: "Error: Operation failed", lint: "Operation failed: Error during operation: can't divide zero by zero", line: 3},
		{dir: "data_source", cli: "Attribute arrival_rate must be a finite number", lint: "Invalid Attribute Value: Attribute arrival_rate must be a finite number within the float64 range (magnitude between about 4.9e-324 and 1.8e308), got: +Inf", line: 2},
		{dir: "function", cli: "arrival_rate value must be at least 0, got: -1", lint: "arrival_rate value must be at least 0, got: -1", line: 4, functions: true},
	}
	for _, c := range cases {
		dir := filepath.Join("testdata", "rejected", c.dir)
		t.Run(c.dir, func(t *testing.T) {
			res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All()})
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("%s:%d:", filepath.Join(dir, "main.tf"), c.line)
			found := false
			for _, e := range res.Errors {
				found = found || strings.HasPrefix(e.String(), want) && strings.Contains(e.String(), c.lint)
			}
			if !found {
				t.Errorf("lint errors %v, want one at %s holding %q", res.Errors, want, c.lint)
			}
			forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
				if c.functions {
					skipWithoutProviderFunctions(t, cli)
				}
				w := testaws.NewWorkdir(t, cli.Path, dir)
				w.AddFile(filepath.Join("testdata", "rejected", "versions.tf"))
				out := w.PlanFails()
				if !strings.Contains(strings.Join(strings.Fields(out), " "), c.cli) {
					t.Errorf("%s plan said:\n%s\nwant %q", cli.Name, out, c.cli)
				}
				if m := regexp.MustCompile(`on main\.tf line (\d+)`).FindStringSubmatch(out); m != nil && m[1] != fmt.Sprint(c.line) {
					t.Errorf("%s places the error on line %s, the linter on %d", cli.Name, m[1], c.line)
				}
			})
		})
	}
}
