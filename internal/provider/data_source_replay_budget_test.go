// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

const replayAddr = "data.queuecap_replay_budget.test"

func replayConfig(body string) string {
	return "data \"queuecap_replay_budget\" \"test\" {\n" + body + "\n}"
}

func TestReplayBudgetDataSource(t *testing.T) {
	unitTest(t,
		// MATH.md: a limit of 1,000 calls/s, 700 live, 100 retries, 2 calls
		// per job and no margin leave 200 calls/s, at most 100 jobs/s.
		resource.TestStep{
			Config: replayConfig(`downstream_limit = 1000
live_usage = 700
retry_usage = 100
calls_per_job = 2
safety_margin = 0`),
			ConfigStateChecks: expectValues(replayAddr, map[string]knownvalue.Check{
				"replay_calls_per_second": num(200),
				"replay_jobs_per_second":  num(100),
				"replay_seconds":          knownvalue.Null(),
				"dlq_depth":               knownvalue.Null(),
			}),
		},
		// The default margin keeps 100 of the 1,000 calls/s free; a job is
		// one call by default. 36,000 messages at 100 jobs/s take 360 s.
		resource.TestStep{
			Config: replayConfig(`downstream_limit = 1000
live_usage = 700
retry_usage = 100
dlq_depth = 36000`),
			ConfigStateChecks: expectValues(replayAddr, map[string]knownvalue.Check{
				"calls_per_job":           num(1),
				"safety_margin":           num(0.1),
				"replay_calls_per_second": num(100),
				"replay_jobs_per_second":  num(100),
				"replay_seconds":          num(360),
			}),
		},
		// No room: live work and retries use all the margin leaves. The read
		// warns (see TestReplayBudgetNoRoomWarning) but does not fail.
		resource.TestStep{
			Config: replayConfig(`downstream_limit = 1000
live_usage = 850
retry_usage = 50
dlq_depth = 5`),
			ConfigStateChecks: expectValues(replayAddr, map[string]knownvalue.Check{
				"replay_calls_per_second": num(0),
				"replay_jobs_per_second":  num(0),
				"replay_seconds":          knownvalue.Null(),
			}),
		},
		// An empty dead-letter queue is replayed in no time.
		resource.TestStep{
			Config: replayConfig(`downstream_limit = 10
live_usage = 0
retry_usage = 0
dlq_depth = 0`),
			ConfigStateChecks: expectValues(replayAddr, map[string]knownvalue.Check{
				"replay_jobs_per_second": num(9),
				"replay_seconds":         num(0),
			}),
		},
	)
}

// TestReplayBudgetNoRoomWarning reads the data source directly:
// terraform-plugin-testing has no check for warnings.
func TestReplayBudgetNoRoomWarning(t *testing.T) {
	cases := []struct {
		name   string
		config map[string]float64
		detail []string // nil: no warning
	}{
		{"no room", map[string]float64{"downstream_limit": 1000, "live_usage": 850, "retry_usage": 50, "dlq_depth": 5},
			[]string{"live_usage (850 calls/s)", "retry_usage (50 calls/s)", "downstream_limit (1000 calls/s)", "safety_margin (0.1 of the limit)", "replay_jobs_per_second is 0"}},
		{"over the limit", map[string]float64{"downstream_limit": 1000, "live_usage": 1200, "retry_usage": 0, "safety_margin": 0},
			[]string{"live_usage (1200 calls/s)", "retry_usage (0 calls/s)", "downstream_limit (1000 calls/s)", "safety_margin (0 of the limit)"}},
		{"room", map[string]float64{"downstream_limit": 1000, "live_usage": 700, "retry_usage": 100}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state, diags := readDataSource(t, newDataSource(capacity.ReplayBudgetFormula), tc.config)
			var jobs types.Number
			diags.Append(state.GetAttribute(t.Context(), path.Root("replay_jobs_per_second"), &jobs)...)
			if diags.HasError() {
				t.Fatalf("errors: %v", diags)
			}
			warnings := diags.Warnings()
			if tc.detail == nil {
				if len(warnings) != 0 || jobs.ValueBigFloat().Sign() == 0 {
					t.Errorf("replay_jobs_per_second = %v with warnings %v, want a rate and no warning", jobs, warnings)
				}
				return
			}
			if len(warnings) != 1 || jobs.ValueBigFloat().Sign() != 0 {
				t.Fatalf("replay_jobs_per_second = %v with warnings %v, want 0 and one warning", jobs, warnings)
			}
			if got := warnings[0].Summary(); got != "No room to replay the dead-letter queue" {
				t.Errorf("summary %q", got)
			}
			// The detail names every number the user can act on.
			for _, want := range tc.detail {
				if !strings.Contains(warnings[0].Detail(), want) {
					t.Errorf("warning detail %q does not say %q", warnings[0].Detail(), want)
				}
			}
		})
	}
}

