// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// DefaultConfigFile is read from the working directory when --config is not
// given; its absence is not an error.
const DefaultConfigFile = ".queuecap.hcl"

// Config is a .queuecap.hcl file. Pointer fields are nil when unset, so
// that command-line flags override only what they set.
type Config struct {
	Format                 *string
	MinimumFailureSeverity *Severity
	Recursive              *bool
	Rules                  map[string]RuleConfig
	Queues                 map[string]QueueConfig // by the queue's address
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
	Range    hcl.Range
}

var configSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "config"},
	{Type: "rule", LabelNames: []string{"id"}},
	{Type: "queue", LabelNames: []string{"address"}},
}}

var configBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "format"}, {Name: "minimum_failure_severity"}, {Name: "recursive"},
}}

var ruleBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}, {Name: "severity"}}}

var queueBlockSchema = func() *hcl.BodySchema {
	s := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "consumer"}}}
	for _, f := range rateFields {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: f.name})
	}
	return s
}()

// WithoutQueues is the configuration's settings and rule blocks without its
// queue blocks.
func (cfg *Config) WithoutQueues() *Config {
	c := *cfg
	c.Queues = map[string]QueueConfig{}
	return &c
}

// LoadConfig reads a configuration file. With required false, a missing
// file is an empty configuration.
func LoadConfig(path string, required bool) (*Config, hcl.Diagnostics) {
	cfg := &Config{Rules: map[string]RuleConfig{}, Queues: map[string]QueueConfig{}}
	src, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) && !required {
			return cfg, nil
		}
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read config file", Detail: err.Error(),
			Subject: &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos}}}
	}
	file, diags := parseNative(src, path)
	if diags.HasErrors() {
		return nil, diags
	}
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
			attrs, d := b.Body.Content(queueBlockSchema)
			diags = append(diags, d...)
			qc, d := DecodeQueue(path, attrs.Attributes, b.DefRange)
			diags = append(diags, d...)
			cfg.Queues[b.Labels[0]] = qc
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg, nil
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
		if name == "consumer" {
			v, d := literal(a, cty.String)
			diags = append(diags, d...)
			if d == nil {
				qc.Consumer = v.AsString()
			}
			continue
		}
		field := qc.Rates.field(name)
		if field == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument",
				Detail: fmt.Sprintf("a queue block has no argument %q; it takes %s", name, strings.Join(QueueAttributes(), ", ")), Subject: a.NameRange.Ptr()})
			continue
		}
		v, d := literal(a, cty.Number)
		diags = append(diags, d...)
		if d == nil {
			f, _ := v.AsBigFloat().Float64()
			*field = knownNum(f, a.Range, source+" queue block")
		}
	}
	return qc, diags
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
	if a, ok := attrs.Attributes["recursive"]; ok {
		v, d := literal(a, cty.Bool)
		diags = append(diags, d...)
		if d == nil {
			r := v.True()
			cfg.Recursive = &r
		}
	}
	return diags
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
