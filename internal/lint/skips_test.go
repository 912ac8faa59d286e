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
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
)

// TestSkipOncePerReason: the three rules that read a queue's supply skip
// a Lambda consumer without per_consumer_rate for one reason at one
// place: that is one skip naming the three, not three (issue 22, item 4).
func TestSkipOncePerReason(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  name                       = "q"
  visibility_timeout_seconds = 60
  redrive_policy             = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:dlq", maxReceiveCount = 3 })
  tags = {
    "queuecap:arrival_rate" = 100
    "queuecap:max_backlog"  = 100000
    "queuecap:rto_seconds"  = 600
  }
}

resource "aws_lambda_function" "f" {
  function_name                  = "f"
  timeout                        = 10
  reserved_concurrent_executions = 20
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = aws_lambda_function.f.arn
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	want := []string{"queuecap_insufficient_headroom", "queuecap_retention_shorter_than_drain", "queuecap_unreachable_within_rto", "queuecap_zero_surplus"}
	if len(res.Skipped) != 1 || !strings.HasPrefix(res.Skipped[0].Reason, "per_consumer_rate is not declared for aws_lambda_function.f") ||
		res.Skipped[0].Rule != want[0] || !slices.Equal(res.Skipped[0].Rules, want) {
		t.Fatalf("skips %+v, want one for the four rules", res.Skipped)
	}
	var b strings.Builder
	if err := formatter.Write(&b, "default", res, formatter.Options{ShowSkipped: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(queuecap_insufficient_headroom, queuecap_retention_shorter_than_drain, queuecap_unreachable_within_rto, queuecap_zero_surplus)\n") || !strings.Contains(b.String(), "1 check skipped") {
		t.Errorf("default output:\n%s", b.String())
	}
}

// TestSkipInRemoteModule: a skip inside an installed remote module is
// placed at the call in the repository that brings the module in, as a
// finding is, and says where in the module it lies; one in a local module
// stays where it is (issue 22, item 5).
func TestSkipInRemoteModule(t *testing.T) {
	dir := t.TempDir()
	queue := "resource \"aws_sqs_queue\" \"this\" {\n  name = \"jobs\"\n}\n"
	writeFiles(t, dir, map[string]string{
		"main.tf": `module "jobs" {
  source  = "app.terraform.io/acme/queue/aws"
  version = "1.2.0"
}

module "local" {
  source = "./local"
}
`,
		".terraform/modules/modules.json":  `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"jobs","Source":"app.terraform.io/acme/queue/aws","Version":"1.2.0","Dir":".terraform/modules/jobs"}]}`,
		".terraform/modules/jobs/main.tf":  "\n" + queue,
		".terraform/modules/jobs/other.tf": "",
		"local/main.tf":                    queue,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	var got []string
	for _, s := range res.Skipped {
		rel, _ := filepath.Rel(dir, s.Range.Filename)
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), s.Range.Start.Line, strings.ReplaceAll(s.Reason, dir+string(filepath.Separator), "")))
	}
	inModule := filepath.Join(".terraform", "modules", "jobs", "main.tf")
	want := []string{
		"local/main.tf:1: no consumer of module.local.aws_sqs_queue.this is linked",
		"main.tf:1: no consumer of module.jobs.aws_sqs_queue.this is linked",
	}
	if len(got) != len(want) {
		t.Fatalf("skips:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("skip %d:\n%s\nwant it to start\n%s", i, got[i], want[i])
		}
	}
	if want := " (at " + inModule + ":2, in the module module.jobs brings in)"; !strings.HasSuffix(got[1], want) {
		t.Errorf("skip in the remote module:\n%s\nwant it to end %s", got[1], want)
	}
}

// TestSkipOnceAcrossRoots: a module linted as its own root and reached as
// module.app from the root above gives one skip, not one "and 1 more like
// it at this place, for other instances": it is one instance, seen twice.
func TestSkipOnceAcrossRoots(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": "module \"app\" {\n  source = \"./app\"\n}\n",
		"app/main.tf": `resource "aws_sqs_queue" "q" {
  name = "q"
}

resource "aws_autoscaling_group" "w" {
  name     = "w"
  max_size = 4
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
}
`,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true, Config: &lint.Config{}})
	if len(res.Skipped) != 1 || res.Skipped[0].Reason != "aws_sqs_queue.q has a consumer (aws_autoscaling_group.w) but no declared arrival_rate, so its capacity was not checked: it needs arrival_rate, per_consumer_rate (of aws_autoscaling_group.w), max_backlog and rto_seconds (for the recovery checks), declared in its .queuecap.hcl queue block (queuecap init writes it; queuecap rates measures the rates), as queuecap:* tags (arrival_rate also on an SNS topic feeding it), or by the queuecap data source that sizes its consumer" {
		t.Errorf("skips %+v, want one, in the module's own words", res.Skipped)
	}
}
