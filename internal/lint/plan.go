// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// Plan is a decoded `terraform show -json PLANFILE` (or `tofu show -json`).
type Plan struct{ p *tfjson.Plan }

// ReadPlan decodes plan JSON. Input that is not a plan, a plan of a
// format_version terraform-json does not read, and truncated JSON are
// each one error saying so.
func ReadPlan(data []byte) (plan *Plan, err error) {
	defer func() {
		if p := recover(); p != nil {
			plan, err = nil, fmt.Errorf("cannot read the plan: %v", p)
		}
	}()
	// Terraform writes none, but tools that save the JSON (PowerShell's
	// Out-File among them) start it with a byte order mark.
	data = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), utf8BOM))
	if len(data) == 0 {
		return nil, errors.New("the plan is empty: expected the JSON of `terraform show -json PLANFILE`")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		if strings.Contains(err.Error(), "unexpected end of JSON input") {
			return nil, errors.New("the plan JSON is truncated: it ends before its last value does")
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, errors.New("not a plan: the JSON is not an object; expected the output of `terraform show -json PLANFILE`")
		}
		return nil, fmt.Errorf("the plan is not valid JSON: %v", err)
	}
	if _, ok := probe["format_version"]; !ok {
		return nil, errors.New("not a plan: it has no format_version; expected the output of `terraform show -json PLANFILE`")
	}
	_, hasChanges := probe["resource_changes"]
	_, hasPlanned := probe["planned_values"]
	_, hasConfig := probe["configuration"]
	if !hasChanges && !hasPlanned && !hasConfig {
		if _, isState := probe["values"]; isState {
			return nil, errors.New("not a plan: this is the JSON of a state (`terraform show -json` without a plan file); pass the JSON of `terraform show -json PLANFILE`")
		}
		return nil, errors.New("not a plan: it has no planned_values, resource_changes or configuration")
	}
	p := &tfjson.Plan{}
	if err := p.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("cannot read the plan: %v", err)
	}
	return &Plan{p: p}, nil
}

var utf8BOM = []byte("\ufeff")

// LoadPlan reads a plan from path ("-" for stdin), as a file the user
// named (Boundary.openNamed; a nil bound has no inside), of at most
// maxPlanBytes. A binary plan file (a zip archive) is turned into JSON by
// `terraform show -json` or, without Terraform on PATH, `tofu show
// -json`, run in dir.
func LoadPlan(path, dir string, stdin io.Reader, bound *Boundary) (*Plan, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = readPlanData("standard input", stdin, 0)
	} else {
		var f *os.File
		var size int64
		if f, size, err = bound.openNamed(path, maxPlanBytes, "a plan"); err == nil {
			data, err = readPlanData(path, f, size)
			f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the plan: %v", readErr(path, err).detail)
	}
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		if path == "-" {
			return nil, errors.New("standard input holds a binary plan file: pass its JSON (`terraform show -json PLANFILE`) or the file's name")
		}
		if data, err = showJSON(path, dir); err != nil {
			return nil, err
		}
	}
	return ReadPlan(data)
}

// readPlanData reads a plan's bytes from r, at most maxPlanBytes, and
// stops at the first byte that cannot begin a plan, JSON or zip: /dev/zero
// or a binary named by mistake is not read to the cap.
func readPlanData(name string, r io.Reader, size int64) ([]byte, error) {
	return readCapped(name, &planStart{r: r}, size, maxPlanBytes, "a plan")
}

// planStart is a reader that fails at the first byte, after white space
// and a byte order mark, that is neither '{' (JSON) nor 'P' (a zip).
type planStart struct {
	r       io.Reader
	started bool
	seen    int // bytes before the start
}

