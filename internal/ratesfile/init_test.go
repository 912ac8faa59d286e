// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// orders is a queue with a chosen consumer, an alternative linked
// through a role and a rate declared by a tag.
var orders = InitQueue{Address: "aws_sqs_queue.orders", Place: "main.tf:12", Name: "orders",
	Consumer:     InitConsumer{Address: "aws_autoscaling_group.workers", Name: "orders-workers"},
	Alternatives: []InitConsumer{{Address: "aws_lambda_function.audit", LinkedThrough: "IAM role aws_iam_role.audit"}},
	Declared:     []DeclaredRate{{Name: "max_backlog", Where: "tag queuecap:max_backlog, main.tf:14"}}}

// jobs is an instance whose names are not known before apply, consumed
// by an ECS service.
var jobs = InitQueue{Address: `aws_sqs_queue.q["jobs"]`, Place: "main.tf:40", NameWhy: "name comes from var.env, which has no value here",
	Consumer: InitConsumer{Address: "aws_ecs_service.jobs", ECS: true, Name: "jobs", ClusterWhy: "cluster comes from var.cluster, which has no value here"}}

func TestInit(t *testing.T) {
	hand := "# mine, kept as written\nqueue \"aws_sqs_queue.orders\" {\n  arrival_rate = 3 # hand\n}"
	out, added, err := Init([]byte(hand), ".queuecap.hcl", []InitQueue{orders, jobs, jobs})
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 1 || added[0] != jobs.Address {
		t.Errorf("added %q, want only %s: orders has a block and jobs is given twice", added, jobs.Address)
	}
	if !bytes.HasPrefix(out, []byte(hand+"\n")) {
		t.Errorf("the file's own text changed:\n%s", out)
	}
	again, added, err := Init(out, ".queuecap.hcl", []InitQueue{orders, jobs})
	if err != nil || len(added) != 0 || !bytes.Equal(again, out) {
		t.Errorf("a second run added %q (err %v), changed the file: %v", added, err, !bytes.Equal(again, out))
	}

	fresh, added, err := Init(nil, ".queuecap.hcl", []InitQueue{jobs, orders})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(added, " ") != jobs.Address+" "+orders.Address {
		t.Errorf("added %q, want the order given", added)
	}
	text := string(fresh)
	for _, want := range []string{
		"# What queuecap needs to know",
		"# aws_sqs_queue.orders (main.tf:12), drained by aws_autoscaling_group.workers\nqueue \"aws_sqs_queue.orders\" {",
		"# Also linked to it: aws_lambda_function.audit (through IAM role aws_iam_role.audit).",
		"  consumer = \"aws_autoscaling_group.workers\"\n",
		"  queue_name    = \"orders\"\n  consumer_name = \"orders-workers\"\n",
		"  # max_backlog is declared by tag queuecap:max_backlog, main.tf:14.\n",
		"  # Rates, in messages per second (replace … with a number and remove the #):\n  # arrival_rate = … # sent to the queue at peak",
		"  # per_consumer_rate = … # completed by one consumer when it has work",
		"  # rto_seconds = … #",
		"queue \"aws_sqs_queue.q[\\\"jobs\\\"]\" {",
		"  # queue_name = \"…\" # name comes from var.env, which has no value here: set it here, or give the variable a value with --var\n",
		"  # consumer_name = \"…\" # cluster comes from var.cluster, which has no value here: set it here as \"CLUSTER/jobs\", or give the variable a value with --var\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Index(text, jobs.Address) > strings.Index(text, orders.Address) {
		t.Errorf("blocks not in the order given:\n%s", text)
	}
	if _, ordersBlock, _ := strings.Cut(text, orders.Address); strings.Contains(ordersBlock, "# max_backlog = …") {
		t.Errorf("a placeholder for max_backlog, which a tag declares:\n%s", text)
	}
	// Only the names are set: no placeholder is a value lint would read.
	body, err := parse(fresh, ".queuecap.hcl")
	if err != nil {
		t.Fatalf("%s\n%s", err, fresh)
	}
	for _, b := range body.Blocks {
		for name := range b.Body.Attributes {
			if name != attrConsumer && name != attrQueueName && name != attrConsumerName {
				t.Errorf("%s sets %s", b.Labels[0], name)
			}
		}
	}
}

