// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"math"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

func TestAWSLimitsEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range capacity.DefaultAWSLimits().Entries() {
		t.Run(e.Name, func(t *testing.T) {
			if !snakeCase.MatchString(e.Name) {
				t.Errorf("name %q is not snake_case", e.Name)
			}
			if seen[e.Name] {
				t.Errorf("name %q appears twice", e.Name)
			}
			seen[e.Name] = true
			u, err := url.Parse(e.Source)
			if err != nil || u.Scheme != "https" || (u.Host != "docs.aws.amazon.com" && u.Host != "aws.amazon.com") {
				t.Errorf("source %q is not an https page on docs.aws.amazon.com or aws.amazon.com", e.Source)
			}
			if _, err := time.Parse(time.DateOnly, e.Checked); err != nil {
				t.Errorf("checked %q is not a date: %v", e.Checked, err)
			}
			for field, v := range map[string]string{"unit": e.Unit, "meaning": e.Meaning, "quote": e.Quote} {
				if strings.TrimSpace(v) == "" {
					t.Errorf("%s is empty", field)
				}
			}
			if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) || !e.Range.Contains(e.Value) {
				t.Errorf("value %v is outside its own override range (%s)", e.Value, e.Range.Rule())
			}
			for region, v := range e.ByRegion {
				if !e.Range.Contains(v) {
					t.Errorf("value %v in %s is outside the override range (%s)", v, region, e.Range.Rule())
				}
			}
			if e.Overridden {
				t.Error("a published entry is marked overridden")
			}
			got, ok := capacity.AWSLimit(e.Name)
			if !ok || got.Value != e.Value || got.Source != e.Source {
				t.Errorf("AWSLimit(%q) = %+v, %v; want the table's entry", e.Name, got, ok)
			}
		})
	}
	if _, ok := capacity.AWSLimit("no_such_limit"); ok {
		t.Error("AWSLimit found a name the table does not hold")
	}
}

// The table is a copy: changing what Entries or Limit returned does not
// change the table.
func TestAWSLimitsAreCopies(t *testing.T) {
	const name = "sqs_fifo_high_throughput_transactions_per_second"
	limits := capacity.DefaultAWSLimits()
	e, _ := limits.Limit(name)
	e.ByRegion["us-east-1"] = 1
	limits.Entries()[0].Value = -1
	if got, _ := limits.Limit(name); got.In("us-east-1") != 70000 {
		t.Errorf("us-east-1 = %v after changing a copy, want 70000", got.In("us-east-1"))
	}
	if got := limits.Entries()[0].Value; got < 0 {
		t.Errorf("first entry = %v after changing a copy", got)
	}
}

func TestAWSLimitsRegional(t *testing.T) {
	e, ok := capacity.AWSLimit("sqs_fifo_high_throughput_transactions_per_second")
	if !ok {
		t.Fatal("no sqs_fifo_high_throughput_transactions_per_second")
	}
	for region, want := range map[string]float64{
		"us-east-1": 70000, "us-west-2": 70000, "eu-west-1": 70000,
		"us-east-2": 19000, "eu-central-1": 19000,
		"ap-south-1": 300, // not verified: the non-high-throughput floor
	} {
		if got := e.In(region); got != want {
			t.Errorf("In(%q) = %v, want %v", region, got, want)
		}
	}
}