func (s *planStart) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	for i := 0; i < n && !s.started; i, s.seen = i+1, s.seen+1 {
		c := p[i]
		switch {
		case s.seen < len(utf8BOM) && c == utf8BOM[s.seen], isJSONSpace(c):
		case c == '{' || c == 'P':
			s.started = true
		default:
			return i, fmt.Errorf("it is not JSON: it begins with the byte %#02x; expected the JSON of `terraform show -json PLANFILE` or a plan file", c)
		}
	}
	return n, err
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// showJSON runs `terraform show -json` on a binary plan file, then `tofu
// show -json` when Terraform is not on PATH or cannot read it (a plan
// OpenTofu made).
func showJSON(path, dir string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	var failures []string
	for _, name := range []string{"terraform", "tofu"} {
		cli, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		cmd := exec.Command(cli, "show", "-json", "-no-color", abs)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err == nil {
			var out []byte
			if out, err = readPlanData(name+" show -json", stdout, 0); err != nil {
				_ = cmd.Process.Kill() // what it wrote is not a plan, or is too large
			}
			if werr := cmd.Wait(); err == nil && werr == nil {
				return out, nil
			} else if err == nil {
				err = werr
			}
		}
		failures = append(failures, fmt.Sprintf("%s show -json %s: %v: %s", name, path, err, strings.TrimSpace(stderr.String())))
	}
	if len(failures) == 0 {
		return nil, fmt.Errorf("%s is a binary plan file and neither terraform nor tofu is on PATH to read it: pass the JSON of `terraform show -json %s` instead", path, path)
	}
	return nil, fmt.Errorf("%s; show the plan with the CLI that made it (`terraform show -json %s > plan.json`) and pass the JSON", strings.Join(failures, "; "), path)
}

// planModule is one module instance of a plan.
type planModule struct {
	in     *instance
	cfg    *tfjson.ConfigModule // nil when the plan's configuration lacks it
	hcl    *Module              // nil without the configuration directory
	parent *planModule
	call   string // the call's name in parent
	key    string // the call instance's key suffix: [0], ["a"], or ""
	// calls are the instances of each module call made here, in the
	// plan's order.
	calls map[string][]*planModule
}

// planFront is the plan front end: it reads a plan's resource instances,
// at their places in the configuration directory when it holds them, and
// hands each to the builder as a resourceInstance, through the builder's
// intake alone.
type planFront struct {
	to      intake
	plan    *tfjson.Plan
	root    *planModule
	modules map[string]*planModule
	// resources are the plan's resource instances by module instance
	// address and local address without key, each with its key suffix.
	resources map[string]map[string][]string
	unknown   map[string]map[string]any // after_unknown by address
	addr      string                    // the resource instance being read
	documents map[string]documentReader
}

// readPlanResources hands to the resource instances of plan p, whose
// root module instance (of the configuration's root module rootMod, nil
// when it is absent) is rootIn.
func readPlanResources(to intake, p *tfjson.Plan, rootIn *instance, rootMod *Module) {
	pb := &planFront{to: to, plan: p, modules: map[string]*planModule{}, resources: map[string]map[string][]string{},
		unknown: map[string]map[string]any{}, documents: map[string]documentReader{}}
	to.addModuleInstance(rootIn)
	pb.root = &planModule{in: rootIn, hcl: rootMod}
	if p.Config != nil {
		pb.root.cfg = p.Config.RootModule
	}
	pb.modules[""] = pb.root
	for _, rc := range p.ResourceChanges {
		if rc != nil && rc.Change != nil {
			if m, ok := rc.Change.AfterUnknown.(map[string]any); ok {
				pb.unknown[rc.Address] = m
			}
		}
	}
	var planned, prior []*tfjson.StateResource
	var planMods, priorMods []string
	if p.PlannedValues != nil {
		planned, planMods = stateResources(p.PlannedValues.RootModule, "", nil, nil)
	}
	if p.PriorState != nil && p.PriorState.Values != nil {
		prior, priorMods = stateResources(p.PriorState.Values.RootModule, "", nil, nil)
	}
	// Data sources are in planned_values, and in prior_state when they
	// were read before the plan.
	var data []*tfjson.StateResource
	var dataMods []string
	seenData := map[string]bool{}
	allMods := append(append([]string{}, planMods...), priorMods...)
	for i, r := range append(append([]*tfjson.StateResource{}, planned...), prior...) {
		if r.Mode == tfjson.DataResourceMode && (isQueuecapData(r.Type) || dataSchemas[r.Type] != nil) && !seenData[r.Address] {
			seenData[r.Address] = true
			data, dataMods = append(data, r), append(dataMods, allMods[i])
		}
	}
	// Every module instance exists before any reference is resolved.
	for i, r := range planned {
		pb.module(planMods[i])
		if r.Mode == tfjson.ManagedResourceMode {
			pb.index(planMods[i], r)
		}
	}
	for i, r := range data {
		pb.index(dataMods[i], r)
	}
	for i, r := range data {
		if isQueuecapData(r.Type) {
			pb.addData(pb.module(dataMods[i]), r)
		} else {
			pb.addDocument(pb.module(dataMods[i]), r)
		}
	}
	to.addDocuments(maps.All(pb.documents))
	for i, r := range planned {
		if r.Mode == tfjson.ManagedResourceMode && resourceSchemas[r.Type] != nil {
			pb.addResource(pb.module(planMods[i]), r)
		}
	}
}

