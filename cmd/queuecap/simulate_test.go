// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// seedSimulate is seed 000's retry storm: the steady-state fleet (25) and
// the headroom fleet (32), each without and with 1.5 retries per timeout.
var seedSimulate = []string{"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", "25,32",
	"--backlog", "3.6e6", "--retries-per-timeout", "0,1.5", "--sla", "10s", "--ttl", "1h"}

// TestSimulateSeedGolden pins the text summary of the seed run.
func TestSimulateSeedGolden(t *testing.T) {
	code, stdout, stderr := cli(t, "", seedSimulate...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	golden(t, filepath.Join("testdata", "simulate_seed.golden"), stdout)
}

// TestSimulateSeedTable checks the summary against MATH.md's retry storm
// row: 25 consumers never drain; 32 drain in 1,287 steps (empty at
// t = 1,286 s, 21.4 min); 32 under 1.5 retries never, peak ≈ 4.4 × 10^8.
func TestSimulateSeedTable(t *testing.T) {
	_, stdout, _ := cli(t, "", seedSimulate...)
	rows := map[string][]string{
		"25 ":      {"25         0 ", "0 msg/s", "never drains within 10 h", "3.6M", "10,000 msg/s", "26"},
		"25 storm": {"25         1.5 ", "never drains within 10 h", "544M", "25,000 msg/s", "63"},
		"32 ":      {"32         0 ", "2,800 msg/s", "drains in 21 min 26 s", "3.6M", "10,000 msg/s", "26"},
		"32 storm": {"32         1.5 ", "2,800 msg/s", "never drains within 10 h", "443M", "25,000 msg/s", "63"},
	}
	lines := strings.Split(stdout, "\n")
	for name, cells := range rows {
		found := false
		for _, line := range lines {
			if strings.HasPrefix(line, cells[0]) {
				found = true
				for _, cell := range cells[1:] {
					if !strings.Contains(line, cell) {
						t.Errorf("%s: %q lacks %q", name, line, cell)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no row starting %q in\n%s", name, cells[0], stdout)
		}
	}
	for _, want := range []string{
		"SLA 10 s: depth 100k", "TTL 1 h: depth 36M",
		"one character per 10 min",
		"32 consumers, no retries               ▅▄▂\n", // empty within the third 10 minutes
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
}

func TestSimulateDefaults(t *testing.T) {
	// No retry levels means none; no --out means no chart; no --sla or
	// --ttl means no lines.
	code, stdout, stderr := cli(t, "", "simulate", "--consumers", "32", "--backlog", "3.6e6", "--per-consumer-rate", "400", "--arrival-rate", "10000")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"timeout window 30 s, 10 h simulated", "drains in 21 min 26 s", "32 consumers, no retries"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	for _, unwanted := range []string{"Chart:", "SLA", "TTL"} {
		if strings.Contains(stdout, unwanted) {
			t.Errorf("summary has %q:\n%s", unwanted, stdout)
		}
	}
	// Every fleet drains: the sparkline spans the 25 minutes up to the
	// drain, not the ten hours simulated.
	if !strings.Contains(stdout, "one character per 25 s") {
		t.Errorf("sparkline scale:\n%s", stdout)
	}
}

func TestSimulateEdgeCases(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"empty backlog", []string{"--consumers", "25", "--backlog", "0"}, []string{"drains in 0 s", "  0\n"}},
		{"no arrivals", []string{"--arrival-rate", "0", "--consumers", "0,1", "--backlog", "100"}, []string{"0          0                    0 msg/s    never drains within 10 h", "never drains within 10 h", "drains in 1 s"}},
		{"short run", []string{"--consumers", "32", "--backlog", "3.6e6", "--max", "10m", "--retries-per-timeout", "0,1"}, []string{"never drains within 10 min", "min consumers to drain in 10 min"}},
		{"timeout window and days", []string{"--consumers", "30", "--backlog", "1e6", "--timeout-window", "2m", "--max", "1d", "--retries-per-timeout", "3"}, []string{"timeout window 2 min, 1 d simulated"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400"}, tc.args...)
			code, stdout, stderr := cli(t, t.TempDir(), append(args, "--out", "chart.svg")...)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("summary lacks %q:\n%s", want, stdout)
				}
			}
			checkChart(t, "chart.svg")
		})
	}
}

// TestSimulateRTO: --rto adds the smallest fleet that drains within it
// under each storm, as min_consumers_to_drain does (30 without retries and
// 68 with 1.5 per timeout for seed 000 within 30 minutes).
func TestSimulateRTO(t *testing.T) {
	code, stdout, stderr := cli(t, "", append(slices.Clone(seedSimulate), "--rto", "30m")...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if !strings.Contains(stdout, "min consumers to drain in 10 h  min consumers to drain in 30 min (RTO)\n") {
		t.Errorf("no RTO column:\n%s", stdout)
	}
	for _, row := range []string{"25         0 ", "25         1.5 ", "32         0 ", "32         1.5 "} {
		want := "  26                              30\n"
		if strings.Contains(row, "1.5") {
			want = "  63                              68\n"
		}
		i := strings.Index(stdout, row)
		if i < 0 {
			t.Fatalf("no row %q:\n%s", row, stdout)
		}
		if line := stdout[i : i+strings.Index(stdout[i:], "\n")+1]; !strings.HasSuffix(line, want) {
			t.Errorf("row %q, want it to end %q", line, want)
		}
	}
}

// TestSimulateManySeries: the twelve-series limit is the chart's; the
// table lists any number of runs, and its counts are grouped.
func TestSimulateManySeries(t *testing.T) {
	code, stdout, stderr := cli(t, "", "simulate", "--arrival-rate", "10000", "--per-consumer-rate", "0.4", "--backlog", "1e6",
		"--consumers", "25000,26000,27000,28000,29000", "--retries-per-timeout", "0,1,2", "--max", "10m")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if n := strings.Count(stdout, " consumers, "); n != 15 {
		t.Errorf("%d sparklines, want 15:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "\n29,000     2  ") {
		t.Errorf("consumer counts without separators:\n%s", stdout)
	}
}
