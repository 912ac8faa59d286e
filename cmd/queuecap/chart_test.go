// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// maxChartBytes is the spec's bound on the SVG's size.
const maxChartBytes = 200 << 10

// svgNode is any SVG element with its attributes, children and text.
type svgNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []svgNode  `xml:",any"`
	Inner    string     `xml:",innerxml"`
}

func (n *svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// find returns the first element, depth first, with the given id.
func (n *svgNode) find(id string) *svgNode {
	if n.attr("id") == id {
		return n
	}
	for i := range n.Children {
		if f := n.Children[i].find(id); f != nil {
			return f
		}
	}
	return nil
}

// all returns the descendants named local, depth first.
func (n *svgNode) all(local string) []*svgNode {
	var out []*svgNode
	for i := range n.Children {
		c := &n.Children[i]
		if c.XMLName.Local == local {
			out = append(out, c)
		}
		out = append(out, c.all(local)...)
	}
	return out
}

// text is the element's text with its descendants', in document order,
// <title>s (tooltips) excluded.
func (n *svgNode) text() string {
	var b strings.Builder
	dec := xml.NewDecoder(strings.NewReader(n.Inner))
	inTitle := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return b.String()
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "title" {
				inTitle++
			}
		case xml.EndElement:
			if tok.Name.Local == "title" {
				inTitle--
			}
		case xml.CharData:
			if inTitle == 0 {
				b.Write(tok)
			}
		}
	}
}

// texts lists the text of every <text> below n.
func (n *svgNode) texts() []string {
	var out []string
	for _, t := range n.all("text") {
		out = append(out, t.text())
	}
	return out
}

// checkChart parses the SVG at path as XML and checks its size.
func checkChart(t *testing.T, path string) *svgNode {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= maxChartBytes {
		t.Errorf("%s is %d bytes, want under %d", path, len(data), maxChartBytes)
	}
	var root svgNode
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatalf("%s is not well-formed XML: %v", path, err)
	}
	if root.XMLName.Space != "http://www.w3.org/2000/svg" || root.XMLName.Local != "svg" || root.attr("viewBox") == "" {
		t.Fatalf("root element %v (viewBox %q), want an SVG document", root.XMLName, root.attr("viewBox"))
	}
	return &root
}

// num reads a numeric attribute.
func (n *svgNode) num(name string) float64 {
	v, _ := strconv.ParseFloat(n.attr(name), 64)
	return v
}

// pairs reads a polyline's points as x, y pairs.
func (n *svgNode) pairs() [][2]float64 {
	var out [][2]float64
	for _, p := range strings.Fields(n.attr("points")) {
		x, y, _ := strings.Cut(p, ",")
		xv, _ := strconv.ParseFloat(x, 64)
		yv, _ := strconv.ParseFloat(y, 64)
		out = append(out, [2]float64{xv, yv})
	}
	return out
}

// box is a rectangle in SVG user units.
type box struct {
	what           string
	x0, y0, x1, y1 float64
}

