// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// sizeFlags are the inputs of `queuecap size`, the queuecap_consumers data
// source's.
type sizeFlags struct {
	in           capacity.SizingInput
	minConsumers float64
	format       string
}

// sizeFlagNames are the flags of `queuecap size` by the catalog input of
// queuecap_consumers each sets.
var sizeFlagNames = map[string]string{
	"arrival-rate": "arrival_rate", "per-consumer-rate": "per_consumer_rate", "max-backlog": "max_backlog",
	"rto": "rto_seconds", "retry-rate": "retry_rate", "avg-retries": "avg_retries", "min-headroom": "min_headroom",
	"provisioning-lag": "provisioning_lag_seconds", "min-consumers": "min_consumers",
}

func runSize(args []string, stdout, stderr io.Writer) int {
	var f sizeFlags
	cmd := newCommand("size", "--arrival-rate N --per-consumer-rate N [--max-backlog N --rto DURATION] [flags]",
		"arrival-rate", "per-consumer-rate")
	fs := cmd.fs
	fs.Var(numberFlag{&f.in.ArrivalRate, parseNumber}, "arrival-rate", "base arrival rate λ, `messages/s` (required)")
	fs.Var(numberFlag{&f.in.PerConsumerRate, parseNumber}, "per-consumer-rate", "what one consumer completes, μ, `messages/s` (required)")
	fs.Var(numberFlag{&f.in.MaxBacklog, parseNumber}, "max-backlog", "worst backlog to clear, `messages`")
	fs.Var(numberFlag{&f.in.RTOSeconds, parseDuration}, "rto", "time allowed to clear --max-backlog, a `duration` (required with it)")
	fs.Var(numberFlag{&f.in.Retries.Rate, parseFraction}, "retry-rate", "share of messages retried, a `fraction` 0..1 or a percentage")
	fs.Var(numberFlag{&f.in.Retries.Average, parseNumber}, "avg-retries", "retries per retried message, a `number`")
	fs.Var(numberFlag{&f.in.MinHeadroom, parseFraction}, "min-headroom", "least spare capacity over arrivals, a `fraction` or a percentage (default 0, as in queuecap_consumers)")
	fs.Var(numberFlag{&f.in.ProvisioningLagSeconds, parseDuration}, "provisioning-lag", "time for a new consumer to start taking work, a `duration` (default 0, the headroom formula)")
	fs.Var(numberFlag{&f.minConsumers, parseNumber}, "min-consumers", "fleet that drains alone during --provisioning-lag, a `count` (default the steady state)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text|json")
	cmd.footer = unitsFooter
	cmd.alias("f", "format")
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	if f.format != "text" && f.format != "json" {
		fmt.Fprintf(stderr, "Error: unknown format %q: valid formats are text, json\n", f.format)
		return exitError
	}
	// The flags given are the data source's arguments: the catalog checks
	// them, fills in the defaults and computes, as the provider does.
	given := map[string]any{}
	fs.Visit(func(fl *flag.Flag) {
		name, named := sizeFlagNames[fl.Name]
		if nf, ok := fl.Value.(numberFlag); named && ok {
			given[name] = *nf.v
		}
	})
	res, bound, err := capacity.Consumers.Run(given)
	if err != nil {
		return reportError(stderr, err)
	}
	out := sizingOf(res.Values)
	out.MinConsumers = out.SteadyStateConsumers
	if bound.Has("min_consumers") {
		out.MinConsumers = bound.Count("min_consumers")
	}
	if f.format == "json" {
		// The data source's whole result, as queuecap calc consumers
		// writes it: the inputs with defaults filled in, then the outputs.
		err = writeCalcJSON(stdout, capacity.Consumers, resultValues(capacity.Consumers, bound, res))
	} else {
		err = writeSizeText(stdout, f.in, out)
	}
	if err != nil {
		return reportError(stderr, err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n\n%s\n", w.Summary, textfmt.Wrap(w.Detail, "  ", 80))
	}
	return exitOK
}

// sizingOf reads the catalog's queuecap_consumers values for the table.
func sizingOf(v capacity.Values) capacity.Sizing {
	num := func(name string) float64 { f, _ := v[name].(float64); return f }
	count := func(name string) int64 { n, _ := v[name].(int64); return n }
	ptr := func(x any) *float64 {
		if f, ok := x.(float64); ok {
			return &f
		}
		return nil
	}
	return capacity.Sizing{
		EffectiveArrivalRate: num("effective_arrival_rate"), SteadyStateConsumers: count("steady_state_consumers"),
		RequiredConsumers: count("required_consumers"), Capacity: num("capacity"), Surplus: num("surplus"),
		Utilization: num("utilization"), Headroom: ptr(v["headroom"]), Overhead: ptr(v["overhead"]), DrainSeconds: ptr(v["drain_seconds"]),
	}
}

func writeSizeText(w io.Writer, in capacity.SizingInput, out capacity.Sizing) error {
	fmt.Fprintf(w, "Sizing for %s arriving at %s per consumer", formatRate(in.ArrivalRate), formatRate(in.PerConsumerRate))
	if in.Retries.Rate > 0 && in.Retries.Average > 0 {
		fmt.Fprintf(w, ", %s of messages retried %s times", formatPercent(in.Retries.Rate), formatNumber(in.Retries.Average))
	}
	if in.MaxBacklog > 0 {
		fmt.Fprintf(w, ", a backlog of %s messages cleared within %s", formatNumber(in.MaxBacklog), formatDuration(in.RTOSeconds))
	}
	if in.MinHeadroom > 0 {
		fmt.Fprintf(w, ", at least %s headroom", formatPercent(in.MinHeadroom))
	}
	if in.ProvisioningLagSeconds > 0 {
		fmt.Fprintf(w, ", new consumers starting after %s with %s running", formatDuration(in.ProvisioningLagSeconds), formatConsumers(out.MinConsumers))
	}
	fmt.Fprint(w, "\n\n")

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(name, value, note string) { fmt.Fprintf(tw, "%s\t%s\t%s\n", name, value, note) }
	row("effective arrival", formatRate(out.EffectiveArrivalRate), "λ × (1 + retry rate × retries)")
	row("steady-state consumers", formatConsumers(out.SteadyStateConsumers), "just keep up: ceil(effective arrival / μ)")
	row("required consumers", formatConsumers(out.RequiredConsumers), "clear the backlog within the RTO: the fleet's maximum size")
	if out.Overhead != nil {
		row("overhead", formatPercent(*out.Overhead), "required / steady-state − 1")
	} else {
		row("overhead", "undefined", "the steady state needs no consumers")
	}
	row("capacity", formatRate(out.Capacity), "required × μ")
	row("surplus", formatRate(out.Surplus), "capacity − effective arrival: the drain rate")
	row("utilization", formatPercent(out.Utilization), "effective arrival / capacity")
	if out.Headroom != nil {
		row("headroom", formatPercent(*out.Headroom), "surplus / effective arrival")
	} else {
		row("headroom", "undefined", "no arrivals")
	}
	switch {
	case out.DrainSeconds == nil:
		row("drain time", "never", "no surplus")
	case in.MaxBacklog == 0:
		row("drain time", "0 s", "no backlog given")
	case in.ProvisioningLagSeconds > 0:
		row("drain time", formatDuration(*out.DrainSeconds), fmt.Sprintf("%s of provisioning lag at %s consumers, the rest at %s", formatDuration(in.ProvisioningLagSeconds), formatConsumers(out.MinConsumers), formatRate(out.Surplus)))
	default:
		row("drain time", formatDuration(*out.DrainSeconds), fmt.Sprintf("%s messages / %s = %s s", formatNumber(in.MaxBacklog), formatRate(out.Surplus), formatNumber(*out.DrainSeconds)))
	}
	return tw.Flush()
}
