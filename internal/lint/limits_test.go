// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestYAMLSize(t *testing.T) {
	cases := []struct {
		name         string
		src          string
		nodes, depth int
		err          bool
	}{
		{name: "a map of a list", src: "a: [1, 2]\n", nodes: 6, depth: 4}, // document, map, key, list, two items
		// The document, the map, a, the list and its two items, b and
		// the list again; an alias is a level above its anchor.
		{name: "an alias counts its anchor again", src: "a: &x [1, 2]\nb: *x\n", nodes: 10, depth: 5},
		// c's list holds b's three times, each holding a's three times.
		{name: "aliases of aliases multiply", src: "a: &a [1, 1, 1]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n", nodes: 2 + (1 + 4) + (1 + 1 + 3*4) + (1 + 1 + 3*13), depth: 8},
		{name: "no alias, not YAML yaml.v3 reads", src: "a: [1\n", nodes: 0},
		{name: "an alias in YAML yaml.v3 cannot read", src: "a: &a [1\nb: *a\n", err: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodes, depth, err := yamlSize([]byte(c.src))
			if (err != nil) != c.err || (!c.err && (nodes != c.nodes || (c.depth != 0 && depth != c.depth))) {
				t.Errorf("yamlSize = %d nodes, %d deep, %v; want %d, %d, error %v", nodes, depth, err, c.nodes, c.depth, c.err)
			}
		})
	}
	laughs := "a: &a [" + strings.TrimSuffix(strings.Repeat("1,", 10), ",") + "]\n"
	prev := "a"
	for _, name := range "bcdefghij" {
		laughs += string(name) + ": &" + string(name) + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 10), ",") + "]\n"
		prev = string(name)
	}
	if nodes, _, err := yamlSize([]byte(laughs)); err != nil || nodes != maxValueElements+1 {
		t.Errorf("ten billion laughs: %d nodes, %v; want the count to stop just past %d", nodes, err, maxValueElements)
	}
}

func TestProductSize(t *testing.T) {
	list := func(n int) cty.Value {
		vals := make([]cty.Value, n)
		for i := range vals {
			vals[i] = cty.NumberIntVal(int64(i))
		}
		return cty.ListVal(vals)
	}
	for _, c := range []struct {
		args []cty.Value
		want int
	}{
		{[]cty.Value{list(3), list(4)}, 3 * 4 * 3},
		{[]cty.Value{list(1000), list(1000), list(1000)}, maxValueElements + 1},
		{[]cty.Value{list(3), cty.UnknownVal(cty.List(cty.Number))}, 0},
	} {
		if got := productSize(c.args); got != c.want {
			t.Errorf("productSize = %d, want %d", got, c.want)
		}
	}
}
