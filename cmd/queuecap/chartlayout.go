// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import "strings"

// Placing the chart's labels so that none covers another: an estimate of
// how wide a text is set, and two placements, a column of labels spread
// vertically and rows of labels stacked above points.

// dejaVuSans holds the advance widths of ' ' to '~' in DejaVu Sans, the
// first font the chart asks for, in thousandths of an em, as Chromium
// measures them; the fonts a browser falls back to (Helvetica, Arial) are
// narrower, so the estimate errs wide.
var dejaVuSans = [2][95]uint16{
	{ // regular
		318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636,
		636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
		603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635,
		634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
	},
	{ // bold
		348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696,
		696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
		733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716,
		712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
	},
}

// textWidth is how wide s is, in pixels, at size pixels; a character
// outside ASCII counts a full em.
func textWidth(s string, size float64, bold bool) float64 {
	widths := &dejaVuSans[0]
	if bold {
		widths = &dejaVuSans[1]
	}
	em := 0.0
	for _, r := range s {
		if r >= ' ' && r <= '~' {
			em += float64(widths[r-' '])
		} else {
			em += 1000
		}
	}
	return em * size / 1000
}

// spread places boxes of the given heights, sorted by the top each wants,
// as near it as it can, at least gap apart and within lo to hi when they
// fit (below hi when they do not). It returns the tops.
func spread(want, height []float64, gap, lo, hi float64) []float64 {
	top := make([]float64, len(want))
	next := lo // the highest top the next box may take
	for i := range want {
		top[i] = max(want[i], next)
		next = top[i] + height[i] + gap
	}
	// Push back up from the bottom, but not past lo.
	limit := hi
	for i := len(top) - 1; i >= 0; i-- {
		top[i] = max(min(top[i], limit-height[i]), lo)
		limit = top[i] - gap
	}
	// When they did not fit, the top ones overlap at lo: lay them out
	// downward again.
	next = lo
	for i := range top {
		top[i] = max(top[i], next)
		next = top[i] + height[i] + gap
	}
	return top
}

// wrapText breaks s at spaces into lines at most width pixels wide at
// size pixels (a longer word stands alone).
func wrapText(s string, width, size float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && textWidth(line+" "+word, size, false) > width {
			lines = append(lines, line)
			line = ""
		}
		line = strings.TrimPrefix(line+" "+word, " ")
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// stackRows gives each label, spanning from[i] to to[i] horizontally and
// sorted by from, the lowest row (0 first) where it clears every label
// already in that row by gap.
func stackRows(from, to []float64, gap float64) []int {
	var rowEnd []float64 // the right end of each row's last label, labels taken by their left ends
	rows := make([]int, len(from))
	for i := range from {
		row := 0
		for row < len(rowEnd) && from[i] < rowEnd[row]+gap {
			row++
		}
		if row == len(rowEnd) {
			rowEnd = append(rowEnd, 0)
		}
		rowEnd[row] = to[i]
		rows[i] = row
	}
	return rows
}
