// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lintdiff

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

func ptr[T any](v T) *T { return &v }

// orders is the seed's fleet: 10,000 msg/s at 400 msg/s per worker and a
// 5,000,000-message backlog, with max consumers n.
func orders(n float64) model.QueueCapacity {
	c := model.QueueCapacity{Root: ".", Queue: "aws_sqs_queue.orders", Consumers: []string{"aws_autoscaling_group.workers"},
		ArrivalRate: 10000, EffectiveArrivalRate: 10000, MaxConsumers: n, Capacity: n * 400, Surplus: n*400 - 10000,
		Headroom: ptr((n*400 - 10000) / 10000), MaxBacklog: ptr(5e6), Drains: ptr(n*400 > 10000)}
	if *c.Drains {
		c.DrainSeconds = ptr(5e6 / c.Surplus)
	}
	return c
}

func finding(fp, severity, summary string) Finding {
	return Finding{Rule: "queuecap_zero_surplus", Severity: severity, Summary: summary, Message: "m", Fingerprint: fp,
		Range: model.Range{Filename: "main.tf", Start: model.Pos{Line: 20, Column: 3}}}
}

// TestCompare: findings are matched by fingerprint (new, fixed, changed
// words) and queues by root and address (a changed field, a queue now
// checked, one no longer checked); a queue nothing changed is left out.
func TestCompare(t *testing.T) {
	unchanged := orders(40)
	unchanged.Queue = "aws_sqs_queue.audit"
	gone := orders(30)
	gone.Queue = "aws_sqs_queue.gone"
	added := orders(30)
	added.Root = "other"
	base := &Run{
		Findings: []Finding{finding("a", "warning", "stays"), finding("b", "error", "fixed"), finding("c", "notice", "max_size 10")},
		Capacity: []model.QueueCapacity{unchanged, orders(32), gone},
	}
	head := &Run{
		Findings: []Finding{finding("a", "warning", "stays"), finding("c", "notice", "max_size 12"), finding("d", "error", "new")},
		Capacity: []model.QueueCapacity{orders(25), unchanged, added},
		Errors:   []string{"broken.tf:1,1-2: does not parse"},
	}
	d := Compare(base, head)
	fps := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Fingerprint)
		}
		return out
	}
	if got := fps(d.New); !slices.Equal(got, []string{"d"}) {
		t.Errorf("new %v, want [d]", got)
	}
	if got := fps(d.Fixed); !slices.Equal(got, []string{"b"}) {
		t.Errorf("fixed %v, want [b]", got)
	}
	if len(d.Changed) != 1 || d.Changed[0].Before.Summary != "max_size 10" || d.Changed[0].After.Summary != "max_size 12" {
		t.Errorf("changed %+v, want c's summary 10 → 12", d.Changed)
	}
	var queues []string
	for _, c := range d.Capacity {
		queues = append(queues, c.Root+" "+c.Queue+" "+strings.Join(c.Changed, ","))
	}
	want := []string{
		". aws_sqs_queue.gone ",
		". aws_sqs_queue.orders max_consumers,capacity,surplus,headroom,drain",
		"other aws_sqs_queue.orders ",
	}
	if !slices.Equal(queues, want) {
		t.Errorf("capacity changes\n%q\nwant\n%q", queues, want)
	}
	if d.Capacity[0].After != nil || d.Capacity[2].Before != nil {
		t.Error("a queue gone has no after, a queue added no before")
	}
	if !slices.Equal(d.HeadErrors, head.Errors) || len(d.BaseErrors) != 0 {
		t.Errorf("errors %v / %v", d.BaseErrors, d.HeadErrors)
	}
	if !d.Fails(model.Warning) || !d.Fails(model.Error) {
		t.Error("a new error does not fail the run")
	}
	if (&Diff{New: []Finding{finding("x", "notice", "n")}}).Fails(model.Warning) {
		t.Error("a new notice fails a run whose failure severity is warning")
	}
	rose := &Diff{Changed: []ChangedFinding{{Before: finding("x", "notice", "n"), After: finding("x", "error", "n")}}}
	if !rose.Fails(model.Warning) {
		t.Error("a finding whose severity rose to error does not fail the run")
	}
}

