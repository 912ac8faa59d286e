// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/floatnoise"
)

// calcFallback are arguments the examples write with references (a
// for_each's each.value), for the formulas that need them.
var calcFallback = map[string]map[string]string{
	"retry_storm": {"consumers": "32", "retries_per_timeout": "1.5"},
}

// TestCalcEveryFormula: every formula of the catalog is a `queuecap calc`
// command with no code of its own. With the arguments of its data
// source's example (examples/data-sources/queuecap_NAME), its JSON holds
// every attribute of the data source, in the catalog's order, equal to
// what the catalog computes; its help lists every input as a flag.
func TestCalcEveryFormula(t *testing.T) {
	for _, f := range capacity.Formulas {
		t.Run(f.Name, func(t *testing.T) {
			flags, raw := exampleArgs(t, f)
			var out, errb bytes.Buffer
			if code := run(append([]string{"calc", f.Name, "--format", "json"}, flags...), &out, &errb); code != exitOK {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			want, bound, err := f.Run(raw)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
			dec.UseNumber()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("%v:\n%s", err, out.String())
			}
			attrs := f.ObjectType().Attrs
			if len(got) != len(attrs) {
				t.Errorf("%d attributes, want the data source's %d", len(got), len(attrs))
			}
			last := -1
			for _, a := range attrs {
				at := strings.Index(out.String(), fmt.Sprintf("\n  %q:", a.Name))
				if at < last {
					t.Errorf("%s out of the catalog's order", a.Name)
				}
				last = at
				v, isOutput := want.Values[a.Name]
				if !isOutput && f.Output(a.Name) == nil {
					v = bound[a.Name] // an input as given, or its default
				}
				if !sameJSON(got[a.Name], v) {
					t.Errorf("%s = %v, want %v", a.Name, got[a.Name], v)
				}
			}

			out.Reset()
			if code := run([]string{"calc", f.Name, "--help"}, &out, &errb); code != exitOK {
				t.Fatalf("--help: exit %d", code)
			}
			for _, in := range f.Inputs {
				if !strings.Contains(out.String(), "  --"+flagName(in.Name)+" ") {
					t.Errorf("--help lists no --%s:\n%s", flagName(in.Name), out.String())
				}
			}
		})
	}
}

// exampleArgs are the flags and the raw catalog arguments of the first
// data source of a formula's example: its attributes that are constants.
func exampleArgs(t *testing.T, f *capacity.Formula) ([]string, map[string]any) {
	t.Helper()
	path := filepath.Join("..", "..", "examples", "data-sources", "queuecap_"+f.Name, "data-source.tf")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var flags []string
	raw := map[string]any{}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		t.Fatalf("%s is not native syntax", path)
	}
	for _, b := range body.Blocks {
		if b.Type != "data" || b.Labels[0] != "queuecap_"+f.Name {
			continue
		}
		for name, a := range b.Body.Attributes {
			in := f.Input(name)
			if in == nil {
				continue // for_each
			}
			v, diags := a.Expr.Value(nil)
			if diags.HasErrors() || !v.IsWhollyKnown() {
				continue // a reference
			}
			text, value := flagValue(t, v)
			flags, raw[name] = append(flags, "--"+flagName(name), text), value
		}
		break
	}
	for name, text := range calcFallback[f.Name] {
		if _, ok := raw[name]; !ok {
			v, err := parseNumber(text)
			if err != nil {
				t.Fatal(err)
			}
			flags, raw[name] = append(flags, "--"+flagName(name), text), v
		}
	}
	for _, in := range f.Inputs {
		if _, ok := raw[in.Name]; in.Required && !ok {
			t.Fatalf("the example sets no %s: add it to calcFallback", in.Name)
		}
	}
	return flags, raw
}

// flagValue is an HCL constant as a flag's text and as the catalog's raw
// argument.
func flagValue(t *testing.T, v cty.Value) (string, any) {
	t.Helper()
	switch {
	case v.Type() == cty.String:
		return v.AsString(), v.AsString()
	case v.Type() == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return v.AsBigFloat().Text('g', -1), f
	case v.Type().IsTupleType() || v.Type().IsListType():
		var texts []string
		var list []float64
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			f, _ := e.AsBigFloat().Float64()
			texts, list = append(texts, e.AsBigFloat().Text('g', -1)), append(list, f)
		}
		return strings.Join(texts, ","), list
	}
	t.Fatalf("no flag for a %s", v.Type().FriendlyName())
	return "", nil
}

// sameJSON reports whether a decoded JSON value equals a catalog value,
// numbers by value.
func sameJSON(got, want any) bool {
	enc, err := json.Marshal(clean(want))
	if err != nil {
		return false
	}
	var norm any
	dec := json.NewDecoder(bytes.NewReader(enc))
	dec.UseNumber()
	if dec.Decode(&norm) != nil {
		return false
	}
	return reflect.DeepEqual(numbersAsFloats(got), numbersAsFloats(norm))
}

// numbersAsFloats is a decoded JSON value with its numbers as float64.
func numbersAsFloats(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return eachElement(v, numbersAsFloats)
}

