// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// `queuecap calc FORMULA` is the CLI face of the catalog: every formula a
// data source computes, its inputs as flags (arrival_rate is
// --arrival-rate), their help, ranges and defaults from the catalog entry
// as the provider's schema has them, and its result as the data source's
// attributes. A formula added to the catalog is here with no CLI code.

const calcUsage = "Usage: queuecap calc FORMULA [--INPUT VALUE ...] [--format text|json]\n\n" +
	"Computes a formula of the catalog, as the data source queuecap_FORMULA does: its inputs as flags\n" +
	"(arrival_rate is --arrival-rate), its result as the data source's attributes, inputs first.\n" +
	"Run 'queuecap calc FORMULA --help' for a formula's inputs.\n\nFormulas:\n"

func runCalc(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, calcList())
		return exitError
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, calcList())
		return exitOK
	}
	name := strings.TrimPrefix(args[0], "queuecap_")
	f := capacity.FormulaNamed(name)
	if f == nil {
		names := make([]string, len(capacity.Formulas))
		for i, g := range capacity.Formulas {
			names[i] = g.Name
		}
		hint := ""
		if best := closest(name, names); best != "" {
			hint = ": did you mean " + best + "?"
		} else if strings.HasPrefix(name, "-") {
			hint = ": the formula comes first, its flags after it"
		}
		fmt.Fprintf(stderr, "Error: unknown formula %q%s\n\n%s", args[0], hint, calcList())
		return exitError
	}
	return runFormula(f, args[1:], stdout, stderr)
}

// calcList is the usage with every formula and its first sentence.
func calcList() string {
	var b strings.Builder
	b.WriteString(calcUsage)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, f := range capacity.Formulas {
		fmt.Fprintf(tw, "  %s\t%s\n", f.Name, firstSentence(plain(f.Description)))
	}
	_ = tw.Flush()
	return b.String()
}

// runFormula parses a formula's inputs from flags, computes it and
// writes its result.
func runFormula(f *capacity.Formula, args []string, stdout, stderr io.Writer) int {
	var required []string
	for _, in := range f.Inputs {
		if in.Required {
			required = append(required, flagName(in.Name))
		}
	}
	synopsis := "[flags]"
	if len(required) > 0 {
		synopsis = "--" + strings.Join(required, " N --") + " N [flags]"
	}
	cmd := newCommand("calc "+f.Name, synopsis, required...)
	given := map[string]any{}
	for i := range f.Inputs {
		in := &f.Inputs[i]
		help := plain(in.Doc())
		if in.Required {
			help += " Required."
		}
		switch in.Type.Kind {
		case capacity.KindString:
			cmd.fs.Func(flagName(in.Name), help+" Takes a `string`.", func(s string) error { given[in.Name] = s; return nil })
		case capacity.KindList:
			cmd.fs.Func(flagName(in.Name), help+" Takes comma-separated `numbers`.", func(s string) error {
				var list []float64
				for part := range strings.SplitSeq(s, ",") {
					v, err := parseNumber(part)
					if err != nil {
						return err
					}
					list = append(list, v)
				}
				given[in.Name] = list
				return nil
			})
		default:
			kind, parse := "number", parseNumber
			switch {
			case in.Unit == "seconds":
				// As every command reads a duration: 1800, 30m, 1h30m
				// (whole seconds where the input takes only those).
				kind, parse = "duration", parseDuration
			case in.Type.Whole:
				kind = "whole number"
			}
			cmd.fs.Func(flagName(in.Name), help+" Takes a `"+kind+"`.", func(s string) error {
				v, err := parse(s)
				given[in.Name] = v
				return err
			})
		}
	}
	format := cmd.fs.String("format", "text", "output `format`: text|json")
	cmd.alias("f", "format")
	cmd.footer = unitsFooter
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	if len(cmd.args) > 0 {
		fmt.Fprintf(stderr, "Error: unexpected argument %q: inputs are flags, such as --%s N (see 'queuecap calc %s --help')\n", cmd.args[0], flagName(f.Inputs[0].Name), f.Name)
		return exitError
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "Error: --format: unknown format %q: valid formats are text, json\n", *format)
		return exitError
	}
	res, bound, err := f.Run(given)
	if err != nil {
		var ie *capacity.InputError
		if errors.As(err, &ie) && ie.Field != "" && f.Input(ie.Field) != nil {
			err = errors.New("--" + flagName(ie.Field) + " " + ie.Reason)
		}
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	values := resultValues(f, bound, res)
	if *format == "json" {
		err = writeCalcJSON(stdout, f, values)
	} else {
		err = writeCalcText(stdout, f, values)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n\n%s\n", w.Summary, textfmt.Wrap(w.Detail, "  ", 80))
	}
	return exitOK
}

