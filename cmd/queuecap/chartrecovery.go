// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"cmp"
	"math"
	"slices"
)

// The recovery panel. The main plot's time axis spans the slowest run, or
// the whole simulation when a run never drains, so a fleet that drains in
// minutes next to one that takes hours falls steeply at its left edge,
// unreadable. A second panel then shows the first minutes on linear axes:
// time up to just past the fast drains, depth from 0, where a drain is a
// line reaching the bottom.

// recoveryShare is the share of the main time axis within which a drain is
// squeezed against its left edge: a tenth, an order of magnitude.
const recoveryShare = 0.1

// recoveryWindow decides, from the drain times, whether the chart needs a
// recovery panel and how long it spans: a round time a little past the
// last drain within the first tenth of horizon seconds. 0 means none:
// nothing drains, or each drain is instant (t = 0) or reads well on the
// main axis.
func recoveryWindow(horizon float64, drains []float64) float64 {
	last := 0.0
	for _, d := range drains {
		if d > 0 && d < recoveryShare*horizon {
			last = max(last, d)
		}
	}
	if last == 0 {
		return 0
	}
	return roundUpTime(last*1.1, horizon) // the last of them short of the right edge
}

// roundUpTime is seconds rounded up to a tick of its own time axis, at
// most limit.
func roundUpTime(seconds, limit float64) float64 {
	step, _, _ := timeTicks(seconds)
	return min(limit, math.Ceil(seconds/step)*step)
}

func drainTimes(runs []stormRun) []float64 {
	var drains []float64
	for _, r := range runs {
		if r.storm.Drains {
			drains = append(drains, *r.storm.DrainSeconds)
		}
	}
	return drains
}

// Layout of the recovery panel, below the main plot's caption.
const (
	recoveryGap    = 50 // from the caption to the panel's top
	recoveryHeight = 260
	drainLabelRow  = 18 // between stacked drain labels
	drainLabelSize = 12
)

type recoveryPanel struct {
	c                   *depthChart
	seconds             float64 // the time axis spans 0 to seconds
	depthMax, depthStep float64
	top, bottom         float64
}

// newRecoveryPanel lays out the panel under c's caption, its depth axis
// reaching just past the highest depth of the curves that drain in it.
func newRecoveryPanel(c *depthChart, seconds float64) *recoveryPanel {
	highest := 0.0
	for _, s := range c.series {
		if s.drainedAt != nil && *s.drainedAt <= seconds {
			for _, p := range s.recovery {
				highest = max(highest, p.depth)
			}
		}
	}
	r := &recoveryPanel{c: c, seconds: seconds, top: c.plotBottom + 76 + captionLineHeight*float64(len(c.caption)) + recoveryGap}
	r.bottom = r.top + recoveryHeight
	r.depthStep, r.depthMax = depthTicks(highest)
	return r
}

// depthTicks picks a round step (1, 2, 2.5 or 5 times a power of ten)
// giving at most five intervals up to highest, and the axis' top.
func depthTicks(highest float64) (step, top float64) {
	if highest <= 0 {
		return 1, 1
	}
	for e := math.Floor(math.Log10(highest)) - 1; ; e++ {
		for _, m := range []float64{1, 2, 2.5, 5} {
			step = m * math.Pow(10, e)
			if highest/step <= 5+1e-9 {
				return step, math.Ceil(highest/step-1e-9) * step
			}
		}
	}
}

func (r *recoveryPanel) x(t float64) float64 {
	return plotLeft + t/r.seconds*(plotRight-plotLeft)
}

// y places a depth; far above the top it stops, hidden by the clip.
func (r *recoveryPanel) y(depth float64) float64 {
	return max(r.top-20, r.bottom-depth/r.depthMax*(r.bottom-r.top))
}

func (r *recoveryPanel) pixel(p point) point { return point{r.x(p.t), r.y(p.depth)} }

