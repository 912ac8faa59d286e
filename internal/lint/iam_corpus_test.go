// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestIAMLinksWild lints the ECS stack of
// transactional-messaging-patterns (../shared/corpus/wild), whose services
// read their queues through the SDK: nothing but their task roles' policies
// says which queues they consume. Each service's role is allowed sqs:* on
// the queues its ecs-service module creates and subscribes, so each service
// consumes those and no other. Skipped without ../shared.
func TestIAMLinksWild(t *testing.T) {
	live := filepath.Join("..", "..", "..", "shared", "corpus", "wild",
		"filipsnastins__transactional-messaging-patterns-with-aws-dynamodb-streams-sns-sqs-lambda", "deploy-terraform-aws-ecs", "live")
	if _, err := os.Stat(filepath.Join(live, "service-customers.tf")); err != nil {
		t.Skip("../shared/corpus/wild is not here")
	}
	b, built := buildRoot(newLoader(dirBoundary(filepath.Dir(live))), live, Options{Config: &Config{}}, nil)
	if b == nil || len(built.errors) > 0 {
		t.Fatalf("errors: %v", built.errors)
	}
	got := map[string][]string{}
	for _, q := range b.model.Queues {
		for _, f := range q.Consumers {
			got[f.Addr] = append(got[f.Addr], q.Addr+" ("+q.ConsumedThrough[f]+")")
		}
	}
	queue := func(service, name string) string {
		return "module.service_" + service + "_ecs.module.sqs_queue[\"" + name + "\"].aws_sqs_queue.source_queue" +
			" (IAM role module.service_" + service + "_ecs.module.ecs_service_iam_task_role.aws_iam_role.default)"
	}
	want := map[string][]string{
		"module.service_customers_ecs.aws_ecs_service.default": {queue("customers", "customer--order-cancelled"), queue("customers", "customer--order-created")},
		"module.service_orders_ecs.aws_ecs_service.default": {queue("orders", "order--customer-credit-reservation-failed"),
			queue("orders", "order--customer-credit-reserved"), queue("orders", "order--customer-validation-failed")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("consumers:\n got %q\nwant %q", got, want)
	}
}
