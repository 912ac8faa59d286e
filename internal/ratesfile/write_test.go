// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile

import (
	"strings"
	"testing"
	"time"
)

var measuredOn = Provenance{Date: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), Source: "prometheus http://prom:9090",
	How: "p99 over 14d in 5m steps", Queries: []string{"sum(rate(jobs_enqueued_total[5m]))"}}

func TestWrite(t *testing.T) {
	initOut, _, err := Init(nil, ".queuecap.hcl", []InitQueue{orders})
	if err != nil {
		t.Fatal(err)
	}
	earlier := measuredOn
	earlier.Date, earlier.Source = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC), "cloudwatch us-east-1"
	measuredBefore := "queue \"aws_sqs_queue.orders\" {\n  # a note of mine\n" +
		"  " + strings.Join(earlier.Lines(), "\n  ") + "\n  arrival_rate = 90\n" +
		"  # hand-written\n  per_consumer_rate = 4 # mine\n}\n"
	values := []Measured{{Name: "arrival_rate", Text: "118.5", Provenance: measuredOn}, {Name: "per_consumer_rate", Text: "6.25", Provenance: measuredOn}}
	tests := []struct {
		name  string
		src   string
		force bool
		// want are the changes by rate, "ACTION OLD→NEW"; in and out are
		// text the result must and must not hold.
		want    map[string]string
		in, out []string
	}{
		{name: "placeholders replaced", src: string(initOut),
			want: map[string]string{"arrival_rate": "added →118.5", "per_consumer_rate": "added →6.25"},
			in:   []string{"  # queuecap rates 2026-12-02: prometheus http://prom:9090, p99 over 14d in 5m steps\n  #   sum(rate(jobs_enqueued_total[5m]))\n  arrival_rate = 118.5\n", "  # max_backlog is declared by"},
			out:  []string{"# arrival_rate = …", "# per_consumer_rate = …"}},
		{name: "measured replaced, hand-written kept", src: measuredBefore,
			want: map[string]string{"arrival_rate": "replaced 90→118.5", "per_consumer_rate": "kept 4→6.25"},
			in:   []string{"  # a note of mine\n  # queuecap rates 2026-12-02", "arrival_rate = 118.5\n  # hand-written\n  per_consumer_rate = 4 # mine\n"},
			out:  []string{"2026-01-05", "arrival_rate = 90"}},
		{name: "hand-written replaced with force", src: measuredBefore, force: true,
			want: map[string]string{"arrival_rate": "replaced 90→118.5", "per_consumer_rate": "replaced 4→6.25"},
			in:   []string{"  # hand-written\n  # queuecap rates 2026-12-02: prometheus http://prom:9090, p99 over 14d in 5m steps\n  #   sum(rate(jobs_enqueued_total[5m]))\n  per_consumer_rate = 6.25\n}\n"},
			out:  []string{"per_consumer_rate = 4"}},
		{name: "a value commented out by a person is no placeholder", src: "queue \"aws_sqs_queue.orders\" {\n  # arrival_rate = 50 # before the migration\n  # per_consumer_rate = … # to measure\n}\n",
			want: map[string]string{"arrival_rate": "added →118.5", "per_consumer_rate": "added →6.25"},
			in: []string{"  # arrival_rate = 50 # before the migration\n  # queuecap rates 2026-12-02", "  #   sum(rate(jobs_enqueued_total[5m]))\n  per_consumer_rate = 6.25\n  # queuecap rates",
				"  arrival_rate = 118.5\n}\n"},
			out: []string{"# per_consumer_rate = …"}},
		{name: "block created", src: "# mine\nqueue \"aws_sqs_queue.other\" {\n  arrival_rate = 1\n}",
			want: map[string]string{"arrival_rate": "added →118.5", "per_consumer_rate": "added →6.25"},
			in:   []string{"# mine\nqueue \"aws_sqs_queue.other\" {\n  arrival_rate = 1\n}\n\nqueue \"aws_sqs_queue.orders\" {\n  # queuecap rates 2026-12-02"}},
		{name: "value added before the closing brace", src: "queue \"aws_sqs_queue.orders\" {\n    consumer = \"x\"\n  }\n",
			want: map[string]string{"arrival_rate": "added →118.5", "per_consumer_rate": "added →6.25"},
			in:   []string{"    consumer = \"x\"\n    # queuecap rates", "per_consumer_rate = 6.25\n  }\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changes, err := Write([]byte(tt.src), ".queuecap.hcl", orders.Address, values, tt.force)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, c := range changes {
				if c.Queue != orders.Address || c.Why == "" {
					t.Errorf("change %+v", c)
				}
				got[c.Name] = string(c.Action) + " " + c.Old + "→" + c.New
			}
			if len(got) != len(tt.want) {
				t.Errorf("changes %v, want %v", got, tt.want)
			}
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: %q, want %q", name, got[name], want)
				}
			}
			for _, s := range tt.in {
				if !strings.Contains(string(out), s) {
					t.Errorf("no %q in:\n%s", s, out)
				}
			}
			for _, s := range tt.out {
				if strings.Contains(string(out), s) {
					t.Errorf("%q still in:\n%s", s, out)
				}
			}
			// What was written reads back: the values measured carry
			// their provenance, a kept one none.
			prov, diags := Provenances(out, ".queuecap.hcl")
			if diags.HasErrors() {
				t.Fatalf("%s\n%s", diags, out)
			}
			for _, c := range changes {
				p, ok := prov[orders.Address][c.Name]
				if c.Action == Kept {
					if ok {
						t.Errorf("%s kept has a provenance %+v", c.Name, p)
					}
					continue
				}
				if !ok || !p.Date.Equal(measuredOn.Date) || p.Source != measuredOn.Source || p.How != measuredOn.How ||
					strings.Join(p.Queries, "|") != strings.Join(measuredOn.Queries, "|") {
					t.Errorf("%s read back as %+v (found %v)", c.Name, p, ok)
				}
			}
			// Writing the same again changes nothing but reports it.
			again, _, err := Write(out, ".queuecap.hcl", orders.Address, values, tt.force)
			if err != nil || string(again) != string(out) {
				t.Errorf("a second write changed the file (err %v):\n%s", err, again)
			}
		})
	}
}

