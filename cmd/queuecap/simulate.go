// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// maxSeries keeps the chart readable: one color each (seriesColors), and
// labels that fit beside the plot.
const maxSeries = 12

// sparklineWidth is the characters of each terminal sparkline.
const sparklineWidth = 60

type simulateFlags struct {
	arrivalRate, perConsumerRate, backlog float64
	consumers                             []int64
	retriesPerTimeout                     []float64
	timeoutWindowSeconds, maxSeconds      float64
	slaSeconds, ttlSeconds                float64
	rtoSeconds                            float64 // 0 without --rto
	out                                   string
}

// stormRun is one fleet under one retry level.
type stormRun struct {
	in                  capacity.StormInput
	consumers           int64
	retriesPerTimeout   float64
	capacity, surplus   float64
	storm               capacity.Storm
	minConsumersToDrain int64
	// minConsumersWithinRTO is the smallest fleet that drains by --rto
	// under the same storm; 0 without --rto.
	minConsumersWithinRTO int64
	points                []point // downsampled depth over time, for the sparkline
	retryIndex            int     // its place among the retry levels given
}

// smallest reports whether this is the smallest fleet that drains under
// its storm.
func (r stormRun) smallest() bool { return r.consumers == r.minConsumersToDrain }

func runSimulate(args []string, stdout, stderr io.Writer) int {
	f := simulateFlags{timeoutWindowSeconds: capacity.DefaultTimeoutWindowSeconds, maxSeconds: capacity.DefaultStormMaxSeconds}
	cmd := newCommand("simulate", "--arrival-rate N --per-consumer-rate N --consumers C[,C...] --backlog N [flags]",
		"arrival-rate", "per-consumer-rate", "consumers", "backlog")
	fs := cmd.fs
	fs.Var(numberFlag{&f.arrivalRate, parseNumber}, "arrival-rate", "base arrival rate λ, `messages/s` (required)")
	fs.Var(numberFlag{&f.perConsumerRate, parseNumber}, "per-consumer-rate", "what one consumer completes, μ, `messages/s` (required)")
	fs.Var(listFlag[int64]{&f.consumers, parseCount}, "consumers", "fleet sizes to compare, a comma-separated `list` (required)")
	fs.Var(numberFlag{&f.backlog, parseNumber}, "backlog", "`messages` waiting at the start (required)")
	fs.Var(listFlag[float64]{&f.retriesPerTimeout, parseNumber}, "retries-per-timeout", "retry levels to compare, a comma-separated `list` of retries a producer sends per timed-out message (default 0)")
	fs.Var(numberFlag{&f.timeoutWindowSeconds, parseDuration}, "timeout-window", "wait after which a message times out and is retried, a `duration`")
	fs.Var(numberFlag{&f.maxSeconds, parseDuration}, "max", "time simulated, a `duration` of whole seconds")
	fs.Var(numberFlag{&f.slaSeconds, parseDuration}, "sla", "longest a message may wait, a `duration`: draws the depth λ × SLA")
	fs.Var(numberFlag{&f.ttlSeconds, parseDuration}, "ttl", "age at which messages expire, a `duration`: draws the depth λ × TTL")
	fs.Var(numberFlag{&f.rtoSeconds, parseDuration}, "rto", "time allowed to clear the backlog, a `duration` of whole seconds: adds the smallest fleet that drains within it")
	fs.StringVar(&f.out, "out", "", "write an SVG chart of depth over time to this `file`")
	cmd.footer = unitsFooter
	cmd.alias("o", "out")
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	if len(f.retriesPerTimeout) == 0 {
		f.retriesPerTimeout = []float64{0}
	}
	// Only a chart has room for so many: the table takes any number.
	if n := len(f.consumers) * len(f.retriesPerTimeout); n > maxSeries && f.out != "" {
		fmt.Fprintf(stderr, "Error: --out: %d fleets × %d retry levels make %d series: at most %d fit one chart (without --out the table lists them all)\n",
			len(f.consumers), len(f.retriesPerTimeout), n, maxSeries)
		return exitError
	}
	if f.maxSeconds != math.Trunc(f.maxSeconds) {
		fmt.Fprintf(stderr, "Error: --max must be whole seconds, got %v\n", f.maxSeconds)
		return exitError
	}
	if cmd.set["rto"] && (f.rtoSeconds != math.Trunc(f.rtoSeconds) || f.rtoSeconds < 1 || f.rtoSeconds > f.maxSeconds) {
		fmt.Fprintf(stderr, "Error: --rto must be whole seconds from 1 s to --max (%s), got %s\n", formatDuration(f.maxSeconds), formatNumber(f.rtoSeconds))
		return exitError
	}
	// Clamped only so that the conversion is defined: the simulation
	// rejects anything near these bounds with its own limits.
	maxSeconds := int64(max(-capacity.MaxCount, min(f.maxSeconds, capacity.MaxCount)))

	runs, err := simulateRuns(f, maxSeconds)
	if err != nil {
		return reportError(stderr, err)
	}
	refs, err := referenceLines(f, cmd.set)
	if err != nil {
		return reportError(stderr, err)
	}
	simulated := float64(maxSeconds)
	shown := shownSeconds(runs, simulated)
	if err := recordDepths(runs, shown); err != nil {
		return reportError(stderr, err)
	}
	var summary bytes.Buffer
	writeSummary(&summary, f, simulated, shown, runs, refs, newLogScale(runs, refs))
	if f.out != "" {
		size, err := writeChart(f, simulated, runs, refs)
		if err != nil {
			return reportError(stderr, err)
		}
		fmt.Fprintf(&summary, "\nChart: %s (%s KB, log scale)\n", f.out, strconv.Itoa((size+1023)/1024))
	}
	if _, err := stdout.Write(summary.Bytes()); err != nil {
		return reportError(stderr, err)
	}
	return exitOK
}

