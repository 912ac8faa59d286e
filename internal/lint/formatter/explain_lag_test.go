// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// The text explanation writes a consumer's provisioning lag, known or not,
// and its warmup settings, a line each, naming another resource's.
func TestExplainTextLag(t *testing.T) {
	r := rng("main.tf", 7, 3, 7, 20)
	sixty := 60.0
	cases := []struct {
		name string
		c    model.ConsumerExplanation
		want string
	}{
		{
			name: "a bound and the warmup",
			c: model.ConsumerExplanation{Address: "aws_autoscaling_group.g",
				ProvisioningLag: &model.LagExplanation{Seconds: &sixty, Why: "one 60 s period", Range: r},
				Warmup: []model.WarmupExplanation{
					{Attribute: "default_instance_warmup", Address: "aws_autoscaling_group.g", Value: &sixty, Range: r},
					{Attribute: "warm_pool", Address: "aws_autoscaling_group.g", Range: r},
					{Attribute: "warm_pool.pool_state", Address: "aws_autoscaling_group.g", Text: "Stopped", Range: r},
					{Attribute: "estimated_instance_warmup", Address: "aws_autoscaling_policy.p", Range: r},
				}},
			want: "      provisioning lag: at least 60 s: one 60 s period (main.tf:7)\n" +
				"      warmup, not counted in the lag: default_instance_warmup = 60 (main.tf:7)\n" +
				"      warmup, not counted in the lag: warm_pool (main.tf:7)\n" +
				"      warmup, not counted in the lag: warm_pool.pool_state = Stopped (main.tf:7)\n" +
				"      warmup, not counted in the lag: estimated_instance_warmup = unknown of aws_autoscaling_policy.p (main.tf:7)\n",
		},
		{
			name: "a bound not known",
			c: model.ConsumerExplanation{Address: "aws_autoscaling_group.g",
				ProvisioningLag: &model.LagExplanation{Why: "period of aws_cloudwatch_metric_alarm.a is not known before apply", Range: r}},
			want: "      provisioning lag: not known: period of aws_cloudwatch_metric_alarm.a is not known before apply (main.tf:7)\n",
		},
		{
			name: "neither",
			c:    model.ConsumerExplanation{Address: "aws_autoscaling_group.g"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			writeLagText(&b, c.c)
			if b.String() != c.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), c.want)
			}
		})
	}
}
