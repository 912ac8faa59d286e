// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{"sqs:*", "sqs:receivemessage", true},
		{"sqs:receive*", "sqs:receivemessage", true},
		{"sqs:*message", "sqs:deletemessage", true},
		{"sqs:?eceivemessage", "sqs:receivemessage", true},
		{"*", "sqs:deletemessage", true},
		{"sqs:send*", "sqs:receivemessage", false},
		{"sqs:receivemessage", "sqs:receivemessagebatch", false},
		{"orders-*-high", "orders-eu-high", true},
		{"orders-*-high", "orders-eu-low", false},
		{"", "", true},
		{"", "x", false},
	} {
		if got := globMatch(c.pattern, c.s); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

// TestStatementReach checks what a statement's resources reach of the
// queue orders (aws_sqs_queue.orders).
func TestStatementReach(t *testing.T) {
	q := &Queue{Addr: "aws_sqs_queue.orders", Name: "orders"}
	byOrigin := cty.UnknownVal(cty.String).Mark(origin("aws_sqs_queue.orders"))
	other := cty.UnknownVal(cty.String).Mark(origin("aws_sqs_queue.other"))
	for _, c := range []struct {
		name         string
		resources    []cty.Value
		notResource  bool
		named, every bool
	}{
		{"by origin", []cty.Value{other, byOrigin}, false, true, false},
		{"another queue", []cty.Value{other}, false, false, false},
		{"a known ARN", []cty.Value{cty.StringVal("arn:aws:sqs:eu-west-1:123456789012:orders")}, false, true, false},
		{"a pattern", []cty.Value{cty.StringVal("arn:aws:sqs:*:*:ord*")}, false, true, false},
		{"another service", []cty.Value{cty.StringVal("arn:aws:sns:eu-west-1:123456789012:orders")}, false, false, false},
		{"*", []cty.Value{cty.StringVal("*")}, false, false, true},
		{"every SQS queue", []cty.Value{cty.StringVal("arn:aws:sqs:*:*:*")}, false, false, true},
		{"NotResource another", []cty.Value{other}, true, false, true},
		{"NotResource this one", []cty.Value{byOrigin}, true, false, false},
	} {
		named, every := statement{resources: c.resources, notResource: c.notResource}.reach(q)
		if named != c.named || every != c.every {
			t.Errorf("%s: named %v, every %v; want %v, %v", c.name, named, every, c.named, c.every)
		}
	}
}