func (r *recoveryPanel) write(p func(string, ...any)) {
	c := r.c
	p(`<g id="recovery">` + "\n")
	p(`<text x="%d" y="%s" font-size="15" font-weight="bold">Recovery: the first %s, on linear axes</text>`+"\n",
		plotLeft, num(r.top-14), formatDuration(r.seconds))
	p(`<clipPath id="recovery-clip"><rect x="%d" y="%s" width="%d" height="%s"/></clipPath>`+"\n",
		plotLeft, num(r.top), plotRight-plotLeft, num(r.bottom-r.top))
	if ttl := c.ttlLine(); ttl != nil && ttl.depth < r.depthMax {
		p(`<rect class="ttl-band" x="%d" y="%s" width="%d" height="%s" fill="#c00" fill-opacity="0.07"/>`+"\n",
			plotLeft, num(r.top), plotRight-plotLeft, num(r.y(ttl.depth)-r.top))
	}

	p(`<g id="recovery-y-axis" font-size="13" text-anchor="end">` + "\n")
	for d := 0.0; d <= r.depthMax+r.depthStep/2; d += r.depthStep {
		y := num(r.y(d))
		p(`<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#d0d0d0"/>`+"\n", plotLeft, plotRight, y, y)
		p(`<text x="%d" y="%s">%s</text>`+"\n", plotLeft-10, num(r.y(d)+4.5), formatCount(d))
	}
	p(`<text transform="translate(30 %s) rotate(-90)" text-anchor="middle" font-size="14">queue depth, messages</text>`+"\n", num((r.top+r.bottom)/2))
	p("</g>\n")
	writeTimeAxis(p, "recovery-x-axis", r.seconds, r.x, r.top, r.bottom)
	p(`<rect id="recovery-plot" x="%d" y="%s" width="%d" height="%s" fill="none" stroke="#888"/>`+"\n",
		plotLeft, num(r.top), plotRight-plotLeft, num(r.bottom-r.top))

	r.writeRefLines(p)
	p(`<g id="recovery-series" clip-path="url(#recovery-clip)" fill="none" stroke-linejoin="round" stroke-linecap="round">` + "\n")
	for _, s := range c.series {
		p(`<polyline%s stroke="%s" stroke-width="%s"%s points="%s"><title>%s (%s): %s</title></polyline>`+"\n",
			smallestClass(s.smallest), s.color, num(s.width), dashAttr(s.dash), polyline(s.recovery, r.pixel), esc(s.label), esc(s.capacity), esc(s.outcome))
	}
	p("</g>\n")
	r.writeDrains(p)
	p("</g>\n")
}

// writeRefLines draws the reference depths within the panel's range,
// named in its right margin.
func (r *recoveryPanel) writeRefLines(p func(string, ...any)) {
	var refs []refLine
	for _, ref := range r.c.refs {
		if ref.depth <= r.depthMax {
			refs = append(refs, ref)
		}
	}
	slices.SortFunc(refs, func(a, b refLine) int { return cmp.Compare(r.y(a.depth), r.y(b.depth)) })
	want, height := make([]float64, len(refs)), make([]float64, len(refs))
	for i, ref := range refs {
		want[i], height[i] = r.y(ref.depth)-8.5, labelLineHeight
	}
	tops := spread(want, height, labelGap, r.top-labelOverhang, r.bottom+labelOverhang)
	p(`<g id="recovery-reference-lines">` + "\n")
	for i, ref := range refs {
		y := num(r.y(ref.depth))
		p(`<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>`, plotLeft, plotRight, y, y, refColor, refDash)
		p(`<line class="leader" x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>`,
			plotRight, y, labelTextX-6, num(tops[i]+8.5), refColor, refDash)
		p(`<text x="%d" y="%s" font-size="13" font-weight="bold">%s</text>`+"\n", labelTextX, num(tops[i]+13), esc(ref.name))
	}
	p("</g>\n")
}

// writeDrains ends each curve that drains within the panel in a dot on its
// bottom, labelled with the fleet and the drain time on a white ground,
// the labels stacked in rows where they would overlap and each joined to
// its dot by a leader that passes behind the labels below it.
func (r *recoveryPanel) writeDrains(p func(string, ...any)) {
	type drainLabel struct {
		s        chartSeries
		text     string
		x        float64 // the dot's
		from, to float64 // the text's extent
	}
	var labels []drainLabel
	for _, s := range r.c.series {
		if s.drainedAt == nil || *s.drainedAt > r.seconds {
			continue
		}
		l := drainLabel{s: s, text: s.label + ": " + s.outcome, x: r.x(*s.drainedAt)}
		w := textWidth(l.text, drainLabelSize, false)
		l.from, l.to = l.x+4, l.x+4+w
		if l.to > plotRight-4 {
			l.from, l.to = l.x-4-w, l.x-4
		}
		labels = append(labels, l)
	}
	slices.SortStableFunc(labels, func(a, b drainLabel) int { return cmp.Compare(a.from, b.from) })
	from, to := make([]float64, len(labels)), make([]float64, len(labels))
	for i, l := range labels {
		from[i], to[i] = l.from, l.to
	}
	rows := stackRows(from, to, 8)
	baseline := func(i int) float64 { return r.bottom - 16 - float64(rows[i]*drainLabelRow) }
	p(`<g id="recovery-drains" font-size="%d">`+"\n", drainLabelSize)
	for i, l := range labels {
		p(`<line class="leader" x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s" stroke-width="1.5"/>`+"\n",
			num(l.x), num(l.x), num(r.bottom), num(baseline(i)-drainLabelSize/2), l.s.color)
	}
	for i, l := range labels {
		p(`<circle cx="%s" cy="%s" r="6" fill="%s" stroke="#fff" stroke-width="2"/>`, num(l.x), num(r.bottom), l.s.color)
		p(`<rect x="%s" y="%s" width="%s" height="%d" fill="#fff" fill-opacity="0.9"/>`,
			num(l.from-2), num(baseline(i)-drainLabelSize), num(l.to-l.from+4), drainLabelSize+4)
		p(`<text x="%s" y="%s">%s</text>`+"\n", num(l.from), num(baseline(i)), esc(l.text))
	}
	p("</g>\n")
}