// planVariables are the root module's input values the plan was made
// with, for the HCL that functionMarks evaluates: without them a call
// such as required_consumers(var.arrival_rate, …) was unknown there.
func planVariables(p *tfjson.Plan, mod *Module) map[string]cty.Value {
	vars := make(map[string]cty.Value, len(p.Variables))
	for name, pv := range p.Variables {
		if pv == nil {
			continue
		}
		v := ctyOf(pv.Value, nil)
		if decl := mod.Variables[name]; decl != nil {
			v = convertVariable(decl, v)
		}
		vars[name] = v
	}
	return vars
}

// stateResources lists a module's resources and its children's, each with
// its module instance address.
func stateResources(m *tfjson.StateModule, addr string, rs []*tfjson.StateResource, mods []string) ([]*tfjson.StateResource, []string) {
	if m == nil {
		return rs, mods
	}
	for _, r := range m.Resources {
		if r != nil {
			rs, mods = append(rs, r), append(mods, addr)
		}
	}
	for _, c := range m.ChildModules {
		if c != nil {
			rs, mods = stateResources(c, c.Address, rs, mods)
		}
	}
	return rs, mods
}

// keySuffix is an instance key as an address writes it: [0] or ["a"].
func keySuffix(index any) string {
	switch k := index.(type) {
	case float64:
		return fmt.Sprintf("[%d]", int64(k))
	case json.Number:
		return "[" + k.String() + "]"
	case string:
		return "[" + strconv.Quote(k) + "]"
	}
	return ""
}

// repetitionOf is the repetition of an instance key, nil for none.
func repetitionOf(index any) *repetition {
	switch k := index.(type) {
	case float64:
		return &repetition{key: cty.NumberIntVal(int64(k)), isCount: true}
	case string:
		return &repetition{key: cty.StringVal(k), value: cty.DynamicVal}
	}
	return nil
}

