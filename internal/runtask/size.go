// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runtask

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteUnits are the units of ParseByteSize and ByteSize, largest first.
var byteUnits = []struct {
	name string
	size int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}

// ParseByteSize reads a size in bytes: a whole number, or one followed by
// KiB, MiB or GiB ("64MiB", "64 MiB").
func ParseByteSize(s string) (int64, error) {
	num, unit := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(num, u.name); ok {
			num, unit = strings.TrimSpace(n), u.size
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is not a size: use a positive whole number of bytes, KiB, MiB or GiB, such as 64MiB", s)
	}
	return n * unit, nil
}

// ByteSize writes n in the largest unit that divides it: "64 MiB".
func ByteSize(n int64) string {
	for _, u := range byteUnits {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
