// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestShippedYAML parses every YAML file of the project (Git's, untracked
// ones not ignored included) with a strict parser: a plain scalar holding
// ": " or a key given twice, which some readers let pass, is an error, as
// it is to GitHub's loader of action.yml.
func TestShippedYAML(t *testing.T) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.yml", "*.yaml")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a Git checkout: %v", err)
	}
	names := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Contains(names, "action.yml") || !slices.Contains(names, ".pre-commit-hooks.yaml") {
		t.Fatalf("git ls-files lists %q, without action.yml or .pre-commit-hooks.yaml", names)
	}
	for _, name := range names {
		content, err := os.ReadFile(filepath.Join("../..", name))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		} else if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(content))
		for {
			var doc any
			if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Errorf("%s: %v", name, err)
				break
			}
		}
	}
}

// actionMetadata is action.yml as GitHub reads a composite action; an
// unknown key anywhere in it is an error (KnownFields).
type actionMetadata struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
		Required    bool   `yaml:"required"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Name  string            `yaml:"name"`
			If    string            `yaml:"if"`
			Uses  string            `yaml:"uses"`
			With  map[string]string `yaml:"with"`
			Run   string            `yaml:"run"`
			Shell string            `yaml:"shell"`
			Env   map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// TestActionMetadata holds action.yml to what GitHub needs of a composite
// action: a name and description, a description on every input and
// output, runs.using composite with steps that each run a shell command or
// use an action, every inputs.X it reads declared, and every
// steps.ID.outputs it reads naming a step.
func TestActionMetadata(t *testing.T) {
	content, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action actionMetadata
	dec := yaml.NewDecoder(bytes.NewReader(content))
	dec.KnownFields(true)
	if err := dec.Decode(&action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Name == "" || action.Description == "" {
		t.Error("action.yml needs a name and a description")
	}
	for name, in := range action.Inputs {
		if strings.TrimSpace(in.Description) == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	for name, out := range action.Outputs {
		if strings.TrimSpace(out.Description) == "" || out.Value == "" {
			t.Errorf("output %s needs a description and a value", name)
		}
	}
	if action.Runs.Using != "composite" || len(action.Runs.Steps) == 0 {
		t.Fatalf("runs.using %q with %d steps, want a composite action", action.Runs.Using, len(action.Runs.Steps))
	}
	ids := map[string]bool{}
	for i, s := range action.Runs.Steps {
		switch {
		case (s.Run == "") == (s.Uses == ""):
			t.Errorf("step %d has both run and uses, or neither", i+1)
		case s.Run != "" && s.Shell == "":
			t.Errorf("step %d runs a command without a shell, which a composite action requires", i+1)
		}
		if s.ID != "" {
			ids[s.ID] = true
		}
	}
	for _, m := range regexp.MustCompile(`\binputs\.([A-Za-z_][A-Za-z0-9_-]*)`).FindAllStringSubmatch(string(content), -1) {
		if _, ok := action.Inputs[m[1]]; !ok {
			t.Errorf("action.yml reads inputs.%s, which it does not declare", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`\bsteps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.`).FindAllStringSubmatch(string(content), -1) {
		if !ids[m[1]] {
			t.Errorf("action.yml reads the outputs of step %s, which no step has as its id", m[1])
		}
	}
}