func (a box) overlaps(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

// plotBox is the frame of the plot with the given id.
func plotBox(t *testing.T, svg *svgNode, id string) box {
	t.Helper()
	r := svg.find(id)
	if r == nil {
		t.Fatalf("no %s", id)
	}
	return box{id, r.num("x"), r.num("y"), r.num("x") + r.num("width"), r.num("y") + r.num("height")}
}

// textBoxes is where each <text> below n is drawn, from its coordinates,
// font size, weight and anchor (inherited from its groups) and textWidth;
// from baseline, DejaVu Sans rises 0.93 em and descends 0.24 em. A
// rotate(-90) after a translate turns the box on its side.
func textBoxes(t *testing.T, n *svgNode, inherited map[string]string) []box {
	t.Helper()
	attrs := map[string]string{}
	for k, v := range inherited {
		attrs[k] = v
	}
	for _, k := range []string{"font-size", "font-weight", "text-anchor"} {
		if v := n.attr(k); v != "" {
			attrs[k] = v
		}
	}
	if n.XMLName.Local == "text" {
		size, _ := strconv.ParseFloat(attrs["font-size"], 64)
		text := n.text()
		w := textWidth(text, size, attrs["font-weight"] == "bold")
		along := map[string]float64{"start": 0, "middle": w / 2, "end": w}[cmp.Or(attrs["text-anchor"], "start")]
		x, y := n.num("x"), n.num("y")
		if tr := n.attr("transform"); tr != "" {
			var tx, ty float64
			if _, err := fmt.Sscanf(tr, "translate(%g %g) rotate(-90)", &tx, &ty); err != nil {
				t.Errorf("text %q: transform %q: %v", text, tr, err)
			}
			return []box{{text, tx - 0.93*size, ty - w + along, tx + 0.24*size, ty + along}}
		}
		return []box{{text, x - along, y - 0.93*size, x - along + w, y + 0.24*size}}
	}
	var out []box
	for i := range n.Children {
		out = append(out, textBoxes(t, &n.Children[i], attrs)...)
	}
	return out
}

// checkTextLayout checks that no two texts of the chart overlap and that
// each lies inside it.
func checkTextLayout(t *testing.T, svg *svgNode) {
	t.Helper()
	boxes := textBoxes(t, svg, nil)
	page := box{"chart", 0, 0, svg.num("width"), svg.num("height")}
	for i, a := range boxes {
		if a.x0 < page.x0 || a.y0 < page.y0 || a.x1 > page.x1 || a.y1 > page.y1 {
			t.Errorf("%q %v leaves the %v×%v chart", a.what, a, page.x1, page.y1)
		}
		for _, b := range boxes[i+1:] {
			if a.overlaps(b) {
				t.Errorf("%q %v overlaps %q %v", a.what, a, b.what, b)
			}
		}
	}
}

// style is what tells a curve from another: its color, width and dashes.
func style(n *svgNode) string {
	return n.attr("stroke") + " " + n.attr("stroke-width") + " " + n.attr("stroke-dasharray")
}

// checkLabels checks that each curve has one label in the right margin, with
// a swatch of its style, and that a curve still above the bottom at the
// plot's right edge is joined to its label by a leader from where it ends.
func checkLabels(t *testing.T, svg *svgNode) {
	t.Helper()
	plot := plotBox(t, svg, "plot")
	labels := svg.find("labels")
	if labels == nil {
		t.Fatal("no labels")
	}
	byStyle := map[string][]*svgNode{}
	for _, l := range svg.find("series").all("polyline") {
		byStyle[style(l)] = append(byStyle[style(l)], l)
	}
	curveLabels := 0
	for _, g := range labels.all("g") {
		var swatch, leader *svgNode
		for _, l := range g.all("line") {
			switch l.attr("class") {
			case "swatch":
				swatch = l
			case "leader":
				leader = l
			}
		}
		if swatch == nil {
			t.Errorf("label %q has no swatch", g.text())
			continue
		}
		for _, b := range textBoxes(t, g, map[string]string{"font-size": "14"}) {
			if b.x0 < plot.x1 {
				t.Errorf("label %q starts at x %v, inside the plot (right edge %v)", b.what, b.x0, plot.x1)
			}
		}
		curves := byStyle[style(swatch)]
		if swatch.attr("stroke") == refColor {
			continue // a reference line's
		}
		curveLabels++
		if len(curves) == 0 {
			t.Errorf("label %q: no curve drawn %s", g.text(), style(swatch))
			continue
		}
		if leader == nil {
			continue
		}
		ends := false
		for _, c := range curves {
			pts := c.pairs()
			last := pts[len(pts)-1]
			ends = ends || math.Abs(last[0]-plot.x1) < 0.2 && math.Abs(last[1]-leader.num("y1")) < 0.2
		}
		if !ends || leader.num("x1") != plot.x1 {
			t.Errorf("label %q: leader from (%v, %v), where no curve %s ends", g.text(), leader.num("x1"), leader.num("y1"), style(swatch))
		}
	}
	if n := len(svg.find("series").all("polyline")); curveLabels != n {
		t.Errorf("%d curve labels for %d curves", curveLabels, n)
	}
}

// renderChart runs simulate with args and --out in a temporary directory
// and returns the chart's path.
func renderChart(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "depth.svg")
	code, stdout, stderr := cli(t, "", append(append([]string{}, args...), "--out", path)...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if !strings.Contains(stdout, "Chart: "+path) {
		t.Errorf("stdout does not name the chart:\n%s", stdout)
	}
	return path
}

func TestSeedChart(t *testing.T) {
	svg := checkChart(t, renderChart(t, seedSimulate...))
	plot := plotBox(t, svg, "plot")

	series := svg.find("series")
	if series == nil {
		t.Fatal("no series group")
	}
	lines := series.all("polyline")
	if len(lines) != 6 {
		t.Fatalf("%d series, want the 4 listed and the 2 smallest fleets that drain", len(lines))
	}
	styles := map[string]bool{}
	for _, l := range lines {
		pts := l.pairs()
		if len(pts) < 2 {
			t.Errorf("series %q has %d points", style(l), len(pts))
		}
		for _, p := range pts {
			if p[0] < plot.x0 || p[0] > plot.x1 || p[1] < plot.y0 || p[1] > plot.y1 {
				t.Errorf("point %v outside the plot %v", p, plot)
				break
			}
		}
		styles[style(l)] = true
	}
	if len(styles) != 6 {
		t.Errorf("series styles %v, want 6 different", styles)
	}

	// The labels, top to bottom: the curves that end highest first, then
	// the drained ones by drain time.
	want := []string{
		"25 consumers, 1.5 retries|never drains within 10 h, peak 544M|over the TTL depth from 36 min 1 s",
		"32 consumers, 1.5 retries|never drains within 10 h, peak 443M|over the TTL depth from 44 min 16 s",
		"TTL 1 h: depth 36M|above it, messages older than|1 h are dropped: lost",
		"25 consumers, no retries|never drains within 10 h, peak 3.6M",
		"SLA 10 s: depth 100k|above it, a message waits|longer than 10 s",
		"32 consumers, no retries|empty at 21 min 26 s",
		"26 consumers, no retries|the smallest fleet to drain in 10 h|empty at 2 h 30 min",
		"63 consumers, 1.5 retries|the smallest fleet to drain in 10 h|empty at 4 h 36 min",
	}
	var got []string
	for _, g := range svg.find("labels").all("g") {
		got = append(got, strings.Join(g.texts(), "|"))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("labels\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkLabels(t, svg)
	checkTextLayout(t, svg)

	// Axes: decades of messages, hours of time, and their titles.
	yAxis, xAxis := svg.find("y-axis"), svg.find("x-axis")
	if yAxis == nil || xAxis == nil {
		t.Fatal("missing an axis")
	}
	if got := strings.Join(yAxis.texts(), "|"); got != "10k|100k|1M|10M|100M|1G|queue depth, messages (log scale)" {
		t.Errorf("y axis labels %s", got)
	}
	if got := strings.Join(xAxis.texts(), "|"); got != "0|1 h|2 h|3 h|4 h|5 h|6 h|7 h|8 h|9 h|10 h|time since recovery started" {
		t.Errorf("x axis labels %s", got)
	}

	// The SLA and TTL lines at the height of their depth.
	tickY := map[string]float64{}
	for _, tx := range yAxis.all("text") {
		tickY[tx.text()] = tx.num("y") - 4.5 // labels sit 4.5 px below their line
	}
	refLines := svg.find("reference-lines").all("line")
	if len(refLines) != 2 {
		t.Fatalf("%d reference lines, want 2", len(refLines))
	}
	if slaY := refLines[0].num("y1"); slaY != tickY["100k"] {
		t.Errorf("SLA line at y %v, the 100k tick at %v", slaY, tickY["100k"])
	}
	if ttlY := refLines[1].num("y1"); ttlY >= tickY["10M"] || ttlY <= tickY["100M"] {
		t.Errorf("TTL line at y %v, not between 10M (%v) and 100M (%v)", ttlY, tickY["10M"], tickY["100M"])
	}

	// A dot on the bottom of the axis where each drained curve ends.
	dots := svg.find("drain-markers").all("circle")
	if len(dots) != 3 {
		t.Fatalf("%d drain markers, want 3", len(dots))
	}
	for _, d := range dots {
		if d.num("cy") != plot.y1 {
			t.Errorf("drain marker at y %v, the axis bottom at %v", d.num("cy"), plot.y1)
		}
	}
	if x := dots[0].num("cx"); math.Abs(x-(plot.x0+1286.0/36000*(plot.x1-plot.x0))) > 0.1 {
		t.Errorf("the 32-consumer fleet's drain marker at x %v, want at 21 min 26 s", x)
	}
	var title string
	for _, tx := range svg.texts() {
		if strings.HasPrefix(tx, "Queue depth:") {
			title = tx
		}
	}
	if title != "Queue depth: a 3.6M-message backlog, 10,000 msg/s arriving, 400 msg/s per consumer" {
		t.Errorf("title %q", title)
	}
}

func TestChartWithoutReferenceLines(t *testing.T) {
	svg := checkChart(t, renderChart(t, "simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", "25,32",
		"--backlog", "3.6e6", "--retries-per-timeout", "0,1.5"))
	if refs := svg.find("reference-lines"); refs == nil || len(refs.all("line")) != 0 {
		t.Error("reference lines drawn without --sla or --ttl")
	}
	if n := len(svg.find("series").all("polyline")); n != 6 {
		t.Errorf("%d series, want 6", n)
	}
	checkLabels(t, svg)
}

// TestChartTTL checks what the chart says about the TTL depth: the band
// above it is shaded, its label and the caption say that backlog there is
// dropped, and each curve is marked where it crosses, at the second the
// simulation first puts it on the other side, and its label says when.
func TestChartTTL(t *testing.T) {
	storm := capacity.StormInput{ArrivalRate: 10000, PerConsumerRate: 400, TimeoutWindowSeconds: 30, MaxSeconds: 36000}
	type curve struct {
		consumers int64
		retries   float64
		smallest  bool
	}
	cases := []struct {
		name    string
		args    []string
		backlog float64
		curves  []curve // in the order drawn
		notes   []string
	}{
		{"rising into it", seedSimulate[1:], 3.6e6, []curve{{25, 0, false}, {25, 1.5, false}, {32, 0, false}, {32, 1.5, false}, {26, 0, true}, {63, 1.5, true}},
			[]string{"over the TTL depth from 36 min 1 s", "over the TTL depth from 44 min 16 s"}},
		{"above it from the start", []string{"--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", "26,40", "--backlog", "5e7", "--ttl", "1h"},
			5e7, []curve{{26, 0, false}, {40, 0, false}, {29, 0, true}},
			[]string{"over the TTL depth from the start to 9 h 43 min", "over the TTL depth from the start to 38 min 54 s", "over the TTL depth from the start to 2 h 26 min"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svg := checkChart(t, renderChart(t, append([]string{"simulate"}, tc.args...)...))
			plot := plotBox(t, svg, "plot")
			ttlY := svg.find("reference-lines").all("line")[len(svg.find("reference-lines").all("line"))-1].num("y1")
			band := svg.find("ttl-band")
			if band == nil || band.num("y") != plot.y0 || math.Abs(band.num("y")+band.num("height")-ttlY) > 0.1 || band.num("width") != plot.x1-plot.x0 {
				t.Errorf("the band above the TTL line (y %v) is not shaded across the plot %v", ttlY, plot)
			}

			var want []string // markers: fill, x, y
			for i, c := range tc.curves {
				in := storm
				in.Consumers, in.Backlog, in.RetriesPerTimeout = c.consumers, tc.backlog, c.retries
				above := false
				if _, err := capacity.SimulateStorm(in, func(t int64, depth, _ float64) {
					if now := depth > 36e6; now != above {
						above = now
						if t > 0 {
							fill := seriesColors[i]
							if c.smallest {
								fill = smallestColor
							}
							if !now {
								fill = "#fff"
							}
							want = append(want, fmt.Sprintf("%s %.1f", fill, plot.x0+float64(t)/36000*(plot.x1-plot.x0)))
						}
					}
				}); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, m := range svg.find("ttl-crossings").all("path") {
				var x, y float64
				if _, err := fmt.Sscanf(m.attr("d"), "M%g %g", &x, &y); err != nil {
					t.Fatalf("marker path %q: %v", m.attr("d"), err)
				}
				if math.Abs(y+7-ttlY) > 0.1 {
					t.Errorf("marker at y %v, off the TTL line at %v", y+7, ttlY)
				}
				got = append(got, fmt.Sprintf("%s %.1f", m.attr("fill"), x))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("crossing markers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}

			notes := map[string]bool{}
			for _, g := range svg.find("labels").all("g") {
				if texts := g.texts(); strings.HasPrefix(texts[len(texts)-1], "over the TTL depth") {
					notes[texts[len(texts)-1]] = true
				} else if strings.HasPrefix(texts[0], "TTL 1 h") && strings.Join(texts, " ") != "TTL 1 h: depth 36M above it, messages older than 1 h are dropped: lost" {
					t.Errorf("TTL label %q", strings.Join(texts, " "))
				}
			}
			if len(notes) != len(tc.notes) {
				t.Errorf("labels say %v, want %v", notes, tc.notes)
			}
			for _, n := range tc.notes {
				if !notes[n] {
					t.Errorf("no label says %q; they say %v", n, notes)
				}
			}
			caption := strings.Join(svg.find("caption").texts(), " ")
			for _, w := range []string{"deeper than λ × TTL = 36M messages", "older than the TTL (1 h) is dropped", "lost, not served", "◆ marks where a curve rises into the band"} {
				if !strings.Contains(caption, w) {
					t.Errorf("caption lacks %q: %s", w, caption)
				}
			}
		})
	}
}

// TestChartRecoveryWindow checks when the chart adds a recovery panel: a
// drain within the first tenth of the time axis is squeezed against its
// left edge, and the panel spans a round time a little past the last such.
func TestChartRecoveryWindow(t *testing.T) {
	cases := []struct {
		name    string
		horizon float64
		drains  []float64
		want    float64
	}{
		{"the seed: 21 min next to runs that never drain in 10 h", 36000, []float64{1286, 9000, 16560}, 1500},
		{"drains alike", 1500, []float64{1286, 1440}, 0},
		{"nothing drains", 36000, nil, 0},
		{"an empty backlog drains at once", 36000, []float64{0}, 0},
		{"at a tenth, readable", 36000, []float64{3600}, 0},
		{"just under a tenth", 36000, []float64{3599}, 4200},
		{"ten days: the four smallest fleets within 5 h", 864000, []float64{8340, 9000, 16560, 17040}, 21600},
		{"a one-second drain on a ten-minute axis", 600, []float64{1}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := recoveryWindow(tc.horizon, tc.drains); got != tc.want {
				t.Errorf("recoveryWindow(%v, %v) = %v, want %v", tc.horizon, tc.drains, got, tc.want)
			}
		})
	}
}

// TestChartRecoveryPanel checks the seed's recovery panel, where the
// 32-consumer fleet's drain is a straight fall from 3.6M to 0 at 21 min
// 26 s on linear axes, and that charts without a squeezed drain have none.
func TestChartRecoveryPanel(t *testing.T) {
	svg := checkChart(t, renderChart(t, seedSimulate...))
	panel := svg.find("recovery")
	if panel == nil {
		t.Fatal("no recovery panel")
	}
	plot, main := plotBox(t, svg, "recovery-plot"), plotBox(t, svg, "plot")
	if plot.y0 <= main.y1+50 || plot.x0 != main.x0 || plot.x1 != main.x1 {
		t.Errorf("recovery plot %v, want below the main plot %v and as wide", plot, main)
	}
	if got := strings.Join(panel.texts()[:1], ""); got != "Recovery: the first 25 min, on linear axes" {
		t.Errorf("heading %q", got)
	}
	if got := strings.Join(svg.find("recovery-y-axis").texts(), "|"); got != "0|1M|2M|3M|4M|queue depth, messages" {
		t.Errorf("depth axis %s", got)
	}
	if got := strings.Join(svg.find("recovery-x-axis").texts(), "|"); got != "0|5 min|10 min|15 min|20 min|25 min|time since recovery started" {
		t.Errorf("time axis %s", got)
	}
	x := func(seconds float64) float64 { return plot.x0 + seconds/1500*(plot.x1-plot.x0) }
	y := func(depth float64) float64 { return plot.y1 - depth/4e6*(plot.y1-plot.y0) }

	curves := svg.find("recovery-series")
	if curves.attr("clip-path") != "url(#recovery-clip)" {
		t.Error("the recovery curves are not clipped to the panel")
	}
	var drain *svgNode
	for _, l := range curves.all("polyline") {
		if l.attr("stroke") == seriesColors[2] { // 32 consumers, no retries
			drain = l
		}
	}
	if drain == nil {
		t.Fatal("no 32-consumer curve in the recovery panel")
	}
	pts := drain.pairs()
	first, last := pts[0], pts[len(pts)-1]
	if math.Abs(first[0]-x(0)) > 0.1 || math.Abs(first[1]-y(3.6e6)) > 0.1 || math.Abs(last[0]-x(1286)) > 0.1 || math.Abs(last[1]-y(0)) > 0.1 {
		t.Errorf("the drain runs from %v to %v, want from (%.1f, %.1f) to (%.1f, %.1f)", first, last, x(0), y(3.6e6), x(1286), y(0))
	}
	// Linear: halfway down halfway through (the surplus is constant
	// without retries), within the pixel the simplification allows.
	for _, p := range pts[1 : len(pts)-1] {
		want := y(3.6e6 - 2800*(p[0]-x(0))/(x(1)-x(0)))
		if math.Abs(p[1]-want) > 1 {
			t.Errorf("point %v off the straight drain (y %.1f)", p, want)
		}
	}

	drains := svg.find("recovery-drains")
	dots := drains.all("circle")
	if len(dots) != 1 || math.Abs(dots[0].num("cx")-x(1286)) > 0.1 || dots[0].num("cy") != plot.y1 {
		t.Errorf("drain dots %d, want one at (%.1f, %v)", len(dots), x(1286), plot.y1)
	}
	if got := strings.Join(drains.texts(), "|"); got != "32 consumers, no retries: empty at 21 min 26 s" {
		t.Errorf("drain labels %q", got)
	}
	checkTextLayout(t, svg)

	for name, args := range map[string][]string{
		"drains alike":   {"--consumers", "32,33"},
		"nothing drains": {"--consumers", "25", "--retries-per-timeout", "1.5", "--max", "2h"},
	} {
		t.Run(name, func(t *testing.T) {
			svg := checkChart(t, renderChart(t, append([]string{"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--backlog", "3.6e6"}, args...)...))
			if svg.find("recovery") != nil {
				t.Error("a recovery panel where no drain is squeezed")
			}
		})
	}
}

// TestChartDozenRuns draws twelve runs where their labels crowd: curves
// that end close together, fleets that all drain at once, and the most the
// CLI allows over its longest run. No text may cover another, each curve
// keeps its own color or, for the smallest fleets, its black with a dash,
// and the SVG stays under 200 KB.
func TestChartDozenRuns(t *testing.T) {
	base := []string{"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--backlog", "3.6e6", "--sla", "10s"}
	cases := []struct {
		name   string
		args   []string
		curves int
	}{
		{"three fleets, four retry levels, ten days", []string{"--consumers", "20,25,26", "--retries-per-timeout", "0,0.1,1,1.5", "--max", "10d", "--ttl", "4d"}, 15},
		{"twelve fleets that drain", []string{"--consumers", "26,27,28,29,30,31,32,33,34,35,36,37", "--ttl", "1h"}, 12},
		{"one fleet, twelve retry levels", []string{"--consumers", "26", "--retries-per-timeout", "0,0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1,0.11", "--ttl", "1h"}, 20},
		{"curves ending close together", []string{"--consumers", "24,25", "--retries-per-timeout", "0,0.02,0.04,0.06,0.08,0.1", "--ttl", "2h"}, 18},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svg := checkChart(t, renderChart(t, append(append([]string{}, base...), tc.args...)...))
			lines := svg.find("series").all("polyline")
			if len(lines) != tc.curves {
				t.Errorf("%d curves, want %d", len(lines), tc.curves)
			}
			colors := map[string]bool{}
			for _, l := range lines {
				if l.attr("class") != "smallest" {
					if colors[l.attr("stroke")] {
						t.Errorf("two listed runs drawn in %s", l.attr("stroke"))
					}
					colors[l.attr("stroke")] = true
				}
			}
			checkLabels(t, svg)
			checkTextLayout(t, svg)
		})
	}
}

// TestChartSmallestFleet checks that the chart draws, for each retry
// level, the smallest fleet the table names, once: as its own black curve,
// or by marking the listed fleet that is it.
func TestChartSmallestFleet(t *testing.T) {
	cases := []struct {
		name, consumers, retries string
		want                     []string // the smallest curves' labels
		series                   int
	}{
		{"added", "25,32", "0,1.5", []string{"26 consumers, no retries", "63 consumers, 1.5 retries"}, 6},
		{"listed", "26,32", "0", []string{"26 consumers, no retries"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := cli(t, dir, "simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", tc.consumers,
				"--backlog", "3.6e6", "--retries-per-timeout", tc.retries, "--out", "depth.svg")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			svg := checkChart(t, filepath.Join(dir, "depth.svg"))
			lines := svg.find("series").all("polyline")
			smallest := 0
			for _, l := range lines {
				if l.attr("class") == "smallest" {
					smallest++
					if l.attr("stroke") != smallestColor {
						t.Errorf("smallest fleet drawn in %s, want %s", l.attr("stroke"), smallestColor)
					}
				}
			}
			var labels []string
			for _, g := range svg.find("labels").all("g") {
				if texts := g.texts(); len(texts) > 1 && strings.HasPrefix(texts[1], "the smallest fleet to drain in 10 h") {
					labels = append(labels, texts[0])
				}
			}
			if strings.Join(labels, "\n") != strings.Join(tc.want, "\n") || smallest != len(tc.want) {
				t.Errorf("%d smallest curves, labelled\n%s\nwant\n%s", smallest, strings.Join(labels, "\n"), strings.Join(tc.want, "\n"))
			}
			if len(lines) != tc.series {
				t.Errorf("%d series, want %d", len(lines), tc.series)
			}
			// The table's last column names the same fleets.
			for _, w := range tc.want {
				c := strings.Fields(w)[0]
				if !strings.Contains(stdout, "  "+c+"\n") {
					t.Errorf("the table's min consumers column lacks %s:\n%s", c, stdout)
				}
			}
			checkLabels(t, svg)
		})
	}
}

// chromium runs headless Chromium with args, as `make chart` does, and
// returns what it printed; it skips the test without Chromium.
func chromium(t *testing.T, args ...string) []byte {
	t.Helper()
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not on PATH: apt-get install -y chromium, or make chart CHROMIUM_INSTALL=1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir()}, args...)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return []byte(stdout.String())
}

// TestSeedChartInChromium screenshots the seed's chart in headless
// Chromium at the chart's size, as `make chart` does, and checks that the
// browser drew it.
func TestSeedChartInChromium(t *testing.T) {
	path := renderChart(t, seedSimulate...)
	svg := checkChart(t, path)
	width, height := int(svg.num("width")), int(svg.num("height"))
	shot := filepath.Join(t.TempDir(), "depth.png")
	chromium(t, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", width, height), "file://"+path)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Errorf("screenshot %v, want %d×%d", b, width, height)
	}
	// Non-trivial content: mostly white paper, but the series colors (the
	// smallest fleets' black among them) drawn in hundreds of pixels each
	// and text in dark gray.
	colors := []string{seriesColors[0], seriesColors[1], seriesColors[2], smallestColor, "#222222"}
	near := func(r, g, b uint32, hex string) bool {
		v, _ := strconv.ParseUint(hex[1:], 16, 32)
		d := func(a uint32, c uint64) bool { return int(a>>8)-int(c) < 40 && int(c)-int(a>>8) < 40 }
		return d(r, v>>16&0xff) && d(g, v>>8&0xff) && d(b, v&0xff)
	}
	counts := map[string]int{}
	white, total := 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			total++
			if r>>8 > 245 && g>>8 > 245 && b>>8 > 245 {
				white++
			}
			for _, c := range colors {
				if near(r, g, b, c) {
					counts[c]++
				}
			}
		}
	}
	if white == total || white < total/2 {
		t.Errorf("%d of %d pixels white: want a white page with a chart on it", white, total)
	}
	for _, c := range colors {
		if counts[c] < 300 {
			t.Errorf("%d pixels near %s, want the series and text drawn", counts[c], c)
		}
	}
	t.Logf("screenshot %s: %d%% white, series pixels %v", shot, 100*white/total, counts)
}

