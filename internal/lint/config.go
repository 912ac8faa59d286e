// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/ratesfile"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// DefaultConfigFile is read from the working directory when --config is not
// given (model.DefaultConfigFile).
const DefaultConfigFile = model.DefaultConfigFile

// Config is a .queuecap.hcl file. Pointer fields are nil when unset, so
// that command-line flags override only what they set.
type Config struct {
	Format                 *string
	MinimumFailureSeverity *Severity
	Recursive              *bool
	// FailOnSkipped is fail_on_skipped: exit 2 when a queue with a
	// consumer was not checked.
	FailOnSkipped *bool
	// Baseline is baseline: the baseline file, relative to the
	// configuration file's directory.
	Baseline *string
	// Force is force: exit 0 even when findings fail the run.
	Force *bool
	// SkipDirs are skip_dirs: globs of directories --recursive does not
	// walk into, beside the ones it always skips.
	SkipDirs []string
	// MaxRateAge is max_rate_age in seconds: a value `queuecap rates`
	// measured longer ago is a notice. Nil for the default
	// (DefaultMaxRateAge).
	MaxRateAge *float64
	// AWSLimits are AWS's published limits with the aws_limits block's
	// overrides; nil for none (capacity.DefaultAWSLimits).
	AWSLimits *capacity.AWSLimits
	// Sources are the top-level `rates "SOURCE" {}` blocks: how `queuecap
	// rates` queries a source for every queue, by source.
	Sources map[string]*RatesSource
	Rules   map[string]RuleConfig
	Queues  map[string]QueueConfig // by the queue's address
	// Ignores are the ignore blocks, read per root module as the queue
	// blocks are.
	Ignores []*IgnoreConfig
	// Path is the file read, "" for a configuration of no file.
	Path string
	// Measured are the provenance comments of the values `queuecap rates`
	// wrote, by queue address and rate (ratesfile.Provenances).
	Measured map[string]map[string]ratesfile.Provenance
	// File names the file the queue blocks are in, for messages:
	// DefaultConfigFile when empty, ".tflint.hcl" for the tflint plugin.
	File string
}

// FileName is the file the configuration's queue blocks are in.
func (cfg *Config) FileName() string {
	if cfg == nil || cfg.File == "" {
		return DefaultConfigFile
	}
	return cfg.File
}

// RuleConfig is a `rule "id" {}` block.
type RuleConfig struct {
	Enabled  *bool
	Severity *Severity
	Range    hcl.Range
}

// QueueConfig is a `queue "address" {}` block: declared rates for a queue
// that cannot carry tags, and the fleet that consumes it.
type QueueConfig struct {
	Rates    Rates
	Consumer string
	// QueueName and ConsumerName are queue_name and consumer_name: the
	// queue's and its consumer's names as their metrics know them, for
	// `queuecap rates` where the configuration's are not known before
	// apply ("" when unset). An ECS service's is "CLUSTER/SERVICE".
	QueueName    string
	ConsumerName string
	// Sources are its `rates "SOURCE" {}` blocks, which override the
	// top-level ones' queries for this queue, by source.
	Sources map[string]*RatesSource
	Range   hcl.Range
}

// RateSources are the sources `queuecap rates` measures from, the labels
// of `rates` blocks.
var RateSources = []string{"prometheus", "cloudwatch"}

// DefaultMaxRateAge is max_rate_age's default: 90 days, in seconds.
const DefaultMaxRateAge = 90 * capacity.SecondsPerDay

// RatesSource is a `rates "SOURCE" {}` block: string attributes (queries,
// settings) that the source reads and checks, each with its range.
type RatesSource struct {
	Source string
	Attrs  map[string]string
	Ranges map[string]hcl.Range
	Range  hcl.Range
}

var configSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "config"},
	{Type: "rule", LabelNames: []string{"id"}},
	{Type: "queue", LabelNames: []string{"address"}},
	{Type: "ignore"},
	{Type: "rates", LabelNames: []string{"source"}},
	{Type: "aws_limits"},
}}

var configBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "format"}, {Name: "minimum_failure_severity"}, {Name: "recursive"}, {Name: "fail_on_skipped"},
	{Name: "baseline"},
	{Name: "force"}, {Name: "skip_dirs"}, {Name: "max_rate_age"},
}}

var ruleBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}, {Name: "severity"}}}

// queueNameAttrs are a queue block's attributes that name things, each a
// string.
var queueNameAttrs = []string{"consumer", "queue_name", "consumer_name"}

var queueBlockSchema = func() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, name := range queueNameAttrs {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, f := range model.RateFields {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: f.Name})
	}
	return s
}()

// WithoutQueues is the configuration's settings and rule blocks without its
// queue and ignore blocks.
func (cfg *Config) WithoutQueues() *Config {
	c := *cfg
	c.Queues = map[string]QueueConfig{}
	c.Ignores = nil
	return &c
}

// LoadConfig reads a configuration file the user named (--config, or the
// working directory's): inside bound as its other files, else as named
// (Boundary.readNamed; a nil bound has no inside). With required false, a
// missing file is an empty configuration.
func LoadConfig(path string, required bool, bound *Boundary) (*Config, hcl.Diagnostics) {
	return loadConfig(bound.readNamed, path, required)
}

// loadConfig is LoadConfig, reading with read.
func loadConfig(read func(path string, limit int64, what string) ([]byte, error), path string, required bool) (*Config, hcl.Diagnostics) {
	cfg := &Config{Rules: map[string]RuleConfig{}, Queues: map[string]QueueConfig{}, Sources: map[string]*RatesSource{}}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) && !required {
		return cfg, nil
	}
	src, err := read(path, maxFileBytes, "a "+DefaultConfigFile)
	if err != nil {
		return nil, hcl.Diagnostics{fileDiag(path, err)}
	}
	cfg.Path = path
	file, diags := parseNative(src, path)
	if diags.HasErrors() {
		return nil, diags
	}
	cfg.Measured, _ = ratesfile.Provenances(src, path) // parsed above: no error
	content, diags := file.Body.Content(configSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "config":
			diags = append(diags, cfg.readConfigBlock(b)...)
		case "rule":
			rc := RuleConfig{Range: b.DefRange}
			attrs, d := b.Body.Content(ruleBlockSchema)
			diags = append(diags, d...)
			if a, ok := attrs.Attributes["enabled"]; ok {
				v, d := literal(a, cty.Bool)
				diags = append(diags, d...)
				if d == nil {
					enabled := v.True()
					rc.Enabled = &enabled
				}
			}
			if a, ok := attrs.Attributes["severity"]; ok {
				s, d := severityAttr(a)
				diags = append(diags, d...)
				rc.Severity = s
			}
			cfg.Rules[b.Labels[0]] = rc
		case "queue":
			attrs, d := b.Body.Content(queueBlockWithSources)
			diags = append(diags, d...)
			qc, d := DecodeQueue(path, attrs.Attributes, b.DefRange)
			diags = append(diags, d...)
			qc.Sources, d = decodeSources(attrs.Blocks, true)
			diags = append(diags, d...)
			cfg.Queues[b.Labels[0]] = qc
		case "rates":
			sources, d := decodeSources(hcl.Blocks{b}, false)
			diags = append(diags, d...)
			if prev := cfg.Sources[b.Labels[0]]; prev != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate rates block",
					Detail: fmt.Sprintf("rates %q is also at %s", b.Labels[0], prev.Range), Subject: b.DefRange.Ptr()})
			}
			maps.Copy(cfg.Sources, sources)
		case "aws_limits":
			if cfg.AWSLimits != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate aws_limits block",
					Detail: "a configuration file has one aws_limits block", Subject: b.DefRange.Ptr()})
				continue
			}
			limits, d := decodeAWSLimits(b)
			diags = append(diags, d...)
			cfg.AWSLimits = limits
		case "ignore":
			ic, d := decodeIgnore(path, b)
			diags = append(diags, d...)
			cfg.Ignores = append(cfg.Ignores, ic)
		}
	}
	if cfg.Baseline != nil && !filepath.IsAbs(*cfg.Baseline) {
		rel := filepath.Join(filepath.Dir(path), *cfg.Baseline)
		cfg.Baseline = &rel
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg, nil
}

