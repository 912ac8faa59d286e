// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The depth chart is drawn on a log scale. A storm grows the depth a
// hundredfold (3.6 M to 443 M in the seed) while the SLA depth (100 k) and
// the TTL depth (36 M) sit decades apart: on a linear axis the draining
// fleet, the SLA line and the flat steady-state fleet would all lie within
// one percent of the axis, flat against the bottom. Each decade gets the
// same height instead, so every series and both lines are readable at once.
// A log axis cannot show 0, so a drained queue drops to the bottom of the
// axis and ends in a marker labelled with its drain time.

// point is the depth, in messages, t seconds into a simulation.
type point struct{ t, depth float64 }

// recordedBuckets bounds the points kept per series, about one bucket per
// pixel of the plot's width however long the run; the SVG keeps fewer
// still (see polyline).
const recordedBuckets = 1000

// recorder downsamples the first seconds of a simulation as it runs: of
// every bucket of consecutive seconds it keeps the first, lowest, highest
// and last state, so peaks and the drain itself survive.
type recorder struct {
	bucket, current          int64
	until                    float64
	first, low, high, latest point
	open                     bool
	kept                     []point
}

func newRecorder(seconds float64) *recorder {
	return &recorder{bucket: max(1, int64(math.Ceil(seconds/recordedBuckets))), until: seconds}
}

// visit has the signature capacity.SimulateStorm calls.
func (r *recorder) visit(t int64, depth, _ float64) {
	p := point{float64(t), depth}
	if p.t > r.until {
		return
	}
	if b := t / r.bucket; !r.open || b != r.current {
		r.flush()
		r.current, r.first, r.low, r.high, r.open = b, p, p, p, true
	}
	if depth < r.low.depth {
		r.low = p
	}
	if depth > r.high.depth {
		r.high = p
	}
	r.latest = p
}

func (r *recorder) flush() {
	if !r.open {
		return
	}
	bucket := []point{r.first, r.low, r.high, r.latest}
	slices.SortStableFunc(bucket, func(a, b point) int { return cmp.Compare(a.t, b.t) })
	r.kept = append(r.kept, slices.Compact(bucket)...)
	r.open = false
}

// points returns what was kept, in time order.
func (r *recorder) points() []point {
	r.flush()
	return r.kept
}

// logScale spans whole decades, 10^lo to 10^hi messages.
type logScale struct{ lo, hi int }

// newLogScale covers every series' start, peak and (when it does not drain)
// end, and the reference lines, with one more decade below the lowest so
// that a draining series visibly falls away before reaching the bottom.
func newLogScale(runs []stormRun, refs []refLine) logScale {
	var values []float64
	for _, r := range runs {
		values = append(values, r.storm.PeakDepth, r.in.Backlog)
		if !r.storm.Drains {
			values = append(values, r.storm.FinalDepth)
		}
	}
	for _, ref := range refs {
		values = append(values, ref.depth)
	}
	lowest, highest := math.Inf(1), 0.0
	for _, v := range values {
		if v > 0 {
			lowest, highest = min(lowest, v), max(highest, v)
		}
	}
	if highest == 0 {
		return logScale{0, 1}
	}
	// The tolerance keeps exact powers of ten (1e9) on their decade.
	s := logScale{lo: int(math.Floor(math.Log10(lowest)+1e-9)) - 1, hi: int(math.Ceil(math.Log10(highest) - 1e-9))}
	s.hi = max(s.hi, s.lo+1)
	return s
}

func (s logScale) min() float64 { return math.Pow(10, float64(s.lo)) }
func (s logScale) max() float64 { return math.Pow(10, float64(s.hi)) }

// fraction is where depth sits between the bottom (0) and the top (1);
// depths below the bottom, 0 included, clip to it.
func (s logScale) fraction(depth float64) float64 {
	if depth <= s.min() {
		return 0
	}
	return min(1, (math.Log10(depth)-float64(s.lo))/float64(s.hi-s.lo))
}