// resultValues are the data source's attributes: the inputs with their
// defaults (and those the formula fills in), then the outputs.
func resultValues(f *capacity.Formula, args capacity.Args, res capacity.Result) map[string]any {
	values := make(map[string]any, len(f.Inputs)+len(f.Outputs))
	for _, in := range f.Inputs {
		v, ok := args[in.Name]
		if in.Computed && !ok {
			v = res.Values[in.Name]
		}
		values[in.Name] = v
	}
	for _, out := range f.Outputs {
		values[out.Name] = res.Values[out.Name]
	}
	return values
}

// writeCalcJSON writes the attributes as one object in the catalog's
// order, numbers as the provider writes them (capacity.Decimal).
func writeCalcJSON(w io.Writer, f *capacity.Formula, values map[string]any) error {
	var b strings.Builder
	b.WriteString("{\n")
	attrs := f.ObjectType().Attrs
	for i, a := range attrs {
		fmt.Fprintf(&b, "  %q: %s", a.Name, jsonOf(values[a.Name], "  "))
		if i < len(attrs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonOf is a catalog value as JSON, nested values indented under indent.
func jsonOf(v any, indent string) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		return capacity.Decimal(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case []float64:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return jsonOf(items, indent)
	case []any:
		if len(x) == 0 {
			return "[]"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = indent + "  " + jsonOf(e, indent+"  ")
		}
		return "[\n" + strings.Join(parts, ",\n") + "\n" + indent + "]"
	case map[string]any:
		if len(x) == 0 {
			return "{}"
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s  %q: %s", indent, k, jsonOf(x[k], indent+"  "))
		}
		return "{\n" + strings.Join(parts, ",\n") + "\n" + indent + "}"
	}
	// Strings as written: PromQL's > and < are not HTML.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeCalcText writes one attribute per line, inputs first; a list or
// object result as indented JSON under its name.
func writeCalcText(w io.Writer, f *capacity.Formula, values map[string]any) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var nested []string
	for _, a := range f.ObjectType().Attrs {
		v := values[a.Name]
		switch x := v.(type) {
		case nil:
			fmt.Fprintf(tw, "%s\tnull\n", a.Name)
		case string:
			if strings.Contains(x, "\n") {
				// A document (YAML): after the table, as it is.
				nested = append(nested, a.Name+" =\n"+strings.TrimSuffix(x, "\n"))
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\n", a.Name, x)
		case []any, map[string]any, []float64:
			if a.Type.Kind == capacity.KindList && len(asList(v)) > 0 && isScalarList(v) {
				fmt.Fprintf(tw, "%s\t%s\n", a.Name, strings.Join(scalarTexts(v), ", "))
				continue
			}
			nested = append(nested, a.Name+" = "+jsonOf(v, ""))
		default:
			fmt.Fprintf(tw, "%s\t%s\n", a.Name, jsonOf(v, ""))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range nested {
		if _, err := fmt.Fprintf(w, "\n%s\n", n); err != nil {
			return err
		}
	}
	return nil
}

func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []float64:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	}
	return nil
}

func isScalarList(v any) bool {
	for _, e := range asList(v) {
		switch e.(type) {
		case float64, int64, string, bool:
		default:
			return false
		}
	}
	return true
}

func scalarTexts(v any) []string {
	var out []string
	for _, e := range asList(v) {
		if s, ok := e.(string); ok {
			out = append(out, s)
			continue
		}
		out = append(out, jsonOf(e, ""))
	}
	return out
}

// flagName is an input's flag: arrival_rate is arrival-rate.
func flagName(input string) string { return strings.ReplaceAll(input, "_", "-") }

// plain is catalog Markdown as plain text: no backticks or bold.
func plain(s string) string {
	return strings.NewReplacer("`", "", "**", "").Replace(s)
}

// firstSentence is what a description says first: its first line up to
// its first ". " or ": ".
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.IndexAny(s, ".:"); i >= 0 && (i+1 == len(s) || s[i+1] == ' ') {
		return s[:i]
	}
	for _, sep := range []string{". ", ": "} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return strings.TrimSuffix(s, ".")
}