func TestAWSLimitsWithOverrides(t *testing.T) {
	limits := capacity.DefaultAWSLimits()
	got, err := limits.WithOverrides(map[string]float64{
		"lambda_sqs_standard_ramp_per_minute":                          60,
		"sqs_fifo_high_throughput_transactions_per_second[ap-south-1]": 9000,
		"sqs_fifo_high_throughput_transactions_per_second[us-east-1]":  80000,
		"asg_instance_refresh_min_healthy_percentage_default":          0,
		"sqs_fifo_high_throughput_transactions_per_second":             2400,
		"lambda_managed_instances_per_environment_max_concurrency_max": 64,
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name, region string, want float64) {
		t.Helper()
		e, _ := got.Limit(name)
		if v := e.In(region); v != want || !e.Overridden {
			t.Errorf("%s in %q = %v (overridden %v), want %v, overridden", name, region, v, e.Overridden, want)
		}
	}
	check("lambda_sqs_standard_ramp_per_minute", "", 60)
	check("asg_instance_refresh_min_healthy_percentage_default", "", 0)
	check("sqs_fifo_high_throughput_transactions_per_second", "ap-south-1", 9000)
	check("sqs_fifo_high_throughput_transactions_per_second", "us-east-1", 80000)
	check("sqs_fifo_high_throughput_transactions_per_second", "sa-east-1", 2400)
	check("sqs_fifo_high_throughput_transactions_per_second", "us-east-2", 19000)
	if e, _ := got.Limit("sqs_batch_max_messages"); e.Overridden {
		t.Error("an entry no override names is marked overridden")
	}
	// The table overridden from is unchanged.
	if e, _ := limits.Limit("sqs_fifo_high_throughput_transactions_per_second"); e.In("us-east-1") != 70000 || e.In("ap-south-1") != 300 || e.Overridden {
		t.Errorf("overriding changed the original table: %+v", e)
	}

	for _, tc := range []struct {
		name      string
		overrides map[string]float64
		wantField string
		want      string // in the message
	}{
		{"misspelt name", map[string]float64{"lambda_sqs_standard_ramp_per_minut": 60}, "lambda_sqs_standard_ramp_per_minut", `did you mean "lambda_sqs_standard_ramp_per_minute"?`},
		{"transposed words", map[string]float64{"sqs_fifo_transaction_per_second": 300}, "sqs_fifo_transaction_per_second", `did you mean "sqs_fifo_transactions_per_second"?`},
		{"nothing close", map[string]float64{"colour": 1}, "colour", "is not a published AWS limit"},
		{"NaN", map[string]float64{"lambda_sqs_standard_ramp_per_minute": math.NaN()}, "lambda_sqs_standard_ramp_per_minute", "must be a finite number, got: NaN"},
		{"+Inf", map[string]float64{"lambda_sqs_standard_max_concurrency": math.Inf(1)}, "lambda_sqs_standard_max_concurrency", "must be a finite number, got: +Inf"},
		{"-Inf", map[string]float64{"sqs_visibility_timeout_default_seconds": math.Inf(-1)}, "sqs_visibility_timeout_default_seconds", "must be a finite number, got: -Inf"},
		{"negative", map[string]float64{"sqs_visibility_timeout_default_seconds": -30}, "sqs_visibility_timeout_default_seconds", "value must be at least 0 (seconds), got: -30"},
		{"zero ramp", map[string]float64{"lambda_sqs_standard_ramp_per_minute": 0}, "lambda_sqs_standard_ramp_per_minute", "value must be greater than 0"},
		{"percent over 100", map[string]float64{"asg_instance_refresh_min_healthy_percentage_default": 110}, "asg_instance_refresh_min_healthy_percentage_default", "value must be between 0 and 100 (percent), got: 110"},
		{"negative in a region", map[string]float64{"sqs_fifo_high_throughput_transactions_per_second[us-east-1]": -1}, "sqs_fifo_high_throughput_transactions_per_second[us-east-1]", "value must be greater than 0"},
		{"region on a flat entry", map[string]float64{"sqs_batch_max_messages[us-east-1]": 10}, "sqs_batch_max_messages[us-east-1]", "does not differ by Region"},
		{"not a region", map[string]float64{"sqs_fifo_high_throughput_transactions_per_second[Virginia]": 10}, "sqs_fifo_high_throughput_transactions_per_second[Virginia]", "not an AWS Region code"},
		{"unclosed bracket", map[string]float64{"sqs_fifo_high_throughput_transactions_per_second[us-east-1": 10}, "sqs_fifo_high_throughput_transactions_per_second[us-east-1", "is not name or name[region]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := limits.WithOverrides(tc.overrides)
			var ie *capacity.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			if ie.Field != tc.wantField || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q (field %q), want field %q and %q", err, ie.Field, tc.wantField, tc.want)
			}
		})
	}
}

