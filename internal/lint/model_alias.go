// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import "github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

// The model's types, under the names the engine and its callers use. The
// model is its own package so that the rules and the formatters can read
// it without reaching into the engine; see docs/development.md.
type (
	Num                        = model.Num
	Rates                      = model.Rates
	Queue                      = model.Queue
	IgnoredConsumer            = model.IgnoredConsumer
	FleetKind                  = model.FleetKind
	Fleet                      = model.Fleet
	PolicyKind                 = model.PolicyKind
	Policy                     = model.Policy
	Step                       = model.Step
	MetricSet                  = model.MetricSet
	Alarm                      = model.Alarm
	EventSourceMapping         = model.EventSourceMapping
	Model                      = model.Model
	Supply                     = model.Supply
	FleetSupply                = model.FleetSupply
	BacklogDrain               = model.BacklogDrain
	Unchecked                  = model.Unchecked
	RateSource                 = model.RateSource
	Severity                   = model.Severity
	Pos                        = model.Pos
	Range                      = model.Range
	Fact                       = model.Fact
	Issue                      = model.Issue
	ErrorEntry                 = model.ErrorEntry
	Skip                       = model.Skip
	Result                     = model.Result
	QueueCapacity              = model.QueueCapacity
	RuleInfo                   = model.RuleInfo
	Rule                       = model.Rule
	DocumentedRule             = model.DocumentedRule
	Reporter                   = model.Reporter
	Explanation                = model.Explanation
	RootExplanation            = model.RootExplanation
	ResourceRef                = model.ResourceRef
	QueueExplanation           = model.QueueExplanation
	IgnoredConsumerExplanation = model.IgnoredConsumerExplanation
	RateExplanation            = model.RateExplanation
	ConsumerExplanation        = model.ConsumerExplanation
	SizeExplanation            = model.SizeExplanation
	PolicyExplanation          = model.PolicyExplanation
	AlarmExplanation           = model.AlarmExplanation
	DeploymentExplanation      = model.DeploymentExplanation
	PercentExplanation         = model.PercentExplanation
	PredictiveExplanation      = model.PredictiveExplanation
)

const (
	Notice  = model.Notice
	Warning = model.Warning
	Error   = model.Error

	FleetASG    = model.FleetASG
	FleetECS    = model.FleetECS
	FleetLambda = model.FleetLambda
	FleetPipe   = model.FleetPipe

	PolicyStep           = model.PolicyStep
	PolicySimple         = model.PolicySimple
	PolicyTargetTracking = model.PolicyTargetTracking
	PolicyOther          = model.PolicyOther

	MetricVisible          = model.MetricVisible
	MetricNotVisible       = model.MetricNotVisible
	MetricAgeOfOldest      = model.MetricAgeOfOldest
	MetricInServiceEC2     = model.MetricInServiceEC2
	MetricRunningTaskCount = model.MetricRunningTaskCount

	RedriveNone    = model.RedriveNone
	RedriveSet     = model.RedriveSet
	RedriveUnknown = model.RedriveUnknown
	RateDefault    = model.RateDefault
)

// ParseSeverity reads "error", "warning" or "notice".
func ParseSeverity(s string) (Severity, error) { return model.ParseSeverity(s) }

// RatePrecedence lists where rates are declared, the winning declaration
// first.
func RatePrecedence() []RateSource { return model.RatePrecedence() }
