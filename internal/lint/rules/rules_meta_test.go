// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// TestAll checks every rule's ID, default severity and documentation link
// against the table in the issue that specifies them.
func TestAll(t *testing.T) {
	want := map[string]lint.Severity{
		"queuecap_zero_surplus":                 lint.Error,
		"queuecap_insufficient_headroom":        lint.Warning,
		"queuecap_surplus_during_deploy":        lint.Warning,
		"queuecap_depth_only_scaling":           lint.Warning,
		"queuecap_retention_shorter_than_drain": lint.Warning,
		"queuecap_visibility_timeout_too_short": lint.Warning,
		"queuecap_batch_retry_amplification":    lint.Warning,
		"queuecap_missing_dead_letter_queue":    lint.Warning,
		"queuecap_depth_alarm_after_sla":        lint.Warning,
		"queuecap_metastable_retry_storm":       lint.Warning,
		"queuecap_fifo_throughput_ceiling":      lint.Error,
		"queuecap_unreachable_within_rto":       lint.Warning,
		"queuecap_conflicting_concurrency":      lint.Error,
	}
	all := rules.All()
	if len(all) != len(want) {
		t.Fatalf("%d rules, want %d", len(all), len(want))
	}
	for _, r := range all {
		t.Run(r.Name(), func(t *testing.T) {
			sev, ok := want[r.Name()]
			if !ok {
				t.Fatalf("unexpected rule %s", r.Name())
			}
			if r.DefaultSeverity() != sev {
				t.Errorf("severity %s, want %s", r.DefaultSeverity(), sev)
			}
			if !r.EnabledByDefault() {
				t.Error("disabled by default")
			}
			if !strings.HasSuffix(r.Link(), "/docs/rules/"+r.Name()+".md") {
				t.Errorf("link %s", r.Link())
			}
			if r.Summary() == "" {
				t.Error("no summary")
			}
			// The page is carried in the binary, for SARIF's rule help.
			d, ok := r.(lint.DocumentedRule)
			if !ok {
				t.Fatal("carries no documentation page")
			}
			if page, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "rules", r.Name()+".md")); err != nil || d.Doc() != string(page) {
				t.Errorf("Doc() is not docs/rules/%s.md (%v)", r.Name(), err)
			}
		})
	}
}

// supplyFuncs are the capacity functions that compute a queue's supply:
// the linker calls them once per queue (model.Supply), and no rule does.
var supplyFuncs = []string{"FleetCapacity", "TotalCapacity", "NetRate", "DrainSeconds"}

// TestNoRuleComputesSupply holds the engine's shape: the rules read each
// queue's supply from the model instead of computing it, so that four
// rules cannot state four different numbers for one queue.
func TestNoRuleComputesSupply(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule sources: %v", err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if ok && (pkg.Name == "capacity" && slices.Contains(supplyFuncs, sel.Sel.Name) || pkg.Name == "model" && sel.Sel.Name == "SupplyOf") {
				t.Errorf("%s: a rule calls %s.%s: read the queue's model.Supply instead", fset.Position(sel.Pos()), pkg.Name, sel.Sel.Name)
			}
			return true
		})
	}
	if checked < len(rules.All()) {
		t.Errorf("checked %d files, fewer than the %d rules", checked, len(rules.All()))
	}
}

// TestRulesJudgeOneKind: each rule receives its subject, one kind of
// object, rather than a model to search.
func TestRulesJudgeOneKind(t *testing.T) {
	for _, r := range rules.All() {
		kinds := 0
		for _, ok := range []bool{is[model.QueueRule](r), is[model.FleetRule](r), is[model.PolicyRule](r), is[model.AlarmRule](r), is[model.MappingRule](r)} {
			if ok {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s judges %d kinds of object, want 1", r.Name(), kinds)
		}
	}
}

func is[T any](r model.Rule) bool { _, ok := r.(T); return ok }