// TestAWSLimitsMarkdown holds the table's rendering to its shape; the
// docs page that shows it (docs/aws-limits.md) is checked byte for byte
// by cmd/queuecap's TestGeneratedDocs.
func TestAWSLimitsMarkdown(t *testing.T) {
	got := capacity.DefaultAWSLimits().Markdown()
	// One row per entry and per Region of a regional entry, besides the
	// header and its rule: a cell holding '|' would add columns.
	rows := 2
	for _, e := range capacity.DefaultAWSLimits().Entries() {
		rows += 1 + len(e.ByRegion)
	}
	table, rest, _ := strings.Cut(got, "\n\n")
	lines := strings.Split(table, "\n")
	if len(lines) != rows {
		t.Errorf("%d lines, want %d", len(lines), rows)
	}
	for _, line := range lines {
		if n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|"); n != 7 {
			t.Errorf("%d cell separators, want 7: %s", n, line)
		}
	}
	// Below the table, what it leaves out for want of a page that says it.
	for _, u := range capacity.AWSLimitsUnverified() {
		if !strings.Contains(rest, u.What) {
			t.Errorf("the docs do not list the unverified %q", u.What)
		}
	}
}

func TestAWSLimitsUnverified(t *testing.T) {
	unverified := capacity.AWSLimitsUnverified()
	if len(unverified) == 0 {
		t.Fatal("no unverified numbers listed: the docs would claim every number AWS publishes was read")
	}
	for _, u := range unverified {
		if strings.TrimSpace(u.What) == "" {
			t.Error("an unverified number says nothing")
		}
		if h, err := url.Parse(u.Source); err != nil || h.Host != "docs.aws.amazon.com" {
			t.Errorf("%q: source %q is not an AWS documentation page", u.What, u.Source)
		}
	}
}

// The numbers MATH.md's sections on the ramp, deployments and batch
// failures take from AWS are in the table, and the worked arithmetic they
// feed comes out as the reference says.
func TestAWSLimitsBehindTheWorkedExamples(t *testing.T) {
	v := func(name string) float64 {
		t.Helper()
		e, ok := capacity.AWSLimit(name)
		if !ok {
			t.Fatalf("%s is not in the table", name)
		}
		return e.Value
	}
	// Scale-out ramp, standard mode: from 5 invocations, 300 more a minute
	// (r = 5 per second), up to 1,250: the ramp lasts τ = (1250 − 5)/5 s.
	r := v("lambda_sqs_standard_ramp_per_minute") / 60
	if tau := (v("lambda_sqs_standard_max_concurrency") - v("lambda_sqs_standard_initial_concurrency")) / r; tau != 249 {
		t.Errorf("standard-mode ramp τ = %v s, want 249", tau)
	}
	// Provisioned mode is faster, bounded by pollers: 1,000 a minute, and
	// the minimum pollers already drive 2 × 10 invocations.
	if v("lambda_sqs_provisioned_ramp_per_minute") <= v("lambda_sqs_standard_ramp_per_minute") {
		t.Error("provisioned mode does not ramp faster than standard mode")
	}
	if got := v("lambda_sqs_minimum_pollers_default") * v("lambda_sqs_poller_concurrent_invocations"); got != 20 {
		t.Errorf("default minimum pollers drive %v invocations, want 20", got)
	}
	// Capacity during a deployment, headroom fleet of 32: an instance
	// refresh at its defaults (90 %, terminate first) keeps ceil(0.9 × 32)
	// = 29 in service; an ECS rolling update at its defaults keeps all 32.
	if got := math.Ceil(v("asg_instance_refresh_min_healthy_percentage_default") / 100 * 32); got != 29 {
		t.Errorf("instance refresh keeps %v of 32, want 29", got)
	}
	if v("asg_instance_refresh_max_healthy_percentage_default") > 100 {
		t.Error("the default instance refresh launches before it terminates")
	}
	if got := math.Ceil(v("ecs_deployment_minimum_healthy_percent_default") / 100 * 32); got != 32 {
		t.Errorf("ECS rolling update keeps %v of 32, want 32", got)
	}
	// Batch retry amplification: the worked example's b = 10 is Lambda's
	// default batch size and a FIFO queue's largest.
	if v("lambda_sqs_batch_size_default") != 10 || v("lambda_sqs_batch_size_max_fifo") != 10 {
		t.Error("b = 10 is not Lambda's default and FIFO batch size")
	}
	// queuecap_visibility_timeout_too_short: six times the function's
	// timeout.
	if v("lambda_sqs_visibility_timeout_multiple") != 6 {
		t.Error("the visibility timeout multiple is not 6")
	}
	// SQS FIFO: 3,000 messages a second are 300 calls of 10.
	if v("sqs_fifo_batched_messages_per_second") != v("sqs_fifo_transactions_per_second")*v("sqs_batch_max_messages") {
		t.Error("batched FIFO throughput is not 300 calls of 10 messages")
	}
}