// refLine is a horizontal line at a depth that means something.
type refLine struct {
	name    string // "SLA 10 s"
	depth   float64
	meaning string
	note    []string // what it means, in lines short enough for its label
	ttl     bool     // the TTL depth, above which messages are dropped
}

// crossing is when a curve passes a depth, rising above it (up) or
// falling back to it.
type crossing struct {
	t  float64 // seconds
	up bool
}

// crossingWatch finds where a simulation's depth crosses a depth, in its
// first until seconds; a depth above it from the start rises at 0.
type crossingWatch struct {
	depth, until float64
	above        bool
	found        []crossing
}

// visit has the signature capacity.SimulateStorm calls.
func (w *crossingWatch) visit(t int64, depth, _ float64) {
	if above := depth > w.depth; float64(t) <= w.until && above != w.above {
		w.found = append(w.found, crossing{float64(t), above})
		w.above = above
	}
}

type chartSeries struct {
	label     string // "32 consumers, no retries"
	capacity  string // "12,800 msg/s"
	outcome   string // "empty at 21 min 26 s", "never drains, peak 443M"
	color     string
	dash      string
	width     float64 // of the line, pixels
	smallest  bool    // the smallest fleet that drains under its retry level
	points    []point
	recovery  []point    // over the recovery panel's window
	ttl       []crossing // of the TTL depth
	final     float64    // depth at the end of the chart
	drainedAt *float64   // seconds; nil when it never drains
}

type depthChart struct {
	title, subtitle string
	horizon         float64 // seconds on the time axis
	simulated       float64 // seconds
	scale           logScale
	series          []chartSeries
	refs            []refLine
	// Laid out by layOut, from the labels.
	width, height, plotBottom float64
	labels                    []marginLabel
	caption                   []string       // lines under the plot
	recovery                  *recoveryPanel // nil when not needed
}

// seriesColors gives each listed fleet and retry level its own color:
// Okabe–Ito's blue and vermillion, then colors of Paul Tol's and
// Okabe–Ito's palettes picked so that any two stay apart (CIE ΔE ≥ 12)
// with normal vision and as simulated for protanopia, deuteranopia and
// tritanopia (TestChartColorsDistinct). Twelve colors cannot all stay
// far apart for everyone, so retry levels also differ by dash pattern and
// every curve is named by a label joined to it. The smallest fleet that
// drains is black and thicker.
var (
	seriesColors = []string{"#0072B2", "#D55E00", "#117733", "#CC79A7", "#E69F00", "#66CCEE",
		"#332288", "#882255", "#999933", "#CC6677", "#6699CC", "#661100"}
	retryDashes   = []string{"", "12 6", "2 5", "14 5 3 5", "6 3", "14 4 2 4 2 4"}
	smallestColor = "#000000"
)

