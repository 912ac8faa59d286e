// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanProvisioningLag: the provisioning lag a step policy's alarm
// bounds, with the alarm's period from terraform.tfvars, and an ECS
// service's through Application Auto Scaling, read from planned values
// alone (datapoints_to_alarm, evaluation_periods, period, min_capacity);
// the warmup, grace periods and warm pool the plan holds are read for
// --explain and count in no lag.
func TestPlanProvisioningLag(t *testing.T) {
	const dir = "testdata/lag"
	const rule = "queuecap_insufficient_headroom"
	wantLag := map[string][2]float64{ // address: lag, drain
		"aws_autoscaling_group.orders": {180, 7380},
		"aws_ecs_service.refunds":      {90, 7290},
	}
	wantWarmup := map[string][]string{
		"aws_autoscaling_group.orders": {"default_instance_warmup=300", "health_check_grace_period=120", "warm_pool=?", "warm_pool.pool_state=Hibernated", "warm_pool.min_size=2"},
		"aws_ecs_service.refunds":      {"health_check_grace_period_seconds=60"},
	}
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		planJSON := testaws.Plan(t, cli.Path, dir)
		res := lintPlan(t, planJSON, dir)
		got := issuesOf(res, rule)
		if len(got) != len(wantLag) {
			t.Fatalf("findings %+v, want one of %s per fleet", findings(res), rule)
		}
		for _, is := range got {
			want, ok := wantLag[is.Address]
			facts := is.FactMap()
			if !ok || facts["provisioning_lag_seconds"] != want[0] || facts["drain_seconds"] != want[1] || facts["min_consumers"] != 20 || facts["required_consumers"] != 31 {
				t.Errorf("%s: facts %v, want a lag of %v s, a drain of %v s and 31 consumers", is.Address, facts, want[0], want[1])
			}
		}

		plan, err := lint.ReadPlan(planJSON)
		if err != nil {
			t.Fatal(err)
		}
		explained, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All(), Plan: plan, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range explained.Explanation.Roots[0].Queues {
			for _, c := range q.Consumers {
				var warmup []string
				for _, w := range c.Warmup {
					v := "?"
					switch {
					case w.Text != "":
						v = w.Text
					case w.Value != nil:
						v = fmt.Sprint(*w.Value)
					}
					warmup = append(warmup, w.Attribute+"="+v)
				}
				if !slices.Equal(warmup, wantWarmup[c.Address]) {
					t.Errorf("%s: warmup %q, want %q", c.Address, warmup, wantWarmup[c.Address])
				}
				if l := c.ProvisioningLag; l == nil || l.Seconds == nil || *l.Seconds != wantLag[c.Address][0] {
					t.Errorf("%s: provisioning lag %+v, want %v s", c.Address, l, wantLag[c.Address][0])
				}
			}
		}
	})
}
