// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestOptionalDefaults: the defaults of optional() attributes apply to a
// module argument and to a variable's own default, as Terraform applies
// them, not only to --var values (issue 22, item 2). Without them the
// queue's and the function's timeouts read as unset (AWS's 30 s and 3 s,
// which pass) and the count of module.extra as unknown, so a module
// Terraform never creates was linted.
func TestOptionalDefaults(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `module "worker" {
  source   = "./worker"
  settings = { name = "orders" }
}

variable "extra" {
  type    = object({ enable = optional(bool, false) })
  default = {}
}

module "extra" {
  source = "./extra"
  count  = var.extra.enable ? 1 : 0
}
`,
		"worker/main.tf": `variable "settings" {
  type = object({
    name       = string
    timeout    = optional(number, 30)
    visibility = optional(number, 30)
  })
}

resource "aws_sqs_queue" "q" {
  name                       = var.settings.name
  visibility_timeout_seconds = var.settings.visibility
  redrive_policy             = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:dlq", maxReceiveCount = 3 })
}

resource "aws_lambda_function" "f" {
  function_name = var.settings.name
  timeout       = var.settings.timeout
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn        = aws_sqs_queue.q.arn
  function_name           = aws_lambda_function.f.arn
  function_response_types = ["ReportBatchItemFailures"]
}
`,
		"extra/main.tf": "resource \"aws_sqs_queue\" \"extra\" {\n  name = \"extra\"\n}\n",
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	if len(res.Issues) != 1 || res.Issues[0].Rule != "queuecap_visibility_timeout_too_short" {
		t.Errorf("findings %+v, want the visibility timeout's", res.Issues)
	} else if facts := res.Issues[0].FactMap(); facts["visibility_timeout_seconds"] != 30 || facts["function_timeout_seconds"] != 30 {
		t.Errorf("facts %v, want both timeouts 30 s from the optional() defaults", facts)
	}
	for _, s := range res.Skipped {
		if strings.Contains(s.Reason, "module.extra") {
			t.Errorf("module.extra, whose count is 0, was linted: %s", s.Reason)
		}
	}
}
