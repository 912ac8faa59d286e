// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedSize is MATH.md's headroom example: 10,000 msg/s, 400 msg/s per
// consumer, 5 M messages within 30 minutes.
var seedSize = []string{"size", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--max-backlog", "5e6", "--rto", "30m"}

// TestSizeSeedGolden pins the text table of the seed.
func TestSizeSeedGolden(t *testing.T) {
	code, stdout, stderr := cli(t, "", seedSize...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	golden(t, filepath.Join("testdata", "size_seed.golden"), stdout)
}

func TestSize(t *testing.T) {
	ptr := func(v float64) *float64 { return &v }
	cases := []struct {
		name         string
		args         []string
		effective    float64
		steady       int64
		required     int64
		overhead     *float64 // nil: JSON null
		headroom     *float64
		utilization  float64
		drainSeconds *float64
		text         []string // lines of the text table, as substrings
		stderr       string   // a warning, or nothing
	}{
		{
			name: "seed", args: seedSize,
			effective: 10000, steady: 25, required: 32, overhead: ptr(0.28), headroom: ptr(0.28), utilization: 0.78125,
			drainSeconds: ptr(5e6 / 2800),
			text: []string{
				"steady-state consumers  25 ", "required consumers      32 ", "overhead                28 %",
				"capacity                12,800 msg/s", "surplus                 2,800 msg/s", "utilization             78.1 %",
				"headroom                28 %", "drain time              29 min 46 s", "= 1,785.71 s",
			},
		},
		{
			name: "flags in any order, RTO in seconds", args: []string{"size", "--rto", "1800", "--max-backlog", "5000000", "--per-consumer-rate", "400", "--arrival-rate", "10000"},
			effective: 10000, steady: 25, required: 32, overhead: ptr(0.28), headroom: ptr(0.28), utilization: 0.78125,
			drainSeconds: ptr(5e6 / 2800), text: []string{"required consumers      32 "},
		},
		{
			// λ_eff = 10,000 × (1 + 0.1 × 2) = 12,000: 30 keep up,
			// ceil(30 + 5e6 / (400 × 1800)) = ceil(36.94) = 37.
			name: "retries", args: append(append([]string{}, seedSize...), "--retry-rate", "10%", "--avg-retries", "2"),
			effective: 12000, steady: 30, required: 37, overhead: ptr(37.0/30 - 1), headroom: ptr(2800.0 / 12000), utilization: 12000.0 / 14800,
			drainSeconds: ptr(5e6 / 2800),
			text:         []string{"10 % of messages retried 2 times", "effective arrival       12,000 msg/s", "required consumers      37 ", "overhead                23.3 %"},
		},
		{
			// With 50 % minimum headroom, ceil(25 × 1.5) = 38 beats 32.
			name: "minimum headroom", args: append(append([]string{}, seedSize...), "--min-headroom", "0.5"),
			effective: 10000, steady: 25, required: 38, overhead: ptr(0.52), headroom: ptr(0.52), utilization: 10000.0 / 15200,
			drainSeconds: ptr(5e6 / 5200), text: []string{"at least 50 % headroom", "required consumers      38 "},
		},
		{
			// MATH.md's provisioning lag: 25 + 5e6 / (400 × 1,620) = 32.72 → 33;
			// 3 min at the steady state's zero surplus, then 5e6 at 3,200 msg/s.
			name: "provisioning lag", args: append(append([]string{}, seedSize...), "--provisioning-lag", "3m", "--min-consumers", "25"),
			effective: 10000, steady: 25, required: 33, overhead: ptr(0.32), headroom: ptr(0.32), utilization: 10000.0 / 13200,
			drainSeconds: ptr(180 + 5e6/3200),
			text:         []string{"new consumers starting after 3 min with 25 running", "required consumers      33 ", "3 min of provisioning lag at 25 consumers, the rest at 3,200 msg/s"},
		},
		{
			// No arrivals: the backlog alone needs ceil(6.94) = 7 consumers;
			// headroom and overhead are undefined, not Infinity.
			name: "zero arrival", args: []string{"size", "--arrival-rate", "0", "--per-consumer-rate", "400", "--max-backlog", "5e6", "--rto", "30m"},
			effective: 0, steady: 0, required: 7, overhead: nil, headroom: nil, utilization: 0,
			drainSeconds: ptr(5e6 / 2800),
			text:         []string{"steady-state consumers  0 ", "required consumers      7 ", "overhead                undefined", "headroom                undefined", "utilization             0 %"},
		},
		{
			// The steady state alone: no surplus, and no backlog to drain.
			name: "no backlog", args: []string{"size", "--arrival-rate", "10000", "--per-consumer-rate", "400"},
			effective: 10000, steady: 25, required: 25, overhead: ptr(0), headroom: ptr(0), utilization: 1,
			drainSeconds: ptr(0), text: []string{"surplus                 0 msg/s", "drain time              0 s ", "no backlog given"},
			stderr: zeroSurplusWarning,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, text, stderr := cli(t, "", tc.args...)
			if code != exitOK || stderr != tc.stderr {
				t.Fatalf("text: exit %d, stderr %q, want %q", code, stderr, tc.stderr)
			}
			for _, want := range tc.text {
				if !strings.Contains(text, want) {
					t.Errorf("text table lacks %q:\n%s", want, text)
				}
			}

			code, stdout, stderr := cli(t, "", append(append([]string{}, tc.args...), "--format", "json")...)
			if code != exitOK || stderr != tc.stderr {
				t.Fatalf("json: exit %d, stderr %q", code, stderr)
			}
			var raw map[string]any
			if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
				t.Fatalf("%v: %s", err, stdout)
			}
			var got sizeJSON
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			if got.EffectiveArrivalRate != tc.effective || got.SteadyStateConsumers != tc.steady || got.RequiredConsumers != tc.required {
				t.Errorf("effective %v, steady %d, required %d; want %v, %d, %d", got.EffectiveArrivalRate, got.SteadyStateConsumers, got.RequiredConsumers, tc.effective, tc.steady, tc.required)
			}
			checkOptional(t, "overhead", got.Overhead, tc.overhead)
			checkOptional(t, "headroom", got.Headroom, tc.headroom)
			checkOptional(t, "drain_seconds", got.DrainSeconds, tc.drainSeconds)
			if !near(got.Utilization, tc.utilization) {
				t.Errorf("utilization %v, want %v", got.Utilization, tc.utilization)
			}
			for _, key := range []string{"overhead", "headroom", "drain_seconds", "rto_seconds"} {
				if _, ok := raw[key]; !ok {
					t.Errorf("%s missing from the JSON: null is written, never omitted", key)
				}
			}
		})
	}
}