// newDepthChart charts runs simulated for simulated seconds, each curve
// simulated again and downsampled over the time the chart shows.
func newDepthChart(f simulateFlags, simulated float64, runs []stormRun, refs []refLine) (*depthChart, error) {
	shown := shownSeconds(runs, simulated)
	c := &depthChart{
		title: fmt.Sprintf("Queue depth: a %s-message backlog, %s arriving, %s per consumer",
			formatCount(f.backlog), formatRate(f.arrivalRate), formatRate(f.perConsumerRate)),
		subtitle: fmt.Sprintf("Retry storm simulated over %s in 1 s steps: a message waiting longer than %s times out and its producer retries. Log scale.",
			formatDuration(simulated), formatDuration(f.timeoutWindowSeconds)),
		horizon: shown, simulated: simulated, scale: newLogScale(runs, refs), refs: refs,
	}
	window := recoveryWindow(shown, drainTimes(runs))
	for i, r := range runs {
		rec, recovery := newRecorder(shown), newRecorder(window)
		visitors := []func(int64, float64, float64){rec.visit}
		if window > 0 {
			visitors = append(visitors, recovery.visit)
		}
		var watch *crossingWatch
		if ttl := c.ttlLine(); ttl != nil {
			watch = &crossingWatch{depth: ttl.depth, until: shown}
			visitors = append(visitors, watch.visit)
		}
		if err := simulateVisiting(r.in, visitors...); err != nil {
			return nil, err
		}
		points := rec.points()
		s := chartSeries{
			label:    fmt.Sprintf("%s consumers, %s", formatConsumers(r.consumers), strings.TrimSuffix(formatRetries(r.retriesPerTimeout), " per timeout")),
			capacity: formatRate(r.capacity),
			color:    seriesColors[i%len(seriesColors)],
			dash:     retryDashes[r.retryIndex%len(retryDashes)],
			width:    3,
			points:   points, final: points[len(points)-1].depth, drainedAt: r.storm.DrainSeconds, smallest: r.smallest(),
		}
		if r.smallest() {
			s.color, s.width = smallestColor, 5
		}
		if watch != nil {
			s.ttl = watch.found
		}
		if window > 0 {
			s.recovery = recovery.points()
		}
		if r.storm.Drains {
			s.outcome = "empty at " + formatDuration(*r.storm.DrainSeconds)
		} else {
			// What the simulation showed: not drained within its length.
			s.outcome = "never drains within " + formatDuration(simulated) + ", peak " + formatCount(r.storm.PeakDepth)
		}
		c.series = append(c.series, s)
	}
	c.layOut()
	if window > 0 {
		c.recovery = newRecoveryPanel(c, window)
		c.height = c.recovery.bottom + 76
	}
	return c, nil
}

// ttlLine is the TTL's reference line, or nil.
func (c *depthChart) ttlLine() *refLine {
	for i := range c.refs {
		if c.refs[i].ttl {
			return &c.refs[i]
		}
	}
	return nil
}

// ttlNote says when a curve is above the TTL depth: "over the TTL depth
// from 17 min", "… from the start to 2 h"; "" when it never is.
func (s chartSeries) ttlNote() string {
	if len(s.ttl) == 0 {
		return ""
	}
	note := "over the TTL depth from " + formatDuration(s.ttl[0].t)
	if s.ttl[0].t == 0 {
		note = "over the TTL depth from the start"
	}
	if last := s.ttl[len(s.ttl)-1]; !last.up {
		note += " to " + formatDuration(last.t)
	}
	return note
}

// Layout, in SVG user units (pixels at 100 %). The plot grows taller when
// its labels need the room, and the chart wider for the longest label.
const (
	plotLeft          = 100
	plotRight         = 1000
	plotTop           = 92
	minPlotHeight     = 470
	minChartWidth     = 1200
	labelX            = plotRight + 24 // a label's swatch starts here, after its leader
	swatchLength      = 28
	labelTextX        = labelX + swatchLength + 8
	labelLineHeight   = 16
	labelGap          = 6 // between two labels
	labelOverhang     = 8 // how far labels may reach above and below the plot
	captionFontSize   = 13
	captionLineHeight = 18
)

// marginLabel names a curve or a reference line in the right margin: a
// swatch of its line, then its name in bold and more lines under it, as
// near the height where it ends as the labels around it leave room for.
type marginLabel struct {
	lines     []string
	depth     float64 // where what it names ends; 0 for a drained curve
	leader    bool    // it ends at the plot's right edge: a line joins it to its label
	ref       bool
	color     string
	dash      string
	width     float64
	dot       bool    // a drained curve, whose swatch ends in the drain dot
	drainedAt float64 // seconds, when dot
	top       float64 // placed by layOut
}

func (l marginLabel) height() float64 { return float64(len(l.lines))*labelLineHeight + 2 }

// swatchY is where a label's swatch and leader meet it: the middle of its
// first line.
func (l marginLabel) swatchY() float64 { return l.top + 8.5 }

