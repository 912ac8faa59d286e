// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"maps"
	"slices"
)

// The AWS limits table's names for a FIFO queue's throughput.
const (
	LimitFIFOTransactions               = "sqs_fifo_transactions_per_second"
	LimitFIFOHighThroughputTransactions = "sqs_fifo_high_throughput_transactions_per_second"
	LimitSQSBatchMessages               = "sqs_batch_max_messages"
)

// FIFOCeiling is the most messages per second a FIFO queue takes per API
// action (SendMessage, ReceiveMessage, DeleteMessage), from the AWS
// limits table: TransactionsPerSecond calls, each a full batch of
// BatchMessages. A queue whose calls carry fewer messages gets less; the
// ceiling is the best case, so a rate above it is throttled however the
// clients batch.
type FIFOCeiling struct {
	// Limit is the table entry the transactions come from.
	Limit string
	// TransactionsPerSecond is API calls per second per action; for high
	// throughput in a Region the table does not give (RegionListed
	// false), the table's floor.
	TransactionsPerSecond float64
	// BatchMessages is the most messages one call carries.
	BatchMessages float64
	// MessagesPerSecond is TransactionsPerSecond × BatchMessages.
	MessagesPerSecond float64
	// HighThroughput is true for a queue in high throughput mode.
	HighThroughput bool
	// Region is the Region asked for, "" when not known.
	Region string
	// RegionListed is true when the ceiling is the table's figure for
	// Region, or does not depend on the Region (without high
	// throughput). When false, the Region's ceiling lies between
	// MessagesPerSecond and HighestMessagesPerSecond.
	RegionListed bool
	// HighestTransactionsPerSecond and HighestMessagesPerSecond are the
	// ceiling in the Regions with the highest figure (HighestRegions):
	// no Region takes more.
	HighestTransactionsPerSecond float64
	HighestMessagesPerSecond     float64
	HighestRegions               []string
}

// FIFOCeiling is a FIFO queue's throughput ceiling per API action, with
// high throughput or without, in region ("" when not known). It errs only
// when the table lacks an entry it needs (a zero AWSLimits).
func (l AWSLimits) FIFOCeiling(highThroughput bool, region string) (FIFOCeiling, error) {
	batch, ok := l.Limit(LimitSQSBatchMessages)
	if !ok {
		return FIFOCeiling{}, fmt.Errorf("the AWS limits table has no %s", LimitSQSBatchMessages)
	}
	name := LimitFIFOTransactions
	if highThroughput {
		name = LimitFIFOHighThroughputTransactions
	}
	e, ok := l.Limit(name)
	if !ok {
		return FIFOCeiling{}, fmt.Errorf("the AWS limits table has no %s", name)
	}
	_, listed := e.ByRegion[region]
	c := FIFOCeiling{
		Limit: name, BatchMessages: batch.Value, HighThroughput: highThroughput, Region: region,
		TransactionsPerSecond: e.In(region), RegionListed: !highThroughput || listed,
		HighestTransactionsPerSecond: e.Value,
	}
	for _, r := range slices.Sorted(maps.Keys(e.ByRegion)) {
		switch v := e.ByRegion[r]; {
		case v > c.HighestTransactionsPerSecond:
			c.HighestTransactionsPerSecond, c.HighestRegions = v, []string{r}
		case v == c.HighestTransactionsPerSecond && v > e.Value:
			c.HighestRegions = append(c.HighestRegions, r)
		}
	}
	if c.RegionListed {
		c.HighestTransactionsPerSecond, c.HighestRegions = c.TransactionsPerSecond, nil
	}
	c.MessagesPerSecond = Clean(c.TransactionsPerSecond * c.BatchMessages)
	c.HighestMessagesPerSecond = Clean(c.HighestTransactionsPerSecond * c.BatchMessages)
	return c, nil
}
