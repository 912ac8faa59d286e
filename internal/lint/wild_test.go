// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/corpustest"
)

// TestTerraformInitStandIn stands for `terraform init` on the NHS
// digital-letters stack (../shared/corpus/wild): its queues and functions
// are remote zip modules of nhs-notify-shared-modules 3.0.6, which the
// corpus holds. Written into a temporary copy, .terraform/modules/modules.json
// lets the linter follow every module call, and each of the stack's 14
// Lambda event source mappings links to its queue and its function through
// the installed modules. Skipped without ../shared.
func TestTerraformInitStandIn(t *testing.T) {
	b := digitalLettersInstalled(t)
	// The stack has 15 mappings: 14 read SQS queues, one a DynamoDB
	// stream (ttl_handle_expiry_lambda), which no queue rule is about.
	var sqsMappings int
	for _, m := range b.model.Mappings {
		if strings.HasPrefix(m.Addr, "module.") {
			continue // the eventpub module's own mapping, not the stack's
		}
		if m.Addr == "aws_lambda_event_source_mapping.ttl_handle_expiry_lambda" {
			if m.Queue != nil {
				t.Errorf("the DynamoDB stream mapping links queue %s", m.Queue.Addr)
			}
			continue
		}
		sqsMappings++
		if m.Queue == nil || m.Function == nil {
			t.Errorf("%s: queue %v, function %v: not linked through the installed modules", m.Addr, m.Queue, m.Function)
			continue
		}
		if !strings.HasPrefix(m.Queue.Addr, "module.sqs_") || !strings.Contains(m.Function.Addr, ".aws_lambda_function.") {
			t.Errorf("%s links %s and %s", m.Addr, m.Queue.Addr, m.Function.Addr)
		}
	}
	if sqsMappings != 14 {
		t.Errorf("%d SQS event source mappings in the stack, want its 14", sqsMappings)
	}
	for _, s := range b.skips {
		if s.Rule == skipModule {
			t.Errorf("module skipped although installed: %s", s.Reason)
		}
		if strings.Contains(s.Reason, "event source mapping aws_lambda_event_source_mapping.") {
			t.Errorf("a stack mapping is not linked: %s", s.Reason)
		}
	}
}

// digitalLettersInstalled builds the digital-letters stack from a
// temporary copy with the .terraform/modules/modules.json terraform init
// would write for it (corpustest.DigitalLetters); it skips without
// ../shared.
func digitalLettersInstalled(t *testing.T) *builder {
	t.Helper()
	root := corpustest.DigitalLetters(t)
	b, built := buildRoot(newLoader(dirBoundary(root)), root, Options{Config: &Config{}}, nil)
	if b == nil || len(built.errors) > 0 {
		t.Fatalf("errors: %v", built.errors)
	}
	return b
}

// TestTerraformInitStandInIAM reads the roles of the stack's functions:
// each is allowed to receive and delete the messages of the one queue its
// mapping reads, and to send to others (dead-letter and event queues), so
// the roles alone link each function to its queue, and nothing else.
func TestTerraformInitStandInIAM(t *testing.T) {
	b := digitalLettersInstalled(t)
	l := &linker{builder: b}
	var consumes []string
	for _, f := range b.model.Fleets {
		fr, ok := b.iam.fleets[f.Addr]
		if !ok {
			continue
		}
		for _, role := range l.rolesOf(fr) {
			for _, q := range b.model.Queues {
				if mayConsume(l.roleStatements(role), q) {
					consumes = append(consumes, q.Addr+" <- "+f.Addr)
				}
			}
		}
	}
	var mapped []string
	for _, m := range b.model.Mappings {
		if m.Queue != nil && m.Function != nil {
			mapped = append(mapped, m.Queue.Addr+" <- "+m.Function.Addr)
		}
	}
	slices.Sort(consumes)
	slices.Sort(mapped)
	if len(mapped) != 14 || !slices.Equal(consumes, mapped) {
		t.Errorf("the roles allow consuming\n %q\nthe mappings read\n %q", consumes, mapped)
	}
}
