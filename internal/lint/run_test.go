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
)

// A .queuecap.hcl queue block that names nothing in the configuration is
// reported as a skip, so a typo does not turn checks off in silence.
func TestUnmatchedConfigBlocks(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": "resource \"aws_sqs_queue\" \"orders\" {}\nresource \"aws_autoscaling_group\" \"workers\" {\n  max_size = 4\n}\n",
		".queuecap.hcl": `queue "aws_sqs_queue.ordrs" {
  arrival_rate = 5
}
queue "aws_sqs_queue.orders" {
  consumer = "aws_autoscaling_group.wrkers"
}
queue "module.x.aws_sqs_queue.orders" {
  arrival_rate = 5
}
`,
	})
	cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg})
	want := map[int]string{
		1: `queue block "aws_sqs_queue.ordrs" matches no aws_sqs_queue in the linted configuration; did you mean aws_sqs_queue.orders?`,
		4: `queue block "aws_sqs_queue.orders" names consumer "aws_autoscaling_group.wrkers", which matches no fleet in the linted configuration; did you mean aws_autoscaling_group.workers?`,
		7: `queue block "module.x.aws_sqs_queue.orders" matches no aws_sqs_queue in the linted configuration; did you mean aws_sqs_queue.orders?`,
	}
	got := map[int]string{}
	for _, s := range res.Skipped {
		if s.Rule == "config" {
			got[s.Range.Start.Line] = s.Reason
		}
	}
	if len(got) != len(want) {
		t.Fatalf("config skips %v, want %v", got, want)
	}
	for line, reason := range want {
		if got[line] != reason {
			t.Errorf("line %d: skip %q, want %q", line, got[line], reason)
		}
	}
}

// TestQueuecapDataSourcesEvaluated sizes fleets from the storm, wait-time
// and replay data sources; the zero-surplus finding's message shows the
// value the linter computed for each with internal/capacity.
func TestQueuecapDataSourcesEvaluated(t *testing.T) {
	fleet := func(name, size string, arrival, mu int) string {
		return fmt.Sprintf(`
resource "aws_sqs_queue" "%[1]s" {
  tags = { "queuecap:arrival_rate" = %[3]d }
}
resource "aws_autoscaling_group" "%[1]s" {
  max_size = %[2]s
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = %[4]d
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.%[1]s"
    propagate_at_launch = false
  }
}
`, name, size, arrival, mu)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `
data "queuecap_retry_storm" "seed" {
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 32
  backlog             = 3600000
  retries_per_timeout = 1.5
}
data "queuecap_wait_time" "mm3" {
  arrival_rate        = 2
  per_consumer_rate   = 1
  consumers           = 3
  target_wait_seconds = 1
}
data "queuecap_replay_budget" "dlq" {
  downstream_limit = 1000
  live_usage       = 700
  retry_usage      = 100
  calls_per_job    = 2
  safety_margin    = 0
}
` + fleet("storm", "data.queuecap_retry_storm.seed.min_consumers_to_drain", 25200, 400) +
		fleet("wait", "data.queuecap_wait_time.mm3.min_consumers_for_target", 5, 1) +
		fleet("replay", "data.queuecap_replay_budget.dlq.replay_jobs_per_second", 100, 1)})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Disable: []string{"queuecap_missing_dead_letter_queue"}})
	var got []string
	for _, is := range res.Issues {
		if is.Rule == "queuecap_zero_surplus" {
			got = append(got, strings.SplitN(is.Message, " does not", 2)[0])
		}
	}
	slices.Sort(got)
	want := []string{
		"max_size 100 × 1 msg/s = 100 msg/s",     // 200 free calls/s at 2 calls per job
		"max_size 5 × 1 msg/s = 5 msg/s",         // M/M/c at a = 2: 5 consumers wait under 1 s at p99
		"max_size 63 × 400 msg/s = 25,200 msg/s", // the seed's storm needs 63
	}
	if !slices.Equal(got, want) {
		t.Errorf("zero-surplus capacities %q, want %q (skipped: %v)", got, want, res.Skipped)
	}
}
