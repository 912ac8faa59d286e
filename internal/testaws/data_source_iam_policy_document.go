// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"context"
	"encoding/json"
	"hash/crc32"
	"sort"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const iamPolicyDocumentName = "aws_iam_policy_document"

// data aws_iam_policy_document: schema of AWS provider v6.47.0.
var iamPolicyDocumentBody = block{
	attrs: attrs{
		"id":                        idAttr,
		"json":                      computed(str),
		"minified_json":             computed(str),
		"override_json":             optional(str).deprecate(),
		"override_policy_documents": optional(listOf(str)),
		"policy_id":                 optional(str),
		"source_json":               optional(str).deprecate(),
		"source_policy_documents":   optional(listOf(str)),
		"version":                   optional(str),
	},
	blocks: blocks{
		"statement": list(0, 0, block{
			attrs: attrs{
				"actions":       optional(setOf(str)),
				"effect":        optional(str),
				"not_actions":   optional(setOf(str)),
				"not_resources": optional(setOf(str)),
				"resources":     optional(setOf(str)),
				"sid":           optional(str),
			},
			blocks: blocks{
				"condition": set(0, block{attrs: attrs{
					"test":     required(str),
					"values":   required(listOf(str)),
					"variable": required(str),
				}}),
				"not_principals": set(0, principalsBody),
				"principals":     set(0, principalsBody),
			},
		}),
	},
}

var principalsBody = block{attrs: attrs{
	"identifiers": required(setOf(str)),
	"type":        required(str),
}}

type iamPolicyDocument struct{}

func newIAMPolicyDocument() datasource.DataSource { return iamPolicyDocument{} }

func (iamPolicyDocument) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = iamPolicyDocumentName
}

func (iamPolicyDocument) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	b := iamPolicyDocumentBody.dataSourceBlock()
	resp.Schema.Attributes, resp.Schema.Blocks = b.Attributes, b.Blocks
}

// Read renders the policy as the AWS provider does: Terraform reads it at
// plan when every argument is known, so json is known at plan too.
func (iamPolicyDocument) Read(_ context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, ok := object(req.Config.Raw)
	if !ok {
		resp.Diagnostics.AddError("testaws: aws_iam_policy_document", "the configuration is not a known object")
		return
	}
	doc := policyDocument{Version: stringOf(m["version"]), ID: stringOf(m["policy_id"])}
	if doc.Version == "" {
		doc.Version = "2012-10-17"
	}
	for _, src := range append(stringListOrdered(m["source_policy_documents"]), stringOf(m["source_json"])) {
		doc.merge(src)
	}
	stmts, _ := elements(m["statement"])
	for i, s := range stmts {
		st := policyStatementOf(s)
		doc.put(st)
		if st.Effect == "" {
			stmts[i] = withAttr(s, "effect", stringValue("Allow"))
		}
	}
	for _, o := range append(stringListOrdered(m["override_policy_documents"]), stringOf(m["override_json"])) {
		doc.merge(o)
	}
	indented, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		resp.Diagnostics.AddError("testaws: aws_iam_policy_document", err.Error())
		return
	}
	minified, _ := json.Marshal(doc)
	m["json"] = stringValue(string(indented))
	m["minified_json"] = stringValue(string(minified))
	m["id"] = stringValue(strconv.Itoa(int(crc32.ChecksumIEEE(indented))))
	m["version"] = stringValue(doc.Version)
	if len(stmts) > 0 {
		m["statement"] = tftypes.NewValue(m["statement"].Type(), stmts)
	}
	resp.State.Raw = tftypes.NewValue(req.Config.Raw.Type(), m)
}

type policyDocument struct {
	Version    string             `json:"Version,omitempty"`
	ID         string             `json:"Id,omitempty"`
	Statements []*policyStatement `json:"Statement,omitempty"`
}