// readDataSource calls a data source's Read with the given number
// attributes set and every other attribute null, as Terraform would after
// validation.
func readDataSource(t *testing.T, ds datasource.DataSource, config map[string]float64) (tfsdk.State, diag.Diagnostics) {
	t.Helper()
	ctx := t.Context()
	var schemaResp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &schemaResp)
	objectType, ok := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the schema's type is %T, not an object", schemaResp.Schema.Type())
	}
	values := make(map[string]tftypes.Value, len(objectType.AttributeTypes))
	for name, typ := range objectType.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
		if v, ok := config[name]; ok {
			values[name] = tftypes.NewValue(typ, big.NewFloat(v))
		}
	}
	req := datasource.ReadRequest{Config: tfsdk.Config{Schema: schemaResp.Schema, Raw: tftypes.NewValue(objectType, values)}}
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(objectType, nil)}}
	ds.Read(ctx, req, &resp)
	return resp.State, resp.Diagnostics
}

func TestReplayBudgetDataSourceInvalid(t *testing.T) {
	const valid = "downstream_limit = 1000\nlive_usage = 700\nretry_usage = 100\n"
	cases := map[string]struct{ body, err string }{
		"zero limit":            {"downstream_limit = 0\nlive_usage = 0\nretry_usage = 0", `Attribute downstream_limit value must be greater than 0, got: 0`},
		"negative live usage":   {"downstream_limit = 10\nlive_usage = -1\nretry_usage = 0", `Attribute live_usage value must be at least 0, got: -1`},
		"negative retry usage":  {"downstream_limit = 10\nlive_usage = 0\nretry_usage = -1", `Attribute retry_usage value must be at least 0, got: -1`},
		"zero calls per job":    {valid + "calls_per_job = 0", `Attribute calls_per_job value must be greater than 0, got: 0`},
		"margin above 1":        {valid + "safety_margin = 1.5", `Attribute safety_margin value must be between 0 and 1, got: 1.5`},
		"negative dlq depth":    {valid + "dlq_depth = -1", `Attribute dlq_depth value must be at least 0, got: -1`},
		"infinite limit":        {"downstream_limit = 1/0\nlive_usage = 0\nretry_usage = 0", `Attribute downstream_limit must be a finite number within the float64 range`},
		"missing live usage":    {"downstream_limit = 10\nretry_usage = 0", `The argument "live_usage" is required`},
		"replay time overflows": {"downstream_limit = 1\nlive_usage = 0\nretry_usage = 0\nsafety_margin = 0\ncalls_per_job = 1e300\ndlq_depth = 1e308", `dlq_depth makes the replay time dlq_depth / replay_jobs_per_second overflow the float64 range`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{Config: replayConfig(tc.body), ExpectError: errorWords(tc.err)})
		})
	}
}

func TestReplayBudgetDataSourceUnknownInput(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "live" {
  input = 700
}

data "queuecap_replay_budget" "test" {
  downstream_limit = 1000
  live_usage       = terraform_data.live.output
  retry_usage      = 100
  calls_per_job    = 2
  safety_margin    = 0
}

output "jobs" {
  value = data.queuecap_replay_budget.test.replay_jobs_per_second
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("jobs")},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("jobs", num(100)),
		},
	})
}