func (c *depthChart) marginLabels() []marginLabel {
	var labels []marginLabel
	for _, ref := range c.refs {
		labels = append(labels, marginLabel{
			lines: append([]string{ref.name + ": depth " + formatCount(ref.depth)}, ref.note...), depth: ref.depth, leader: true, ref: true,
			color: refColor, dash: refDash, width: 2,
		})
	}
	for _, s := range c.series {
		l := marginLabel{lines: []string{s.label}, depth: s.final, leader: s.drainedAt == nil,
			color: s.color, dash: s.dash, width: s.width, dot: s.drainedAt != nil}
		if s.drainedAt != nil {
			l.drainedAt = *s.drainedAt
		}
		if s.smallest {
			l.lines = append(l.lines, "the smallest fleet to drain in "+formatDuration(c.simulated))
		}
		l.lines = append(l.lines, s.outcome)
		if note := s.ttlNote(); note != "" {
			l.lines = append(l.lines, note)
		}
		labels = append(labels, l)
	}
	return labels
}

// layOut sizes the plot and the chart to the labels and places them.
func (c *depthChart) layOut() {
	labels := c.marginLabels()
	need, widest := float64(-labelGap-2*labelOverhang), 0.0
	for _, l := range labels {
		need += l.height() + labelGap
		for i, line := range l.lines {
			widest = max(widest, textWidth(line, labelFontSize(i), i == 0))
		}
	}
	c.plotBottom = plotTop + max(minPlotHeight, math.Ceil(need))
	c.width = math.Ceil(max(minChartWidth, labelTextX+widest+16, plotLeft+textWidth(c.title, 20, true)+20))
	c.caption = wrapText(c.captionText(), plotRight-plotLeft, captionFontSize)
	c.height = c.plotBottom + 76 + captionLineHeight*float64(len(c.caption))

	// Drained curves all end at the bottom: the first drained comes first.
	slices.SortStableFunc(labels, func(a, b marginLabel) int {
		return cmp.Or(cmp.Compare(c.y(a.depth), c.y(b.depth)), cmp.Compare(a.drainedAt, b.drainedAt))
	})
	want, height := make([]float64, len(labels)), make([]float64, len(labels))
	for i, l := range labels {
		want[i], height[i] = c.y(l.depth)-8.5, l.height()
	}
	for i, top := range spread(want, height, labelGap, plotTop-labelOverhang, c.plotBottom+labelOverhang) {
		labels[i].top = top
	}
	c.labels = labels
}

// captionText explains the TTL band and the black curves, when drawn.
func (c *depthChart) captionText() string {
	var parts []string
	if ttl := c.ttlLine(); ttl != nil {
		parts = append(parts, fmt.Sprintf("Shaded: deeper than λ × TTL = %s messages. A message older than the TTL (%s) is dropped, "+
			"so a queue that drops expired messages never holds more than this: where a curve runs in the band, the backlog above the line is lost, not served. "+
			"◆ marks where a curve rises into the band, ◇ where it falls back out.",
			formatCount(ttl.depth), strings.TrimPrefix(ttl.name, "TTL ")))
	}
	if slices.ContainsFunc(c.series, func(s chartSeries) bool { return s.smallest }) {
		parts = append(parts, fmt.Sprintf("Black: for each retry level, the smallest fleet that drains within %s (the table's last column).", formatDuration(c.simulated)))
	}
	return strings.Join(parts, " ")
}

func labelFontSize(line int) float64 {
	if line == 0 {
		return 13
	}
	return 12
}

func (c *depthChart) x(t float64) float64 {
	return plotLeft + t/c.horizon*(plotRight-plotLeft)
}

func (c *depthChart) y(depth float64) float64 {
	return c.plotBottom - c.scale.fraction(depth)*(c.plotBottom-plotTop)
}

