// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/ratesfile"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

type ratesFlags struct {
	lintFlags         // the roots and variables, as lint and init read them
	prometheus        string
	cloudwatch        bool
	region            string
	window, step      string
	end               string
	percentile        float64
	saturation        float64
	write, force      bool
	acceptLowerBounds bool
	timeout           string
}

func ratesCommand(f *ratesFlags) *command {
	cmd := newCommand("rates", "--prometheus URL | --cloudwatch [flags] [DIR ...]")
	cmd.positional = "DIR ..."
	fs := cmd.fs
	fs.StringVar(&f.prometheus, "prometheus", "", "measure from the Prometheus server at `URL` (its HTTP API), with the metric names of the CloudWatch exporters or the queries of a rates \"prometheus\" block")
	fs.BoolVar(&f.cloudwatch, "cloudwatch", false, "measure from CloudWatch (GetMetricData), with the AWS SDK's default credential chain")
	fs.StringVar(&f.region, "region", "", "the AWS `region` of --cloudwatch (default AWS_REGION, then the shared config's)")
	fs.StringVar(&f.window, "window", "14d", "how far back to measure: a `duration`")
	fs.StringVar(&f.step, "step", "5m", "the `duration` of a step: rates are averaged over it (a multiple of 60 s for --cloudwatch)")
	fs.StringVar(&f.end, "end", "", "the window's end, an RFC 3339 `time` (default now)")
	fs.Float64Var(&f.percentile, "percentile", rates.DefaultPercentile, "arrival_rate is this `percentile` of the per-step arrival rates")
	fs.Float64Var(&f.saturation, "saturation-backlog", rates.DefaultSaturationBacklog, "visible `messages` per consumer in service at both ends of a step for the step to count as saturated (per_consumer_rate is measured only there)")
	fs.BoolVar(&f.write, "write", false, "write the values into each root's .queuecap.hcl, each with a comment saying where it came from")
	fs.BoolVar(&f.force, "force", false, "with --write, replace values a person wrote too (they are kept, and the differences shown, without it)")
	fs.BoolVar(&f.acceptLowerBounds, "accept-lower-bounds", false, "with --write, write a per_consumer_rate measured where the consumers were never saturated (only a lower bound)")
	rootFlags(fs, &f.lintFlags)
	fs.StringVar(&f.config, "config", "", "the `file` that root modules without a "+lint.DefaultConfigFile+" of their own read, as lint's --config, written for them with --write (default $QUEUECAP_CONFIG, else none: each gets DIR/"+lint.DefaultConfigFile+")")
	fs.StringVar(&f.chdir, "chdir", "", "run as if in `DIR`: DIR arguments (default DIR itself), --var-file, --config and --boundary are found from there")
	fs.StringVar(&f.timeout, "timeout", "5m", "give up on the source after this `duration`")
	cmd.footer = "Measures, for each queue the linter links to a consumer, arrival_rate (a percentile of the\n" +
		"per-step rate of messages sent), per_consumer_rate (messages completed per consumer in service,\n" +
		"only from steps where the consumers were saturated), retry_rate and avg_retries (receives beyond\n" +
		"deletes), and shows the largest backlog and the oldest message's age. A queue's name and its\n" +
		"consumer's come from the configuration, or from queue_name and consumer_name in its queue block\n" +
		"(queuecap init writes them). See docs/rates.md.\n" +
		"Durations take seconds (1800) or units (90s, 30m, 2h, 1h30m, 4d).\n" +
		"Exit codes: 0 every queue measured, 1 an error (the other queues are still shown and written).\n"
	return cmd
}

// rateQueue is a queue to measure: its root, the configuration the root
// reads, and its target.
type rateQueue struct {
	root   string
	config string // the .queuecap.hcl to write, the root's or a new one in it
	cfg    *lint.Config
	target rates.Target
	err    error // why it cannot be measured
	sla    *float64
}

