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

// TestFunctionDataSourceParity checks, through the real CLI, that each
// function returns exactly (HCL number equality, which is exact) what its
// data source returns for the same inputs, nulls included.
func TestFunctionDataSourceParity(t *testing.T) {
	type pair struct {
		dataSource, body, attr string // the data source, its arguments, the attribute to compare
		call                   string // the function call
	}
	pairs := []pair{
		{"queuecap_consumers", "arrival_rate = 10000\nper_consumer_rate = 1\nretry_rate = 0.2\navg_retries = 2", "effective_arrival_rate", "effective_arrival_rate(10000, 0.2, 2)"},
		{"queuecap_consumers", "arrival_rate = 0.3\nper_consumer_rate = 1\nretry_rate = 1\navg_retries = 0.1", "effective_arrival_rate", "effective_arrival_rate(0.3, 1, 0.1)"},
		{"queuecap_drain", "backlog = 0\narrival_rate = 10000\nconsumers = 32\nper_consumer_rate = 400", "net_rate", "surplus(10000, 400, 32)"},
		{"queuecap_drain", "backlog = 0\narrival_rate = 10000\nconsumers = 25\nper_consumer_rate = 400", "net_rate", "surplus(10000, 400, 25)"},
		{"queuecap_drain", "backlog = 0\narrival_rate = 0.3\nconsumers = 3\nper_consumer_rate = 0.1", "net_rate", "surplus(0.3, 0.1, 3)"},
		{"queuecap_drain", "backlog = 0\narrival_rate = 1\nconsumers = 0\nper_consumer_rate = 5", "net_rate", "surplus(1, 5, 0)"},
		{"queuecap_drain", "backlog = 180000\narrival_rate = 800\ncompletion_rate = 1000", "drain_seconds", "drain_seconds(800, 1000, 180000)"},
		{"queuecap_drain", "backlog = 180000\narrival_rate = 1200\ncompletion_rate = 1000", "drain_seconds", "drain_seconds(1200, 1000, 180000)"},
		{"queuecap_drain", "backlog = 380000\narrival_rate = 380\ncompletion_rate = 520", "drain_seconds", "drain_seconds(380, 520, 380000)"},
		{"queuecap_drain", "backlog = 1e12\narrival_rate = 1\ncompletion_rate = 3", "drain_seconds", "drain_seconds(1, 3, 1e12)"},
		{"queuecap_consumers", "arrival_rate = 10000\nper_consumer_rate = 400\nmax_backlog = 5000000\nrto_seconds = 1800", "required_consumers", "required_consumers(10000, 400, 5000000, 1800)"},
		{"queuecap_consumers", "arrival_rate = 0.3\nper_consumer_rate = 0.1\nmax_backlog = 0\nrto_seconds = 1", "required_consumers", "required_consumers(0.3, 0.1, 0, 1)"},
		{"queuecap_consumers", "arrival_rate = 1e7\nper_consumer_rate = 1\nmax_backlog = 1\nrto_seconds = 1e6", "required_consumers", "required_consumers(1e7, 1, 1, 1e6)"},
		{"queuecap_sla_depth", "arrival_rate = 5000\nsla_seconds = 10", "max_depth", "sla_max_depth(5000, 10)"},
		{"queuecap_sla_depth", "arrival_rate = 0.1\nsla_seconds = 3", "max_depth", "sla_max_depth(0.1, 3)"},
		{"queuecap_ttl_backlog", "arrival_rate = 10000\nincident_seconds = 3600\nttl_seconds = 600", "ttl_bounded_backlog", "ttl_bounded_backlog(10000, 3600, 600, 0)"},
		{"queuecap_ttl_backlog", "arrival_rate = 1200\nincident_seconds = 900\nttl_seconds = 86400\ndegraded_completion_rate = 1000", "ttl_bounded_backlog", "ttl_bounded_backlog(1200, 900, 86400, 1000)"},
		{"queuecap_ttl_backlog", "arrival_rate = 500\nincident_seconds = 3600\nttl_seconds = 60\ndegraded_completion_rate = 800", "ttl_bounded_backlog", "ttl_bounded_backlog(500, 3600, 60, 800)"},
		{"queuecap_alarm_thresholds", "arrival_rate = 1\nsla_seconds = 10\nper_consumer_rate = 10\nrto_seconds = 60", "backlog_per_consumer_target", "backlog_per_consumer_target(10, 10)"},
		{"queuecap_alarm_thresholds", "arrival_rate = 1\nsla_seconds = 0.5\nper_consumer_rate = 333.3\nrto_seconds = 60", "backlog_per_consumer_target", "backlog_per_consumer_target(333.3, 0.5)"},
		{"queuecap_retry_storm", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 32\nbacklog = 3600000\nretries_per_timeout = 1.5\nrto_seconds = 36000", "min_consumers_to_drain_within_rto", "min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 36000)"},
		{"queuecap_retry_storm", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 25\nbacklog = 3600000\nretries_per_timeout = 0\nrto_seconds = 36000", "min_consumers_to_drain_within_rto", "min_consumers_to_drain(10000, 400, 3600000, 0, 30, 36000)"},
		// The same RTO question, asked both ways, gets one answer (30).
		{"queuecap_retry_storm", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 25\nbacklog = 3600000\nretries_per_timeout = 0\nrto_seconds = 1800", "min_consumers_to_drain_within_rto", "min_consumers_to_drain(10000, 400, 3600000, 0, 30, 1800)"},
		{"queuecap_retry_storm", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 25\nbacklog = 3600000\nretries_per_timeout = 1.5\nrto_seconds = 1800", "min_consumers_to_drain_within_rto", "min_consumers_to_drain(10000, 400, 3600000, 1.5, 30, 1800)"},
		{"queuecap_retry_storm", "arrival_rate = 3\nper_consumer_rate = 2\nconsumers = 0\nbacklog = 50\nretries_per_timeout = 2\ntimeout_window_seconds = 5\nrto_seconds = 100", "min_consumers_to_drain_within_rto", "min_consumers_to_drain(3, 2, 50, 2, 5, 100)"},
		{"queuecap_retry_storm", "arrival_rate = 0\nper_consumer_rate = 1\nconsumers = 0\nbacklog = 0\nretries_per_timeout = 0\nrto_seconds = 36000", "min_consumers_to_drain_within_rto", "min_consumers_to_drain(0, 1, 0, 0, 30, 36000)"},
		{"queuecap_wait_time", "arrival_rate = 2\nper_consumer_rate = 1\nconsumers = 3", "percentile_wait_seconds", "percentile_wait_seconds(2, 1, 3, 0.99)"},
		{"queuecap_wait_time", "arrival_rate = 10\nper_consumer_rate = 1\nconsumers = 11\npercentile = 0.95", "percentile_wait_seconds", "percentile_wait_seconds(10, 1, 11, 0.95)"},
		{"queuecap_wait_time", "arrival_rate = 99000\nper_consumer_rate = 1\nconsumers = 100000\npercentile = 0.9999", "percentile_wait_seconds", "percentile_wait_seconds(99000, 1, 100000, 0.9999)"},
		{"queuecap_wait_time", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 25", "percentile_wait_seconds", "percentile_wait_seconds(10000, 400, 25, 0.99)"},
		{"queuecap_replay_budget", "downstream_limit = 1000\nlive_usage = 700\nretry_usage = 100\ncalls_per_job = 2\nsafety_margin = 0", "replay_jobs_per_second", "replay_jobs_per_second(1000, 700, 100, 2, 0)"},
		{"queuecap_replay_budget", "downstream_limit = 1000\nlive_usage = 333.3\nretry_usage = 0.1", "replay_jobs_per_second", "replay_jobs_per_second(1000, 333.3, 0.1, 1, 0.1)"},
		{"queuecap_replay_budget", "downstream_limit = 1000\nlive_usage = 850\nretry_usage = 50", "replay_jobs_per_second", "replay_jobs_per_second(1000, 850, 50, 1, 0.1)"},
	}
	// Each object function against every attribute its data source has.
	plans := []struct{ dataSource, fn, body string }{
		{"queuecap_consumers", "capacity_plan", "arrival_rate = 10000\nper_consumer_rate = 400\nmax_backlog = 5000000\nrto_seconds = 1800"},
		{"queuecap_consumers", "capacity_plan", "arrival_rate = 1000\nper_consumer_rate = 100\nretry_rate = 0.5\navg_retries = 2\nmin_headroom = 0.25"},
		{"queuecap_consumers", "capacity_plan", "arrival_rate = 0\nper_consumer_rate = 400"},
		// Inputs of more than 15 digits are echoed as given, by both.
		{"queuecap_consumers", "capacity_plan", "arrival_rate = 0.12345678901234567\nper_consumer_rate = 0.30000000000000004\nretry_rate = 0.12345678901234567\navg_retries = 1"},
		{"queuecap_alarm_thresholds", "alarm_plan", "arrival_rate = 5000\nsla_seconds = 10\nper_consumer_rate = 10\nrto_seconds = 1800\nttl_seconds = 3600\nqueue_name = \"orders\"\ndead_letter_queue_name = \"orders-dlq\""},
		{"queuecap_alarm_thresholds", "alarm_plan", "arrival_rate = 200\nsla_seconds = 900\nper_consumer_rate = 2\nrto_seconds = 3600\nretry_rate = 0.2\navg_retries = 2\nfleet = \"ecs\"\nperiod_seconds = 300"},
		{"queuecap_drain", "drain_plan", "backlog = 380000\narrival_rate = 380\ncompletion_rate = 520"},
		{"queuecap_drain", "drain_plan", "backlog = 3600000\narrival_rate = 10000\nconsumers = 32\nper_consumer_rate = 400\nretry_rate = 0.1\navg_retries = 1\nttl_seconds = 600\narrival_forecast = [9000, 8000, 7000]"},
		{"queuecap_drain", "drain_plan", "backlog = 180000\narrival_rate = 1200\ncompletion_rate = 1000"},
		{"queuecap_retry_storm", "retry_storm_plan", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 32\nbacklog = 3600000\nretries_per_timeout = 0\nrto_seconds = 1800"},
		{"queuecap_retry_storm", "retry_storm_plan", "arrival_rate = 3\nper_consumer_rate = 2\nconsumers = 0\nbacklog = 50\nretries_per_timeout = 2\ntimeout_window_seconds = 5"},
		{"queuecap_wait_time", "wait_time_plan", "arrival_rate = 2\nper_consumer_rate = 1\nconsumers = 3\ntarget_wait_seconds = 0.5"},
		{"queuecap_wait_time", "wait_time_plan", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 25"},
		{"queuecap_ttl_backlog", "ttl_backlog_plan", "arrival_rate = 1200\nincident_seconds = 900\nttl_seconds = 86400\ndegraded_completion_rate = 1000\nretry_rate = 0.5\navg_retries = 1"},
		{"queuecap_replay_budget", "replay_budget_plan", "downstream_limit = 1000\nlive_usage = 700\nretry_usage = 100\ncalls_per_job = 2\nsafety_margin = 0\ndlq_depth = 50000"},
		{"queuecap_replay_budget", "replay_budget_plan", "downstream_limit = 1000\nlive_usage = 850\nretry_usage = 50"},
		{"queuecap_queue_settings", "queue_settings", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 32\nmax_backlog = 5000000\nlambda_timeout_seconds = 30"},
		{"queuecap_queue_settings", "queue_settings", "arrival_rate = 10000\nper_consumer_rate = 400\nconsumers = 64\nmax_backlog = 1e9\nretry_rate = 0.1\navg_retries = 7.5\nmax_processing_seconds = 45\nmin_retention_seconds = 60"},
		{"queuecap_consumers", "capacity_plan", "arrival_rate = 10000\nper_consumer_rate = 400\nmax_backlog = 5000000\nrto_seconds = 1800\nprovisioning_lag_seconds = 180\nmin_consumers = 30"},
		// fleet_plan against every attribute queuecap_fleet has, nested blocks included.
		{"queuecap_fleet", "fleet_plan", "arrival_rate = 10000\nper_consumer_rate = 400\nsla_seconds = 10\nmax_backlog = 5000000\nrto_seconds = 1800\nmin_headroom = 0.2\nprovisioning_lag_seconds = 180\nqueue_name = \"orders\"\nautoscaling_group_name = \"workers\""},
		{"queuecap_fleet", "fleet_plan", "arrival_rate = 19995\nper_consumer_rate = 10\nsla_seconds = 0.5\necs_cluster_name = \"main\"\necs_service_name = \"orders\""},
		// A deployment's healthy share and provisioned pollers.
		{"queuecap_fleet", "fleet_plan", "arrival_rate = 10000\nper_consumer_rate = 400\nsla_seconds = 10\nmax_backlog = 5000000\nrto_seconds = 1800\nprovisioning_lag_seconds = 180\nmin_healthy_percent = 87.5\nlambda_concurrency_mode = \"provisioned\""},
	}

	var config strings.Builder
	var checks []statecheck.StateCheck
	for i, p := range pairs {
		fmt.Fprintf(&config, "data %q \"p%d\" {\n%s\n}\n\noutput \"p%d\" {\n  value = provider::queuecap::%s == data.%s.p%d.%s\n}\n\n",
			p.dataSource, i, p.body, i, p.call, p.dataSource, i, p.attr)
		checks = append(checks, statecheck.ExpectKnownOutputValue(fmt.Sprintf("p%d", i), knownvalue.Bool(true)))
	}
	for i, p := range plans {
		object := "{ " + strings.ReplaceAll(p.body, "\n", ", ") + " }"
		fmt.Fprintf(&config, "data %q \"c%d\" {\n%s\n}\n\noutput \"c%d\" {\n  value = alltrue([for k, v in provider::queuecap::%s(%s) : v == data.%s.c%d[k]])\n}\n\n",
			p.dataSource, i, p.body, i, p.fn, object, p.dataSource, i)
		checks = append(checks, statecheck.ExpectKnownOutputValue(fmt.Sprintf("c%d", i), knownvalue.Bool(true)))
	}
	functionTest(t, resource.TestStep{Config: config.String(), ConfigStateChecks: checks})
}
