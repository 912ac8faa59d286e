// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package textfmt

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// daysPrefix splits a leading day count off a duration ("4d", "1d12h"):
// Go durations stop at hours, but retention periods are given in days.
var daysPrefix = regexp.MustCompile(`^(\d+(?:\.\d+)?)d(.*)$`)

// Seconds reads seconds from plain numbers ("1800", "0.5") or
// Go/Terraform-style units ("90s", "30m", "2h", "1h30m", "4d"): how the
// CLI reads a duration, and how the provider says what a duration given
// where it takes seconds is in seconds.
func Seconds(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty duration")
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a finite number of seconds", s)
		}
		return v, nil
	}
	days := 0.0
	if m := daysPrefix.FindStringSubmatch(s); m != nil {
		days, _ = strconv.ParseFloat(m[1], 64) // the pattern admits only decimals
		if s = m[2]; s == "" {
			return days * capacity.SecondsPerDay, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: use seconds (1800) or units such as 90s, 30m, 2h, 1h30m, 4d", s)
	}
	return days*capacity.SecondsPerDay + d.Seconds(), nil
}