func runRates(args []string, stdout, stderr io.Writer) int {
	f := &ratesFlags{}
	cmd := ratesCommand(f)
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "Error: "+format+"\n", a...)
		return exitError
	}
	if (f.prometheus == "") == !f.cloudwatch {
		return fail("rates measures from one source: give --prometheus URL or --cloudwatch")
	}
	if f.region != "" && !f.cloudwatch {
		return fail("--region applies to --cloudwatch")
	}
	w, err := f.windowOf()
	if err != nil {
		return fail("%v", err)
	}
	timeout, err := textfmt.Seconds(f.timeout)
	if err != nil || !(timeout > 0) {
		return fail("--timeout: a positive duration, got %q", f.timeout)
	}
	opts := rates.Options{Percentile: f.percentile, SaturationBacklog: f.saturation}
	if !(f.percentile > 0 && f.percentile <= 100) {
		return fail("--percentile: a number in (0, 100], got %s", rates.FormatValue(f.percentile))
	}
	if !(f.saturation > 0) {
		return fail("--saturation-backlog: a positive number of messages per consumer, got %s", rates.FormatValue(f.saturation))
	}
	res, bound, ok := explainRoots(cmd, &f.lintFlags, stderr)
	if !ok {
		fmt.Fprintln(stderr, "Nothing measured: fix the errors above, then run queuecap rates again.")
		return exitError
	}
	queues, err := queuesToMeasure(res.Explanation, bound)
	if err != nil {
		return fail("%v", err)
	}
	if len(queues) == 0 {
		fmt.Fprintln(stdout, "No queue with a consumer to measure: queuecap links a queue to the fleet that consumes it (see queuecap lint --explain).")
		return exitOK
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout*float64(time.Second)))
	defer cancel()
	measured, err := measureQueues(ctx, f, queues, w, opts)
	if err != nil {
		return fail("%v", err)
	}
	printRates(stdout, measured, w)
	code := exitOK
	for _, m := range measured {
		if m.err != nil {
			code = exitError
		}
	}
	if f.write {
		if err := writeRates(stdout, bound, measured, f, w); err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			code = exitError
		}
	}
	return code
}

// windowOf is the window the flags describe.
func (f *ratesFlags) windowOf() (rates.Window, error) {
	length, err := textfmt.Seconds(f.window)
	if err != nil || !(length > 0) {
		return rates.Window{}, fmt.Errorf("--window: a positive duration, got %q", f.window)
	}
	step, err := textfmt.Seconds(f.step)
	if err != nil || !(step >= 1) {
		return rates.Window{}, fmt.Errorf("--step: a duration of at least 1 s, got %q", f.step)
	}
	if step > length {
		return rates.Window{}, fmt.Errorf("--step %s is longer than --window %s", f.step, f.window)
	}
	if length/step > 1_000_000 {
		return rates.Window{}, fmt.Errorf("--window %s in --step %s steps is %s steps: at most 1,000,000", f.window, f.step, textfmt.Short(length/step))
	}
	end := time.Now().UTC()
	if f.end != "" {
		if end, err = time.Parse(time.RFC3339, f.end); err != nil {
			return rates.Window{}, fmt.Errorf("--end: an RFC 3339 time such as 2026-12-01T00:00:00Z, got %q", f.end)
		}
	}
	stepD := time.Duration(step * float64(time.Second))
	// Steps end on multiples of the step, as both sources align them.
	end = end.Truncate(stepD)
	return rates.Window{End: end, Length: time.Duration(length * float64(time.Second)), Step: stepD}, nil
}

// queuesToMeasure are the explained roots' queues with a consumer, each
// with the configuration its root reads (for its queue block's names and
// queries) and the file its values go to.
func queuesToMeasure(e *model.Explanation, bound *lint.Boundary) ([]rateQueue, error) {
	configs := map[string]*lint.Config{"": {Queues: map[string]lint.QueueConfig{}}}
	var out []rateQueue
	for _, root := range e.Roots {
		rc, ok := configs[root.Config]
		if !ok {
			var diags hcl.Diagnostics
			if rc, diags = lint.LoadConfig(root.Config, true, bound); diags.HasErrors() {
				return nil, diags
			}
			configs[root.Config] = rc
		}
		for _, q := range root.Queues {
			if len(q.Consumers) == 0 || q.IsDeadLetter {
				continue
			}
			out = append(out, targetOf(root.Dir, configFileOf(root), rc, q))
		}
	}
	return out, nil
}

// targetOf is the queue's target: the names its queue block sets, else
// the configuration's; the consumer its block names, else the first
// linked.
func targetOf(root, path string, cfg *lint.Config, q model.QueueExplanation) rateQueue {
	rq := rateQueue{root: root, config: path, cfg: cfg}
	block := cfg.Queues[q.Address]
	c := q.Consumers[chosenConsumer(q, block.Consumer)]
	t := rates.Target{Queue: q.Address, QueueName: q.Name,
		Consumer: rates.Consumer{Addr: c.Address, Kind: string(c.Kind), Name: c.Name, Cluster: c.Cluster}}
	var missing []string
	switch {
	case block.QueueName != "":
		t.QueueName = block.QueueName
	case t.QueueName == "":
		missing = append(missing, fmt.Sprintf("the queue's name (%s): set queue_name in its queue block of %s", q.NameWhy, path))
	}
	switch {
	case block.ConsumerName != "":
		t.Consumer.Name = block.ConsumerName
		if c.Kind == model.FleetECS {
			cluster, service, ok := strings.Cut(block.ConsumerName, "/")
			if !ok {
				rq.err = fmt.Errorf("consumer_name %q in %s: an ECS service's is CLUSTER/SERVICE", block.ConsumerName, path)
			}
			t.Consumer.Cluster, t.Consumer.Name = cluster, service
		}
	case c.Name == "":
		missing = append(missing, fmt.Sprintf("%s's name (%s): set consumer_name in the queue block of %s", c.Address, c.NameWhy, path))
	case c.Kind == model.FleetECS && c.Cluster == "":
		missing = append(missing, fmt.Sprintf("%s's cluster (%s): set consumer_name = \"CLUSTER/%s\" in the queue block of %s", c.Address, c.ClusterWhy, c.Name, path))
	}
	if len(missing) > 0 && rq.err == nil {
		rq.err = fmt.Errorf("not known before apply: %s", strings.Join(missing, "; "))
	}
	for _, r := range q.Rates {
		if r.Name == "sla_seconds" && r.Value != nil {
			rq.sla = r.Value
		}
	}
	rq.target = t
	return rq
}

