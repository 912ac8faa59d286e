// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestMain removes the providers that testaws builds for the Atlantis test.
func TestMain(m *testing.M) { testaws.Main(m) }

// The keys of Atlantis's configuration that the examples may use: a subset
// of its raw schema (server/core/config/raw: RepoCfg, Project, GlobalCfg's
// Repo, Workflow, Stage), which Atlantis decodes strictly, an unknown key
// being an error.
type (
	atlantisRepoCfg struct {
		Version   int                         `json:"version"`
		Projects  []atlantisProject           `json:"projects"`
		Workflows map[string]atlantisWorkflow `json:"workflows"`
	}
	atlantisProject struct {
		Name      string `json:"name"`
		Dir       string `json:"dir"`
		Workspace string `json:"workspace"`
		Workflow  string `json:"workflow"`
	}
	atlantisServerCfg struct {
		Repos []struct {
			ID                   string   `json:"id"`
			Workflow             string   `json:"workflow"`
			AllowedOverrides     []string `json:"allowed_overrides"`
			AllowCustomWorkflows bool     `json:"allow_custom_workflows"`
		} `json:"repos"`
		Workflows map[string]atlantisWorkflow `json:"workflows"`
	}
	atlantisWorkflow struct {
		Plan        *atlantisStage `json:"plan,omitempty"`
		Apply       *atlantisStage `json:"apply,omitempty"`
		PolicyCheck *atlantisStage `json:"policy_check,omitempty"`
		Import      *atlantisStage `json:"import,omitempty"`
		StateRm     *atlantisStage `json:"state_rm,omitempty"`
	}
	atlantisStage struct {
		Steps []json.RawMessage `json:"steps"`
	}
)

// atlantisBuiltins are Atlantis's built-in step names (raw/step.go).
var atlantisBuiltins = []string{"init", "plan", "apply", "env", "multienv", "show", "policy_check", "import", "state_rm"}

// atlantisSteps reads a stage's steps as Atlantis validates them: a
// built-in's name, a built-in with extra_args only, or `run` with a
// command (a string, or command and output). It returns each step's name,
// and the command for a run step.
func atlantisSteps(raw []json.RawMessage) (names, commands []string, err error) {
	for _, r := range raw {
		var name string
		if json.Unmarshal(r, &name) == nil {
			if !slices.Contains(atlantisBuiltins, name) {
				return nil, nil, fmt.Errorf("%q is not a built-in step", name)
			}
			names, commands = append(names, name), append(commands, "")
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(r, &m); err != nil || len(m) != 1 {
			return nil, nil, fmt.Errorf("a step is a name or a map of one key: %s", r)
		}
		for key, value := range m {
			var command string
			switch {
			case key == "run":
				if json.Unmarshal(value, &command) != nil {
					var run struct{ Command, Output string }
					dec := json.NewDecoder(bytes.NewReader(value))
					dec.DisallowUnknownFields()
					if err := dec.Decode(&run); err != nil || run.Command == "" {
						return nil, nil, fmt.Errorf("run needs a command: %s", value)
					}
					command = run.Command
				}
			case slices.Contains(atlantisBuiltins, key):
				var args struct {
					ExtraArgs []string `json:"extra_args"`
				}
				dec := json.NewDecoder(bytes.NewReader(value))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&args); err != nil {
					return nil, nil, fmt.Errorf("built-in step %s takes extra_args only: %s", key, value)
				}
			default:
				return nil, nil, fmt.Errorf("%q is not a step", key)
			}
			names, commands = append(names, key), append(commands, command)
		}
	}
	return names, commands, nil
}