// measureTexts is a page script: the box Chromium lays out for each text
// of the inline SVG, its width and its font.
const measureTexts = `<pre id="measured"></pre><script>
const out = [...document.querySelectorAll("svg text")].map(t => {
	const b = t.getBoundingClientRect(), style = getComputedStyle(t);
	return {text: t.textContent, x0: b.left, y0: b.top, x1: b.right, y1: b.bottom,
		width: t.getComputedTextLength(), size: parseFloat(style.fontSize), bold: parseInt(style.fontWeight) >= 600};
});
document.getElementById("measured").textContent = JSON.stringify(out);
</script>`

// TestChartTextInChromium lays the seed's chart and crowded ones out in
// Chromium and checks, on the boxes the browser gives its texts, that none
// overlaps another or leaves the chart, and that textWidth, on which the
// layout relies, is never narrower than the text as drawn.
func TestChartTextInChromium(t *testing.T) {
	charts := map[string][]string{
		"seed":                           seedSimulate,
		"one fleet, twelve retry levels": {"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--backlog", "3.6e6", "--sla", "10s", "--ttl", "1h", "--consumers", "26", "--retries-per-timeout", "0,0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1,0.11"},
		"ten days":                       {"simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--backlog", "3.6e6", "--sla", "10s", "--ttl", "4d", "--consumers", "20,25,26", "--retries-per-timeout", "0,0.1,1,1.5", "--max", "10d"},
	}
	for name, args := range charts {
		t.Run(name, func(t *testing.T) {
			path := renderChart(t, args...)
			svg := checkChart(t, path)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			page := filepath.Join(t.TempDir(), "chart.html")
			if err := os.WriteFile(page, []byte(`<!DOCTYPE html><html><body style="margin:0">`+string(data)+measureTexts+`</body></html>`), 0o644); err != nil {
				t.Fatal(err)
			}
			dom := string(chromium(t, "--dump-dom", "file://"+page))
			_, rest, ok := strings.Cut(dom, `<pre id="measured">`)
			measured, _, _ := strings.Cut(rest, "</pre>")
			var texts []struct {
				Text                  string
				X0, Y0, X1, Y1, Width float64
				Size                  float64
				Bold                  bool
			}
			if err := json.Unmarshal([]byte(html.UnescapeString(measured)), &texts); !ok || err != nil {
				t.Fatalf("no measurements (%v) in:\n%s", err, dom)
			}
			if len(texts) != len(svg.all("text")) {
				t.Errorf("Chromium measured %d texts, the SVG has %d", len(texts), len(svg.all("text")))
			}
			const slack = 0.5 // px: rounding in the browser's layout
			width, height := svg.num("width"), svg.num("height")
			for i, a := range texts {
				if est := textWidth(a.Text, a.Size, a.Bold); a.Width > est+slack {
					t.Errorf("%q is %.1f px wide in Chromium, textWidth says %.1f", a.Text, a.Width, est)
				}
				if a.X0 < -slack || a.Y0 < -slack || a.X1 > width+slack || a.Y1 > height+slack {
					t.Errorf("%q at (%.1f, %.1f)–(%.1f, %.1f) leaves the %v×%v chart", a.Text, a.X0, a.Y0, a.X1, a.Y1, width, height)
				}
				for _, b := range texts[i+1:] {
					if a.X0 < b.X1-slack && b.X0 < a.X1-slack && a.Y0 < b.Y1-slack && b.Y0 < a.Y1-slack {
						t.Errorf("%q (%.1f, %.1f)–(%.1f, %.1f) overlaps %q (%.1f, %.1f)–(%.1f, %.1f)", a.Text, a.X0, a.Y0, a.X1, a.Y1, b.Text, b.X0, b.Y0, b.X1, b.Y1)
					}
				}
			}
			t.Logf("%d texts laid out apart", len(texts))
		})
	}
}
