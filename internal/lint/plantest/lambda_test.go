// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanLambdaCeiling: provisioned_poller_config is read from the plan's
// planned values alone (no configuration directory), where the variables
// that set the pollers are known: maximum_pollers 20 × 10 bounds the bulk
// loader, standard mode's ramp misses the exports' RTO, and the
// thumbnails mapping keeps maximum_concurrency beside its pollers.
func TestPlanLambdaCeiling(t *testing.T) {
	dir := "testdata/lambda_ceiling"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		res := lintPlan(t, testaws.Plan(t, cli.Path, dir), t.TempDir())
		var got []string
		for _, is := range res.Issues {
			got = append(got, is.Rule+" "+is.Address)
		}
		slices.Sort(got)
		want := []string{
			"queuecap_conflicting_concurrency aws_lambda_event_source_mapping.thumbnails",
			"queuecap_unreachable_within_rto aws_lambda_event_source_mapping.exports",
			"queuecap_zero_surplus aws_lambda_event_source_mapping.bulk",
		}
		if !slices.Equal(got, want) {
			t.Fatalf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, is := range res.Issues {
			f := is.FactMap()
			switch is.Rule {
			case "queuecap_zero_surplus":
				if f["max_consumers"] != 200 || !strings.HasPrefix(is.Message, "(maximum_pollers 20 × 10 = 200 concurrent invokes) × 10 msg/s") {
					t.Errorf("bulk: facts %v, message %q; want maximum_pollers 20 × 10 = 200", f, is.Message)
				}
			case "queuecap_unreachable_within_rto":
				if f["max_consumers"] != 1250 || f["ramp_seconds"] != 230 || f["drain_seconds"] != 428.04347826087 {
					t.Errorf("exports: facts %v; want standard mode's 1,250, reached at 230 s, clearing at 428.04 s", f)
				}
			case "queuecap_conflicting_concurrency":
				if f["maximum_concurrency"] != 100 || !strings.Contains(is.Message, "maximum_pollers 20 × 10 = 200 concurrent invokes") {
					t.Errorf("thumbnails: facts %v, message %q", f, is.Message)
				}
			}
		}
	})
}
