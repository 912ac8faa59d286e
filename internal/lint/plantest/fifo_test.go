// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanFIFORegion: a high-throughput FIFO queue's ceiling depends on
// its Region, which only the provider block gives. The HCL does not read
// it and skips the queue; the plan holds it as the queue's region, so
// the rule checks the queue against us-east-2's 190,000 msg/s.
func TestPlanFIFORegion(t *testing.T) {
	const dir = "testdata/fifo_region"
	const rule = "queuecap_fifo_throughput_ceiling"
	fromHCL, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	var skipped bool
	for _, s := range fromHCL.Skipped {
		skipped = skipped || (s.Rule == rule && strings.Contains(s.Reason, "the Region of aws_sqs_queue.events is not known"))
	}
	if len(issuesOf(fromHCL, rule)) != 0 || !skipped {
		t.Errorf("HCL: findings %+v, skips %+v; want the Region's skip", findings(fromHCL), fromHCL.Skipped)
	}
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		res := lintPlan(t, testaws.Plan(t, cli.Path, dir), dir)
		got := issuesOf(res, rule)
		if len(got) != 1 {
			t.Fatalf("findings %+v, want one of %s", findings(res), rule)
		}
		is := got[0]
		if want := filepath.Join(dir, "main.tf"); is.Range.Filename != want || is.Range.Start.Line != 10 {
			t.Errorf("at %s, want %s:10 (the queue: the provider sets its region)", is.Range, want)
		}
		facts := is.FactMap()
		if facts["fifo_transactions_per_second"] != 19000 || facts["fifo_messages_per_second"] != 190000 || facts["excess"] != 10000 {
			t.Errorf("facts %v, want us-east-2's 19,000 × 10 = 190,000 msg/s, 10,000 over", facts)
		}
		if !strings.Contains(is.Message, "with high throughput in us-east-2") {
			t.Errorf("message %q does not name the Region", is.Message)
		}
		for _, s := range res.Skipped {
			if s.Rule == rule {
				t.Errorf("plan skip %+v: the plan knows the Region", s)
			}
		}
	})
}