func localAddr(r *tfjson.StateResource) string {
	if r.Mode == tfjson.DataResourceMode {
		return "data." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

func (pb *planFront) index(modAddr string, r *tfjson.StateResource) {
	if pb.resources[modAddr] == nil {
		pb.resources[modAddr] = map[string][]string{}
	}
	local := localAddr(r)
	pb.resources[modAddr][local] = append(pb.resources[modAddr][local], keySuffix(r.Index))
}

// moduleSteps splits a module instance address into its calls' names and
// key suffixes.
func moduleSteps(addr string) (names, keys []string, ok bool) {
	if addr == "" {
		return nil, nil, true
	}
	t, diags := hclTraversal(addr)
	if diags {
		return nil, nil, false
	}
	for i := 0; i < len(t); i++ {
		name, isModule := traverserName(t[i])
		if !isModule || name != "module" || i+1 >= len(t) {
			return nil, nil, false
		}
		call, _ := traverserName(t[i+1])
		i++
		key := ""
		if i+1 < len(t) {
			if idx, isIndex := t[i+1].(hcl.TraverseIndex); isIndex {
				key = ctyKeySuffix(idx.Key)
				i++
			}
		}
		names, keys = append(names, call), append(keys, key)
	}
	return names, keys, true
}

func hclTraversal(s string) (hcl.Traversal, bool) {
	t, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	return t, diags.HasErrors()
}

func traverserName(t hcl.Traverser) (string, bool) {
	switch s := t.(type) {
	case hcl.TraverseRoot:
		return s.Name, true
	case hcl.TraverseAttr:
		return s.Name, true
	}
	return "", false
}

func ctyKeySuffix(k cty.Value) string {
	if !k.IsKnown() || k.IsNull() {
		return ""
	}
	switch k.Type() {
	case cty.Number:
		f, _ := k.AsBigFloat().Int64()
		return fmt.Sprintf("[%d]", f)
	case cty.String:
		return "[" + strconv.Quote(k.AsString()) + "]"
	}
	return ""
}

// module is the module instance at addr, made with its parents.
func (pb *planFront) module(addr string) *planModule {
	if m := pb.modules[addr]; m != nil {
		return m
	}
	names, keys, ok := moduleSteps(addr)
	if !ok || len(names) == 0 {
		return pb.root
	}
	parentAddr := ""
	for i := range names[:len(names)-1] {
		parentAddr += "." + "module." + names[i] + keys[i]
	}
	parent := pb.module(strings.TrimPrefix(parentAddr, "."))
	name, key := names[len(names)-1], keys[len(keys)-1]
	m := &planModule{parent: parent, call: name, key: key}
	if parent.calls == nil {
		parent.calls = map[string][]*planModule{}
	}
	parent.calls[name] = append(parent.calls[name], m)
	var cfgCall *tfjson.ModuleCall
	if parent.cfg != nil {
		if cfgCall = parent.cfg.ModuleCalls[name]; cfgCall != nil {
			m.cfg = cfgCall.Module
		}
	}
	var call *ModuleCall
	if parent.hcl != nil {
		for _, c := range parent.hcl.Calls {
			if c.Name == name {
				call, m.hcl = c, c.Child
			}
		}
	}
	if call == nil {
		call = &ModuleCall{Name: name, DefRange: hcl.Range{Filename: addr}, Source: "./"}
		if cfgCall != nil {
			call.Source = cfgCall.Source
		}
	}
	mod := m.hcl
	if mod == nil {
		mod = &Module{}
	}
	in := newInstance(mod, addr, pb.root.in, nil)
	in.parent, in.call = parent.in, call
	if idx := indexOfSuffix(key); idx != nil {
		in.callRep = repetitionOf(idx)
	}
	m.in = in
	pb.modules[addr] = m
	pb.to.addModuleInstance(in)
	return m
}

// indexOfSuffix is the instance key a suffix writes, as plan JSON has it.
func indexOfSuffix(suffix string) any {
	if suffix == "" {
		return nil
	}
	inner := suffix[1 : len(suffix)-1]
	if s, err := strconv.Unquote(inner); err == nil {
		return s
	}
	if n, err := strconv.ParseInt(inner, 10, 64); err == nil {
		return float64(n)
	}
	return nil
}

// configResource is a resource's configuration in the plan.
func (m *planModule) configResource(local string) *tfjson.ConfigResource {
	if m.cfg == nil {
		return nil
	}
	for _, r := range m.cfg.Resources {
		if r != nil && r.Address == local {
			return r
		}
	}
	return nil
}

// hclResource is a resource's block in the configuration directory.
func (m *planModule) hclResource(local string) *Resource {
	if m.hcl == nil {
		return nil
	}
	for _, r := range m.hcl.Resources {
		if r.LocalAddr() == local {
			return r
		}
	}
	return nil
}

// addResource hands the builder one managed resource instance of the
// plan; one read only to link others when there is a queue to link.
func (pb *planFront) addResource(m *planModule, r *tfjson.StateResource) {
	schema := resourceSchemas[r.Type]
	res := pb.resource(m, r, schema)
	if schema.linkOnly {
		pb.to.addLinkOnly(func() []*resourceInstance { return []*resourceInstance{res} })
		return
	}
	pb.to.addResource(res)
}

// addDocument keeps a policy document data source for the linker to read
// when a policy names it.
func (pb *planFront) addDocument(m *planModule, r *tfjson.StateResource) {
	body := pb.resource(m, r, dataSchemas[r.Type]).body
	pb.documents[r.Address] = func() []*block { return []*block{body} }
}

// resource is a resource instance of the plan as the builder reads it:
// its planned values at their places in the configuration directory, else
// at its address.
func (pb *planFront) resource(m *planModule, r *tfjson.StateResource, schema *blockSchema) *resourceInstance {
	local := localAddr(r)
	rng := hcl.Range{Filename: r.Address}
	var hn *node
	if hr := m.hclResource(local); hr != nil && hr.Body != nil {
		rng = hr.DefRange
		hn = decode(hr.Body, schema, hr.DefRange)
	}
	var exprs map[string]*tfjson.Expression
	if cr := m.configResource(local); cr != nil {
		exprs = cr.Expressions
	}
	key := keySuffix(r.Index)
	pb.addr = r.Address
	pb.to.placeAt(rng, r.Address)
	body := pb.body(schema, r.AttributeValues, pb.unknown[r.Address], exprs, hn, rng, m, key)
	return &resourceInstance{typ: r.Type, addr: r.Address, module: m.in.addr, defRange: rng, body: body}
}

// addData records a queuecap data source's arguments as the rates a value
// computed from it declares, as evaluating its HCL does.
func (pb *planFront) addData(m *planModule, r *tfjson.StateResource) {
	f := queuecapFormula(r.Type)
	raw := map[string]any{}
	for _, input := range f.Inputs {
		if v, ok := r.AttributeValues[input.Name].(float64); ok {
			raw[input.Name] = v
		}
	}
	rng := hcl.Range{Filename: r.Address}
	if hr := m.hclResource(localAddr(r)); hr != nil {
		rng = hr.DefRange
	}
	pb.to.addDataArgs(r.Address, ratesOfArgs(raw, rng, r.Address))
}

// unknownSet is an attribute the configuration sets to a value known only
// after apply. The plan does not say its type; a string is what the
// attributes the linter reads unknown are (ARNs, names, JSON policies),
// marked typeGuessed as a guess: a list of ARNs is none.
var unknownSet = cty.UnknownVal(cty.String).RefineNotNull().Mark(typeGuessed{})

// body is one block as the builder reads it: the schema's arguments that
// have a value (known, or unknown and set in the configuration, marked
// with the origins of what the configuration references), and its nested
// blocks. hn is the block's HCL, for ranges, when the configuration is
// present. An argument unknown in the plan keeps its HCL, evaluated in
// the plan's module instance, where a resource's attributes carry the
// origin of its plan address as an HCL walk's do: a policy reads the
// object jsonencode encodes from it, the statements over ARNs that a link
// through IAM needs (a policy known at plan is read from its planned
// JSON). The HCL does not explain why the value is unknown: the root
// module's variables are unknown there, as the plan's values are not
// given to it.
func (pb *planFront) body(s *blockSchema, vals, unk map[string]any, exprs map[string]*tfjson.Expression, hn *node, rng hcl.Range, m *planModule, key string) *block {
	out := &block{args: map[string]*arg{}, blocks: map[string][]*block{}, rng: rng}
	for _, name := range s.attrs {
		expr := exprs[name]
		arng := rng
		if hn != nil {
			if a := hn.attrs[name]; a != nil {
				arng = a.Range
			}
		}
		raw, hasVal := vals[name]
		u := unk[name]
		var v cty.Value
		var config *hclExpr
		switch {
		case u == true:
			if expr == nil {
				continue // computed by the provider, not set in the configuration
			}
			// Set by an expression not known until apply: not null, as
			// evaluating the HCL finds jsonencode() over an ARN to be.
			v = unknownSet
			if hn != nil && hn.attrs[name] != nil {
				config = &hclExpr{in: m.in, rep: repetitionOf(indexOfSuffix(key)), expr: hn.attrs[name].Expr}
			}
		case raw == nil && (u == nil || !hasVal):
			continue // null: unset
		default:
			v = ctyOf(raw, u)
		}
		if expr != nil && expr.ExpressionData != nil {
			v = v.WithMarks(pb.marks(m, key, expr.References))
		}
		if hn != nil && hn.attrs[name] != nil {
			v = v.WithMarks(pb.functionMarks(m, key, hn.attrs[name].Expr, v))
		}
		pb.to.placeAt(arng, pb.addr)
		out.args[name] = &arg{rng: arng, valueRange: arng, val: v, evaluated: true, hcl: config}
	}
	for name, bs := range s.blocks {
		elems := asList(vals[name])
		unks := asList(unk[name])
		var cfgs []map[string]*tfjson.Expression
		if e := exprs[name]; e != nil && e.ExpressionData != nil {
			cfgs = e.NestedBlocks
		}
		var hblocks []*node
		if hn != nil {
			hblocks = hn.blocks[name]
		}
		for i, e := range elems {
			ev, ok := e.(map[string]any)
			if !ok {
				continue
			}
			brng, bn := rng, matchBlock(hblocks, ev, i)
			if bn != nil {
				brng = bn.rng
			}
			var bexprs map[string]*tfjson.Expression
			if i < len(cfgs) {
				bexprs = cfgs[i]
			}
			var bu map[string]any
			if i < len(unks) {
				bu, _ = unks[i].(map[string]any)
			}
			out.blocks[name] = append(out.blocks[name], pb.body(bs, ev, bu, bexprs, bn, brng, m, key))
		}
	}
	return out
}

// matchBlock is the HCL block a planned block came from: the one whose
// literal attributes all equal the planned values (sets, such as an auto
// scaling group's tags, are not in configuration order), else the one at
// the same position.
func matchBlock(blocks []*node, vals map[string]any, i int) *node {
	for _, n := range blocks {
		matched, all := 0, true
		for name, a := range n.attrs {
			v, diags := a.Expr.Value(nil)
			if diags.HasErrors() || !v.IsWhollyKnown() {
				continue
			}
			if pv, ok := vals[name]; ok && ctyOf(pv, nil).Equals(v).True() {
				matched++
			} else if ok {
				all = false
				break
			}
		}
		if all && matched > 0 {
			return n
		}
	}
	if i < len(blocks) {
		return blocks[i]
	}
	return nil
}

func asList(v any) []any {
	switch l := v.(type) {
	case []any:
		return l
	case map[string]any:
		return []any{l} // a single nested block
	}
	return nil
}

// ctyOf converts a JSON value, with its after_unknown shape, to cty.
func ctyOf(v, unk any) cty.Value {
	if unk == true {
		return cty.DynamicVal
	}
	switch x := v.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType)
	case bool:
		return cty.BoolVal(x)
	case float64:
		return cty.NumberFloatVal(x)
	case json.Number:
		if n, err := cty.ParseNumberVal(x.String()); err == nil {
			return n
		}
		return cty.DynamicVal
	case string:
		return cty.StringVal(x)
	case []any:
		if len(x) == 0 && unk == nil {
			return cty.EmptyTupleVal
		}
		us, _ := unk.([]any)
		vals := make([]cty.Value, 0, len(x))
		for i, e := range x {
			var u any
			if i < len(us) {
				u = us[i]
			}
			vals = append(vals, ctyOf(e, u))
		}
		for i := len(x); i < len(us); i++ {
			vals = append(vals, ctyOf(nil, us[i]))
		}
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case map[string]any:
		um, _ := unk.(map[string]any)
		attrs := make(map[string]cty.Value, len(x))
		for k, e := range x {
			attrs[k] = ctyOf(e, um[k])
		}
		for k, u := range um {
			if _, ok := x[k]; !ok && u == true {
				attrs[k] = cty.DynamicVal
			}
		}
		if len(attrs) == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(attrs)
	}
	return cty.DynamicVal
}