// TestWriteNothing: nothing measured changes nothing, not even a block
// added for the queue.
func TestWriteNothing(t *testing.T) {
	src := []byte("# mine\n")
	out, changes, err := Write(src, ".queuecap.hcl", orders.Address, nil, true)
	if err != nil || string(out) != string(src) || changes != nil {
		t.Errorf("err %v, changes %v, out:\n%s", err, changes, out)
	}
}

func TestWriteRefuses(t *testing.T) {
	ok := "queue \"aws_sqs_queue.orders\" {\n}\n"
	for name, tt := range map[string]struct {
		src    string
		values []Measured
	}{
		"not a number":      {ok, []Measured{{Name: "arrival_rate", Text: "NaN", Provenance: measuredOn}}},
		"an expression":     {ok, []Measured{{Name: "arrival_rate", Text: "1 + var.x", Provenance: measuredOn}}},
		"a source of lines": {ok, []Measured{{Name: "arrival_rate", Text: "1", Provenance: Provenance{Source: "x\nqueue \"y\" {}"}}}},
		"measured twice":    {ok, []Measured{{Name: "arrival_rate", Text: "1"}, {Name: "arrival_rate", Text: "2"}}},
		"a one-line block":  {"queue \"aws_sqs_queue.orders\" { arrival_rate = 1 }\n", []Measured{{Name: "arrival_rate", Text: "2"}}},
	} {
		t.Run(name, func(t *testing.T) {
			out, changes, err := Write([]byte(tt.src), ".queuecap.hcl", orders.Address, tt.values, true)
			if err == nil || out != nil || changes != nil {
				t.Errorf("err %v, out %q, changes %v", err, out, changes)
			}
		})
	}
}

// TestLineEndings: a .queuecap.hcl saved with CRLF stays CRLF throughout,
// whatever Write and Init add or replace; an LF one gains no CR.
func TestLineEndings(t *testing.T) {
	values := []Measured{{Name: "arrival_rate", Text: "118.5", Provenance: measuredOn}, {Name: "per_consumer_rate", Text: "6.25", Provenance: measuredOn}}
	crlf := func(s string) []byte { return []byte(strings.ReplaceAll(s, "\n", "\r\n")) }
	placeholders, _, err := Init(crlf("# mine\n"), ".queuecap.hcl", []InitQueue{orders})
	if err != nil {
		t.Fatal(err)
	}
	measured := crlf("queue \"aws_sqs_queue.orders\" {\n  " + strings.Join(measuredOn.Lines(), "\n  ") + "\n  arrival_rate = 90\n}\n")
	for name, src := range map[string][]byte{
		"placeholders": placeholders, "measured": measured,
		"new block":        crlf("queue \"aws_sqs_queue.other\" {\n  arrival_rate = 1\n}"),
		"before the brace": crlf("queue \"aws_sqs_queue.orders\" {\n  consumer = \"x\"\n}\n"),
	} {
		t.Run(name, func(t *testing.T) {
			if n := strings.Count(string(src), "\n"); n != strings.Count(string(src), "\r\n") || n == 0 {
				t.Fatalf("the input is not CRLF throughout:\n%q", src)
			}
			out, _, err := Write(src, ".queuecap.hcl", "aws_sqs_queue.orders", values, false)
			if err != nil {
				t.Fatal(err)
			}
			if lf, crlf := strings.Count(string(out), "\n"), strings.Count(string(out), "\r\n"); lf != crlf || !strings.Contains(string(out), "arrival_rate = 118.5\r\n") {
				t.Errorf("%d of %d line endings are CRLF:\n%q", crlf, lf, out)
			}
		})
	}
	out, _, err := Init(nil, ".queuecap.hcl", []InitQueue{orders})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "\r") {
		t.Errorf("Init wrote a CR into a new file:\n%q", out)
	}
}
