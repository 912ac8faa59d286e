// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"reflect"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestFIFOCeiling(t *testing.T) {
	mumbai, err := capacity.DefaultAWSLimits().WithOverrides(map[string]float64{"sqs_fifo_high_throughput_transactions_per_second[ap-south-1]": 9000})
	if err != nil {
		t.Fatal(err)
	}
	highest := []string{"eu-west-1", "us-east-1", "us-west-2"}
	for _, tc := range []struct {
		name           string
		limits         capacity.AWSLimits
		highThroughput bool
		region         string
		want           capacity.FIFOCeiling
	}{
		{
			// 300 calls a second, each of 10 messages: the 3,000 msg/s
			// AWS states for batching, in every Region.
			name: "without high throughput", limits: capacity.DefaultAWSLimits(), region: "us-east-1",
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_transactions_per_second", TransactionsPerSecond: 300, BatchMessages: 10, MessagesPerSecond: 3000,
				Region: "us-east-1", RegionListed: true, HighestTransactionsPerSecond: 300, HighestMessagesPerSecond: 3000},
		},
		{
			name: "without high throughput, Region unknown", limits: capacity.DefaultAWSLimits(),
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_transactions_per_second", TransactionsPerSecond: 300, BatchMessages: 10, MessagesPerSecond: 3000,
				RegionListed: true, HighestTransactionsPerSecond: 300, HighestMessagesPerSecond: 3000},
		},
		{
			name: "high throughput in us-east-1", limits: capacity.DefaultAWSLimits(), highThroughput: true, region: "us-east-1",
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_high_throughput_transactions_per_second", TransactionsPerSecond: 70000, BatchMessages: 10, MessagesPerSecond: 700000,
				HighThroughput: true, Region: "us-east-1", RegionListed: true, HighestTransactionsPerSecond: 70000, HighestMessagesPerSecond: 700000},
		},
		{
			name: "high throughput in eu-central-1", limits: capacity.DefaultAWSLimits(), highThroughput: true, region: "eu-central-1",
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_high_throughput_transactions_per_second", TransactionsPerSecond: 19000, BatchMessages: 10, MessagesPerSecond: 190000,
				HighThroughput: true, Region: "eu-central-1", RegionListed: true, HighestTransactionsPerSecond: 19000, HighestMessagesPerSecond: 190000},
		},
		{
			// The table's floor and the highest Regions' figure bound it.
			name: "high throughput, Region unknown", limits: capacity.DefaultAWSLimits(), highThroughput: true,
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_high_throughput_transactions_per_second", TransactionsPerSecond: 300, BatchMessages: 10, MessagesPerSecond: 3000,
				HighThroughput: true, HighestTransactionsPerSecond: 70000, HighestMessagesPerSecond: 700000, HighestRegions: highest},
		},
		{
			name: "high throughput in a Region the table does not list", limits: capacity.DefaultAWSLimits(), highThroughput: true, region: "ap-south-1",
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_high_throughput_transactions_per_second", TransactionsPerSecond: 300, BatchMessages: 10, MessagesPerSecond: 3000,
				HighThroughput: true, Region: "ap-south-1", HighestTransactionsPerSecond: 70000, HighestMessagesPerSecond: 700000, HighestRegions: highest},
		},
		{
			name: "high throughput in a Region an override adds", limits: mumbai, highThroughput: true, region: "ap-south-1",
			want: capacity.FIFOCeiling{Limit: "sqs_fifo_high_throughput_transactions_per_second", TransactionsPerSecond: 9000, BatchMessages: 10, MessagesPerSecond: 90000,
				HighThroughput: true, Region: "ap-south-1", RegionListed: true, HighestTransactionsPerSecond: 9000, HighestMessagesPerSecond: 90000},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.limits.FIFOCeiling(tc.highThroughput, tc.region)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("FIFOCeiling(%v, %q) =\n%+v\nwant\n%+v", tc.highThroughput, tc.region, got, tc.want)
			}
		})
	}

	// The batched figure is the one AWS states for batching.
	batched, _ := capacity.AWSLimit("sqs_fifo_batched_messages_per_second")
	if got, _ := capacity.DefaultAWSLimits().FIFOCeiling(false, ""); got.MessagesPerSecond != batched.Value {
		t.Errorf("FIFOCeiling without high throughput: %v msg/s, the table's batched figure is %v", got.MessagesPerSecond, batched.Value)
	}
	if _, err := (capacity.AWSLimits{}).FIFOCeiling(false, ""); err == nil {
		t.Error("FIFOCeiling of an empty table: no error")
	}
}