// queueBlockWithSources is a .queuecap.hcl queue block: its attributes
// and its `rates "SOURCE" {}` blocks (which the tflint plugin's
// .tflint.hcl does not take).
var queueBlockWithSources = &hcl.BodySchema{Attributes: queueBlockSchema.Attributes,
	Blocks: []hcl.BlockHeaderSchema{{Type: "rates", LabelNames: []string{"source"}}}}

// decodeSources reads `rates "SOURCE" {}` blocks: a known source each,
// once, of string attributes the source checks (in a queue block, its
// queries alone).
func decodeSources(blocks hcl.Blocks, inQueue bool) (map[string]*RatesSource, hcl.Diagnostics) {
	out := map[string]*RatesSource{}
	var diags hcl.Diagnostics
	for _, b := range blocks {
		src := b.Labels[0]
		if !slices.Contains(RateSources, src) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown rates source",
				Detail: fmt.Sprintf("rates %q: the sources are %s", src, strings.Join(RateSources, ", ")), Subject: b.LabelRanges[0].Ptr()})
			continue
		}
		if prev := out[src]; prev != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate rates block",
				Detail: fmt.Sprintf("rates %q is also at %s", src, prev.Range), Subject: b.DefRange.Ptr()})
			continue
		}
		attrs, d := b.Body.JustAttributes()
		diags = append(diags, d...)
		rs := &RatesSource{Source: src, Attrs: map[string]string{}, Ranges: map[string]hcl.Range{}, Range: b.DefRange}
		for name, a := range attrs {
			v, d := literal(a, cty.String)
			diags = append(diags, d...)
			if d == nil {
				rs.Attrs[name], rs.Ranges[name] = v.AsString(), a.Range
			}
		}
		diags = append(diags, rs.check(inQueue)...)
		out[src] = rs
	}
	return out, diags
}