// TestCalcErrors: a mistake is one line naming the flag and the reason,
// exit 1.
func TestCalcErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "Usage: queuecap calc FORMULA"},
		{[]string{"sla_depht"}, `Error: unknown formula "sla_depht": did you mean sla_depth?`},
		{[]string{"sla_depth", "--sla-seconds", "10"}, "Error: --arrival-rate is required"},
		{[]string{"sla_depth", "--arrival-rate", "-1", "--sla-seconds", "10"}, "Error: --arrival-rate value must be at least 0, got: -1"},
		{[]string{"sla_depth", "--arrival-rate", "ten", "--sla-seconds", "10"}, `Error: invalid value "ten" for --arrival-rate: "ten" is not a number`},
		{[]string{"sla_depth", "--arrival-rate", "1", "--sla-seconds", "10", "--format", "yaml"}, `Error: --format: unknown format "yaml"`},
		{[]string{"sla_depth", "--arrival-rate", "1", "--sla-seconds", "10", "extra"}, `Error: unexpected argument "extra"`},
		{[]string{"drain", "--backlog", "1", "--arrival-rate", "1", "--completion-rate", "10", "--consumers", "2", "--per-consumer-rate", "5"},
			"Error: --completion-rate is set together with consumers and per_consumer_rate"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"calc"}, c.args...), &out, &errb); code != exitError {
			t.Errorf("%v: exit %d, want 1", c.args, code)
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: %q, want %q", c.args, errb.String(), c.want)
		}
	}
}

// TestCalcText: the text form is the data source's attributes, one per
// line, with its durations read as every command reads them.
func TestCalcText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"calc", "drain", "--backlog", "3360", "--arrival-rate", "8582", "--completion-rate", "12530",
		"--retry-rate", "0.2", "--avg-retries", "2.3", "--ttl-seconds", "4h"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"effective_arrival_rate  12529.72\n", "net_rate                0.28\n", "drain_seconds           12000\n",
		"ttl_seconds             14400\n", "should_shed             false\n", "arrival_forecast        null\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

// clean writes a catalog value's numbers as the provider does, to 15
// significant digits (capacity.Clean).
func clean(v any) any {
	switch x := v.(type) {
	case float64:
		return capacity.Clean(x)
	case []float64:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = capacity.Clean(e)
		}
		return out
	}
	return eachElement(v, clean)
}

// eachElement is a list or map with f applied to each element, any
// other value as it is.
func eachElement(v any, f func(any) any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = f(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = f(e)
		}
		return out
	}
	return v
}

// TestReadmeCalcExample: README.md's queuecap calc example is what the
// command prints.
func TestReadmeCalcExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```console\n$ queuecap calc ")
	if !ok {
		t.Fatal("README.md has no queuecap calc example")
	}
	block, _, _ = strings.Cut(block, "```")
	argLine, want, _ := strings.Cut(block, "\n")
	var out, errb bytes.Buffer
	if code := run(append([]string{"calc"}, strings.Fields(argLine)...), &out, &errb); code != exitOK || out.String() != want {
		t.Errorf("README.md shows\n%s\nqueuecap calc %s prints (exit %d, %s)\n%s", want, argLine, code, errb.String(), out.String())
	}
}

// TestNoFloatNoise: on random decimal inputs around each data source's
// example, no number a formula returns shows float noise (floatnoise: more
// than 15 significant digits, or a run of six 0s or 9s in its decimals),
// in an attribute or inside a string (descriptions, CloudWatch
// expressions, PromQL and YAML): every result is rounded once, to the
// decimal the provider writes, the two float64 families' (the retry
// storm's simulation, Erlang C) included.
func TestNoFloatNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, f := range capacity.Formulas {
		_, raw := exampleArgs(t, f)
		for range 100 {
			args := map[string]any{}
			for name, v := range raw {
				in := f.Input(name)
				x, ok := v.(float64)
				switch {
				case !ok || in.Type.Whole:
					args[name] = v
				default:
					// A decimal factor of 0.5 to 2, three places.
					factor := float64(rng.IntN(1500)+500) / 1000
					args[name], _ = strconv.ParseFloat(strconv.FormatFloat(x*factor, 'g', 6, 64), 64)
				}
			}
			res, _, err := f.Run(args)
			if err != nil {
				continue // out of a range: the errors have their own tests
			}
			var walk func(path string, v any)
			walk = func(path string, v any) {
				switch x := v.(type) {
				case float64:
					if floatnoise.Float(x) {
						t.Errorf("%s %s = %s: float noise, more than 15 significant digits or a run of six 0s or 9s (inputs %v)", f.Name, path, strconv.FormatFloat(x, 'f', -1, 64), args)
					}
				case string:
					if noisy := floatnoise.Find(x); len(noisy) > 0 {
						t.Errorf("%s %s holds float noise %q: %q (inputs %v)", f.Name, path, noisy, x, args)
					}
				case []any:
					for i, e := range x {
						walk(fmt.Sprintf("%s[%d]", path, i), e)
					}
				case map[string]any:
					for k, e := range x {
						walk(path+"."+k, e)
					}
				}
			}
			for name, v := range res.Values {
				walk(name, v)
			}
		}
	}
}