// strictJSON decodes doc into v, an unknown key being an error.
func strictJSON(doc []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// TestAtlantisWorkflow holds examples/ci/atlantis.yaml (repo-level) and
// atlantis-repos.yaml (server-side) to the keys and steps Atlantis accepts,
// then runs the workflow's run step as Atlantis does (`sh -c` in the
// project's directory, with DIR, PLANFILE, SHOWFILE and the rest set) on
// the JSON that show writes, from real plans of
// internal/lint/plantest/testdata/zero_surplus by each CLI installed: the
// zero surplus fails the plan (exit 2, the finding at main.tf line 22), a
// max_size with headroom passes.
func TestAtlantisWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and plans with the real CLIs")
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile("../../examples/ci/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	repoSrc, serverSrc := read("atlantis.yaml"), read("atlantis-repos.yaml")
	var repo atlantisRepoCfg
	if err := strictJSON(yamlJSON(t, repoSrc), &repo); err != nil {
		t.Fatalf("atlantis.yaml: %v", err)
	}
	var server atlantisServerCfg
	if err := strictJSON(yamlJSON(t, serverSrc), &server); err != nil {
		t.Fatalf("atlantis-repos.yaml: %v", err)
	}
	if repo.Version != 3 {
		t.Errorf("atlantis.yaml version %d, want 3", repo.Version)
	}
	for _, p := range repo.Projects {
		if _, ok := repo.Workflows[p.Workflow]; !ok || p.Dir == "" {
			t.Errorf("project %+v: its workflow is not defined, or it has no dir", p)
		}
	}
	for _, r := range server.Repos {
		if _, ok := server.Workflows[r.Workflow]; !ok {
			t.Errorf("repos.yaml's %s names workflow %q, not defined", r.ID, r.Workflow)
		}
	}
	repoWorkflows, _ := json.Marshal(repo.Workflows)
	serverWorkflows, _ := json.Marshal(server.Workflows)
	if !bytes.Equal(repoWorkflows, serverWorkflows) {
		t.Errorf("the two files define different workflows:\n%s\n%s", repoWorkflows, serverWorkflows)
	}
	wf := repo.Workflows[repo.Projects[0].Workflow]
	if wf.Plan == nil {
		t.Fatal("the workflow has no plan stage")
	}
	names, commands, err := atlantisSteps(wf.Plan.Steps)
	if err != nil {
		t.Fatal(err)
	}
	// show writes $SHOWFILE from the plan file; a run step reads it after.
	lintAt := slices.IndexFunc(commands, func(c string) bool { return strings.Contains(c, "$SHOWFILE") })
	if plan, show := slices.Index(names, "plan"), slices.Index(names, "show"); plan < 0 || show < plan || lintAt < show {
		t.Fatalf("steps %q: want plan, show, then a run step reading $SHOWFILE", names)
	}

	docs, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string][]byte{"atlantis.yaml": repoSrc, "atlantis-repos.yaml": serverSrc} {
		if want := "```yaml\n" + withoutComments(string(src)) + "```\n"; !strings.Contains(string(docs), want) {
			t.Errorf("docs/ci.md does not show examples/ci/%s as it is, less its comments:\n%s", name, want)
		}
	}

	bin := filepath.Dir(buildCLI(t, ""))
	config := "../../internal/lint/plantest/testdata/zero_surplus"
	for _, cli := range testaws.CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			for _, tt := range []struct {
				name     string
				planArgs []string
				code     int
			}{
				{"zero surplus", nil, exitFindings},
				{"headroom", []string{"-var=max_size=40"}, exitOK},
			} {
				w := testaws.NewWorkdir(t, cli.Path, config)
				showJSON := w.Plan(tt.planArgs...)
				// As Atlantis names them for workspace default, no project
				// name; show writes the plan's JSON there.
				showFile := filepath.Join(w.Dir, "default.json")
				if err := os.WriteFile(showFile, showJSON, 0o600); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command("sh", "-c", commands[lintAt])
				cmd.Dir = w.Dir
				cmd.Env = append(os.Environ(),
					"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
					"DIR="+w.Dir, "PLANFILE="+filepath.Join(w.Dir, "default.tfplan"), "SHOWFILE="+showFile,
					"WORKSPACE=default", "PROJECT_NAME=", "REPO_REL_DIR=stacks/orders",
					"NO_COLOR=1")
				out, err := cmd.CombinedOutput()
				code := exitCode(t, err)
				if code != tt.code {
					t.Errorf("%s: exit %d, want %d:\n%s", tt.name, code, tt.code, out)
				}
				found := strings.Contains(string(out), "(queuecap_zero_surplus)") && strings.Contains(string(out), "on main.tf line 22, in aws_autoscaling_group.workers:")
				if found != (tt.code == exitFindings) {
					t.Errorf("%s: zero surplus finding at main.tf line 22 %v, want %v:\n%s", tt.name, found, tt.code == exitFindings, out)
				}
			}
		})
	}
}
