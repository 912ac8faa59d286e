// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/ratesfile"
)

// TestInitWritesLintsNames checks that every attribute a block Init
// writes sets, or offers as a placeholder, is one lint reads in a queue
// block: the names are lint's, not typed again.
func TestInitWritesLintsNames(t *testing.T) {
	out, _, err := ratesfile.Init(nil, ".queuecap.hcl", []ratesfile.InitQueue{{Address: "aws_sqs_queue.a", Name: "a",
		Consumer: ratesfile.InitConsumer{Address: "aws_lambda_function.f", NameWhy: "unknown"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Uncomment every placeholder, as a person filling the block in.
	src := placeholder.ReplaceAll(out, []byte("${1}${2} = 1"))
	file, diags := hclsyntax.ParseConfig(src, ".queuecap.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, src)
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok || len(body.Blocks) != 1 {
		t.Fatalf("not one block:\n%s", src)
	}
	attrs := body.Blocks[0].Body.Attributes
	if len(attrs) != 8 {
		t.Fatalf("%d attributes in:\n%s", len(attrs), src)
	}
	for name := range attrs {
		if !slices.Contains(lint.QueueAttributes(), name) {
			t.Errorf("%s is no attribute of a queue block (%v)", name, lint.QueueAttributes())
		}
	}
	// And lint reads the file so filled in.
	path := filepath.Join(t.TempDir(), ".queuecap.hcl")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lint.LoadConfig(path, true, nil)
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, src)
	}
	if q := cfg.Queues["aws_sqs_queue.a"]; !q.Rates.ArrivalRate.Set || !q.Rates.RTOSeconds.Set || q.Consumer != "aws_lambda_function.f" || q.ConsumerName != "1" {
		t.Errorf("read %+v", q)
	}
}

// placeholder is a commented placeholder line.
var placeholder = regexp.MustCompile(`(?m)^( *)# ([a-z_]+) = (?:"…"|…) #.*$`)
