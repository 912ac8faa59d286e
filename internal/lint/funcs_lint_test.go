// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestTerraformFunctionsLink lints what real configurations write with
// Terraform's functions: a fleet sized with two-argument lookup, a queue
// whose rate is read from a YAML file beside it, a size picked with
// one() and coalesce(). Before the linter had Terraform's own lookup,
// yamldecode and the file functions, each value was unknown and the
// capacity check was skipped.
func TestTerraformFunctionsLink(t *testing.T) {
	for _, tt := range []struct {
		name, arrival, maxSize string
		files                  map[string]string
	}{
		{"lookup with two arguments", "5000", `lookup(var.sizes, "orders")`, nil},
		{"yamldecode of a file in the module", `yamldecode(file("${path.module}/capacity.yaml")).orders.arrival_rate`, "10",
			map[string]string{"capacity.yaml": "orders:\n  arrival_rate: 5000\n"}},
		{"one and coalesce", "5000", `coalesce(one([for k, v in var.sizes : v if startswith(k, "ord")]), 1)`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"main.tf": `
variable "sizes" {
  type    = map(number)
  default = { orders = 10 }
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = ` + tt.arrival + ` }
}

resource "aws_autoscaling_group" "orders" {
  max_size = ` + tt.maxSize + `
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = 400
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`}
			for k, v := range tt.files {
				files[k] = v
			}
			writeFiles(t, dir, files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Enable: []string{"queuecap_zero_surplus"}})
			var got []string
			for _, is := range res.Issues {
				if is.Rule == "queuecap_zero_surplus" {
					got = append(got, is.Message)
				}
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], "max_size 10 × 400 msg/s = 4,000 msg/s") {
				t.Errorf("zero-surplus findings %q, want one for max_size 10 × 400 msg/s (skipped: %+v)", got, res.Skipped)
			}
		})
	}
}
