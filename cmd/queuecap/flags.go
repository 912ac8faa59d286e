// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// command is one subcommand's flags, parsed one way for every subcommand:
// GNU-style long flags (--format json, --format=json), the short forms
// users try (-f json), flags before or after the positional arguments,
// --help and -h to standard output, --version, and a did-you-mean for a
// misspelled flag. Errors are one line on standard error.
type command struct {
	name     string // "lint"
	synopsis []string
	// positional names what the command takes besides flags, "DIR ...";
	// "" for flags only.
	positional string
	required   []string
	short      map[string]string // "f" → "format"
	footer     string            // help after the flags
	fs         *flag.FlagSet
	set        map[string]bool // flags given on the command line
	args       []string        // the positional arguments, in order
}

func newCommand(name, synopsis string, required ...string) *command {
	fs := flag.NewFlagSet("queuecap "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line, below
	fs.Usage = func() {}
	return &command{name: name, synopsis: []string{synopsis}, required: required, fs: fs, short: map[string]string{}}
}

// unitsFooter ends the help of the commands that read rates and durations.
const unitsFooter = "Durations take seconds (1800) or units (90s, 30m, 2h, 1h30m, 4d).\nExit codes: 0 success, 1 an error.\n"

// alias gives a flag a one-letter form.
func (c *command) alias(short, long string) { c.short[short] = long }

// errHelp and errVersion end a parse that printed what was asked for.
var (
	errHelp    = errors.New("help requested")
	errVersion = errors.New("version requested")
)

// parse reads args; when it returns false the command is over with the
// returned exit code: help or the version was printed, or a one-line error.
func (c *command) parse(args []string, stdout, stderr io.Writer) (bool, int) {
	err := c.parseArgs(args)
	switch {
	case errors.Is(err, errHelp):
		c.usage(stdout)
		return false, exitOK
	case errors.Is(err, errVersion):
		fmt.Fprintln(stdout, versionLine())
		return false, exitOK
	case err != nil:
		fmt.Fprintf(stderr, "Error: %s (see 'queuecap %s --help')\n", err, c.name)
		return false, exitError
	}
	return true, exitOK
}

// parseArgs splits args into flags and positional arguments, checks every
// flag's name before the flag package sees it, then parses the flags.
func (c *command) parseArgs(args []string) error {
	var flags []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			c.args = append(c.args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			c.args = append(c.args, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if long, ok := c.short[name]; ok {
			name = long
		}
		switch name {
		case "help", "h":
			return errHelp
		case "version":
			return errVersion
		}
		fl := c.fs.Lookup(name)
		if fl == nil {
			given, _, _ := strings.Cut(arg, "=")
			return fmt.Errorf("unknown flag %s%s", given, c.suggest(name))
		}
		if hasValue {
			flags = append(flags, "--"+name+"="+value)
			continue
		}
		if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			flags = append(flags, "--"+name)
			continue
		}
		if i+1 == len(args) {
			return fmt.Errorf("flag --%s needs a value", name)
		}
		i++
		flags = append(flags, "--"+name+"="+args[i])
	}
	if err := c.fs.Parse(flags); err != nil {
		// The flag package names flags with one dash; the help uses two.
		return errors.New(strings.NewReplacer("for flag -", "for --", "for -", "for --").Replace(err.Error()))
	}
	if c.positional == "" && len(c.args) > 0 {
		return fmt.Errorf("unexpected argument %q: queuecap %s takes flags only", c.args[0], c.name)
	}
	c.set = map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	for _, name := range c.required {
		if !c.set[name] {
			return fmt.Errorf("--%s is required", name)
		}
	}
	return nil
}

// suggest is ": did you mean --NAME?" for the flag closest to a misspelled
// one, or "".
func (c *command) suggest(name string) string {
	var names []string
	c.fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if best := closest(name, names); best != "" {
		return ": did you mean --" + best + "?"
	}
	return ""
}

// usage writes the command's help: its synopsis, each flag with its
// short form, value and default, then the footer.
func (c *command) usage(w io.Writer) {
	for i, s := range c.synopsis {
		lead := "Usage: "
		if i > 0 {
			lead = "       "
		}
		fmt.Fprintf(w, "%squeuecap %s %s\n", lead, c.name, s)
	}
	fmt.Fprint(w, "\nFlags:\n")
	shortOf := map[string]string{}
	for s, l := range c.short {
		shortOf[l] = s
	}
	c.fs.VisitAll(func(f *flag.Flag) {
		arg, help := flag.UnquoteUsage(f)
		names := "--" + f.Name
		if s := shortOf[f.Name]; s != "" {
			names = "-" + s + ", " + names
		}
		if arg != "" {
			names += " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" && !strings.Contains(help, "(default") {
			help += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  %s\n    \t%s\n", names, strings.ReplaceAll(help, "\n", "\n    \t"))
	})
	fmt.Fprint(w, "  -h, --help\n    \tprint this help\n  --version\n    \tprint the version\n")
	if c.footer != "" {
		fmt.Fprint(w, "\n"+c.footer)
	}
}

// closest is the candidate nearest to s by edit distance, when it is near
// enough to be a misspelling of it (at most a third of its letters, and
// at least one, off), or "".
func closest(s string, candidates []string) string {
	return textfmt.Closest(s, slices.Sorted(slices.Values(candidates)), max(1, len(s)/3)+1)
}
