// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanMessageGroups: message_groups and message_size_bytes, which no
// Terraform configuration holds, come from the directory's .queuecap.hcl
// and bound the consumers the plan gives: 8 message groups of 10 msg/s
// under a FIFO queue's 100 msg/s (one finding, the FIFO rule's), and a
// provisioned mapping's 20 pollers (from terraform.tfvars) carrying
// 20 × 1 MB/s ÷ 200,000 B = 100 msg/s of 150. The HCL gives the same.
func TestPlanMessageGroups(t *testing.T) {
	const dir = "testdata/fifo_groups"
	cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	check := func(t *testing.T, res *lint.Result) {
		t.Helper()
		var got []string
		for _, is := range res.Issues {
			got = append(got, is.Rule+" "+is.Address)
		}
		slices.Sort(got)
		want := []string{
			"queuecap_fifo_throughput_ceiling aws_sqs_queue.orders",
			"queuecap_zero_surplus aws_lambda_event_source_mapping.images",
		}
		if !slices.Equal(got, want) {
			t.Fatalf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, is := range res.Issues {
			f := is.FactMap()
			switch is.Rule {
			case "queuecap_fifo_throughput_ceiling":
				if f["message_groups"] != 8 || f["message_groups_capacity"] != 80 || f["min_message_groups"] != 11 ||
					!strings.Contains(is.Message, "message_groups 8 × 10 msg/s = 80 msg/s") {
					t.Errorf("orders: facts %v, message %q; want message_groups 8 × 10 msg/s = 80 msg/s", f, is.Message)
				}
			case "queuecap_zero_surplus":
				if f["capacity"] != 100 || f["payload_capacity"] != 100 || f["maximum_pollers"] != 20 || f["message_size_bytes"] != 200000 ||
					!strings.Contains(is.Message, "maximum_pollers 20 × 1 MB/s (lambda_sqs_poller_throughput_mb_per_second; 1 MB = 1,000,000 B) ÷ 200,000 B per message = 100 msg/s") {
					t.Errorf("images: facts %v, message %q; want the pollers' 100 msg/s", f, is.Message)
				}
			}
		}
	}
	fromHCL, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: cfg, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("hcl", func(t *testing.T) { check(t, fromHCL) })
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		plan, err := lint.ReadPlan(testaws.Plan(t, cli.Path, dir))
		if err != nil {
			t.Fatal(err)
		}
		res, err := runner.Run(lint.Options{Dirs: []string{t.TempDir()}, Config: cfg, Rules: rules.All(), Plan: plan})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Errors {
			t.Errorf("error: %s", e)
		}
		check(t, res)
	})
}