// measuredQueue is a queue and what was measured of it.
type measuredQueue struct {
	rateQueue
	source string
	m      *rates.Measurement
	q      map[rates.Metric]string
}

// measureQueues fetches every measurable queue's series, a source per
// configuration file (whose rates block sets its queries), and measures
// them.
func measureQueues(ctx context.Context, f *ratesFlags, queues []rateQueue, w rates.Window, opts rates.Options) ([]measuredQueue, error) {
	out := make([]measuredQueue, len(queues))
	byConfig := map[*lint.Config][]int{}
	var order []*lint.Config
	for i, q := range queues {
		out[i].rateQueue = q
		if q.err != nil {
			continue
		}
		if _, ok := byConfig[q.cfg]; !ok {
			order = append(order, q.cfg)
		}
		byConfig[q.cfg] = append(byConfig[q.cfg], i)
	}
	for _, cfg := range order {
		src, name, err := newSource(ctx, f, cfg)
		if err != nil {
			return nil, err
		}
		idx := byConfig[cfg]
		targets := make([]rates.Target, len(idx))
		for j, i := range idx {
			targets[j] = queues[i].target
			if s := cfg.Queues[queues[i].target.Queue].Sources[name]; s != nil && name == "prometheus" {
				// Checked when the configuration was read.
				targets[j].Queries, _ = rates.PrometheusQueries(s.Attrs)
			}
		}
		fetched, err := src.Fetch(ctx, targets, w)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name(), err)
		}
		for j, i := range idx {
			out[i].source = src.Name()
			if fetched[j].Err != nil {
				out[i].err = fetched[j].Err
				continue
			}
			out[i].q = fetched[j].Queries
			m, err := rates.Measure(fetched[j].Series, opts)
			if err != nil {
				out[i].err = err
				continue
			}
			out[i].m = m
		}
	}
	return out, nil
}

// printRates writes what was measured, a table per queue (rate, value,
// the steps it was taken from) with the information that is not written,
// then each queue's error.
func printRates(w io.Writer, ms []measuredQueue, win rates.Window) {
	fmt.Fprintf(w, "Window: %s.\n", windowText(win))
	for _, m := range ms {
		if m.m == nil {
			continue
		}
		name := m.target.Queue
		if m.root != "." {
			name = filepath.ToSlash(m.root) + ": " + name
		}
		fmt.Fprintf(w, "\n%s (%s)\n", name, m.source)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, v := range m.m.Values {
			steps := textfmt.Plural(v.Steps, "step")
			if v.Name == "per_consumer_rate" && !v.LowerBound {
				steps = textfmt.Plural(v.Steps, "saturated step")
			}
			fmt.Fprintf(tw, "  %s\t%s\tfrom %s\n", v.Name, v.Display(), steps)
		}
		_ = tw.Flush()
		var info []string
		if b := m.m.MaxBacklog; !math.IsNaN(b) {
			info = append(info, "largest backlog "+textfmt.Short(b)+" messages")
		}
		if a := m.m.MaxOldestAge; !math.IsNaN(a) {
			s := "oldest message " + textfmt.Short(a) + " s"
			if m.sla != nil {
				verdict := "within"
				if a > *m.sla {
					verdict = "beyond"
				}
				s += fmt.Sprintf(", %s sla_seconds %s", verdict, textfmt.Short(*m.sla))
			}
			info = append(info, s)
		}
		if len(info) > 0 {
			fmt.Fprintf(w, "  %s\n", strings.Join(info, "; "))
		}
	}
	for _, m := range ms {
		if m.err != nil {
			fmt.Fprintf(w, "\nError: %s: %v\n", m.target.Queue, m.err)
		}
	}
}

// windowText is "1d in 5m steps up to 2026-11-02T00:00:00Z".
func windowText(win rates.Window) string {
	return fmt.Sprintf("%s in %s steps up to %s", durationText(win.Length), durationText(win.Step), win.End.Format(time.RFC3339))
}

