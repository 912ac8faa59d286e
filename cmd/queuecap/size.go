package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// sizeFlags are the inputs of `queuecap size`, the queuecap_consumers data
// source's.
type sizeFlags struct {
	in     capacity.SizingInput
	format string
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
	fs.Var(numberFlag{&f.in.MinHeadroom, parseFraction}, "min-headroom", "least spare capacity over arrivals, a `fraction` or a percentage")
	fs.StringVar(&f.format, "format", "text", "output `format`: text|json")
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	if f.format != "text" && f.format != "json" {
		fmt.Fprintf(stderr, "Error: unknown format %q: valid formats are text, json\n", f.format)
		return exitError
	}
	out, err := capacity.Size(f.in)
	if err != nil {
		return reportError(stderr, err)
	}
	if f.format == "json" {
		err = writeSizeJSON(stdout, f.in, out)
	} else {
		err = writeSizeText(stdout, f.in, out)
	}
	if err != nil {
		return reportError(stderr, err)
	}
	return exitOK
}

// sizeJSON has the provider's attribute names and raw numbers (seconds,
// messages per second, fractions); null where a quantity is undefined.
type sizeJSON struct {
	ArrivalRate          float64  `json:"arrival_rate"`
	PerConsumerRate      float64  `json:"per_consumer_rate"`
	MaxBacklog           float64  `json:"max_backlog"`
	RTOSeconds           *float64 `json:"rto_seconds"`
	RetryRate            float64  `json:"retry_rate"`
	AvgRetries           float64  `json:"avg_retries"`
	MinHeadroom          float64  `json:"min_headroom"`
	EffectiveArrivalRate float64  `json:"effective_arrival_rate"`
	SteadyStateConsumers int64    `json:"steady_state_consumers"`
	RequiredConsumers    int64    `json:"required_consumers"`
	Overhead             *float64 `json:"overhead"`
	Capacity             float64  `json:"capacity"`
	Surplus              float64  `json:"surplus"`
	Utilization          float64  `json:"utilization"`
	Headroom             *float64 `json:"headroom"`
	Drains               bool     `json:"drains"`
	DrainSeconds         *float64 `json:"drain_seconds"`
}

func writeSizeJSON(w io.Writer, in capacity.SizingInput, out capacity.Sizing) error {
	j := sizeJSON{
		ArrivalRate: in.ArrivalRate, PerConsumerRate: in.PerConsumerRate, MaxBacklog: in.MaxBacklog,
		RetryRate: in.Retries.Rate, AvgRetries: in.Retries.Average, MinHeadroom: in.MinHeadroom,
		EffectiveArrivalRate: out.EffectiveArrivalRate, SteadyStateConsumers: out.SteadyStateConsumers,
		RequiredConsumers: out.RequiredConsumers, Overhead: out.Overhead, Capacity: out.Capacity,
		Surplus: out.Surplus, Utilization: out.Utilization, Headroom: out.Headroom,
		Drains: out.DrainSeconds != nil, DrainSeconds: out.DrainSeconds,
	}
	if in.RTOSeconds != 0 {
		j.RTOSeconds = &in.RTOSeconds
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
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
	fmt.Fprint(w, "\n\n")

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(name, value, note string) { fmt.Fprintf(tw, "%s\t%s\t%s\n", name, value, note) }
	row("effective arrival", formatRate(out.EffectiveArrivalRate), "λ × (1 + retry rate × retries)")
	row("steady-state consumers", fmt.Sprint(out.SteadyStateConsumers), "just keep up: ceil(effective arrival / μ)")
	row("required consumers", fmt.Sprint(out.RequiredConsumers), "clear the backlog within the RTO: the fleet's maximum size")
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
	default:
		row("drain time", formatDuration(*out.DrainSeconds), fmt.Sprintf("%s messages / %s = %s s", formatNumber(in.MaxBacklog), formatRate(out.Surplus), formatNumber(*out.DrainSeconds)))
	}
	return tw.Flush()
}
