// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

func TestIgnoreAnnotations(t *testing.T) {
	const rule = "queuecap_depth_alarm_after_sla"
	cases := []struct {
		name  string
		files map[string]string
		want  int // findings left
	}{
		{"no annotation", map[string]string{"main.tf": slaAlarm("", "")}, 1},
		{"same line", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: "+rule)}, 0},
		{"line above", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: "+rule, "")}, 0},
		{"two lines above does not count", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: "+rule+"\n", "")}, 1},
		{"all", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: all")}, 0},
		{"a list naming the rule", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: queuecap_zero_surplus, "+rule, "")}, 0},
		{"a list without the rule", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: queuecap_zero_surplus,queuecap_missing_dead_letter_queue", "")}, 1},
		{"another rule", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus")}, 1},
		{"with a reason", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: "+rule+" # the SLA is advisory for this queue")}, 0},
		{"a reason does not name rules", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus # not "+rule)}, 1},
		{"double-slash comment", map[string]string{"main.tf": slaAlarm("", "// queuecap-ignore: "+rule)}, 0},
		{"block comment", map[string]string{"main.tf": slaAlarm("/* queuecap-ignore: "+rule+" */", "")}, 0},
		{"no colon is no annotation", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore "+rule)}, 1},
		{"file annotation at the top", map[string]string{"main.tf": "# queuecap-ignore-file: " + rule + "\n" + slaAlarm("", "")}, 0},
		{"file annotation after other leading comments", map[string]string{"main.tf": "# Orders pipeline.\n\n// Owned by the payments team.\n# queuecap-ignore-file: all # legacy, tracked in PAY-12\n" + slaAlarm("", "")}, 0},
		{"file annotation below the first block is ignored", map[string]string{"main.tf": slaAlarm("", "") + "# queuecap-ignore-file: " + rule + "\n"}, 1},
		{"file annotation for another rule", map[string]string{"main.tf": "# queuecap-ignore-file: queuecap_zero_surplus\n" + slaAlarm("", "")}, 1},
		{"a # inside a string is not a comment", map[string]string{"main.tf": slaAlarm(`alarm_description   = "# queuecap-ignore: all"`, "")}, 1},
		{"an annotation inside a heredoc is not a comment", map[string]string{"main.tf": slaAlarm("", "") + "\nlocals {\n  doc = <<EOT\n# queuecap-ignore-file: all\nEOT\n}\n"}, 1},
		{"an interpolated string ending on the finding's line", map[string]string{"main.tf": slaAlarm(`alarm_description   = "depth of ${aws_sqs_queue.orders.name} # queuecap-ignore: all"`, "")}, 1},
		{"an annotation in another file", map[string]string{"main.tf": slaAlarm("", ""), "other.tf": "# queuecap-ignore-file: all\n"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			if len(res.Issues) != c.want {
				t.Fatalf("%d issues, want %d: %+v", len(res.Issues), c.want, res.Issues)
			}
			for _, is := range res.Issues {
				if is.Rule != rule {
					t.Errorf("unexpected issue %s at %s", is.Rule, is.Range)
				}
			}
		})
	}
}