func (c *depthChart) pixel(p point) point { return point{c.x(p.t), c.y(p.depth)} }

// The reference lines' style.
const (
	refColor = "#333"
	refDash  = "2 4"
)

// writeSVG draws the chart as a standalone SVG document.
func (c *depthChart) writeSVG(w io.Writer) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="14" fill="#222">`+"\n",
		num(c.width), num(c.height), num(c.width), num(c.height))
	p("<title>%s</title>\n", esc(c.title))
	p(`<rect width="100%%" height="100%%" fill="#fff"/>` + "\n")
	p(`<text x="%d" y="34" font-size="20" font-weight="bold">%s</text>`+"\n", plotLeft, esc(c.title))
	p(`<text x="%d" y="60" fill="#555">%s</text>`+"\n", plotLeft, esc(c.subtitle))
	c.writeTTLBand(p)
	c.writeAxes(p)
	c.writeRefLines(p)

	p(`<g id="series" fill="none" stroke-linejoin="round" stroke-linecap="round">` + "\n")
	for _, s := range c.series {
		p(`<polyline%s stroke="%s" stroke-width="%s"%s points="%s"><title>%s (%s): %s</title></polyline>`+"\n",
			smallestClass(s.smallest), s.color, num(s.width), dashAttr(s.dash), polyline(s.points, c.pixel), esc(s.label), esc(s.capacity), esc(s.outcome))
	}
	p("</g>\n")
	c.writeDrainMarkers(p)
	c.writeTTLCrossings(p)
	c.writeLabels(p)
	p(`<g id="caption" font-size="%d" fill="#444">`+"\n", captionFontSize)
	for i, line := range c.caption {
		p(`<text x="%d" y="%s">%s</text>`+"\n", plotLeft, num(c.plotBottom+82+float64(i*captionLineHeight)), esc(line))
	}
	p("</g>\n")
	if c.recovery != nil {
		c.recovery.write(p)
	}
	p("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAxes draws the grid, the ticks and the axes' titles.
func (c *depthChart) writeAxes(p func(string, ...any)) {
	// Every decade, and fainter lines at 2…9 times it.
	p(`<g id="y-axis" font-size="13" text-anchor="end">` + "\n")
	for e := c.scale.lo; e <= c.scale.hi; e++ {
		decade := math.Pow(10, float64(e))
		y := c.y(decade)
		p(`<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#d0d0d0"/>`+"\n", plotLeft, plotRight, num(y), num(y))
		p(`<text x="%d" y="%s">%s</text>`+"\n", plotLeft-10, num(y+4.5), formatCount(decade))
		for m := 2; e < c.scale.hi && m <= 9; m++ {
			ym := c.y(float64(m) * decade)
			p(`<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="#f0f0f0"/>`+"\n", plotLeft, plotRight, num(ym), num(ym))
		}
	}
	p(`<text transform="translate(30 %s) rotate(-90)" text-anchor="middle" font-size="14">queue depth, messages (log scale)</text>`+"\n", num((plotTop+c.plotBottom)/2))
	p("</g>\n")

	writeTimeAxis(p, "x-axis", c.horizon, c.x, plotTop, c.plotBottom)
	p(`<rect id="plot" x="%d" y="%d" width="%d" height="%s" fill="none" stroke="#888"/>`+"\n", plotLeft, plotTop, plotRight-plotLeft, num(c.plotBottom-plotTop))
}

