// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// TestQueueFIFOSettings holds what the builder reads of a queue's FIFO
// settings, message size and Region: AWS's defaults when unset, values
// converted as Terraform converts them, and why a value is not known.
func TestQueueFIFOSettings(t *testing.T) {
	m := linkedModel(t, map[string]string{"main.tf": `variable "scope" {
  type = string
}

resource "aws_sqs_queue" "fifo" {
  name                  = "orders.fifo"
  fifo_queue            = "true"
  fifo_throughput_limit = "perMessageGroupId"
  deduplication_scope   = var.scope
  max_message_size      = 1048576
  region                = "eu-central-1"
}

resource "aws_sqs_queue" "standard" {
  name = "standard"
}
`}, "")
	queues := map[string]*model.Queue{}
	for _, q := range m.Queues {
		queues[q.Addr] = q
	}
	fifo, standard := queues["aws_sqs_queue.fifo"], queues["aws_sqs_queue.standard"]
	if fifo == nil || standard == nil {
		t.Fatalf("queues %v", queues)
	}
	if s := fifo.FIFO; !s.Set || !s.Known || !s.V || s.Range.Start.Line != 7 {
		t.Errorf("fifo_queue = %+v, want true at line 7", s)
	}
	if s := fifo.FIFOThroughputLimit; !s.Known || s.V != "perMessageGroupId" || !s.Is("perMessageGroupId", "perQueue") {
		t.Errorf("fifo_throughput_limit = %+v", s)
	}
	if s := fifo.DeduplicationScope; !s.Set || s.Known || s.Unknown() != "comes from var.scope, which has no value here (set it with --var, a tfvars file or TF_VAR_scope)" {
		t.Errorf("deduplication_scope = %+v, %q", s, s.Unknown())
	}
	if s := fifo.DeduplicationScope; s.Is("messageGroup", "queue") || s.Is("queue", "queue") {
		t.Error("deduplication_scope not known before apply is one of its values")
	}
	if n := fifo.MaxMessageBytes; !n.Known || n.V != 1048576 || n.From != "max_message_size" {
		t.Errorf("max_message_size = %+v", n)
	}
	if s := fifo.Region; !s.Known || s.V != "eu-central-1" {
		t.Errorf("region = %+v", s)
	}
	// Unset: AWS's defaults stand for them.
	if s := standard.FIFO; s.Set || !s.Is(false, false) {
		t.Errorf("standard fifo_queue = %+v", s)
	}
	if s := standard.FIFOThroughputLimit; s.Set || !s.Is("perQueue", "perQueue") || s.Is("perMessageGroupId", "perQueue") {
		t.Errorf("standard fifo_throughput_limit = %+v", s)
	}
	if n := standard.MaxMessageBytes; !n.Known || n.V != 262144 || n.From != "max_message_size (default)" {
		t.Errorf("standard max_message_size = %+v", n)
	}
	if s := standard.Region; s.Set {
		t.Errorf("standard region = %+v", s)
	}
}
