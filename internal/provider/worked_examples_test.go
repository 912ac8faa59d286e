// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestMathWorkedExamples runs every worked example of MATH.md that a data
// source answers through Terraform in one plan, each as its own data source.
func TestMathWorkedExamples(t *testing.T) {
	examples := []struct {
		kind, name, body string
		want             map[string]knownvalue.Check
	}{
		{"queuecap_drain", "zero_surplus", `  backlog           = 3600000
  arrival_rate      = 10000
  consumers         = 25
  per_consumer_rate = 400`, map[string]knownvalue.Check{"completion_rate": num(10000), "net_rate": num(0), "drains": knownvalue.Bool(false), "drain_seconds": knownvalue.Null()}},
		{"queuecap_drain", "headroom_fleet", `  backlog           = 3600000
  arrival_rate      = 10000
  consumers         = 32
  per_consumer_rate = 400`, map[string]knownvalue.Check{"net_rate": num(2800), "drain_seconds": num(1285.7142857142858)}},
		{"queuecap_consumers", "headroom_formula", `  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800`, map[string]knownvalue.Check{"steady_state_consumers": knownvalue.Int64Exact(25), "required_consumers": knownvalue.Int64Exact(32), "overhead": num(0.28)}},
		// Provisioning lag in sizing: 25 + 5,000,000 / (400 × 1,620) = 32.72 → 33.
		{"queuecap_consumers", "provisioning_lag", `  arrival_rate             = 10000
  per_consumer_rate        = 400
  max_backlog              = 5000000
  rto_seconds              = 1800
  provisioning_lag_seconds = 180
  min_consumers            = 25`, map[string]knownvalue.Check{"required_consumers": knownvalue.Int64Exact(33)}},
		// The utilization cliff: C = 10,000; a 10 % spike over 80 % (8,000 →
		// 8,800) leaves 1,200 of 2,000; over 90 % (9,000 → 9,900) 100 of 1,000.
		{"queuecap_drain", "cliff_80", `  backlog         = 0
  arrival_rate    = 8000
  completion_rate = 10000`, map[string]knownvalue.Check{"net_rate": num(2000)}},
		{"queuecap_drain", "cliff_80_spike", `  backlog         = 0
  arrival_rate    = 8800
  completion_rate = 10000`, map[string]knownvalue.Check{"net_rate": num(1200)}},
		{"queuecap_drain", "cliff_90", `  backlog         = 0
  arrival_rate    = 9000
  completion_rate = 10000`, map[string]knownvalue.Check{"net_rate": num(1000)}},
		{"queuecap_drain", "cliff_90_spike", `  backlog         = 0
  arrival_rate    = 9900
  completion_rate = 10000`, map[string]knownvalue.Check{"net_rate": num(100)}},
		// Little's law at steady state: completion = λ, so W = 600,000 / 5,000.
		{"queuecap_drain", "littles_law", `  backlog         = 600000
  arrival_rate    = 5000
  completion_rate = 5000`, map[string]knownvalue.Check{"wait_seconds": num(120)}},
		{"queuecap_sla_depth", "sla_depth", `  arrival_rate = 5000
  sla_seconds  = 10`, map[string]knownvalue.Check{"max_depth": num(50000)}},
		{"queuecap_ttl_backlog", "build_up", `  arrival_rate             = 1200
  degraded_completion_rate = 1000
  incident_seconds         = 900
  ttl_seconds              = 86400`, map[string]knownvalue.Check{"unbounded_backlog": num(180000)}},
		{"queuecap_drain", "drain_900", `  backlog         = 180000
  arrival_rate    = 800
  completion_rate = 1000`, map[string]knownvalue.Check{"drain_seconds": num(900)}},
		{"queuecap_drain", "drain_300", `  backlog         = 180000
  arrival_rate    = 1200
  completion_rate = 1800`, map[string]knownvalue.Check{"drain_seconds": num(300)}},
		{"queuecap_drain", "no_drain", `  backlog         = 180000
  arrival_rate    = 1200
  completion_rate = 1000`, map[string]knownvalue.Check{"drains": knownvalue.Bool(false), "drain_seconds": knownvalue.Null()}},
		// Net rate, not completion rate: 380,000 / 140 ≈ 45 min, not
		// 380,000 / 520 ≈ 12 min; doubling completion to 1,040 nets 660/s.
		{"queuecap_drain", "net_rate", `  backlog         = 380000
  arrival_rate    = 380
  completion_rate = 520`, map[string]knownvalue.Check{"net_rate": num(140), "drain_seconds": num(380000.0 / 140)}},
		{"queuecap_drain", "scale_out", `  backlog         = 380000
  arrival_rate    = 380
  completion_rate = 1040`, map[string]knownvalue.Check{"net_rate": num(660), "drain_seconds": num(380000.0 / 660)}},
		// The retry storm: 25 consumers never; 32 drain in 1,287 steps
		// (≈ 21.4 min); 32 under 1.5 retries per timeout never, peak ≈ 4.4 × 10^8.
		{"queuecap_retry_storm", "storm_steady_state", `  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 25
  backlog             = 3600000
  retries_per_timeout = 0`, map[string]knownvalue.Check{"drains": knownvalue.Bool(false)}},
		{"queuecap_retry_storm", "storm_headroom", `  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 32
  backlog             = 3600000
  retries_per_timeout = 0`, map[string]knownvalue.Check{"drains": knownvalue.Bool(true), "steps": knownvalue.Int64Exact(1287), "drain_seconds": closeTo{21.4 * 60, 30}}},
		{"queuecap_retry_storm", "storm", `  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 32
  backlog             = 3600000
  retries_per_timeout = 1.5`, map[string]knownvalue.Check{"drains": knownvalue.Bool(false), "peak_depth": closeTo{4.4e8, 0.05e8}}},
		// The replay budget: 200 calls/s, at most 100 jobs/s.
		{"queuecap_replay_budget", "replay", `  downstream_limit = 1000
  live_usage       = 700
  retry_usage      = 100
  calls_per_job    = 2
  safety_margin    = 0`, map[string]knownvalue.Check{"replay_calls_per_second": num(200), "replay_jobs_per_second": num(100)}},
	}
	var config strings.Builder
	var checks []statecheck.StateCheck
	for _, ex := range examples {
		fmt.Fprintf(&config, "data %q %q {\n%s\n}\n\n", ex.kind, ex.name, ex.body)
		checks = append(checks, expectValues("data."+ex.kind+"."+ex.name, ex.want)...)
	}
	unitTest(t, resource.TestStep{Config: config.String(), ConfigStateChecks: checks})
}
