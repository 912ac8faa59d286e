// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import "math/big"

// Two bounds on what a queue's consumers deliver whatever their number: a
// FIFO queue's active message groups, one consumer each at a time, and the
// payload a provisioned SQS event source mapping's pollers carry.

// The AWS limits table's names the bounds read.
const (
	LimitLambdaPollerThroughputMB = "lambda_sqs_poller_throughput_mb_per_second"
	LimitSQSMaxMessageBytes       = "sqs_max_message_size_bytes"
)

// BytesPerMB is the megabyte of AWS's "1 MB/sec" per poller: AWS's page
// does not say which; queuecap takes the decimal one, 1,000,000 bytes (a
// mebibyte would make the bound 4.8576 % higher).
const BytesPerMB = 1_000_000

// The names of the declared values the bounds take.
const (
	FieldMessageGroups    = "message_groups"
	FieldMessageSizeBytes = "message_size_bytes"
)

// DeclaredInputs are the values a queue declares for the linter that no
// formula takes, with their ranges: tags and .queuecap.hcl queue blocks
// are checked against them as against a formula's inputs.
var DeclaredInputs = []Input{
	{Name: FieldMessageGroups, Type: Whole, Unit: "message groups", Range: AtLeastOne,
		Description: "The message groups of a FIFO queue that have messages at once: SQS gives each to one consumer at a time, so at most this many consumers work."},
	{Name: FieldMessageSizeBytes, Type: Number, Unit: "bytes", Range: AboveZero,
		Description: "The average message payload, in bytes: a provisioned event source mapping's pollers carry at most maximum_pollers × 1 MB/s of it."},
}

// PayloadBound is the most messages per second a provisioned mapping's
// pollers carry: Pollers × MBPerSecond × BytesPerMB / MessageBytes.
type PayloadBound struct {
	Pollers float64
	// MBPerSecond is one poller's throughput (the limits table's
	// lambda_sqs_poller_throughput_mb_per_second).
	MBPerSecond float64
	// MessageBytes is the average message payload, message_size_bytes.
	MessageBytes float64
}

// rate is the bound, exact, or an error naming the input at fault.
func (p PayloadBound) rate() (*big.Rat, error) {
	if err := checkPositive("maximum_pollers", p.Pollers); err != nil {
		return nil, err
	}
	if err := checkPositive(LimitLambdaPollerThroughputMB, p.MBPerSecond); err != nil {
		return nil, err
	}
	if err := checkPositive(FieldMessageSizeBytes, p.MessageBytes); err != nil {
		return nil, err
	}
	r := quo(mul(mul(dec(p.Pollers), dec(p.MBPerSecond)), ratInt(BytesPerMB)), dec(p.MessageBytes))
	if !ratFinite(r) {
		return nil, checkResult(FieldMessageSizeBytes, "the pollers' payload throughput", float(r))
	}
	return r, nil
}

// MessagesPerSecond is the bound, decimal-clean.
func (p PayloadBound) MessagesPerSecond() (float64, error) {
	r, err := p.rate()
	if err != nil {
		return 0, err
	}
	return float(r), nil
}

// CheckMessageBytes checks a declared message_size_bytes: above 0 and at
// most maxBytes, the queue's max_message_size (maxName) or, when that is
// not known, AWS's largest message.
func CheckMessageBytes(v, maxBytes float64, maxName string) error {
	if err := checkPositive(FieldMessageSizeBytes, v); err != nil {
		return err
	}
	if v > maxBytes {
		return inputErr(FieldMessageSizeBytes, "must be at most %s %s bytes, got %s", maxName, formatNumber(maxBytes), formatNumber(v))
	}
	return nil
}

// Bound names what sets a supply's capacity when it is not the fleets'
// sizes.
type Bound string

const (
	// BoundPayload: a fleet's provisioned pollers carry fewer messages
	// than its consumers complete.
	BoundPayload Bound = "payload"
	// BoundMessageGroups: fewer message groups are active than the
	// consumers, one consumer each at a time.
	BoundMessageGroups Bound = "message_groups"
)
