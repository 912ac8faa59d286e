// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import "testing"

// TestWholeModuleReference checks that a reference to a module as a whole
// reads its outputs: here each queue of a for_each module gets its own
// event source mapping, through a for expression over the module.
func TestWholeModuleReference(t *testing.T) {
	m := linkedModel(t, map[string]string{
		"main.tf": `module "queue" {
  source   = "./queue"
  for_each = toset(["orders", "refunds"])
  name     = each.key
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
}

resource "aws_lambda_event_source_mapping" "worker" {
  for_each         = { for name, q in module.queue : name => q.arn }
  event_source_arn = each.value
  function_name    = aws_lambda_function.worker.arn
}
`,
		"queue/main.tf": `variable "name" {
  type = string
}

resource "aws_sqs_queue" "q" {
  name = var.name
}

output "arn" {
  value = aws_sqs_queue.q.arn
}
`,
	}, "")
	want := map[string]string{
		`aws_lambda_event_source_mapping.worker["orders"]`:  `module.queue["orders"].aws_sqs_queue.q`,
		`aws_lambda_event_source_mapping.worker["refunds"]`: `module.queue["refunds"].aws_sqs_queue.q`,
	}
	if len(m.Mappings) != len(want) {
		t.Fatalf("%d mappings, want %d", len(m.Mappings), len(want))
	}
	for _, mp := range m.Mappings {
		if mp.Queue == nil || mp.Queue.Addr != want[mp.Addr] {
			t.Errorf("%s reads %v, want %s", mp.Addr, mp.Queue, want[mp.Addr])
		}
	}
}