// check is the source's verdict on the block's settings, each error at
// its attribute.
func (rs *RatesSource) check(inQueue bool) hcl.Diagnostics {
	var err error
	switch {
	case rs.Source == "prometheus" && inQueue:
		_, err = rates.PrometheusQueries(rs.Attrs)
	case rs.Source == "prometheus":
		err = rates.ValidatePrometheusSettings(rs.Attrs)
	case rs.Source == "cloudwatch":
		return checkCloudWatchSettings(rs, inQueue)
	}
	var diags hcl.Diagnostics
	for _, e := range unjoin(err) {
		subject := rs.Range
		var se *rates.PrometheusSettingError
		if errors.As(e, &se) {
			if r, ok := rs.Ranges[se.Attr]; ok {
				subject = r
			}
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid rates %q block", rs.Source), Detail: e.Error(), Subject: subject.Ptr()})
	}
	return diags
}

// defaultAWSLimits is the table without overrides, made once: the
// queues share it, read-only.
var defaultAWSLimits = capacity.DefaultAWSLimits()

// Limits are AWS's published limits as the aws_limits block overrides
// them.
func (cfg *Config) Limits() capacity.AWSLimits {
	if cfg == nil || cfg.AWSLimits == nil {
		return defaultAWSLimits
	}
	return *cfg.AWSLimits
}

// decodeAWSLimits reads an aws_limits block: each attribute a limit's
// name (docs/aws-limits.md) and a number, or, for a limit that differs by
// Region, a map of Regions to numbers. AWS changes them; the block follows
// without a release.
func decodeAWSLimits(b *hcl.Block) (*capacity.AWSLimits, hcl.Diagnostics) {
	attrs, diags := b.Body.JustAttributes()
	overrides := map[string]float64{}
	ranges := map[string]hcl.Range{}
	for name, a := range attrs {
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		bad := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for " + name,
			Detail: name + " must be a number, or a map of Regions to numbers", Subject: a.Expr.Range().Ptr()}
		ranges[name] = a.Expr.Range()
		switch {
		case !v.IsWhollyKnown() || v.IsNull():
			diags = append(diags, bad)
		case v.Type() == cty.Number:
			f, _ := v.AsBigFloat().Float64()
			overrides[name] = f
		case v.Type().IsObjectType() || v.Type().IsMapType():
			for region, rv := range v.AsValueMap() {
				n, err := convert.Convert(rv, cty.Number)
				if err != nil || n.IsNull() {
					diags = append(diags, bad)
					break
				}
				f, _ := n.AsBigFloat().Float64()
				overrides[name+"["+region+"]"] = f
			}
		default:
			diags = append(diags, bad)
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	limits, err := capacity.DefaultAWSLimits().WithOverrides(overrides)
	if err != nil {
		subject := b.DefRange
		var ie *capacity.InputError
		if errors.As(err, &ie) {
			name, _, _ := strings.Cut(ie.Field, "[")
			if r, ok := ranges[name]; ok {
				subject = r
			}
		}
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid aws_limits block", Detail: err.Error(), Subject: subject.Ptr()})
	}
	return &limits, diags
}

// cloudWatchSettings are what a top-level `rates "cloudwatch"` block
// sets: the Region (--region overrides it) and an endpoint such as a VPC
// endpoint's. CloudWatch's queries are not written by hand: a queue block
// takes none.
var cloudWatchSettings = []string{"region", "endpoint"}

func checkCloudWatchSettings(rs *RatesSource, inQueue bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(rs.Attrs) {
		var why string
		switch {
		case inQueue:
			why = fmt.Sprintf("rates \"cloudwatch\" %s: a queue's block takes no CloudWatch setting; set region and endpoint in the top-level rates \"cloudwatch\" block", name)
		case !slices.Contains(cloudWatchSettings, name):
			why = fmt.Sprintf("rates \"cloudwatch\" %s: unknown attribute; accepted: %s", name, strings.Join(cloudWatchSettings, ", "))
		default:
			continue
		}
		at := rs.Ranges[name]
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid rates "cloudwatch" block`, Detail: why, Subject: at.Ptr()})
	}
	return diags
}

// unjoin are the errors errors.Join joined, or err alone.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// QueueAttributes are the attributes a queue block may set: consumer and
// every declared rate.
func QueueAttributes() []string {
	names := make([]string, len(queueBlockSchema.Attributes))
	for i, a := range queueBlockSchema.Attributes {
		names[i] = a.Name
	}
	return names
}

// DecodeQueue reads a queue block's attributes, each a constant: consumer
// a string, the rates numbers. source names the file in the rates'
// provenance.
func DecodeQueue(source string, attrs hcl.Attributes, rng hcl.Range) (QueueConfig, hcl.Diagnostics) {
	qc := QueueConfig{Range: rng}
	var diags hcl.Diagnostics
	for name, a := range attrs {
		if slices.Contains(queueNameAttrs, name) {
			v, d := literal(a, cty.String)
			diags = append(diags, d...)
			if d == nil {
				switch name {
				case "consumer":
					qc.Consumer = v.AsString()
				case "queue_name":
					qc.QueueName = v.AsString()
				case "consumer_name":
					qc.ConsumerName = v.AsString()
				}
			}
			continue
		}
		field := qc.Rates.Field(name)
		if field == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument",
				Detail: fmt.Sprintf("a queue block has no argument %q; it takes %s", name, strings.Join(QueueAttributes(), ", ")), Subject: a.NameRange.Ptr()})
			continue
		}
		v, d := literal(a, cty.Number)
		if d == nil {
			f, why := checkRate(name, v.AsBigFloat())
			if why != "" {
				d = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value for " + name, Detail: why, Subject: a.Expr.Range().Ptr()}}
			} else {
				*field = model.KnownNum(f, a.Range, source+" queue block")
			}
		}
		diags = append(diags, d...)
	}
	return qc, diags
}

// checkRate is a declared rate's value, or why it is not one: not a
// finite float64 (1e400 would be +Inf), or outside its input's range.
func checkRate(name string, v *big.Float) (float64, string) {
	if v.IsInf() {
		return 0, fmt.Sprintf("%s must be a finite number, got %s", name, v.String())
	}
	// Out of range is said by its order of magnitude: writing out
	// 1e100000000 takes as long as it has digits.
	if f, _ := v.Float64(); math.IsInf(f, 0) || (f == 0 && v.Sign() != 0) {
		return 0, fmt.Sprintf("%s must be a finite number within the float64 range (magnitude between about 4.9e-324 and 1.8e308), got one of about 1e%+d",
			name, int64(math.Floor(float64(v.MantExp(nil))*math.Log10(2))))
	}
	f, err := rateInput(name).CheckNumber(v)
	if err != nil {
		return 0, name + " " + err.Reason
	}
	return f, ""
}

// rateInput is the catalog's input of a declared rate's name, whose
// check (CheckNumber) the provider makes at plan: a rate no formula takes
// is any finite number.
func rateInput(name string) *capacity.Input {
	for _, f := range capacity.Formulas {
		for i := range f.Inputs {
			if f.Inputs[i].Name == name {
				return &f.Inputs[i]
			}
		}
	}
	for i := range capacity.DeclaredInputs {
		if capacity.DeclaredInputs[i].Name == name {
			return &capacity.DeclaredInputs[i]
		}
	}
	return &capacity.Input{Name: name, Range: capacity.Range{Min: math.Inf(-1), Max: math.Inf(1)}}
}

func (cfg *Config) readConfigBlock(b *hcl.Block) hcl.Diagnostics {
	attrs, diags := b.Body.Content(configBlockSchema)
	if a, ok := attrs.Attributes["format"]; ok {
		v, d := literal(a, cty.String)
		diags = append(diags, d...)
		if d == nil {
			s := v.AsString()
			cfg.Format = &s
		}
	}
	if a, ok := attrs.Attributes["minimum_failure_severity"]; ok {
		s, d := severityAttr(a)
		diags = append(diags, d...)
		cfg.MinimumFailureSeverity = s
	}
	cfg.Recursive, diags = boolAttr(attrs.Attributes["recursive"], diags)
	if a, ok := attrs.Attributes["baseline"]; ok {
		v, d := literal(a, cty.String)
		diags = append(diags, d...)
		if d == nil {
			f := v.AsString()
			cfg.Baseline = &f
		}
	}
	if a, ok := attrs.Attributes["max_rate_age"]; ok {
		v, d := literal(a, cty.String)
		diags = append(diags, d...)
		if d == nil {
			seconds, err := textfmt.Seconds(v.AsString())
			if err == nil && !(seconds > 0) {
				err = fmt.Errorf("%q is not a positive duration", v.AsString())
			}
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for max_rate_age", Detail: err.Error(), Subject: a.Expr.Range().Ptr()})
			} else {
				cfg.MaxRateAge = &seconds
			}
		}
	}
	cfg.FailOnSkipped, diags = boolAttr(attrs.Attributes["fail_on_skipped"], diags)
	cfg.Force, diags = boolAttr(attrs.Attributes["force"], diags)
	if a, ok := attrs.Attributes["skip_dirs"]; ok {
		v, d := literal(a, cty.List(cty.String))
		diags = append(diags, d...)
		if d == nil {
			for _, g := range v.AsValueSlice() {
				if !g.IsKnown() || g.IsNull() {
					continue
				}
				if err := CheckSkipDir(g.AsString()); err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for skip_dirs", Detail: err.Error(), Subject: a.Expr.Range().Ptr()})
					continue
				}
				cfg.SkipDirs = append(cfg.SkipDirs, g.AsString())
			}
		}
	}
	return diags
}

// boolAttr is a bool attribute's value, nil when a is, with its
// diagnostics appended to diags.
func boolAttr(a *hcl.Attribute, diags hcl.Diagnostics) (*bool, hcl.Diagnostics) {
	if a == nil {
		return nil, diags
	}
	v, d := literal(a, cty.Bool)
	if d != nil {
		return nil, append(diags, d...)
	}
	b := v.True()
	return &b, diags
}

// literal evaluates a constant attribute of the wanted type.
func literal(a *hcl.Attribute, want cty.Type) (cty.Value, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	out, err := convert.Convert(v, want)
	if err != nil || out.IsNull() || !out.IsKnown() {
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value for " + a.Name,
			Detail: fmt.Sprintf("%s must be a %s", a.Name, want.FriendlyName()), Subject: a.Expr.Range().Ptr()}}
	}
	return out, nil
}

func severityAttr(a *hcl.Attribute) (*Severity, hcl.Diagnostics) {
	v, diags := literal(a, cty.String)
	if diags != nil {
		return nil, diags
	}
	s, err := ParseSeverity(v.AsString())
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value for " + a.Name, Detail: err.Error(), Subject: a.Expr.Range().Ptr()}}
	}
	return &s, nil
}