// zeroSurplusWarning is what queuecap size prints, as the provider's plan
// does, for the seed's steady state: 25 consumers and no surplus.
const zeroSurplusWarning = `Warning: The required fleet has zero surplus and never drains a backlog

  required_consumers = 25: 25 × 400 msg/s = 10000 msg/s, exactly the effective
  arrival rate, so the surplus is 0 and any backlog (a deploy, a consumer crash,
  a burst) never drains. Set max_backlog and rto_seconds to size for the backlog
  to recover from, or min_headroom for spare capacity (min_headroom = 0.2 gives
  30 consumers).
`

// sizeJSON is the JSON of queuecap size, the queuecap_consumers result.
type sizeJSON struct {
	EffectiveArrivalRate float64  `json:"effective_arrival_rate"`
	SteadyStateConsumers int64    `json:"steady_state_consumers"`
	RequiredConsumers    int64    `json:"required_consumers"`
	Overhead             *float64 `json:"overhead"`
	Utilization          float64  `json:"utilization"`
	Headroom             *float64 `json:"headroom"`
	DrainSeconds         *float64 `json:"drain_seconds"`
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func checkOptional(t *testing.T, name string, got, want *float64) {
	t.Helper()
	switch {
	case want == nil && got != nil:
		t.Errorf("%s %v, want null", name, *got)
	case want != nil && got == nil:
		t.Errorf("%s null, want %v", name, *want)
	case want != nil && !near(*got, *want):
		t.Errorf("%s %v, want %v", name, *got, *want)
	}
}

// golden compares got with the file at path, rewriting it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- want\n%s--- got\n%s", path, want, got)
	}
}

// TestReadmeSizeExample runs the README's `queuecap size` example and
// checks the README shows exactly what it prints.
func TestReadmeSizeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```console\n$ queuecap size ")
	if !ok {
		t.Fatal("README.md has no queuecap size example")
	}
	block, _, _ = strings.Cut(block, "```")
	argLine, want, _ := strings.Cut(block, "\n")
	code, got, stderr := cli(t, "", append([]string{"size"}, strings.Fields(argLine)...)...)
	if code != exitOK || got != want {
		t.Errorf("README.md shows\n%s\nqueuecap size %s prints (exit %d, %s)\n%s", want, argLine, code, stderr, got)
	}
}

// TestSizeGroupsCounts: consumer counts are written with thousands
// separators, as every other number is.
func TestSizeGroupsCounts(t *testing.T) {
	code, stdout, stderr := cli(t, "", "size", "--arrival-rate", "2500000", "--per-consumer-rate", "0.9", "--max-backlog", "5e6", "--rto", "15m")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"steady-state consumers  2,777,778 ", "required consumers      2,783,951 "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
}

// TestSizeWarnsOfUnitMistakes: an RTO of 15 s where 15 minutes was meant
// sizes 2,250 consumers for 2,500 msg/s at 90 msg/s each; the CLI says so
// on standard error, and --rto 15m sizes 65.
func TestSizeWarnsOfUnitMistakes(t *testing.T) {
	args := []string{"size", "--arrival-rate", "2500", "--per-consumer-rate", "90", "--max-backlog", "3e6", "--rto", "15"}
	code, stdout, stderr := cli(t, "", args...)
	if code != exitOK || !strings.Contains(stdout, "required consumers      2,250 ") {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
	if !strings.Contains(stderr, "Warning: The required fleet is more than six times the steady state: check the units") ||
		!strings.Contains(strings.Join(strings.Fields(stderr), " "), "if 15 was meant as minutes, write 900, which needs 65 consumers") {
		t.Errorf("stderr:\n%s", stderr)
	}
	args[len(args)-1] = "15m"
	code, stdout, stderr = cli(t, "", args...)
	if code != exitOK || stderr != "" || !strings.Contains(stdout, "required consumers      65 ") {
		t.Errorf("--rto 15m: exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
}
