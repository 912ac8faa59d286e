// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// TestServedSchemaMatchesCatalog compares what the provider serves
// (GetProviderSchema, as Terraform reads it) with the catalog: every
// formula is a data source whose attributes are exactly its inputs and
// outputs, with the catalog's flags, types and descriptions, and every
// catalog function is served with its parameters in order. A new input or
// output cannot reach one place and miss another.
func TestServedSchemaMatchesCatalog(t *testing.T) {
	server, err := protoV6ProviderFactories["queuecap"]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.DataSourceSchemas) != len(capacity.Formulas) {
		t.Errorf("%d data sources served, the catalog has %d formulas", len(resp.DataSourceSchemas), len(capacity.Formulas))
	}
	for _, f := range capacity.Formulas {
		s, ok := resp.DataSourceSchemas["queuecap_"+f.Name]
		if !ok {
			t.Errorf("queuecap_%s is not served", f.Name)
			continue
		}
		if s.Block.Description != f.Description {
			t.Errorf("queuecap_%s description differs from the catalog's", f.Name)
		}
		served := map[string]*tfprotov6.SchemaAttribute{}
		for _, a := range s.Block.Attributes {
			served[a.Name] = a
		}
		if len(served) != len(f.Inputs)+len(f.Outputs) {
			t.Errorf("queuecap_%s serves %d attributes, the catalog declares %d inputs and %d outputs", f.Name, len(served), len(f.Inputs), len(f.Outputs))
		}
		for _, in := range f.Inputs {
			a := served[in.Name]
			if a == nil {
				t.Errorf("queuecap_%s.%s: input not served", f.Name, in.Name)
				continue
			}
			wantComputed := !in.Required && (in.Default != nil || in.Computed)
			if a.Required != in.Required || a.Optional == in.Required || a.Computed != wantComputed {
				t.Errorf("queuecap_%s.%s: required %v optional %v computed %v, catalog required %v computed %v",
					f.Name, in.Name, a.Required, a.Optional, a.Computed, in.Required, wantComputed)
			}
			if a.Description != in.Doc() {
				t.Errorf("queuecap_%s.%s: description %q, catalog %q", f.Name, in.Name, a.Description, in.Doc())
			}
			if !a.ValueType().Equal(tfType(in.Type)) {
				t.Errorf("queuecap_%s.%s: type %s, catalog %s", f.Name, in.Name, a.ValueType(), tfType(in.Type))
			}
			if in.Default != nil && !strings.Contains(a.Description, "efault `") {
				t.Errorf("queuecap_%s.%s: description does not state its default: %q", f.Name, in.Name, a.Description)
			}
		}
		for _, out := range f.Outputs {
			a := served[out.Name]
			if a == nil {
				t.Errorf("queuecap_%s.%s: output not served", f.Name, out.Name)
				continue
			}
			if !a.Computed || a.Optional || a.Required || a.Description != out.Description {
				t.Errorf("queuecap_%s.%s: not a computed output with the catalog's description", f.Name, out.Name)
			}
			if got := servedType(a); !got.Equal(tfType(out.Type)) {
				t.Errorf("queuecap_%s.%s: type %s, catalog %s", f.Name, out.Name, got, tfType(out.Type))
			}
		}
	}
	if len(resp.Functions) != len(capacity.Functions) {
		t.Errorf("%d functions served, the catalog has %d", len(resp.Functions), len(capacity.Functions))
	}
	for _, fn := range capacity.Functions {
		served, ok := resp.Functions[fn.Name]
		if !ok {
			t.Errorf("function %s is not served", fn.Name)
			continue
		}
		if served.Summary != fn.Summary || served.Description != fn.Description {
			t.Errorf("function %s: summary or description differs from the catalog's", fn.Name)
		}
		if fn.Object != nil {
			want := tfType(fn.Object.ObjectType())
			if len(served.Parameters) != 1 || !served.Return.Type.Equal(want) {
				t.Errorf("function %s: parameters %d, return %s; want one object in and %s out", fn.Name, len(served.Parameters), served.Return.Type, want)
			}
			continue
		}
		var names []string
		for i, p := range served.Parameters {
			names = append(names, p.Name)
			if i < len(fn.Params) && (p.Description != fn.Params[i].Doc() || !p.AllowUnknownValues) {
				t.Errorf("function %s parameter %s: description or unknown handling differs from the catalog", fn.Name, p.Name)
			}
		}
		want := make([]string, len(fn.Params))
		for i, p := range fn.Params {
			want[i] = p.Name
		}
		if !slices.Equal(names, want) {
			t.Errorf("function %s parameters %v, catalog %v", fn.Name, names, want)
		}
		if !served.Return.Type.Equal(tftypes.Number) {
			t.Errorf("function %s returns %s, want a number", fn.Name, served.Return.Type)
		}
	}
}

// servedType is an attribute's type, nested attributes included.
func servedType(a *tfprotov6.SchemaAttribute) tftypes.Type {
	if a.NestedType == nil {
		return a.ValueType()
	}
	attrs := map[string]tftypes.Type{}
	for _, n := range a.NestedType.Attributes {
		attrs[n.Name] = servedType(n)
	}
	obj := tftypes.Object{AttributeTypes: attrs}
	if a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeList {
		return tftypes.List{ElementType: obj}
	}
	return obj
}

