// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile

import (
	"strings"
	"testing"
	"time"
)

func TestProvenances(t *testing.T) {
	p := Provenance{Date: time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC), Source: "prometheus http://127.0.0.1:9090",
		How: "p99 of the per-step arrival rates over 14d in 5m steps, 4032 steps", Queries: []string{"sum(\n  rate(jobs_enqueued_total[5m]))"}}
	src := "queue \"aws_sqs_queue.a\" {\n  consumer = \"aws_autoscaling_group.w\"\n" +
		"  " + strings.Join(p.Lines(), "\n  ") + "\n  arrival_rate = 120\n" +
		"  # hand-written\n  per_consumer_rate = 4\n" +
		"  # queuecap rates 2026-13-40: a bad date\n  max_backlog = 5\n}\n"
	got, diags := Provenances([]byte(src), ".queuecap.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	q := got["aws_sqs_queue.a"]
	if len(q) != 1 {
		t.Fatalf("provenances %v, want arrival_rate's alone", q)
	}
	a := q["arrival_rate"]
	if !a.Date.Equal(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) || a.Source != p.Source || a.How != p.How ||
		len(a.Queries) != 1 || a.Queries[0] != "sum( rate(jobs_enqueued_total[5m]))" || a.Range.Start.Line != 5 || a.Comment.Start.Line != 3 {
		t.Errorf("arrival_rate %+v", a)
	}
}
