// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"strings"
	"testing"
)

func TestParseDuration(t *testing.T) {
	cases := []struct {
		in   string
		want float64
	}{
		{"90s", 90},
		{"30m", 1800},
		{"2h", 7200},
		{"1h30m", 5400},
		{"1800", 1800},
		{" 1800 ", 1800},
		{"0.5", 0.5},
		{"1e3", 1000},
		{"500ms", 0.5},
		{"1.5h", 5400},
		{"4d", 345600},
		{"1d12h", 129600},
		{"0.5d", 43200},
		{"-30m", -1800}, // parsed; the formulas reject it with the flag's name
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseDuration(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("parseDuration(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
	for _, in := range []string{"", "  ", "30x", "abc", "NaN", "Inf", "1e400", "d", "1d2", "h", "30 min", "1,800"} {
		t.Run("invalid "+in, func(t *testing.T) {
			if got, err := parseDuration(in); err == nil {
				t.Errorf("parseDuration(%q) = %v, want an error", in, got)
			}
		})
	}
}

func TestParseNumbers(t *testing.T) {
	for in, want := range map[string]float64{"10000": 10000, "5e6": 5e6, "3.6e6": 3.6e6, "0.5": 0.5, "-1": -1, " 400 ": 400} {
		if got, err := parseNumber(in); err != nil || got != want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "10k", "1,000", "NaN", "-Inf", "1e999"} {
		if got, err := parseNumber(in); err == nil {
			t.Errorf("parseNumber(%q) = %v, want an error", in, got)
		}
	}
	for in, want := range map[string]float64{"0.2": 0.2, "20%": 0.2, "5 %": 0.05, "100%": 1} {
		if got, err := parseFraction(in); err != nil || got != want {
			t.Errorf("parseFraction(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseFraction("x%"); err == nil {
		t.Error(`parseFraction("x%") succeeded`)
	}
}

func TestListFlag(t *testing.T) {
	var counts []int64
	f := listFlag[int64]{&counts, parseCount}
	if err := f.Set("25,32"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set(" 40 "); err != nil { // repeating the flag appends
		t.Fatal(err)
	}
	if got := f.String(); got != "25,32,40" {
		t.Errorf("list %s, want 25,32,40", got)
	}
	for _, in := range []string{"", " ", "25,", ",25", "25,,32", "2.5", "x"} {
		if err := f.Set(in); err == nil {
			t.Errorf("Set(%q) succeeded", in)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	cases := []struct {
		seconds float64
		want    string
	}{
		{0, "0 s"},
		{0.25, "0.25 s"},
		{9.5, "9.5 s"},
		{30, "30 s"},
		{59.6, "1 min"},
		{90, "1 min 30 s"},
		{1285.7, "21 min 26 s"}, // MATH.md: the headroom fleet drains 3.6 M in 1,285.7 s
		{1286, "21 min 26 s"},
		{5e6 / 2800, "29 min 46 s"}, // 1,785.7 s
		{1800, "30 min"},
		{3599.9, "1 h"},
		{5400, "1 h 30 min"},
		{36000, "10 h"},
		{345600, "4 d"},
		{100000, "1 d 4 h"},
	}
	for _, tc := range cases {
		if got := formatDuration(tc.seconds); got != tc.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tc.seconds, got, tc.want)
		}
	}
}

func TestFormatNumbers(t *testing.T) {
	counts := map[float64]string{
		0: "0", 950: "950", 1000: "1k", 1e5: "100k", 999_999: "1M", 3.6e6: "3.6M", 3.6e7: "36M",
		443_151_200: "443M", 5.44e8: "544M", 1e9: "1G", 2.5e12: "2.5T",
	}
	for x, want := range counts {
		if got := formatCount(x); got != want {
			t.Errorf("formatCount(%v) = %q, want %q", x, got, want)
		}
	}
	if got := formatPercent(0.28); got != "28 %" {
		t.Errorf("formatPercent(0.28) = %q", got)
	}
	if got := formatPercent(0.78125); got != "78.1 %" {
		t.Errorf("formatPercent(0.78125) = %q", got)
	}
	if got := formatRate(10000); got != "10,000 msg/s" {
		t.Errorf("formatRate(10000) = %q", got)
	}
}

// TestCommandErrors checks that bad input to size and simulate is one line
// on stderr starting with "Error: ", nothing on stdout, and exit 1.
func TestCommandErrors(t *testing.T) {
	size := []string{"size", "--arrival-rate", "10000", "--per-consumer-rate", "400"}
	sim := []string{"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", "25,32", "--backlog", "3.6e6"}
	with := func(base []string, extra ...string) []string { return append(append([]string{}, base...), extra...) }
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"size: unknown flag", with(size, "--colour"), "Error: unknown flag --colour (see 'queuecap size --help')"},
		{"size: a misspelled flag", with(size, "--arrival-rat", "5"), "unknown flag --arrival-rat: did you mean --arrival-rate?"},
		{"size: missing arrival rate", []string{"size", "--per-consumer-rate", "400"}, "--arrival-rate is required"},
		{"size: negative arrival rate", []string{"size", "--arrival-rate", "-1", "--per-consumer-rate", "400"}, "--arrival-rate value must be at least 0, got: -1"},
		{"size: zero per-consumer rate", []string{"size", "--arrival-rate", "10000", "--per-consumer-rate", "0"}, "--per-consumer-rate value must be greater than 0"},
		{"size: rate not a number", []string{"size", "--arrival-rate", "10k", "--per-consumer-rate", "400"}, `invalid value "10k" for --arrival-rate: "10k" is not a number`},
		{"size: bad duration", with(size, "--max-backlog", "5e6", "--rto", "30x"), `invalid value "30x" for --rto: "30x" is not a duration`},
		{"size: backlog without RTO", with(size, "--max-backlog", "5e6"), "--rto is required when max_backlog is greater than 0"},
		{"size: negative RTO", with(size, "--max-backlog", "5e6", "--rto", "-30m"), "--rto value must be greater than 0, got: -1800"},
		{"size: retry rate above 1", with(size, "--retry-rate", "150%"), "--retry-rate value must be between 0 and 1, got: 1.5"},
		{"size: unknown format", with(size, "--format", "yaml"), `unknown format "yaml": valid formats are text, json`},
		{"size: stray argument", with(size, "extra"), `unexpected argument "extra"`},
		{"simulate: unknown flag", with(sim, "--sla-seconds", "10"), "Error: unknown flag --sla-seconds (see 'queuecap simulate --help')"},
		{"simulate: missing consumers", []string{"simulate", "--arrival-rate", "1", "--per-consumer-rate", "1", "--backlog", "1"}, "--consumers is required"},
		{"simulate: missing backlog", []string{"simulate", "--arrival-rate", "1", "--per-consumer-rate", "1", "--consumers", "1"}, "--backlog is required"},
		{"simulate: empty list", with(sim, "--retries-per-timeout", ""), `invalid value "" for --retries-per-timeout: empty list`},
		{"simulate: empty item", with(sim, "--retries-per-timeout", "0,,1"), `empty item in "0,,1"`},
		{"simulate: fractional consumers", []string{"simulate", "--arrival-rate", "1", "--per-consumer-rate", "1", "--consumers", "2.5", "--backlog", "1"}, `"2.5" is not a whole number`},
		{"simulate: negative consumers", []string{"simulate", "--arrival-rate", "1", "--per-consumer-rate", "1", "--consumers", "-3", "--backlog", "1"}, "--consumers must be between 0 and"},
		{"simulate: negative rate", []string{"simulate", "--arrival-rate", "-5", "--per-consumer-rate", "1", "--consumers", "3", "--backlog", "1"}, "--arrival-rate must be at least 0, got -5"},
		{"simulate: zero per-consumer rate", []string{"simulate", "--arrival-rate", "5", "--per-consumer-rate", "0", "--consumers", "3", "--backlog", "1"}, "--per-consumer-rate must be greater than 0"},
		{"simulate: negative retries", with(sim, "--retries-per-timeout", "-1"), "--retries-per-timeout must be at least 0, got -1"},
		{"simulate: zero timeout window", with(sim, "--timeout-window", "0s"), "--timeout-window must be greater than 0"},
		{"simulate: bad duration", with(sim, "--max", "ten hours"), `invalid value "ten hours" for --max`},
		{"simulate: fractional max", with(sim, "--max", "1.5s"), "--max must be whole seconds, got 1.5"},
		{"simulate: max too long", with(sim, "--max", "30d"), "--max must be between 1 and 864000"},
		{"simulate: zero SLA", with(sim, "--sla", "0"), "--sla must be greater than 0"},
		{"simulate: zero TTL", with(sim, "--ttl", "0s"), "--ttl must be greater than 0"},
		{"simulate: too many series for a chart", with(sim, "--consumers", "1,2,3,4,5", "--retries-per-timeout", "0,1,2", "--out", "depth.svg"), "series: at most 12 fit one chart (without --out the table lists them all)"},
		{"simulate: fractional RTO", with(sim, "--rto", "1.5s"), "--rto must be whole seconds from 1 s to --max (10 h), got 1.5"},
		{"simulate: RTO beyond the simulation", with(sim, "--rto", "11h"), "--rto must be whole seconds from 1 s to --max (10 h), got 39,600"},
		{"simulate: unwritable chart", with(sim, "--out", "/nonexistent/dir/depth.svg"), "/nonexistent/dir/depth.svg"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", tc.args...)
			if code != exitError {
				t.Errorf("exit %d, want 1", code)
			}
			if stdout != "" {
				t.Errorf("stdout: %q, want nothing", stdout)
			}
			if !strings.HasPrefix(stderr, "Error: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("stderr %q, want one line starting with Error: ", stderr)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr, tc.stderr)
			}
		})
	}
}

func TestCommandHelp(t *testing.T) {
	for _, cmd := range []string{"size", "simulate"} {
		code, stdout, stderr := cli(t, "", cmd, "--help")
		if code != exitOK || stderr != "" || !strings.Contains(stdout, "Usage: queuecap "+cmd) || !strings.Contains(stdout, "-arrival-rate messages/s") {
			t.Errorf("%s --help: exit %d, stdout %q, stderr %q", cmd, code, stdout, stderr)
		}
	}
	code, stdout, _ := cli(t, "", "help")
	if code != exitOK || !strings.Contains(stdout, "  size ") || !strings.Contains(stdout, "  simulate ") {
		t.Errorf("help lists no size and simulate: %s", stdout)
	}
}
