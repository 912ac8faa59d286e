// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// This file holds what `size` and `simulate` share: flag values that read
// rates, durations and lists, one-line errors, and the formatting of
// numbers for people. No formula lives here; internal/capacity has them all.

// parseDuration reads seconds from plain numbers ("1800", "0.5") or
// Go/Terraform-style units ("90s", "30m", "2h", "1h30m", "4d").
func parseDuration(s string) (float64, error) { return textfmt.Seconds(s) }

// parseNumber reads a plain number such as 10000, 0.5 or 5e6.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number: use digits such as 10000, 0.5 or 5e6", s)
	}
	return v, nil
}

// parseFraction reads a fraction as a number (0.2) or a percentage (20%).
func parseFraction(s string) (float64, error) {
	if p, ok := strings.CutSuffix(strings.TrimSpace(s), "%"); ok {
		v, err := parseNumber(p)
		return v / 100, err
	}
	return parseNumber(s)
}

// numberFlag is a float flag read by one of the parsers above.
type numberFlag struct {
	v     *float64
	parse func(string) (float64, error)
}

// String is empty for 0, so that help shows only defaults that are not.
func (f numberFlag) String() string {
	if f.v == nil || *f.v == 0 {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f numberFlag) Set(s string) error {
	v, err := f.parse(s)
	if err != nil {
		return err
	}
	*f.v = v
	return nil
}

// listFlag is a comma-separated list ("25,32"); repeating the flag appends.
type listFlag[T any] struct {
	v     *[]T
	parse func(string) (T, error)
}

func (f listFlag[T]) String() string {
	if f.v == nil {
		return ""
	}
	parts := make([]string, len(*f.v))
	for i, x := range *f.v {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}

func (f listFlag[T]) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty list")
	}
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" {
			return fmt.Errorf("empty item in %q", s)
		}
		x, err := f.parse(part)
		if err != nil {
			return err
		}
		*f.v = append(*f.v, x)
	}
	return nil
}

func parseCount(s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return v, nil
}

// flagOf names the flag behind each internal/capacity input.
var flagOf = map[string]string{
	"arrival_rate":             "--arrival-rate",
	"per_consumer_rate":        "--per-consumer-rate",
	"max_backlog":              "--max-backlog",
	"rto_seconds":              "--rto",
	"retry_rate":               "--retry-rate",
	"avg_retries":              "--avg-retries",
	"min_headroom":             "--min-headroom",
	"provisioning_lag_seconds": "--provisioning-lag",
	"min_consumers":            "--min-consumers",
	"consumers":                "--consumers",
	"backlog":                  "--backlog",
	"retries_per_timeout":      "--retries-per-timeout",
	"timeout_window_seconds":   "--timeout-window",
	"max_seconds":              "--max",
	"sla_seconds":              "--sla",
	"ttl_seconds":              "--ttl",
	"incident_seconds":         "--ttl",
}

// reportError prints err in one line, naming the flag an input error is
// about, and returns the exit code.
func reportError(stderr io.Writer, err error) int {
	var in *capacity.InputError
	if errors.As(err, &in) {
		if name, ok := flagOf[in.Field]; ok {
			err = errors.New(name + " " + in.Reason)
		}
	}
	fmt.Fprintf(stderr, "Error: %v\n", err)
	return exitError
}

// formatDuration prints seconds in the two largest units that apply,
// rounded to the smaller one: "29 min 46 s", "1 h 30 min", "10 h".
func formatDuration(seconds float64) string {
	if seconds < 10 {
		return trimNumber(strconv.FormatFloat(seconds, 'f', 2, 64)) + " s"
	}
	units := []struct {
		name string
		size int64
	}{{"d", capacity.SecondsPerDay}, {"h", 3600}, {"min", 60}, {"s", 1}}
	for i, u := range units[:len(units)-1] {
		small := units[i+1]
		if seconds < float64(u.size)-float64(small.size)/2 { // 59.6 s rounds to 1 min
			continue
		}
		n := int64(math.Round(seconds / float64(small.size))) // in the smaller unit
		per := u.size / small.size
		big, rest := n/per, n%per
		if rest == 0 {
			return fmt.Sprintf("%d %s", big, u.name)
		}
		return fmt.Sprintf("%d %s %d %s", big, u.name, rest, small.name)
	}
	return fmt.Sprintf("%d s", int64(math.Round(seconds)))
}

// formatCount prints a message count with a k/M/G/T suffix and three
// significant digits: 3.6M, 443M, 100k, 950.
func formatCount(x float64) string {
	suffixes := []struct {
		s string
		v float64
	}{{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}}
	for _, s := range suffixes {
		// Round first, so that 999,999 reads 1M rather than 1000k.
		if r, _ := strconv.ParseFloat(strconv.FormatFloat(math.Abs(x), 'g', 3, 64), 64); r >= s.v {
			return trimNumber(strconv.FormatFloat(x/s.v, 'g', 3, 64)) + s.s
		}
	}
	return trimNumber(strconv.FormatFloat(x, 'g', 3, 64))
}

// formatNumber prints a number as every report of queuecap does: 10,000,
// 2,800, 0.33.
func formatNumber(x float64) string { return textfmt.Grouped(x) }

// formatConsumers is a count of consumers with thousands separators:
// 2,783,951.
func formatConsumers(n int64) string { return textfmt.Grouped(float64(n)) }

func formatRate(x float64) string { return formatNumber(x) + " msg/s" }

// formatPercent prints a fraction as a percentage with one decimal.
func formatPercent(fraction float64) string {
	return trimNumber(strconv.FormatFloat(fraction*100, 'f', 1, 64)) + " %"
}

// trimNumber drops trailing zeros after a decimal point: 2.50 → 2.5.
func trimNumber(s string) string { return textfmt.Trim(s) }