// functionMarks are the origins of the queuecap provider function calls in
// an attribute's HCL, when evaluating it as the HCL front end does gives
// the planned value v. The plan records neither a call nor its arguments
// (`max_size = provider::queuecap::required_consumers(10000, 400, 0, 1800)`
// is `{}` among the configuration's expressions, and 25 among the planned
// values), so without this the rates the call declares were lost and the
// fleet's check was skipped for want of an arrival rate.
func (pb *planFront) functionMarks(m *planModule, key string, expr hcl.Expression, v cty.Value) cty.ValueMarks {
	marks := cty.ValueMarks{}
	if !callsQueuecapFunction(expr) {
		return marks
	}
	hv := m.in.evalWith(expr, repetitionOf(indexOfSuffix(key)))
	plain, _ := hv.UnmarkDeep()
	planned, _ := v.UnmarkDeep()
	if !plain.IsWhollyKnown() || !planned.IsWhollyKnown() || !plain.Equals(planned).True() {
		return marks // the HCL does not give what was planned: claim no rates
	}
	for _, o := range origins(hv) {
		if strings.HasPrefix(o, providerPrefix) {
			marks[origin(o)] = struct{}{}
		}
	}
	return marks
}

// callsQueuecapFunction is whether an expression calls a queuecap provider
// function.
func callsQueuecapFunction(expr hcl.Expression) bool {
	e, ok := expr.(hclsyntax.Expression)
	if !ok {
		return false
	}
	found := false
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(c.Name, providerPrefix) {
			found = true
		}
		return nil
	})
	return found
}

