// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// TestTerragruntUnits: a directory Terragrunt deploys from a
// terragrunt.hcl holds no Terraform to lint; each such unit is a skip at
// its source (or its include), the root configuration units include is
// none, and a unit that holds Terraform of its own is linted as a root
// module. The layout of siutsin/otaru's infrastructure/cloud.
func TestTerragruntUnits(t *testing.T) {
	top := t.TempDir()
	files := map[string]string{
		"root.hcl":       "remote_state {\n  backend = \"s3\"\n}\n",
		"terragrunt.hcl": "remote_state {\n  backend = \"s3\"\n}\n",
		"aws/sqs/terragrunt.hcl": "include {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\nterraform {\n  source = \"${get_parent_terragrunt_dir()}//modules/aws-sqs\"\n}\n\n" +
			"inputs = {\n  sqss = { event = { name = \"event-queue\" } }\n}\n",
		"aws/dynamodb/terragrunt.hcl": "include \"envcommon\" {\n  path = \"${dirname(find_in_parent_folders())}/_envcommon/dynamodb.hcl\"\n}\n",
		"aws/broken/terragrunt.hcl":   "terraform {\n  source = \n",
		"aws/local/terragrunt.hcl":    "terraform {\n  source = \".\"\n}\n",
		"aws/local/main.tf":           "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n}\n",
	}
	writeFiles(t, top, files)
	unitSkips := func(dirs []string, recursive bool) []string {
		t.Helper()
		res, err := runner.Run(lint.Options{Dirs: dirs, Recursive: recursive, Rules: rules.All(), Config: &lint.Config{}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range res.Skipped {
			if strings.Contains(s.Reason, "Terragrunt unit") {
				rel, _ := filepath.Rel(top, s.Range.Filename)
				out = append(out, fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(rel), s.Range.Start.Line, s.Range.Start.Column, s.Rule))
				if !strings.Contains(s.Reason, "--var") || !strings.Contains(s.Reason, "--plan") {
					t.Errorf("%s: %q says neither how to lint the module nor its plan", rel, s.Reason)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	want := []string{"aws/broken/terragrunt.hcl:1:1 module", "aws/dynamodb/terragrunt.hcl:1:1 module", "aws/sqs/terragrunt.hcl:6:12 module"}
	if got := unitSkips([]string{top}, true); !slices.Equal(got, want) {
		t.Errorf("recursive: unit skips\n got %q\nwant %q", got, want)
	}
	if got, want := unitSkips([]string{filepath.Join(top, "aws", "sqs")}, false), want[2:]; !slices.Equal(got, want) {
		t.Errorf("one unit: skips %q, want %q", got, want)
	}
	res, err := runner.Run(lint.Options{Dirs: []string{top}, Recursive: true, Rules: rules.All(), Config: &lint.Config{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Skipped {
		switch {
		case strings.HasSuffix(s.Range.Filename, filepath.Join("aws", "sqs", "terragrunt.hcl")):
			if !strings.Contains(s.Reason, `(source = "${get_parent_terragrunt_dir()}//modules/aws-sqs")`) {
				t.Errorf("the sqs unit's skip does not name its source: %q", s.Reason)
			}
		case strings.HasSuffix(s.Range.Filename, filepath.Join("aws", "dynamodb", "terragrunt.hcl")):
			if !strings.Contains(s.Reason, "its source comes from the configuration it includes") {
				t.Errorf("the include-only unit's skip does not say where its source is: %q", s.Reason)
			}
		}
	}
	if res.Queues != 1 {
		t.Errorf("%d queues checked, want the one of aws/local, a unit with Terraform of its own", res.Queues)
	}
}
