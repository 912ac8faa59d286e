// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package synth

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
)

// Point is a sample of a metric.
type Point struct {
	At    time.Time
	Value float64
}

// Exported is what an exporter of CloudWatch statistics exports of the
// scenario, by metric: each period's statistic (the Sum of sent, deleted
// and received, the Minimum visible, the Maximum age of the oldest
// message, the Average consumers), stamped every scrape from the
// period's start while the period lasts. A scrape of the period is once a
// period at its start, as cloudwatch_exporter stamps the CloudWatch
// timestamp; a shorter one repeats the value, as Prometheus scrapes
// YACE's latest.
func (sc Scenario) Exported(period, scrape time.Duration) map[rates.Metric][]Point {
	out := map[rates.Metric][]Point{}
	for m, s := range sc.Series(period) {
		for i, v := range s.Values {
			if m == rates.Sent || m == rates.Deleted || m == rates.Received {
				v *= period.Seconds()
			}
			from := s.Start.Add(time.Duration(i) * period)
			for at := time.Duration(0); at < period; at += scrape {
				out[m] = append(out[m], Point{from.Add(at), v})
			}
		}
	}
	return out
}

// Counter is an application's counter of a rate metric (sent, deleted or
// received): the count since base, sampled at the end of every scrape,
// starting again from zero at each of resets (offsets into the scenario,
// on a scrape), as a restarted process's counter does.
func (sc Scenario) Counter(m rates.Metric, scrape time.Duration, base float64, resets ...time.Duration) []Point {
	s := sc.Series(scrape)[m]
	out := make([]Point, 0, s.Len())
	count := base
	for i, v := range s.Values {
		if slices.Contains(resets, time.Duration(i)*scrape) {
			count = 0
		}
		count += v * scrape.Seconds()
		out = append(out, Point{s.Start.Add(time.Duration(i+1) * scrape), count})
	}
	return out
}

// Label is a label of a series.
type Label struct{ Name, Value string }

// Stream is one series of a family: its labels and its points in time
// order.
type Stream struct {
	Labels []Label
	Points []Point
}

// Family is a metric family: a "gauge", or a "counter" whose samples are
// named Name_total.
type Family struct {
	Name    string
	Type    string
	Streams []Stream
}

// WriteOpenMetrics writes families as OpenMetrics text, as `promtool tsdb
// create-blocks-from openmetrics` reads it: the streams of families of a
// name together, under one TYPE line, then # EOF.
func WriteOpenMetrics(w io.Writer, families []Family) error {
	var order []string
	byName := map[string]*Family{}
	for _, f := range families {
		if f.Type != "gauge" && f.Type != "counter" {
			return fmt.Errorf("family %s: type %q, not gauge or counter", f.Name, f.Type)
		}
		g, ok := byName[f.Name]
		if !ok {
			g = &Family{Name: f.Name, Type: f.Type}
			byName[f.Name] = g
			order = append(order, f.Name)
		}
		if g.Type != f.Type {
			return fmt.Errorf("family %s is both a %s and a %s", f.Name, g.Type, f.Type)
		}
		g.Streams = append(g.Streams, f.Streams...)
	}
	b := bufio.NewWriter(w)
	for _, name := range order {
		f := byName[name]
		sample := f.Name
		if f.Type == "counter" {
			sample += "_total"
		}
		fmt.Fprintf(b, "# TYPE %s %s\n", f.Name, f.Type)
		for _, s := range f.Streams {
			labels := make([]string, len(s.Labels))
			for i, l := range s.Labels {
				labels[i] = l.Name + "=" + strconv.Quote(l.Value)
			}
			for _, p := range s.Points {
				fmt.Fprintf(b, "%s{%s} %s %s\n", sample, strings.Join(labels, ","), openMetricsFloat(p.Value),
					strconv.FormatFloat(float64(p.At.UnixMilli())/1000, 'f', 3, 64))
			}
		}
	}
	fmt.Fprintln(b, "# EOF")
	return b.Flush()
}

func openMetricsFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
