package lint_test

import (
	"path/filepath"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// A .queuecap.hcl queue block that names nothing in the configuration is
// reported as a skip, so a typo does not turn checks off in silence.
func TestUnmatchedConfigBlocks(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": "resource \"aws_sqs_queue\" \"orders\" {}\nresource \"aws_autoscaling_group\" \"workers\" {\n  max_size = 4\n}\n",
		".queuecap.hcl": `queue "aws_sqs_queue.ordrs" {
  arrival_rate = 5
}
queue "aws_sqs_queue.orders" {
  consumer = "aws_autoscaling_group.wrkers"
}
queue "module.x.aws_sqs_queue.orders" {
  arrival_rate = 5
}
`,
	})
	cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg})
	want := map[int]string{
		1: `queue block "aws_sqs_queue.ordrs" matches no aws_sqs_queue in the linted configuration`,
		4: `queue block "aws_sqs_queue.orders" names consumer "aws_autoscaling_group.wrkers", which matches no fleet in the linted configuration`,
		7: `queue block "module.x.aws_sqs_queue.orders" matches no aws_sqs_queue in the linted configuration`,
	}
	got := map[int]string{}
	for _, s := range res.Skipped {
		if s.Rule == "config" {
			got[s.Range.Start.Line] = s.Reason
		}
	}
	if len(got) != len(want) {
		t.Fatalf("config skips %v, want %v", got, want)
	}
	for line, reason := range want {
		if got[line] != reason {
			t.Errorf("line %d: skip %q, want %q", line, got[line], reason)
		}
	}
}
