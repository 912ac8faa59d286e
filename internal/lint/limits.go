// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// The limits a configuration under review cannot push the linter past
// (docs/hostile-input.md#limits), each far above what real configurations
// reach: the shared corpus nests at most 31 levels deep.
const (
	// maxNesting bounds how deeply a source nests (nesting.go) and how
	// deeply a value nests, as cty's operations recurse too.
	maxNesting = 1000
	// maxFileTokens bounds the tokens of one configuration file: HCL's
	// parser holds every token of a file at once, about 100 bytes each,
	// and then its syntax tree. The largest file of the corpus, 76 kB,
	// has 8,304.
	maxFileTokens = 250000
	// maxEvalDepth bounds evaluations in progress at once: a local
	// reading a local reading a local, through module inputs and outputs.
	maxEvalDepth = 1000
	// maxRootInstances bounds the resource and module instances count and
	// for_each make in one root module, across its nested modules, where
	// maxInstances bounds one block's.
	maxRootInstances = 20000
	// maxValueElements bounds the elements of a value a function builds
	// from a small input: setproduct's product, and what jsondecode and
	// yamldecode decode (YAML's aliases repeat a node without repeating
	// its text).
	maxValueElements = 1000000
)

// rootEvalTime bounds the time one root module's evaluation takes; a
// variable so that a test can shorten it.
var rootEvalTime = 60 * time.Second

// evalLimits is one root module's evaluation state and budgets, shared by
// its module instances. Once a budget runs out (exceeded), nothing more is
// evaluated and the root module is reported as that error alone.
type evalLimits struct {
	deadline  time.Time
	evals     int
	depth     int
	instances int
	elements  int // built by the budgeted functions
	// at is the expression being evaluated, innermost.
	at hcl.Range
	// evaluating are the named values being worked out, outermost first,
	// to tell a cycle.
	evaluating []evalItem
	exceeded   *hcl.Diagnostic
	// rejected are errors Terraform reports too: cycles, invalid count and
	// for_each, failing function calls, arguments the provider rejects.
	rejected []*hcl.Diagnostic
	seen     map[hcl.Range]bool
}

func newEvalLimits() *evalLimits {
	return &evalLimits{deadline: time.Now().Add(rootEvalTime)}
}

// enter starts evaluating the expression at rng, reporting whether to go
// on; leave, given what enter returned, ends it.
func (l *evalLimits) enter(rng hcl.Range) (hcl.Range, bool) {
	outer := l.at
	if l.exceeded != nil {
		return outer, false
	}
	if l.depth >= maxEvalDepth {
		l.exceed(rng, "Evaluation too deep", fmt.Sprintf("evaluating this needs more than %d values evaluated one inside another (a local that reads a local that reads a local …)", maxEvalDepth))
		return outer, false
	}
	// The clock is read every 64 evaluations: reading it costs as much as
	// a small evaluation.
	if l.evals++; l.evals%64 == 0 && time.Now().After(l.deadline) {
		l.exceed(rng, "Evaluation too slow", fmt.Sprintf("evaluating this root module took more than %s", rootEvalTime))
		return outer, false
	}
	l.depth++
	l.at = rng
	return outer, true
}

func (l *evalLimits) leave(outer hcl.Range) {
	l.depth--
	l.at = outer
}

// ok reports whether evaluation goes on.
func (l *evalLimits) ok() bool { return l.exceeded == nil }

// exceed stops the root's evaluation with the error of a budget that ran
// out at rng.
func (l *evalLimits) exceed(rng hcl.Range, summary, detail string) {
	if l.exceeded == nil {
		l.exceeded = &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary,
			Detail: detail + "; the root module is not checked", Subject: rng.Ptr()}
	}
}

// exceedWith stops the root's evaluation with an error found elsewhere.
func (l *evalLimits) exceedWith(d *hcl.Diagnostic) {
	if l.exceeded == nil {
		l.exceeded = d
	}
}

// countInstances adds n instances made by the count or for_each at rng.
func (l *evalLimits) countInstances(n int, rng hcl.Range) bool {
	l.instances += n
	if l.instances > maxRootInstances {
		l.exceed(rng, "Too many instances", fmt.Sprintf("count and for_each make more than %d resource and module instances in this root module, nested modules included", maxRootInstances))
		return false
	}
	return true
}

