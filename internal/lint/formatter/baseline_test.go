// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// TestBaselineInEveryFormat: what a baseline did is said where a format
// has room for a notice: the text formats end with the findings it left
// out and a line per entry fixed since, JSON has baseline_suppressed and
// baseline_fixed, SARIF a note-level notification per fixed entry on its
// file, github a ::notice. Without a baseline none of it appears.
func TestBaselineInEveryFormat(t *testing.T) {
	fixed := model.BaselineEntry{Fingerprint: "3dc56a153ab0f72beaac5771f0a54d9a", Rule: "queuecap_zero_surplus",
		Address: "aws_autoscaling_group.workers", File: "main.tf", Summary: "max_size 25 cannot drain any backlog: raise it to 26"}
	line := "fixed since the baseline, remove it from .queuecap-baseline.json: queuecap_zero_surplus in aws_autoscaling_group.workers (main.tf): max_size 25 cannot drain any backlog: raise it to 26 [3dc56a153ab0f72beaac5771f0a54d9a]"
	want := map[string][]string{
		"default": {"2 findings recorded in the baseline .queuecap-baseline.json not shown\n", "Notice: " + line + "\n"},
		"compact": {"2 findings recorded in the baseline .queuecap-baseline.json not shown\n", "Notice: " + line + "\n"},
		"json":    {`"baseline_suppressed":2,"baseline_fixed":[{"fingerprint":"3dc56a153ab0f72beaac5771f0a54d9a","rule":"queuecap_zero_surplus","address":"aws_autoscaling_group.workers","file":"main.tf","summary":"max_size 25 cannot drain any backlog: raise it to 26"}]}`},
		"github":  {"::notice title=queuecap baseline::" + line + "\n"},
		"markdown": {"2 findings recorded in the baseline `.queuecap-baseline.json` not shown.", "<details><summary>1 entry of the baseline fixed since</summary>",
			"- fixed since the baseline, remove it from .queuecap-baseline.json\\: queuecap\\_zero\\_surplus in aws\\_autoscaling\\_group.workers (main.tf)\\: max\\_size 25"},
	}
	for _, format := range Names() {
		t.Run(format, func(t *testing.T) {
			r := fixture(false)
			without := render(t, format, r, Options{NoColor: true, ReadSource: readSource})
			r.Baseline = &model.BaselineReport{File: ".queuecap-baseline.json", Suppressed: 2, Fixed: []model.BaselineEntry{fixed}}
			with := render(t, format, r, Options{NoColor: true, ReadSource: readSource})
			for _, w := range want[format] {
				if !strings.Contains(with, w) {
					t.Errorf("lacks %q:\n%s", w, with)
				}
				if strings.Contains(without, w) {
					t.Errorf("without a baseline, has %q", w)
				}
			}
			if strings.Contains(without, "baseline") {
				t.Errorf("without a baseline, mentions one:\n%s", without)
			}
		})
	}

	r := fixture(false)
	r.Baseline = &model.BaselineReport{File: ".queuecap-baseline.json", Fixed: []model.BaselineEntry{fixed}}
	var log struct {
		Runs []struct {
			Invocations []struct {
				Notifications []struct {
					Level   string
					Message struct{ Text string }
					// The fixed entry's file.
					Locations []struct {
						PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
					}
					AssociatedRule struct{ ID string }
				} `json:"toolExecutionNotifications"`
			}
		}
	}
	if err := json.Unmarshal([]byte(render(t, "sarif", r, Options{})), &log); err != nil {
		t.Fatal(err)
	}
	notes := log.Runs[0].Invocations[0].Notifications
	last := notes[len(notes)-1]
	if last.Level != "note" || last.Message.Text != line || last.AssociatedRule.ID != "queuecap_zero_surplus" ||
		len(last.Locations) != 1 || last.Locations[0].PhysicalLocation.ArtifactLocation.URI != "main.tf" {
		t.Errorf("SARIF's last notification %+v, want the fixed entry", last)
	}
}