// maxRefDepth bounds how far references are followed through module
// variables and outputs.
const maxRefDepth = 32

// marks are the origins of what an expression in module instance m
// references, as instance addresses of the plan.
func (pb *planFront) marks(m *planModule, key string, refs []string) cty.ValueMarks {
	marks := cty.ValueMarks{}
	for _, o := range pb.resolve(m, key, refs, 0) {
		marks[origin(o)] = struct{}{}
	}
	return marks
}

// resolve turns references written in module instance m (by its resource
// instance with key suffix key) into resource instance addresses:
// through the module's variables to what its call passes, and through a
// called module's outputs to what they reference. A reference to a
// resource with count or for_each names the referring instance's
// counterpart (same key) when there is one, else every instance.
func (pb *planFront) resolve(m *planModule, key string, refs []string, depth int) []string {
	if depth > maxRefDepth || m == nil {
		return nil
	}
	parsed := make([]hcl.Traversal, 0, len(refs))
	for _, r := range refs {
		if t, bad := hclTraversal(r); !bad {
			parsed = append(parsed, t)
		}
	}
	return pb.resolveTraversals(m, key, parsed, depth)
}

// resolveTraversals is resolve over parsed references.
func (pb *planFront) resolveTraversals(m *planModule, key string, refs []hcl.Traversal, depth int) []string {
	if depth > maxRefDepth || m == nil {
		return nil
	}
	// "aws_sqs_queue.q[0].arn" comes with "aws_sqs_queue.q[0]" and
	// "aws_sqs_queue.q": the keyed form wins.
	keyed := map[string]bool{}
	var parsed []hcl.Traversal
	for _, t := range refs {
		if len(t) < 2 {
			continue
		}
		parsed = append(parsed, t)
		if len(t) > 2 {
			if _, ok := t[2].(hcl.TraverseIndex); ok {
				root, _ := traverserName(t[0])
				name, _ := traverserName(t[1])
				keyed[root+"."+name] = true
			}
		}
	}
	var out []string
	add := func(addrs ...string) {
		for _, a := range addrs {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	for _, t := range parsed {
		root, _ := traverserName(t[0])
		name, ok := traverserName(t[1])
		if !ok {
			continue
		}
		switch root {
		case "var":
			if m.parent == nil || m.parent.cfg == nil {
				continue
			}
			if call := m.parent.cfg.ModuleCalls[m.call]; call != nil {
				if e := call.Expressions[name]; e != nil && e.ExpressionData != nil {
					add(pb.resolve(m.parent, m.key, e.References, depth+1)...)
				}
			}
		case "module":
			add(pb.resolveModule(m, name, t[2:], key, depth)...)
		case "data":
			if len(t) < 3 {
				continue
			}
			dname, ok := traverserName(t[2])
			if !ok {
				continue
			}
			add(pb.instances(m, "data."+name+"."+dname, t[3:], key)...)
		case "local":
			// The plan records no local value: the configuration
			// directory's HCL says what one references.
			if m.hcl != nil {
				if attr := m.hcl.Locals[name]; attr != nil {
					add(pb.resolveTraversals(m, key, attr.Expr.Variables(), depth+1)...)
				}
			}
		case "each", "count", "path", "terraform", "self":
			continue
		default:
			if len(t) == 2 && keyed[root+"."+name] {
				continue
			}
			add(pb.instances(m, root+"."+name, t[2:], key)...)
		}
	}
	return out
}

// instances are the addresses of a resource's instances a reference
// reaches; rest is what follows the resource's name.
func (pb *planFront) instances(m *planModule, local string, rest hcl.Traversal, key string) []string {
	keys, ok := pb.resources[m.in.addr][local]
	if !ok {
		return nil
	}
	prefix := m.in.absAddr(local)
	if len(rest) > 0 {
		if idx, isIndex := rest[0].(hcl.TraverseIndex); isIndex {
			return []string{prefix + ctyKeySuffix(idx.Key)}
		}
	}
	if slices.Contains(keys, key) {
		return []string{prefix + key}
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, prefix+k)
	}
	return out
}

// resolveModule follows module.NAME[KEY].OUTPUT to what the output
// references in each instance of the call it names: without a key, the
// referring instance's counterpart (same key) when there is one.
func (pb *planFront) resolveModule(m *planModule, name string, rest hcl.Traversal, referrer string, depth int) []string {
	if m.cfg == nil || m.cfg.ModuleCalls[name] == nil || m.cfg.ModuleCalls[name].Module == nil {
		return nil
	}
	key := ""
	if len(rest) > 0 {
		if idx, isIndex := rest[0].(hcl.TraverseIndex); isIndex {
			key, rest = ctyKeySuffix(idx.Key), rest[1:]
		}
	}
	outputs := m.cfg.ModuleCalls[name].Module.Outputs
	var names []string
	if len(rest) > 0 {
		if o, ok := traverserName(rest[0]); ok {
			names = []string{o}
		}
	}
	if names == nil {
		names = sortedKeys(outputs)
	}
	children := pb.children(m, name, key)
	if key == "" && referrer != "" {
		if same := pb.children(m, name, referrer); len(same) > 0 {
			children = same
		}
	}
	var out []string
	for _, child := range children {
		for _, o := range names {
			if e := outputs[o]; e != nil && e.Expression != nil && e.Expression.ExpressionData != nil {
				out = append(out, pb.resolve(child, "", e.Expression.References, depth+1)...)
			}
		}
	}
	return out
}

// children are the instances of a module call in the plan (key "" for
// all of them).
func (pb *planFront) children(m *planModule, name, key string) []*planModule {
	var out []*planModule
	for _, c := range m.calls[name] {
		if key == "" || c.key == key {
			out = append(out, c)
		}
	}
	return out
}