// writeTimeAxis draws the group id: a grid line and a label at each round
// time from 0 to seconds, placed by x, and the axis' title.
func writeTimeAxis(p func(string, ...any), id string, seconds float64, x func(float64) float64, top, bottom float64) {
	p(`<g id="%s" font-size="13" text-anchor="middle">`+"\n", id)
	step, unit, unitName := timeTicks(seconds)
	for t := 0.0; t <= seconds+1e-9; t += step {
		label := "0"
		if t > 0 {
			label = trimNumber(strconv.FormatFloat(t/unit, 'f', 2, 64)) + " " + unitName
		}
		p(`<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#d0d0d0"/>`+"\n", num(x(t)), num(x(t)), num(top), num(bottom+5))
		p(`<text x="%s" y="%s">%s</text>`+"\n", num(x(t)), num(bottom+22), label)
	}
	p(`<text x="%d" y="%s" font-size="14">time since recovery started</text>`+"\n", (plotLeft+plotRight)/2, num(bottom+50))
	p("</g>\n")
}

// writeRefLines draws the SLA and TTL depths across the plot; their labels
// are in the right margin, with the curves'.
func (c *depthChart) writeRefLines(p func(string, ...any)) {
	p(`<g id="reference-lines">` + "\n")
	for _, ref := range c.refs {
		y := num(c.y(ref.depth))
		p(`<line x1="%d" x2="%d" y1="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="%s"><title>%s</title></line>`+"\n",
			plotLeft, plotRight, y, y, refColor, refDash, esc(ref.name+": "+ref.meaning))
	}
	p("</g>\n")
}

// writeTTLBand shades the depths above the TTL depth: messages there are
// older than the TTL.
func (c *depthChart) writeTTLBand(p func(string, ...any)) {
	ttl := c.ttlLine()
	if ttl == nil {
		return
	}
	y := c.y(ttl.depth)
	p(`<rect id="ttl-band" x="%d" y="%d" width="%d" height="%s" fill="#c00" fill-opacity="0.07"><title>%s</title></rect>`+"\n",
		plotLeft, plotTop, plotRight-plotLeft, num(y-plotTop), esc(ttl.name+": "+strings.Join(ttl.note, " ")))
}

// writeTTLCrossings marks where each curve rises above the TTL depth (◆)
// and falls back to it (◇); one above it from the start does not rise.
func (c *depthChart) writeTTLCrossings(p func(string, ...any)) {
	ttl := c.ttlLine()
	if ttl == nil {
		return
	}
	y := c.y(ttl.depth)
	p(`<g id="ttl-crossings" stroke-width="2">` + "\n")
	for _, s := range c.series {
		for _, x := range s.ttl {
			if x.t == 0 {
				continue
			}
			fill, what := s.color, "rises above the TTL depth: from here its oldest messages are dropped"
			if !x.up {
				fill, what = "#fff", "falls back to the TTL depth"
			}
			p(`<path class="crossing" d="M%s %sl7 7l-7 7l-7-7z" fill="%s" stroke="%s"><title>%s %s at %s</title></path>`+"\n",
				num(c.x(x.t)), num(y-7), fill, s.color, esc(s.label), what, formatDuration(x.t))
		}
	}
	p("</g>\n")
}

// writeDrainMarkers ends each draining series in a dot at the bottom of
// the axis, where the log scale cannot go.
func (c *depthChart) writeDrainMarkers(p func(string, ...any)) {
	p(`<g id="drain-markers">` + "\n")
	for _, s := range c.series {
		if s.drainedAt != nil {
			p(`<circle cx="%s" cy="%s" r="6" fill="%s" stroke="#fff" stroke-width="2"><title>%s: %s</title></circle>`+"\n",
				num(c.x(*s.drainedAt)), num(c.plotBottom), s.color, esc(s.label), esc(s.outcome))
		}
	}
	p("</g>\n")
}