// TestOutputsAreDecimalClean: 32 / 25 − 1 is 0.28000000000000003 in
// float64; it leaves the provider as 0.28, so HCL arithmetic over it is
// exact: overhead × 100 is 28, not 28.000000000000002665….
func TestOutputsAreDecimalClean(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `data "queuecap_consumers" "seed" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}

data "queuecap_drain" "thirds" {
  backlog         = 1
  arrival_rate    = 0.1
  completion_rate = 0.4
}

output "overhead_percent" {
  value = data.queuecap_consumers.seed.overhead * 100
}

output "net_rate_is_0_3" {
  value = data.queuecap_drain.thirds.net_rate == 0.3
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.queuecap_consumers.seed", tfjsonpath.New("overhead"), knownvalue.Float64Exact(0.28)),
			statecheck.ExpectKnownValue("data.queuecap_consumers.seed", tfjsonpath.New("drain_seconds"), knownvalue.Float64Exact(1785.71428571429)),
			statecheck.ExpectKnownOutputValue("overhead_percent", knownvalue.Int64Exact(28)),
			statecheck.ExpectKnownOutputValue("net_rate_is_0_3", knownvalue.Bool(true)),
		},
	})
}

// TestZeroSurplusWarning: a sizing whose required fleet has no surplus
// (no backlog, no headroom, λ/μ a whole number) warns at plan, saying how
// to ask for a fleet that drains; one with a surplus does not.
func TestZeroSurplusWarning(t *testing.T) {
	cases := []struct {
		name   string
		config map[string]float64
		warns  bool
	}{
		{"steady state only", map[string]float64{"arrival_rate": 10000, "per_consumer_rate": 400}, true},
		{"λ/μ not whole", map[string]float64{"arrival_rate": 10001, "per_consumer_rate": 400}, false},
		{"with a backlog", map[string]float64{"arrival_rate": 10000, "per_consumer_rate": 400, "max_backlog": 5e6, "rto_seconds": 1800}, false},
		{"with headroom", map[string]float64{"arrival_rate": 10000, "per_consumer_rate": 400, "min_headroom": 0.2}, false},
		{"no arrivals", map[string]float64{"arrival_rate": 0, "per_consumer_rate": 400}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state, diags := readDataSource(t, newDataSource(capacity.Consumers), tc.config)
			var required types.Number
			diags.Append(state.GetAttribute(t.Context(), path.Root("required_consumers"), &required)...)
			if diags.HasError() {
				t.Fatalf("errors: %v", diags)
			}
			warnings := diags.Warnings()
			if !tc.warns {
				if len(warnings) != 0 {
					t.Errorf("warnings %v, want none", warnings)
				}
				return
			}
			if len(warnings) != 1 {
				t.Fatalf("warnings %v, want one", warnings)
			}
			detail := warnings[0].Detail()
			for _, want := range []string{"required_consumers = 25", "25 × 400 msg/s = 10000 msg/s", "never drains", "max_backlog and rto_seconds", "min_headroom = 0.2 gives 30 consumers"} {
				if !strings.Contains(detail, want) {
					t.Errorf("warning %q does not say %q", detail, want)
				}
			}
		})
	}
}

// TestUnitMistakeWarnings: a sizing whose inputs probably carry the wrong
// unit warns at plan, naming the input and what it is in seconds; the
// newcomer's scenario (2,500 msg/s, 90 msg/s per worker, RTO 15 meant as
// minutes) sized 2,250 consumers without a word.
func TestUnitMistakeWarnings(t *testing.T) {
	cases := []struct {
		name   string
		config map[string]float64
		want   []string
	}{
		{"an RTO in minutes", map[string]float64{"arrival_rate": 2500, "per_consumer_rate": 90, "max_backlog": 3e6, "rto_seconds": 15},
			[]string{"required_consumers = 2,250 is 80.4 times the steady state's 28", "if 15 was meant as minutes, write 900, which needs 65 consumers"}},
		{"an RTO shorter than a message", map[string]float64{"arrival_rate": 1, "per_consumer_rate": 0.05, "max_backlog": 10, "rto_seconds": 15},
			[]string{"rto_seconds = 15 s, but one consumer takes 1 / per_consumer_rate = 20 s for one message"}},
		{"the newcomer's scenario in seconds", map[string]float64{"arrival_rate": 2500, "per_consumer_rate": 90, "max_backlog": 3e6, "rto_seconds": 900}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := readDataSource(t, newDataSource(capacity.Consumers), tc.config)
			if diags.HasError() {
				t.Fatalf("errors: %v", diags)
			}
			var details []string
			for _, w := range diags.Warnings() {
				details = append(details, w.Detail())
			}
			all := strings.Join(details, "\n")
			if tc.want == nil && len(details) != 0 {
				t.Errorf("warnings %q, want none", details)
			}
			for _, want := range tc.want {
				if !strings.Contains(all, want) {
					t.Errorf("warnings %q do not say %q", details, want)
				}
			}
		})
	}
}

// TestWholeNumberInputs: counts and whole seconds that are not whole, or
// beyond what a float64 counts exactly, fail at plan with the attribute
// and a reason (not a framework conversion error naming a Go type).
func TestWholeNumberInputs(t *testing.T) {
	cases := map[string]struct{ config, err string }{
		"fractional consumers": {`data "queuecap_drain" "x" {
  backlog           = 1
  arrival_rate      = 1
  consumers         = 2.5
  per_consumer_rate = 1
}`, `Attribute consumers must be a whole number, got: 2.5`},
		"fractional max_seconds": {`data "queuecap_retry_storm" "x" {
  arrival_rate        = 1
  per_consumer_rate   = 1
  consumers           = 2
  backlog             = 1
  retries_per_timeout = 0
  max_seconds         = 100.5
}`, `Attribute max_seconds must be a whole number, got: 100.5`},
		"consumers beyond 2^53": {`data "queuecap_retry_storm" "x" {
  arrival_rate        = 1
  per_consumer_rate   = 1
  consumers           = 1e19
  backlog             = 1
  retries_per_timeout = 0
}`, `Attribute consumers value must be at most 9007199254740992 (2^53, the largest count a float64 holds exactly), got: 10000000000000000000`},
		"exact integer beyond 2^53": {`data "queuecap_drain" "x" {
  backlog           = 1
  arrival_rate      = 1
  consumers         = 9007199254740993
  per_consumer_rate = 1
}`, `got: 9007199254740993`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{Config: tc.config, ExpectError: errorWords(tc.err)})
		})
	}
}

// TestCapacityPlanInputForms: capacity_plan accepts what the data source
// accepts (numbers as strings, a map), and its errors name the argument in
// Terraform's words, never a Go type.
func TestCapacityPlanInputForms(t *testing.T) {
	for _, call := range []string{
		`capacity_plan({ arrival_rate = "10000", per_consumer_rate = "400", max_backlog = "5e6", rto_seconds = 1800 }).required_consumers`,
		`capacity_plan(tomap({ arrival_rate = 10000, per_consumer_rate = 400, max_backlog = 5e6, rto_seconds = 1800 })).required_consumers`,
		`capacity_plan({ arrival_rate = 10000, per_consumer_rate = " 400 ", max_backlog = 5e6, rto_seconds = 1800 }).required_consumers`,
	} {
		t.Run(call, func(t *testing.T) {
			functionTest(t, resource.TestStep{Config: outputCall(call), ConfigStateChecks: expectOutput(knownvalue.Int64Exact(32))})
		})
	}
	for call, want := range map[string]string{
		`capacity_plan({ arrival_rate = true, per_consumer_rate = 400 })`:                                        `inputs.arrival_rate must be a number, got a bool`,
		`capacity_plan({ arrival_rate = "ten", per_consumer_rate = 400 })`:                                       `inputs.arrival_rate must be a number, got the string "ten"`,
		`capacity_plan({ arrival_rate = 2500, per_consumer_rate = 90, max_backlog = 3e6, rto_seconds = "15m" })`: `inputs.rto_seconds must be a number of seconds, got the string "15m": write 900`,
		`capacity_plan({ arrival_rate = [1], per_consumer_rate = 400 })`:                                         `inputs.arrival_rate must be a number, got a tuple`,
		`capacity_plan("10000")`: `inputs must be an object or a map of queuecap_consumers arguments, got a string`,
		`capacity_plan({ arrival_rate = 10000, per_consumer_rate = 2.5e-400 })`: `inputs.per_consumer_rate must be a finite number within the float64 range`,
	} {
		t.Run(call, func(t *testing.T) {
			functionTest(t, resource.TestStep{Config: outputCall(call), ExpectError: errorWords(want)})
		})
	}
}

// TestFunctionsValidateKnownArgumentsBesideUnknownOnes: a call with an
// argument known only after apply still fails at plan for a known one that
// is out of range, naming it, as the data source does.
func TestFunctionsValidateKnownArgumentsBesideUnknownOnes(t *testing.T) {
	for call, want := range map[string]string{
		"required_consumers(terraform_data.n.output, 0, 5e6, 1800)":                                         `Invalid value for "per_consumer_rate" parameter: per_consumer_rate value must be greater than 0, got: 0`,
		"surplus(terraform_data.n.output, 400, 2.5)":                                                        `Invalid value for "consumers" parameter: consumers must be a whole number, got: 2.5`,
		"capacity_plan({ arrival_rate = terraform_data.n.output, per_consumer_rate = -1 })":                 `inputs.per_consumer_rate value must be greater than 0, got: -1`,
		"capacity_plan({ arrival_rate = terraform_data.n.output, per_consumer_rate = 1, max_backlog = 5 })": `inputs.rto_seconds is required when max_backlog is greater than 0`,
	} {
		t.Run(call, func(t *testing.T) {
			functionTest(t, resource.TestStep{
				Config:      "resource \"terraform_data\" \"n\" {\n  input = 32\n}\n\n" + outputCall(call),
				ExpectError: errorWords(want),
			})
		})
	}
}
