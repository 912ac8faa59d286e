// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"
	"testing"
)

// TestAddInstance: instances are listed in addressLess order, once each;
// keys equal by value ("01" and "1") are still two instances.
func TestAddInstance(t *testing.T) {
	var got []string
	first := `w["2"]`
	for _, a := range []string{`w["01"]`, `w["1"]`, `w["2"]`, `w["10"]`, `w["1"]`, ""} {
		got = addInstance(got, first, a)
	}
	want := []string{`w["01"]`, `w["1"]`, `w["2"]`, `w["10"]`}
	if !slices.Equal(got, want) {
		t.Errorf("instances %q, want %q", got, want)
	}
	if got := addInstance(nil, "", "x"); len(got) != 0 {
		t.Errorf("instances %q of a skip with no address, want none", got)
	}
}