// referenceLines are the depths --sla and --ttl draw.
func referenceLines(f simulateFlags, set map[string]bool) ([]refLine, error) {
	var refs []refLine
	if set["sla"] {
		depth, err := capacity.SLAMaxDepth(f.arrivalRate, f.slaSeconds)
		if err != nil {
			return nil, err
		}
		refs = append(refs, refLine{name: "SLA " + formatDuration(f.slaSeconds), depth: depth,
			meaning: "deeper than this, a message arriving now waits longer than the SLA (λ × SLA)",
			note:    []string{"above it, a message waits", "longer than " + formatDuration(f.slaSeconds)}})
	}
	if set["ttl"] {
		// A full outage as long as the TTL piles up λ × TTL messages, and
		// no longer outage piles up more: beyond it messages expire.
		ttl, err := capacity.BacklogWithTTL(capacity.TTLInput{ArrivalRate: f.arrivalRate, IncidentSeconds: f.ttlSeconds, TTLSeconds: f.ttlSeconds})
		if err != nil {
			return nil, err
		}
		refs = append(refs, refLine{name: "TTL " + formatDuration(f.ttlSeconds), depth: ttl.TTLBoundedBacklog, ttl: true,
			meaning: "deeper than this, messages expire before they are served (λ × TTL)",
			note:    []string{"above it, messages older than", formatDuration(f.ttlSeconds) + " are dropped: lost"}})
	}
	return refs, nil
}

// writeChart draws runs and the smallest fleets that drain into f.out and
// returns the SVG's size in bytes.
func writeChart(f simulateFlags, simulated float64, runs []stormRun, refs []refLine) (int, error) {
	all, err := withSmallestFleets(runs)
	if err != nil {
		return 0, err
	}
	chart, err := newDepthChart(f, simulated, all, refs)
	if err != nil {
		return 0, err
	}
	var svg bytes.Buffer
	if err := chart.writeSVG(&svg); err != nil {
		return 0, err
	}
	return svg.Len(), os.WriteFile(f.out, svg.Bytes(), 0o644)
}

