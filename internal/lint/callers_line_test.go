// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"strings"
	"testing"
)

// lineOf finds a line as strings.Split on newlines would, without
// splitting the whole file.
func TestLineOf(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "a\nb", "a\r\nb\n\nc", "x = var.y\n  z = 1\n"} {
		lines := strings.Split(src, "\n")
		for n := 1; n <= len(lines)+1; n++ {
			got, ok := lineOf([]byte(src), n)
			want, wantOK := "", n <= len(lines)
			if wantOK {
				want = lines[n-1]
			}
			if string(got) != want || ok != wantOK {
				t.Errorf("lineOf(%q, %d) = %q, %v; want %q, %v", src, n, got, ok, want, wantOK)
			}
		}
	}
}