// TestInitLinkedThrough: a consumer only a role implies says so, beside
// the alternatives and how each is linked.
func TestInitLinkedThrough(t *testing.T) {
	q := InitQueue{Address: "aws_sqs_queue.a", Place: "main.tf:1",
		Consumer:     InitConsumer{Address: "aws_ecs_service.w", LinkedThrough: "IAM role aws_iam_role.w"},
		Alternatives: []InitConsumer{{Address: "aws_lambda_function.f", LinkedThrough: "IAM role aws_iam_role.f"}, {Address: "aws_autoscaling_group.g"}}}
	out, _, err := Init(nil, "f", []InitQueue{q})
	const want = "  # Also linked to it: aws_lambda_function.f (through IAM role aws_iam_role.f), aws_autoscaling_group.g. If one of them drains it instead, name it here.\n" +
		"  # Linked through IAM role aws_iam_role.w.\n  consumer = \"aws_ecs_service.w\"\n"
	if err != nil || !strings.Contains(string(out), want) {
		t.Errorf("no %q in (err %v):\n%s", want, err, out)
	}
}

func TestInitConsumerName(t *testing.T) {
	for _, tt := range []struct {
		c    InitConsumer
		want string
	}{
		{InitConsumer{ECS: true, Name: "svc", Cluster: "prod"}, `  consumer_name = "prod/svc"` + "\n"},
		{InitConsumer{ECS: true, Cluster: "prod", NameWhy: "name is not set: AWS chooses it at apply"},
			`  # consumer_name = "…" # name is not set: AWS chooses it at apply: set it here as "prod/SERVICE"` + "\n"},
		{InitConsumer{ECS: true}, `  # consumer_name = "…" # cluster is not known before apply; name is not known before apply: set it here as "CLUSTER/SERVICE"` + "\n"},
		{InitConsumer{Name: "fn"}, `  consumer_name = "fn"` + "\n"},
		{InitConsumer{}, `  # consumer_name = "…" # name is not known before apply: set it here` + "\n"},
	} {
		tt.c.Address = "aws_lambda_function.f"
		out, _, err := Init(nil, "f", []InitQueue{{Address: "aws_sqs_queue.a", Consumer: tt.c}})
		if err != nil || !strings.Contains(string(out), tt.want) {
			t.Errorf("%+v: no %q in (err %v):\n%s", tt.c, tt.want, err, out)
		}
	}
}

func TestInitHostile(t *testing.T) {
	for name, src := range map[string][]byte{
		"unparsable": []byte("queue \"a\" {\n"),
		"too large":  bytes.Repeat([]byte("#\n"), MaxFileBytes/2+1),
	} {
		t.Run(name, func(t *testing.T) {
			out, added, err := Init(src, ".queuecap.hcl", []InitQueue{orders})
			if err == nil || out != nil || added != nil {
				t.Errorf("err %v, %d bytes, added %q", err, len(out), added)
			}
			if _, _, err := Write(src, ".queuecap.hcl", "aws_sqs_queue.a", nil, false); err == nil {
				t.Error("Write: no error")
			}
		})
	}
	_, _, err := Init([]byte("queue \"a\" {\n"), ".queuecap.hcl", nil)
	if _, ok := err.(hcl.Diagnostics); !ok || !strings.Contains(err.Error(), ".queuecap.hcl:") {
		t.Errorf("error %v (%T), want the HCL diagnostics", err, err)
	}
	// A name with a newline stays in its comment.
	q := orders
	q.Place = "main.tf:1\nqueue \"x\" {}"
	out, _, err := Init(nil, "f", []InitQueue{q})
	if err != nil || strings.Contains(string(out), "\nqueue \"x\"") {
		t.Errorf("err %v:\n%s", err, out)
	}
}