// checkDepth stops the evaluation of a value that nests too deeply.
func (l *evalLimits) checkDepth(v cty.Value, rng hcl.Range) bool {
	if ty := v.Type(); ty.IsPrimitiveType() || typeDepth(ty, 0) <= maxNesting {
		return true
	}
	l.exceed(rng, "Value nests too deep", fmt.Sprintf("this value nests more than %d levels deep", maxNesting))
	return false
}

// typeDepth is how deeply values of ty nest, counted up to just past
// maxNesting.
func typeDepth(ty cty.Type, depth int) int {
	if depth > maxNesting {
		return depth
	}
	deepest := depth
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		deepest = typeDepth(ty.ElementType(), depth+1)
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			deepest = max(deepest, typeDepth(at, depth+1))
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			deepest = max(deepest, typeDepth(et, depth+1))
		}
	}
	return deepest
}

// reject keeps an error Terraform reports too, once per place.
func (l *evalLimits) reject(d *hcl.Diagnostic) {
	if d.Subject == nil || l.seen[*d.Subject] {
		return
	}
	if l.seen == nil {
		l.seen = map[hcl.Range]bool{}
	}
	l.seen[*d.Subject] = true
	l.rejected = append(l.rejected, d)
}

// evalItem is a named value being worked out: kind and name as its
// instance's memos have them ("local.", "x"; "" and a data source's local
// address; "count" or "for_each" and a block's), written out only for a
// cycle's message.
type evalItem struct {
	in         *instance
	kind, name string
}

func (e evalItem) String() string {
	switch e.kind {
	case "count", "for_each":
		return e.in.absAddr(e.name) + " (" + e.kind + ")"
	}
	return e.in.absAddr(e.kind + e.name)
}

// start records that item is being worked out and reports true, or, when
// it already is, reports a cycle and false: Terraform rejects a value
// that depends on itself.
func (l *evalLimits) start(item evalItem) bool {
	for i, e := range l.evaluating {
		if e == item {
			chain := make([]string, 0, len(l.evaluating)-i+1)
			for _, e := range l.evaluating[i:] {
				chain = append(chain, e.String())
			}
			chain = append(chain, item.String())
			l.reject(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cycle",
				Detail: item.String() + " depends on itself: " + strings.Join(chain, " → "), Subject: l.at.Ptr()})
			return false
		}
	}
	l.evaluating = append(l.evaluating, item)
	return true
}

// done ends a start that reported true.
func (l *evalLimits) done() { l.evaluating = l.evaluating[:len(l.evaluating)-1] }

// rejectedCalls are the expression errors Terraform reports as the linter
// does: a built-in or queuecap function given arguments it refuses (but
// not a file that is not there, noFileError, and a function the linter
// does not know is not an error), an arithmetic operation that fails.
var rejectedCalls = map[string]bool{
	"Error in function call":        true,
	"Invalid function argument":     true,
	"Not enough function arguments": true,
	"Too many function arguments":   true,
	"Operation failed":              true,
}

// rejectFailures keeps the errors of an expression's evaluation in
// instance addr ("" for the root module) that Terraform reports too.
func (l *evalLimits) rejectFailures(diags hcl.Diagnostics, addr string) {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && rejectedCalls[d.Summary] && !missingFile(d) {
			l.reject(inInstance(d, addr))
		}
	}
}

// inInstance is a diagnostic naming the module instance it was found in.
func inInstance(d *hcl.Diagnostic, addr string) *hcl.Diagnostic {
	if addr == "" {
		return d
	}
	out := *d
	out.Detail = strings.TrimSuffix(out.Detail, ".") + " (in " + addr + ")"
	return &out
}

// missingFile reports whether d is a function call failing for a file
// that is not there. The call's error is a function.ArgError, which does
// not unwrap to the noFileError inside it; its message is that error's.
func missingFile(d *hcl.Diagnostic) bool {
	extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
	return ok && extra.FunctionCallError() != nil && strings.HasPrefix(extra.FunctionCallError().Error(), noFileError("").Error())
}