type policyStatement struct {
	Sid           string         `json:"Sid,omitempty"`
	Effect        string         `json:"Effect,omitempty"`
	Actions       any            `json:"Action,omitempty"`
	NotActions    any            `json:"NotAction,omitempty"`
	Resources     any            `json:"Resource,omitempty"`
	NotResources  any            `json:"NotResource,omitempty"`
	Principals    any            `json:"Principal,omitempty"`
	NotPrincipals any            `json:"NotPrincipal,omitempty"`
	Conditions    map[string]any `json:"Condition,omitempty"`
}

// put adds a statement, replacing one with the same non-empty Sid.
func (d *policyDocument) put(s *policyStatement) {
	if s.Sid != "" {
		for i, old := range d.Statements {
			if old.Sid == s.Sid {
				d.Statements[i] = s
				return
			}
		}
	}
	d.Statements = append(d.Statements, s)
}

// merge puts the statements of a JSON policy, ignoring one that is empty
// or not a policy.
func (d *policyDocument) merge(policy string) {
	if policy == "" {
		return
	}
	var other struct {
		Statement []*policyStatement
	}
	if json.Unmarshal([]byte(policy), &other) != nil {
		return
	}
	for _, s := range other.Statement {
		d.put(s)
	}
}

func policyStatementOf(v tftypes.Value) *policyStatement {
	m, _ := object(v)
	s := &policyStatement{
		Sid:          stringOf(m["sid"]),
		Effect:       stringOf(m["effect"]),
		Actions:      oneOrMany(stringList(m["actions"])),
		NotActions:   oneOrMany(stringList(m["not_actions"])),
		Resources:    oneOrMany(stringList(m["resources"])),
		NotResources: oneOrMany(stringList(m["not_resources"])),
		Principals:   principals(m["principals"]),
	}
	s.NotPrincipals = principals(m["not_principals"])
	if s.Effect == "" {
		s.Effect = "Allow"
	}
	conds, _ := elements(m["condition"])
	for _, c := range conds {
		cm, _ := object(c)
		if s.Conditions == nil {
			s.Conditions = map[string]any{}
		}
		test, _ := s.Conditions[stringOf(cm["test"])].(map[string]any)
		if test == nil {
			test = map[string]any{}
			s.Conditions[stringOf(cm["test"])] = test
		}
		test[stringOf(cm["variable"])] = oneOrMany(stringListOrdered(cm["values"]))
	}
	return s
}

// principals renders principals blocks as the AWS provider does: "*"
// alone for the anonymous principal, else identifiers by type, each
// block's in turn.
func principals(v tftypes.Value) any {
	ps, _ := elements(v)
	if len(ps) == 0 {
		return nil
	}
	byType := map[string]any{}
	for _, p := range ps {
		pm, _ := object(p)
		typ, ids := stringOf(pm["type"]), oneOrMany(stringList(pm["identifiers"]))
		if len(ps) == 1 && typ == "*" && ids == "*" {
			return "*"
		}
		switch prev := byType[typ].(type) {
		case nil:
			byType[typ] = ids
		case string:
			byType[typ] = append([]string{prev}, asList(ids)...)
		case []string:
			byType[typ] = append(prev, asList(ids)...)
		}
	}
	return byType
}

func asList(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	l, _ := v.([]string)
	return l
}

// oneOrMany renders a set as the AWS provider does: one value as a string,
// more as a list in reverse order.
func oneOrMany(vs []string) any {
	switch len(vs) {
	case 0:
		return nil
	case 1:
		return vs[0]
	}
	out := append([]string(nil), vs...)
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}

// stringListOrdered reads a list of strings in its order.
func stringListOrdered(v tftypes.Value) []string {
	es, _ := elements(v)
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, stringOf(e))
	}
	return out
}

func withAttr(v tftypes.Value, name string, a tftypes.Value) tftypes.Value {
	m, ok := object(v)
	if !ok {
		return v
	}
	m[name] = a
	return tftypes.NewValue(v.Type(), m)
}