// simulateRuns simulates every fleet under every retry level, in the order
// given: fleets outermost.
func simulateRuns(f simulateFlags, maxSeconds int64) ([]stormRun, error) {
	// The searches depend on the storm, not the fleet.
	minConsumers, minWithinRTO := map[float64]int64{}, map[float64]int64{}
	var runs []stormRun
	for _, c := range f.consumers {
		for ri, k := range f.retriesPerTimeout {
			in := capacity.StormInput{
				ArrivalRate: f.arrivalRate, PerConsumerRate: f.perConsumerRate, Consumers: c, Backlog: f.backlog,
				RetriesPerTimeout: k, TimeoutWindowSeconds: f.timeoutWindowSeconds, MaxSeconds: maxSeconds,
			}
			minC, ok := minConsumers[k]
			if !ok {
				var err error
				if minC, err = capacity.MinConsumersToDrain(in, 0); err != nil {
					return nil, err
				}
				minConsumers[k] = minC
			}
			r, err := simulateRun(in, minC, ri)
			if err != nil {
				return nil, err
			}
			if f.rtoSeconds > 0 {
				within, ok := minWithinRTO[k]
				if !ok {
					if within, err = capacity.MinConsumersToDrain(in, int64(f.rtoSeconds)); err != nil {
						return nil, err
					}
					minWithinRTO[k] = within
				}
				r.minConsumersWithinRTO = within
			}
			runs = append(runs, r)
		}
	}
	return runs, nil
}

func simulateRun(in capacity.StormInput, minConsumers int64, retryIndex int) (stormRun, error) {
	storm, err := capacity.SimulateStorm(in, nil)
	if err != nil {
		return stormRun{}, err
	}
	fleet, err := capacity.FleetCapacity(in.Consumers, in.PerConsumerRate)
	if err != nil {
		return stormRun{}, err
	}
	return stormRun{
		in: in, consumers: in.Consumers, retriesPerTimeout: in.RetriesPerTimeout, capacity: fleet, surplus: capacity.NetRate(fleet, in.ArrivalRate),
		storm: storm, minConsumersToDrain: minConsumers, retryIndex: retryIndex,
	}, nil
}

