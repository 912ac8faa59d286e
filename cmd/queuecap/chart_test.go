package main

import (
	"context"
	"encoding/xml"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
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

// renderSeedChart writes the seed's chart into a temporary directory.
func renderSeedChart(t *testing.T, extra ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "depth.svg")
	code, stdout, stderr := cli(t, "", append(append([]string{}, seedSimulate...), append(extra, "--out", path)...)...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if !strings.Contains(stdout, "Chart: "+path) {
		t.Errorf("stdout does not name the chart:\n%s", stdout)
	}
	return path
}

func TestSeedChart(t *testing.T) {
	svg := checkChart(t, renderSeedChart(t))

	series := svg.find("series")
	if series == nil {
		t.Fatal("no series group")
	}
	lines := series.all("polyline")
	if len(lines) != 6 {
		t.Fatalf("%d series, want the 4 listed and the 2 smallest fleets that drain", len(lines))
	}
	colors := map[string]bool{}
	for _, l := range lines {
		pts := strings.Fields(l.attr("points"))
		if len(pts) < 2 {
			t.Errorf("series %q has %d points", l.attr("stroke"), len(pts))
		}
		for _, p := range pts {
			x, y, _ := strings.Cut(p, ",")
			xv, err1 := strconv.ParseFloat(x, 64)
			yv, err2 := strconv.ParseFloat(y, 64)
			if err1 != nil || err2 != nil || xv < plotLeft || xv > plotRight || yv < plotTop || yv > plotBottom {
				t.Errorf("point %s outside the plot", p)
				break
			}
		}
		colors[l.attr("stroke")+" "+l.attr("stroke-dasharray")] = true
	}
	if len(colors) != 6 {
		t.Errorf("series styles %v, want 6 different", colors)
	}

	legend := svg.find("legend")
	if legend == nil {
		t.Fatal("no legend")
	}
	want := []string{
		"25 consumers (10,000 msg/s), no retries: never drains, peak 3.6M",
		"25 consumers (10,000 msg/s), 1.5 retries per timeout: never drains, peak 544M",
		"32 consumers (12,800 msg/s), no retries: drains in 21 min 26 s",
		"32 consumers (12,800 msg/s), 1.5 retries per timeout: never drains, peak 443M",
		"smallest fleet to drain: 26 consumers (10,400 msg/s), no retries: drains in 2 h 30 min",
		"smallest fleet to drain: 63 consumers (25,200 msg/s), 1.5 retries per timeout: drains in 4 h 36 min",
	}
	if got := legend.texts(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("legend\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The legend sits below the plot, where it cannot cover data.
	for _, l := range legend.all("line") {
		if y, _ := strconv.ParseFloat(l.attr("y1"), 64); y <= plotBottom+50 {
			t.Errorf("legend entry at y %v overlaps the plot (bottom %d)", y, plotBottom)
		}
	}

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

	// The SLA and TTL lines, labelled, at the height of their depth.
	refs := svg.find("reference-lines")
	if refs == nil {
		t.Fatal("no reference lines")
	}
	if got := strings.Join(refs.texts(), "|"); got != "TTL 1 h|depth 36M|SLA 10 s|depth 100k" {
		t.Errorf("reference labels %s", got)
	}
	tickY := map[string]float64{}
	for _, tx := range yAxis.all("text") {
		y, _ := strconv.ParseFloat(tx.attr("y"), 64)
		tickY[tx.text()] = y - 4.5 // labels sit 4.5 px below their line
	}
	refLines := refs.all("line")
	if len(refLines) != 2 {
		t.Fatalf("%d reference lines, want 2", len(refLines))
	}
	slaY, _ := strconv.ParseFloat(refLines[1].attr("y1"), 64)
	if slaY != tickY["100k"] {
		t.Errorf("SLA line at y %v, the 100k tick at %v", slaY, tickY["100k"])
	}
	ttlY, _ := strconv.ParseFloat(refLines[0].attr("y1"), 64)
	if ttlY >= tickY["10M"] || ttlY <= tickY["100M"] {
		t.Errorf("TTL line at y %v, not between 10M (%v) and 100M (%v)", ttlY, tickY["10M"], tickY["100M"])
	}

	markers := svg.find("drain-markers")
	if markers == nil || len(markers.all("circle")) != 3 || strings.Join(markers.texts(), "|") != "empty at 21 min 26 s|empty at 2 h 30 min|empty at 4 h 36 min" {
		t.Errorf("drain markers: want three, empty at 21 min 26 s, 2 h 30 min and 4 h 36 min")
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
	path := filepath.Join(t.TempDir(), "depth.svg")
	code, _, stderr := cli(t, "", "simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", "25,32",
		"--backlog", "3.6e6", "--retries-per-timeout", "0,1.5", "--out", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	svg := checkChart(t, path)
	if refs := svg.find("reference-lines"); refs == nil || len(refs.all("line")) != 0 {
		t.Error("reference lines drawn without --sla or --ttl")
	}
	if n := len(svg.find("series").all("polyline")); n != 6 {
		t.Errorf("%d series, want 6", n)
	}
}

// TestChartSmallestFleet checks that the chart draws, for each retry
// level, the smallest fleet the table names, once: as its own black curve,
// or by marking the listed fleet that is it.
func TestChartSmallestFleet(t *testing.T) {
	cases := []struct {
		name, consumers, retries string
		want                     []string // the smallest curves' legend names
		series                   int
	}{
		{"added", "25,32", "0,1.5", []string{"smallest fleet to drain: 26 consumers (10,400 msg/s), no retries",
			"smallest fleet to drain: 63 consumers (25,200 msg/s), 1.5 retries per timeout"}, 6},
		{"listed", "26,32", "0", []string{"smallest fleet to drain: 26 consumers (10,400 msg/s), no retries"}, 2},
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
			for _, l := range svg.find("series").all("polyline") {
				if l.attr("class") == "smallest" && l.attr("stroke") != smallestColor {
					t.Errorf("smallest fleet drawn in %s, want %s", l.attr("stroke"), smallestColor)
				}
			}
			var legend []string
			for _, e := range svg.find("legend").all("g") {
				if e.all("line")[0].attr("class") == "smallest" {
					name, _, _ := strings.Cut(e.text(), ": drains")
					legend = append(legend, name)
				}
			}
			if strings.Join(legend, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("smallest fleets\n%s\nwant\n%s", strings.Join(legend, "\n"), strings.Join(tc.want, "\n"))
			}
			if n := len(svg.find("series").all("polyline")); n != tc.series {
				t.Errorf("%d series, want %d", n, tc.series)
			}
			// The table's last column names the same fleets.
			for _, w := range tc.want {
				c := strings.Fields(strings.TrimPrefix(w, "smallest fleet to drain: "))[0]
				if !strings.Contains(stdout, "  "+c+"\n") {
					t.Errorf("the table's min consumers column lacks %s:\n%s", c, stdout)
				}
			}
		})
	}
}

// TestChartSizeBound draws the most the CLI allows, twelve series over its
// longest run (and three smallest fleets: 26 is listed), and checks the SVG
// stays under 200 KB.
func TestChartSizeBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "depth.svg")
	code, _, stderr := cli(t, "", "simulate", "--arrival-rate", "10000", "--per-consumer-rate", "400", "--consumers", "20,25,26",
		"--backlog", "3.6e6", "--retries-per-timeout", "0,0.1,1,1.5", "--max", "10d", "--sla", "10s", "--ttl", "4d", "--out", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	svg := checkChart(t, path)
	if n := len(svg.find("series").all("polyline")); n != 15 {
		t.Errorf("%d series, want 15", n)
	}
}

// TestSeedChartInChromium screenshots the seed's chart in headless
// Chromium, as `make chart` does, and checks that the browser drew it.
func TestSeedChartInChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not on PATH: apt-get install -y chromium, or make chart CHROMIUM_INSTALL=1")
	}
	svg := renderSeedChart(t)
	shot := filepath.Join(t.TempDir(), "depth.png")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--screenshot="+shot, "--window-size=1200,800", "file://"+svg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 800 {
		t.Errorf("screenshot %v, want 1200×800", b)
	}
	// Non-trivial content: mostly white paper, but the series colors
	// drawn in hundreds of pixels each and text in dark gray.
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
			for _, c := range []string{"#0072B2", "#D55E00", "#222222"} {
				if near(r, g, b, c) {
					counts[c]++
				}
			}
		}
	}
	if white == total || white < total/2 {
		t.Errorf("%d of %d pixels white: want a white page with a chart on it", white, total)
	}
	for _, c := range []string{"#0072B2", "#D55E00", "#222222"} {
		if counts[c] < 300 {
			t.Errorf("%d pixels near %s, want the series and text drawn", counts[c], c)
		}
	}
	t.Logf("screenshot %s: %d%% white, series pixels %v", shot, 100*white/total, counts)
}
