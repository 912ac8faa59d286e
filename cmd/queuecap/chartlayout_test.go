// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
)

func TestChartTextWidth(t *testing.T) {
	cases := []struct {
		text string
		size float64
		bold bool
		want float64
	}{
		{"", 13, false, 0},
		{"10 h", 10, false, (636 + 636 + 318 + 634) / 100.0},
		{"10 h", 10, true, (696 + 696 + 348 + 712) / 100.0},
		{"λ × TTL", 10, false, (1000 + 318 + 1000 + 318 + 611 + 611 + 557) / 100.0}, // outside ASCII: an em
	}
	for _, tc := range cases {
		if got := textWidth(tc.text, tc.size, tc.bold); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("textWidth(%q, %v, %v) = %v, want %v", tc.text, tc.size, tc.bold, got, tc.want)
		}
	}
}

func TestChartSpread(t *testing.T) {
	cases := []struct {
		name         string
		want, height []float64
		gap, lo, hi  float64
		top          []float64
	}{
		{"apart already", []float64{0, 50}, []float64{20, 20}, 5, 0, 100, []float64{0, 50}},
		{"pushed down", []float64{10, 12, 14}, []float64{20, 20, 20}, 5, 0, 100, []float64{10, 35, 60}},
		{"pushed up from the bottom", []float64{90, 95}, []float64{20, 20}, 5, 0, 100, []float64{55, 80}},
		{"kept below lo", []float64{-50, -40}, []float64{20, 20}, 5, 0, 100, []float64{0, 25}},
		{"all at the bottom", []float64{100, 100, 100}, []float64{30, 30, 30}, 5, 0, 100, []float64{0, 35, 70}},
		{"too many: overflow below hi", []float64{50, 50, 50}, []float64{40, 40, 40}, 5, 0, 100, []float64{0, 45, 90}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := spread(tc.want, tc.height, tc.gap, tc.lo, tc.hi); !slices.Equal(got, tc.top) {
				t.Errorf("spread = %v, want %v", got, tc.top)
			}
		})
	}
}

func TestChartStackRows(t *testing.T) {
	cases := []struct {
		name     string
		from, to []float64
		rows     []int
	}{
		{"apart", []float64{0, 20}, []float64{10, 30}, []int{0, 0}},
		{"closer than the gap", []float64{0, 12}, []float64{10, 30}, []int{0, 1}},
		{"a gap in the first row is reused", []float64{0, 5, 20}, []float64{10, 30, 40}, []int{0, 1, 0}},
		{"three deep", []float64{0, 1, 2}, []float64{50, 50, 50}, []int{0, 1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := stackRows(tc.from, tc.to, 5); !slices.Equal(got, tc.rows) {
				t.Errorf("stackRows = %v, want %v", got, tc.rows)
			}
		})
	}
}

// TestChartColorsDistinct holds the palette to its comment: twelve colors,
// any two at least ΔE 12 apart (CIE 1976, in CIELAB) with normal vision
// and under full protanopia, deuteranopia and tritanopia as Machado,
// Oliveira and Fernandes (2009) simulate them, and each far (ΔE ≥ 25)
// from the smallest fleet's black.
func TestChartColorsDistinct(t *testing.T) {
	if len(seriesColors) < maxSeries {
		t.Fatalf("%d colors for up to %d series", len(seriesColors), maxSeries)
	}
	visions := map[string]*[3][3]float64{
		"normal":       nil,
		"protanopia":   {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
		"deuteranopia": {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
		"tritanopia":   {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
	}
	for name, m := range visions {
		for i, a := range seriesColors {
			if d := deltaE(lab(a, m), lab(smallestColor, m)); d < 25 {
				t.Errorf("%s: %s is ΔE %.1f from the smallest fleet's %s", name, a, d, smallestColor)
			}
			for _, b := range seriesColors[i+1:] {
				if d := deltaE(lab(a, m), lab(b, m)); d < 12 {
					t.Errorf("%s: %s and %s are ΔE %.1f apart", name, a, b, d)
				}
			}
		}
	}
}

// lab converts a #rrggbb color to CIELAB (D65), first through a color
// vision deficiency's matrix on linear RGB when m is not nil.
func lab(hex string, m *[3][3]float64) [3]float64 {
	var rgb [3]float64
	for i := range rgb {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			panic(fmt.Sprintf("color %q: %v", hex, err))
		}
		c := float64(v) / 255
		if c <= 0.04045 {
			rgb[i] = c / 12.92
		} else {
			rgb[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	if m != nil {
		var out [3]float64
		for i := range out {
			out[i] = max(0, min(1, m[i][0]*rgb[0]+m[i][1]*rgb[1]+m[i][2]*rgb[2]))
		}
		rgb = out
	}
	x := (0.4124*rgb[0] + 0.3576*rgb[1] + 0.1805*rgb[2]) / 0.95047
	y := 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
	z := (0.0193*rgb[0] + 0.1192*rgb[1] + 0.9505*rgb[2]) / 1.08883
	f := func(v float64) float64 {
		if v > 0.008856 {
			return math.Cbrt(v)
		}
		return 7.787*v + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

func deltaE(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}