// withSmallestFleets is runs plus, for each retry level, the smallest fleet
// that drains under it (the table's last column, from the same search),
// simulated alike; a listed fleet that is the smallest is not repeated.
func withSmallestFleets(runs []stormRun) ([]stormRun, error) {
	out := slices.Clone(runs)
	for _, r := range runs {
		listed := slices.ContainsFunc(out, func(o stormRun) bool {
			return o.smallest() && o.retriesPerTimeout == r.retriesPerTimeout
		})
		if listed {
			continue
		}
		in := r.in
		in.Consumers = r.minConsumersToDrain
		s, err := simulateRun(in, r.minConsumersToDrain, r.retryIndex)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func formatRetries(k float64) string {
	if k == 0 {
		return "no retries"
	}
	if k == 1 {
		return "1 retry per timeout"
	}
	return formatNumber(k) + " retries per timeout"
}

// outcome reads "drains in 21 min 26 s" or "never drains within 10 h".
func (r stormRun) outcome(horizon float64) string {
	if r.storm.Drains {
		return "drains in " + formatDuration(*r.storm.DrainSeconds)
	}
	return "never drains within " + formatDuration(horizon)
}

// recordDepths simulates each run again, keeping a downsampled depth curve
// of its first shown seconds for its sparkline: the outcomes decide how
// much is shown, and a run of 36,000 steps takes well under a millisecond.
func recordDepths(runs []stormRun, shown float64) error {
	for i := range runs {
		points, err := recordCurve(runs[i].in, shown)
		if err != nil {
			return err
		}
		runs[i].points = points
	}
	return nil
}

// recordCurve simulates in again and keeps its first seconds, downsampled.
func recordCurve(in capacity.StormInput, seconds float64) ([]point, error) {
	rec := newRecorder(seconds)
	err := simulateVisiting(in, rec.visit)
	return rec.points(), err
}

// simulateVisiting simulates in again, showing each state to each visitor.
func simulateVisiting(in capacity.StormInput, visitors ...func(t int64, depth, effectiveArrival float64)) error {
	_, err := capacity.SimulateStorm(in, func(t int64, depth, effectiveArrival float64) {
		for _, v := range visitors {
			v(t, depth, effectiveArrival)
		}
	})
	return err
}

// shownSeconds is the time the chart and the sparklines span: all of it
// when a series never drains, else up to the last drain, on a round tick,
// so that fleets which all drain in minutes do not hug the left edge of a
// ten-hour axis.
func shownSeconds(runs []stormRun, simulated float64) float64 {
	last := 0.0
	for _, r := range runs {
		if !r.storm.Drains {
			return simulated
		}
		last = max(last, *r.storm.DrainSeconds)
	}
	return roundUpTime(max(last, 1), simulated)
}

func writeSummary(w io.Writer, f simulateFlags, horizon, shown float64, runs []stormRun, refs []refLine, scale logScale) {
	fmt.Fprintf(w, "Retry storm: %s arriving, %s per consumer, a backlog of %s messages, timeout window %s, %s simulated in 1 s steps\n",
		formatRate(f.arrivalRate), formatRate(f.perConsumerRate), formatCount(f.backlog), formatDuration(f.timeoutWindowSeconds), formatDuration(horizon))
	for _, ref := range refs {
		fmt.Fprintf(w, "%s: depth %s; %s\n", ref.name, formatCount(ref.depth), ref.meaning)
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	rtoColumn := ""
	if f.rtoSeconds > 0 {
		rtoColumn = "\tmin consumers to drain in " + formatDuration(f.rtoSeconds) + " (RTO)"
	}
	fmt.Fprintf(tw, "consumers\tretries per timeout\tsurplus\toutcome\tpeak depth\tpeak arrival\tmin consumers to drain in %s%s\n", formatDuration(horizon), rtoColumn)
	for _, r := range runs {
		within := ""
		if f.rtoSeconds > 0 {
			within = "\t" + formatConsumers(r.minConsumersWithinRTO)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n", formatConsumers(r.consumers), formatNumber(r.retriesPerTimeout), formatRate(r.surplus),
			r.outcome(horizon), formatCount(r.storm.PeakDepth), formatRate(r.storm.PeakEffectiveArrivalRate), formatConsumers(r.minConsumersToDrain), within)
	}
	tw.Flush()

	fmt.Fprintf(w, "\nDepth, log scale from %s to %s messages, one character per %s, blank once empty:\n",
		formatCount(scale.min()), formatCount(scale.max()), formatDuration(shown/sparklineWidth))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range runs {
		fmt.Fprintf(tw, "%s consumers, %s\t%s\n", formatConsumers(r.consumers), formatRetries(r.retriesPerTimeout), sparkline(r.points, shown, sparklineWidth, scale))
	}
	tw.Flush()
}

// sparkline draws the highest depth of each of width equal time slices in
// eight block heights on the log scale; a blank slice has no depth above 0.
func sparkline(points []point, horizon float64, width int, scale logScale) string {
	blocks := []rune("▁▂▃▄▅▆▇█")
	peak := make([]float64, width)
	seen := make([]bool, width)
	for _, p := range points {
		i := min(int(p.t/horizon*float64(width)), width-1)
		peak[i], seen[i] = max(peak[i], p.depth), true
	}
	var b strings.Builder
	for i := range peak {
		// A slice between two kept points holds the depth before it.
		if !seen[i] && i > 0 && len(points) > 0 && float64(i)*horizon/float64(width) < points[len(points)-1].t {
			peak[i] = peak[i-1]
		}
		d := peak[i]
		if d <= 0 {
			b.WriteRune(' ')
			continue
		}
		level := int(scale.fraction(d) * float64(len(blocks)))
		b.WriteRune(blocks[min(max(level, 0), len(blocks)-1)])
	}
	return strings.TrimRight(b.String(), " ")
}