// writeLabels draws the labels of the right margin, each joined by a leader
// to where its line ends when that is at the plot's right edge.
func (c *depthChart) writeLabels(p func(string, ...any)) {
	p(`<g id="labels">` + "\n")
	for _, l := range c.labels {
		y := num(l.swatchY())
		p(`<g class="label">`)
		if l.leader {
			leader := `stroke="#999"`
			if l.ref {
				leader = fmt.Sprintf(`stroke="%s" stroke-width="2" stroke-dasharray="%s"`, refColor, refDash)
			}
			p(`<line class="leader" x1="%d" y1="%s" x2="%d" y2="%s" %s/>`, plotRight, num(c.y(l.depth)), labelX-3, y, leader)
		}
		p(`<line class="swatch" x1="%d" x2="%d" y1="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`,
			labelX, labelX+swatchLength, y, y, l.color, num(l.width), dashAttr(l.dash))
		if l.dot {
			p(`<circle cx="%d" cy="%s" r="5" fill="%s" stroke="#fff" stroke-width="1.5"/>`, labelX+swatchLength, y, l.color)
		}
		for i, line := range l.lines {
			style := ` font-weight="bold"`
			if i > 0 {
				style = ` fill="#555"`
			}
			p(`<text x="%d" y="%s" font-size="%s"%s>%s</text>`, labelTextX, num(l.top+13+float64(i*labelLineHeight)), num(labelFontSize(i)), style, esc(line))
		}
		p("</g>\n")
	}
	p("</g>\n")
}

// polylineTolerance is how far, in pixels, the drawn line may stray from
// the recorded points: below what the eye can see at 100 %.
const polylineTolerance = 0.25

// polyline maps points to pixels with toPixels and keeps only those the
// drawing needs (Ramer–Douglas–Peucker): smooth curves of a thousand
// points need a few dozen, which keeps the SVG small.
func polyline(points []point, toPixels func(point) point) string {
	px := make([]point, len(points)) // x, y in pixels
	for i, pt := range points {
		px[i] = toPixels(pt)
	}
	keep := make([]bool, len(px))
	if len(px) > 0 {
		keep[0], keep[len(px)-1] = true, true
	}
	type span struct{ from, to int }
	for stack := []span{{0, len(px) - 1}}; len(stack) > 0; {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		far, farthest := -1, polylineTolerance
		for i := s.from + 1; i < s.to; i++ {
			if d := distanceToSegment(px[i], px[s.from], px[s.to]); d > farthest {
				far, farthest = i, d
			}
		}
		if far >= 0 {
			keep[far] = true
			stack = append(stack, span{s.from, far}, span{far, s.to})
		}
	}
	var parts []string
	for i, p := range px {
		if keep[i] {
			if q := num(p.t) + "," + num(p.depth); len(parts) == 0 || parts[len(parts)-1] != q {
				parts = append(parts, q)
			}
		}
	}
	return strings.Join(parts, " ")
}

// distanceToSegment is the distance from p to the segment a–b, all in
// pixels (t as x, depth as y).
func distanceToSegment(p, a, b point) float64 {
	dx, dy := b.t-a.t, b.depth-a.depth
	u := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		u = max(0, min(1, ((p.t-a.t)*dx+(p.depth-a.depth)*dy)/l))
	}
	return math.Hypot(p.t-(a.t+u*dx), p.depth-(a.depth+u*dy))
}

// timeTicks picks a round tick step giving at most ten intervals, and the
// unit its labels use: min up to two hours, h up to four days, then d.
func timeTicks(horizon float64) (step, unit float64, unitName string) {
	steps := []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 432000, 864000}
	step = steps[len(steps)-1]
	for _, s := range steps {
		if horizon/s <= 10 {
			step = s
			break
		}
	}
	switch {
	case horizon < 120:
		return step, 1, "s"
	case horizon <= 7200:
		return step, 60, "min"
	case horizon <= 4*86400:
		return step, 3600, "h"
	}
	return step, 86400, "d"
}

func smallestClass(smallest bool) string {
	if smallest {
		return ` class="smallest"`
	}
	return ""
}

func dashAttr(dash string) string {
	if dash == "" {
		return ""
	}
	return ` stroke-dasharray="` + dash + `"`
}

// num prints a pixel coordinate with one decimal.
func num(v float64) string { return trimNumber(strconv.FormatFloat(v, 'f', 1, 64)) }

func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}