// TestHeadline: the sentence a reviewer reads, for each way the drain of
// the declared backlog can change.
func TestHeadline(t *testing.T) {
	change := func(b, a model.QueueCapacity) QueueChange {
		return QueueChange{Root: ".", Queue: b.Queue, Before: &b, After: &a, Changed: changedFields(&b, &a)}
	}
	slower := orders(30)
	rates := orders(32)
	rates.ArrivalRate, rates.EffectiveArrivalRate, rates.Surplus = 11000, 11000, 1800
	rates.DrainSeconds = ptr(5e6 / 1800)
	for _, tt := range []struct {
		c    QueueChange
		want string
	}{
		{change(orders(32), orders(25)), "lowers max consumers from 32 to 25: surplus 2,800 → 0 msg/s, the 5,000,000-message backlog never drains (it drained in 29 min 46 s)"},
		{change(orders(25), orders(32)), "raises max consumers from 25 to 32: surplus 0 → 2,800 msg/s, the 5,000,000-message backlog now drains in 29 min 46 s (it never drained)"},
		{change(orders(32), slower), "lowers max consumers from 32 to 30: surplus 2,800 → 2,000 msg/s, the 5,000,000-message backlog drains in 41 min 40 s (was 29 min 46 s)"},
		{change(orders(32), rates), "raises the effective arrival rate from 10,000 to 11,000 msg/s: surplus 2,800 → 1,800 msg/s, the 5,000,000-message backlog drains in 46 min 18 s (was 29 min 46 s)"},
		{QueueChange{After: ptr(orders(32))}, "now checked: 32 consumers, capacity 12,800 msg/s, surplus 2,800 msg/s, the 5,000,000-message backlog drains in 29 min 46 s"},
	} {
		if got := Headline(tt.c); got != tt.want {
			t.Errorf("Headline\n got %q\nwant %q", got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for s, want := range map[float64]string{0: "0 s", 59.2: "1 min", 1785.714: "29 min 46 s", 7200: "2 h", 7201: "2 h 1 min", 86399: "1 d", 90061: "1 d 2 h", 1e9: "11,574 d 2 h"} {
		if got := Duration(s); got != want {
			t.Errorf("Duration(%v) = %q, want %q", s, got, want)
		}
	}
}

// TestReadReport: a JSON report is one side; one without fingerprints or
// capacity (an older queuecap), or not a report, is an error saying so.
func TestReadReport(t *testing.T) {
	good := `{"issues":[{"rule":"r","severity":"error","message":"m","range":{"filename":"main.tf","start":{"line":1,"column":1},"end":{"line":1,"column":2}},"fingerprint":"f1"}],"errors":[{"message":"bad","range":{"filename":"x.tf","start":{"line":2,"column":3},"end":{"line":2,"column":4}}}],"capacity":[{"root":".","queue":"q","consumers":[],"arrival_rate":1,"effective_arrival_rate":1,"max_consumers":2,"capacity":2,"surplus":1}]}`
	run, err := ReadReport(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Findings) != 1 || run.Findings[0].Fingerprint != "f1" || len(run.Capacity) != 1 || run.Capacity[0].Surplus != 1 ||
		len(run.Errors) != 1 || !strings.HasPrefix(run.Errors[0], "x.tf:2") {
		t.Errorf("read %+v", run)
	}
	for in, want := range map[string]string{
		`{"issues":[{"rule":"r"}],"capacity":[]}`: "has no fingerprint",
		`{"issues":[]}`:  `without "capacity"`,
		`{"results":[]}`: `no "issues"`,
		`<xml/>`:         "not a JSON report",
	} {
		if _, err := ReadReport(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadReport(%s) = %v, want an error with %q", in, err, want)
		}
	}
}

// TestWrite: the three formats, from one comparison; JSON round-trips.
func TestWrite(t *testing.T) {
	d := Compare(&Run{Capacity: []model.QueueCapacity{orders(32)}}, &Run{
		Findings: []Finding{finding("d", "error", "max_size 25 cannot drain any backlog: raise it to 26")},
		Capacity: []model.QueueCapacity{orders(25)},
	})
	var text, md, js bytes.Buffer
	for format, b := range map[string]*bytes.Buffer{"text": &text, "markdown": &md, "json": &js} {
		if err := Write(b, d, format); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"aws_sqs_queue.orders: lowers max consumers from 32 to 25",
		"max consumers         32 → 25",
		"drain of the backlog  29 min 46 s → never",
		"New findings (1):\n  Error: main.tf:20: max_size 25 cannot drain any backlog: raise it to 26 (queuecap_zero_surplus)",
		"Fixed findings: none",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{Marker + "\n### queuecap diff: 1 new finding, capacity of 1 queue changed", "| surplus | 2,800 msg/s | 0 msg/s |", "- Error `queuecap_zero_surplus` at `main.tf:20`"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var back Diff
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.New) != 1 || len(back.Capacity) != 1 || *back.Capacity[0].After.Drains {
		t.Errorf("JSON %v: %s", err, js.String())
	}
	if err := Write(&text, d, "yaml"); err == nil {
		t.Error("an unknown format is no error")
	}
}

// TestMarkdownLimit: a change that brings thousands of findings and
// changes thousands of queues still makes a comment GitHub accepts, and
// says what it left out; text from the configuration makes no HTML.
func TestMarkdownLimit(t *testing.T) {
	base, head := &Run{}, &Run{}
	for i := range 4000 {
		f := finding(strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i), "warning", "<img src=x> max_size "+strings.Repeat("9", 40))
		f.Fingerprint = "fp" + strings.Repeat("0", 3) + string(rune(i))
		head.Findings = append(head.Findings, f)
		b, a := orders(32), orders(25)
		b.Queue, a.Queue = "aws_sqs_queue.q"+string(rune(i)), "aws_sqs_queue.q"+string(rune(i))
		base.Capacity, head.Capacity = append(base.Capacity, b), append(head.Capacity, a)
	}
	var md bytes.Buffer
	if err := Write(&md, Compare(base, head), "markdown"); err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(md.String())); n > 65536 {
		t.Errorf("the comment is %d characters, over GitHub's 65,536", n)
	}
	if !strings.Contains(md.String(), "more, not shown for GitHub's comment limit") {
		t.Error("the comment does not say what it left out")
	}
	if regexp.MustCompile(`(^|[^\\])<img`).MatchString(md.String()) {
		t.Error("configuration text makes HTML in the comment: a < is not escaped")
	}
}