// durationText is a window's or step's length in its largest whole unit:
// 14d, 5m, 90s.
func durationText(d time.Duration) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

// queriesFor are the queries a rate was measured from.
func queriesFor(name string, q map[rates.Metric]string) []string {
	var metrics []rates.Metric
	switch name {
	case "arrival_rate":
		metrics = []rates.Metric{rates.Sent}
	case "per_consumer_rate":
		metrics = []rates.Metric{rates.Deleted, rates.Consumers, rates.Visible, rates.Received}
	default:
		metrics = []rates.Metric{rates.Received, rates.Deleted}
	}
	var out []string
	for _, m := range metrics {
		if s, ok := q[m]; ok {
			out = append(out, string(m)+": "+s)
		}
	}
	return out
}

// writeRates writes each measured queue's values into its root's
// .queuecap.hcl, and says what it changed and what it kept.
func writeRates(w io.Writer, bound *lint.Boundary, ms []measuredQueue, f *ratesFlags, win rates.Window) error {
	byFile := map[string][]measuredQueue{}
	var files []string
	for _, m := range ms {
		if m.m == nil {
			continue
		}
		if _, ok := byFile[m.config]; !ok {
			files = append(files, m.config)
		}
		byFile[m.config] = append(byFile[m.config], m)
	}
	today := time.Now().UTC()
	var errs []error
	for _, path := range files {
		src, mode, err := readForWrite(bound, path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var notes []string
		same := 0 // values queuecap measured before, measured the same
		for _, m := range byFile[path] {
			var values []ratesfile.Measured
			for _, v := range m.m.Values {
				if v.LowerBound && !f.acceptLowerBounds {
					notes = append(notes, fmt.Sprintf("%s: per_consumer_rate not written: %s (--accept-lower-bounds writes it)", m.target.Queue, v.Display()))
					continue
				}
				values = append(values, ratesfile.Measured{Name: v.Name, Text: v.Text(), Provenance: ratesfile.Provenance{
					Date: today, Source: m.source, How: fmt.Sprintf("%s, %d steps, window %s", v.How, v.Steps, windowText(win)), Queries: queriesFor(v.Name, m.q)}})
			}
			out, changes, err := ratesfile.Write(src, path, m.target.Queue, values, f.force)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", path, err))
				break
			}
			src = out
			for _, c := range changes {
				if c.Action == ratesfile.Replaced && c.Old == c.New {
					same++
					continue
				}
				notes = append(notes, changeText(c))
			}
		}
		if err := bound.CheckWrite(path); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := replaceFile(path, src, mode); err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(w, "\nWrote %s.\n", path)
		for _, n := range slices.Compact(notes) {
			fmt.Fprintf(w, "  %s\n", n)
		}
		if same > 0 {
			fmt.Fprintf(w, "  %s as measured before: their comments' dates updated\n", textfmt.Plural(same, "value"))
		}
	}
	return errors.Join(errs...)
}

// newSource is the source the flags name, with the settings of cfg's
// top-level rates block for it, and the block's label.
func newSource(ctx context.Context, f *ratesFlags, cfg *lint.Config) (rates.Source, string, error) {
	if f.cloudwatch {
		src, err := newCloudWatch(ctx, f, cfg.Sources["cloudwatch"])
		return src, "cloudwatch", err
	}
	var settings map[string]string
	if b := cfg.Sources["prometheus"]; b != nil {
		settings = b.Attrs
	}
	src, err := rates.NewPrometheus(f.prometheus, settings, nil)
	if err != nil {
		err = fmt.Errorf("%s: rates \"prometheus\": %w", cfg.Path, err)
	}
	return src, "prometheus", err
}

// changeText says what writing did with a measured value.
func changeText(c ratesfile.Change) string {
	s := fmt.Sprintf("%s: %s %s", c.Queue, c.Name, c.Action)
	switch c.Action {
	case ratesfile.Added:
		s += " = " + c.New
	case ratesfile.Replaced:
		s += fmt.Sprintf(": %s → %s", c.Old, c.New)
	case ratesfile.Kept:
		s += fmt.Sprintf(" = %s, not the measured %s", c.Old, c.New)
	}
	if c.Why != "" {
		s += " (" + c.Why + ")"
	}
	return s
}

// newCloudWatch is the CloudWatch source: --region, else the block's
// region, else the SDK's; the block's endpoint (a VPC endpoint) when set.
func newCloudWatch(ctx context.Context, f *ratesFlags, block *lint.RatesSource) (rates.Source, error) {
	region := f.region
	var opts []rates.CloudWatchOption
	if block != nil {
		if region == "" {
			region = block.Attrs["region"]
		}
		if ep := block.Attrs["endpoint"]; ep != "" {
			opts = append(opts, rates.CloudWatchEndpoint(ep))
		}
	}
	return rates.NewCloudWatch(ctx, region, opts...)
}
