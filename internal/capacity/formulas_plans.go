// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

// Object functions: each returns its data source's whole result, so that
// every data source has a function returning all its outputs.

// objectPlan is the object function of a formula.
func objectPlan(f *Formula, name, summary, detail string) *Function {
	return &Function{
		Name: name, Summary: summary,
		Description: "Takes the arguments of the `queuecap_" + f.Name + "` data source as one object " +
			"(the same required inputs, defaults and rules; numbers may be given as strings, and a map works as well as an object) " +
			"and returns its whole result as one object: the inputs with defaults filled in, then every output, each exactly as the data source computes it. " + detail,
		Object: f,
	}
}

// AlarmPlanFunction is queuecap_alarm_thresholds as a function. Unlike the data
// source, whose read Terraform defers to apply while any argument is
// unknown, it takes queue_name and dead_letter_queue_name unknown and
// still returns known thresholds and alarm names.
var AlarmPlanFunction = objectPlan(AlarmThresholdsFormula, "alarm_plan", "The whole queuecap_alarm_thresholds result as one call, known at plan before the queue exists",
	"`queue_name` and `dead_letter_queue_name` may be unknown at plan (`aws_sqs_queue.q.name` of a queue not yet created): "+
		"they only label the metrics, so the thresholds, expressions, `treat_missing_data` and alarm names stay known and only the strings built from them "+
		"(those attributes themselves and the metrics' `dimensions`) are unknown. "+
		"`for_each = { for a in provider::queuecap::alarm_plan({ …, queue_name = aws_sqs_queue.q.name }).alarms : a.name => a }` therefore plans, "+
		"where the same `for_each` over the data source's `alarms` fails with \"Invalid for_each argument\": Terraform defers reading a data source "+
		"until apply whenever any of its arguments is unknown, so all its outputs are unknown at plan. "+
		"An unknown number (or any other unknown argument) still makes the whole result unknown.")

// DrainPlan is queuecap_drain as a function.
var DrainPlan = objectPlan(DrainFormula, "drain_plan", "The whole queuecap_drain result as one call",
	"Give the completion rate as `completion_rate` or as `consumers` with `per_consumer_rate`; `completion_rate` is returned either way.")

// RetryStormPlan is queuecap_retry_storm as a function.
var RetryStormPlan = objectPlan(RetryStorm, "retry_storm_plan", "The whole queuecap_retry_storm simulation as one call",
	"The simulation and its binary searches run at plan, as the data source's read does.")

// WaitTimePlan is queuecap_wait_time as a function.
var WaitTimePlan = objectPlan(WaitTimeFormula, "wait_time_plan", "The whole queuecap_wait_time (Erlang C) result as one call", "")

// TTLBacklogPlan is queuecap_ttl_backlog as a function.
var TTLBacklogPlan = objectPlan(TTLBacklogFormula, "ttl_backlog_plan", "The whole queuecap_ttl_backlog result as one call", "")

// ReplayBudgetPlan is queuecap_replay_budget as a function.
var ReplayBudgetPlan = objectPlan(ReplayBudgetFormula, "replay_budget_plan", "The whole queuecap_replay_budget result as one call",
	"When nothing is left for the replay the rates are `0`; the data source also warns then, a function cannot.")
