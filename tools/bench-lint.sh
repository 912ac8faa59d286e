#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Benchmarks `queuecap lint --recursive` against a bare HCL parse of the same
# files, against `tflint --recursive`, and against the same tflint run with
# queuecap's tflint plugin enabled (tflint+queuecap), over a scaled copy of
# the shared corpus (about 20,000 files), and prints wall time, peak memory
# and the ratios the spec sets targets for:
#
#   linter within 1.3x the bare parse, at least 30x faster than tflint,
#   peak memory at most 150 MiB, and on a large tree (about 100,000 files,
#   the same corpus about five times over) within 10 % of that;
#
# and, for information, tflint+queuecap / tflint (what the plugin costs
# inside tflint) and tflint+queuecap / queuecap lint. As a sanity line it
# prints the queuecap findings of the plugin run (rules queuecap_*, not the
# queuecap_not_checked notices) beside those of queuecap lint on the same
# tree; they may differ, since tflint reads no .tofu files and loads remote
# modules only with call_module_type = "all".
#
# The scaled copy is the corpus tree copied N times into numbered
# subdirectories of $QUEUECAP_CACHE/bench (default $HOME/.cache/queuecap),
# built once and reused while the corpus is unchanged; never in the repo.
# TFLint is installed by tools/install-cli.sh when missing, GNU time by apt.
#
# Environment:
#   BENCH_CORPUS   source corpus (default ../shared/corpus/real beside the repo)
#   BENCH_FILES    files wanted in the scaled copy (default 20000)
#   BENCH_LARGE_FILES  files wanted in the large copy, where only queuecap
#                  lint runs (default 100000; 0 skips it)
#   BENCH_REPEAT   timed runs of each command; the median is shown, and for
#                  linter / parse the median of the repetitions' ratios, the
#                  two run back to back (default 3)
#   BENCH_PAIRS    pairs of the parallel parse and the linter, the
#                  repetitions' included (default 9): more than the other
#                  commands get, as they are quick and their ratio is the
#                  target that noise blurs most
#   BENCH_INSTRUCTIONS  1 also counts the instructions of the parallel
#                  parse and the linter on one CPU under valgrind's
#                  callgrind (installed by apt when missing), a ratio no
#                  noise moves; about ten minutes more (default 0)
#   BENCH_TFLINT   0 skips both TFLint runs (with and without the plugin):
#                  the linter against the parse only, in a minute instead
#                  of an hour and a half (default 1)
#
# The bare parse is BenchmarkParseCorpus in internal/lint/bench_test.go, run
# once per timing: the linter's walk, then read and parse each file, on one
# worker and on GOMAXPROCS workers (the linter lints root modules on as
# many); a third variant keeps every parsed file, to show what holding them
# all would cost (the linter keeps a module only while a root module still
# to lint may read it). The parse runs at Go's default GOGC of 100; queuecap
# lint sets 400 unless GOGC is set (lintGCPercent in cmd/queuecap/main.go):
# GOGC=100 tools/bench-lint.sh compares like with like. TFLint runs with an
# empty config: only its bundled terraform ruleset, nothing downloaded. The
# tflint+queuecap run is the same command with a config holding only
# `plugin "queuecap" { enabled = true }`, the plugin built from
# ./cmd/tflint-ruleset-queuecap into a temporary TFLINT_PLUGIN_DIR: the
# bundled ruleset plus queuecap's. A full run takes about an hour and a
# half on 2 CPUs (BENCH_REPEAT=1 about 30 minutes: tflint about 12,
# tflint+queuecap about 18), nearly all of it TFLint.
#
# Each repetition runs the commands one after the other, so that noise on
# the machine falls on all of them alike. Exit status: 0 when every run
# succeeded (a missed target is reported, not failed), 1 when a command
# crashed or failed early.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${BENCH_CORPUS:-$root/../shared/corpus/real}
want=${BENCH_FILES:-20000}
repeat=${BENCH_REPEAT:-3}
cache=${QUEUECAP_CACHE:-$HOME/.cache/queuecap}

die() { echo "bench-lint: $*" >&2; exit 1; }

[ -d "$corpus" ] || die "no corpus at $corpus (set BENCH_CORPUS)"
corpus=$(cd "$corpus" && pwd)

# GNU time gives each run's peak RSS.
"$root/tools/apt-install.sh" time >&2
with_tflint=${BENCH_TFLINT:-1}
pairs_wanted=${BENCH_PAIRS:-9}
count_instructions=${BENCH_INSTRUCTIONS:-0}
if [ "$count_instructions" = 1 ]; then
	"$root/tools/apt-install.sh" valgrind >&2
fi
if [ "$with_tflint" != 0 ]; then
	tflint=$("$root/tools/install-cli.sh" tflint)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- the scaled corpus -------------------------------------------------------
# Named after the corpus's listing (paths, sizes, times) and the copy count,
# so a changed corpus or BENCH_FILES builds a new one; stale ones are removed.
nfiles=$(find "$corpus" -type f | wc -l)
[ "$nfiles" -gt 0 ] || die "$corpus holds no files"
sum=$(cd "$corpus" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort | cksum | cut -d' ' -f1)
benchdir=$cache/bench
# scaled_copy WANT prints the scaled copy of about WANT files, built when
# missing; copies of other sizes of the same corpus are kept (the small and
# the large tree live side by side), those of another corpus removed.
scaled_copy() {
	local want=$1 copies dir tmp
	copies=$(((want + nfiles / 2) / nfiles))
	[ "$copies" -ge 1 ] || copies=1
	dir=$benchdir/corpus-$sum-x$copies
	if [ ! -d "$dir" ]; then
		echo "building the scaled corpus: $copies copies of $corpus ($nfiles files) in $dir" >&2
		mkdir -p "$benchdir"
		for old in "$benchdir"/corpus-* "$benchdir"/.building.*; do
			case $old in "$benchdir/corpus-$sum-"*) continue ;; esac
			if [ -d "$old" ]; then rm -rf "$old"; fi
		done
		tmp=$(mktemp -d "$benchdir/.building.XXXXXX")
		for i in $(seq -w 1 "$copies"); do
			# The shared corpus is read-only; the copies must be removable.
			cp -R --no-preserve=mode,ownership "$corpus/." "$tmp/copy$i"
		done
		mv "$tmp" "$dir" # whole or not at all
	fi
	echo "$dir"
}
scaled=$(scaled_copy "$want")
copies=${scaled##*-x}
# The large tree: the same corpus about five times over, for the linter's
# peak memory, which must not grow with the size of the tree.
large_want=${BENCH_LARGE_FILES:-100000}
large=
if [ "$large_want" != 0 ]; then
	large=$(scaled_copy "$large_want")
	large_total=$(find "$large" -type f | wc -l)
	large_copies=${large##*-x}
fi
total=$(find "$scaled" -type f | wc -l)
tffiles=$(find "$scaled" -type f \( -name '*.tf' -o -name '*.tf.json' \) | wc -l)
moddirs=$(find "$scaled" -type f \( -name '*.tf' -o -name '*.tf.json' \) -printf '%h\n' | sort -u | wc -l)
size=$(find "$scaled" -type f -printf '%s\n' | awk '{n += $1} END {printf "%.0f", n / 1048576}')

# --- the commands -------------------------------------------------------------
echo "building queuecap and the benchmark binary" >&2
(cd "$root" && go build -trimpath -o "$work/queuecap" ./cmd/queuecap)
(cd "$root" && go test -c -o "$work/lint.test" ./internal/lint)
: >"$work/empty.tflint.hcl" # no plugins: the bundled terraform ruleset, offline
if [ "$with_tflint" != 0 ]; then
	# queuecap's plugin, found through TFLINT_PLUGIN_DIR: with no source or
	# version in its block, tflint neither fetches nor verifies it.
	echo "building the tflint plugin" >&2
	mkdir -p "$work/plugins"
	(cd "$root" && go build -trimpath -o "$work/plugins/tflint-ruleset-queuecap" ./cmd/tflint-ruleset-queuecap)
	printf 'plugin "queuecap" {\n  enabled = true\n}\n' >"$work/queuecap.tflint.hcl"
fi

# A tiny JSON reader (both linters print {"issues": [...], "errors": [...]}),
# so a run counts as linted only when its output is a whole report. It
# prints the issues, the errors, tflint's per-directory failures, the
# queuecap findings (rule queuecap_*, the queuecap_not_checked notices
# apart) and those notices. The rule is a name in queuecap's report, an
# object {"name": ...} in tflint's.
mkdir -p "$work/jsoncount"
cat >"$work/jsoncount/main.go" <<'EOF'
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	var doc struct {
		Issues *[]struct {
			Rule json.RawMessage `json:"rule"`
		} `json:"issues"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&doc); err != nil || doc.Issues == nil {
		fmt.Println("invalid")
		os.Exit(1)
	}
	perDir := 0 // tflint's "Failed to run in DIR": one module it could not evaluate
	for _, e := range doc.Errors {
		if strings.HasPrefix(e.Message, "Failed to run in ") {
			perDir++
		}
	}
	queuecap, notChecked := 0, 0
	for _, issue := range *doc.Issues {
		var name string
		if json.Unmarshal(issue.Rule, &name) != nil {
			var rule struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(issue.Rule, &rule)
			name = rule.Name
		}
		switch {
		case name == "queuecap_not_checked":
			notChecked++
		case strings.HasPrefix(name, "queuecap_"):
			queuecap++
		}
	}
	fmt.Println(len(*doc.Issues), len(doc.Errors), perDir, queuecap, notChecked)
}
EOF
(cd "$work/jsoncount" && go build -o "$work/jsoncount.bin" main.go)

# command NAME sets cmd to the command line; each runs in the scaled corpus.
command_for() {
	case $1 in
	lint | lint_large) cmd=("$work/queuecap" lint --recursive --format json .) ;;
	parse_seq) cmd=(env "QUEUECAP_BENCH_CORPUS=$scaled" "$work/lint.test" -test.run '^$' -test.bench '^BenchmarkParseCorpus$/^seq$' -test.benchtime 1x) ;;
	parse_par) cmd=(env "QUEUECAP_BENCH_CORPUS=$scaled" "$work/lint.test" -test.run '^$' -test.bench '^BenchmarkParseCorpus$/^par$' -test.benchtime 1x) ;;
	parse_keep) cmd=(env "QUEUECAP_BENCH_CORPUS=$scaled" "$work/lint.test" -test.run '^$' -test.bench '^BenchmarkParseCorpus$/^par-keep$' -test.benchtime 1x) ;;
	tflint) cmd=("$tflint" --recursive --config="$work/empty.tflint.hcl" --format json) ;;
	tflint+queuecap) cmd=(env "TFLINT_PLUGIN_DIR=$work/plugins" "$tflint" --recursive --config="$work/queuecap.tflint.hcl" --format json) ;;
	esac
}

# check NAME RC OUT ERR prints a note on a good run, or fails the benchmark.
check() {
	local name=$1 rc=$2 out=$3 err=$4 counts issues errors perdir queuecap notchecked
	case $name in
	lint | lint_large)
		# 0 clean, 2 findings, 1 errors in the configuration (still a full
		# report); a crash (Go exits 2 too) leaves no report.
		counts=$("$work/jsoncount.bin" <"$out") || counts=invalid
		if [ "$counts" = invalid ] || [ "$rc" -gt 2 ]; then
			echo "bench-lint: queuecap lint failed (exit $rc):" >&2
			head -c 3000 "$err" >&2
			exit 1
		fi
		read -r issues errors perdir queuecap notchecked <<<"$counts"
		echo "$queuecap" >"$work/$name.queuecap"
		echo "$issues issues, $errors errors"
		;;
	parse_seq | parse_par | parse_keep)
		if [ "$rc" != 0 ] || ! grep -q '^PASS$' "$out"; then
			echo "bench-lint: the parse benchmark failed (exit $rc):" >&2
			cat "$out" "$err" | head -c 3000 >&2
			exit 1
		fi
		local n
		n=$(awk '{for (i = 2; i <= NF; i++) if ($i == "files/op") print $(i-1)}' "$out")
		[ "${n%.*}" = "$tffiles" ] || die "the parse read ${n:-no} files, not $tffiles"
		echo "$tffiles files"
		;;
	tflint | tflint+queuecap)
		# 0 clean, 2 issues (the plugin's findings and notices are issues,
		# so 2 is the rule with it); 1 also when a few modules could not be
		# evaluated ("Failed to run in DIR", at most 5% of them) and the
		# rest were linted. A run that stops early (bad config, a plugin
		# to fetch or that fails to start) fails everywhere or not per
		# directory, and is not timed.
		counts=$("$work/jsoncount.bin" <"$out") || counts=invalid
		if [ "$counts" != invalid ]; then
			read -r issues errors perdir queuecap notchecked <<<"$counts"
		fi
		if [ "$counts" = invalid ] || [ "$rc" -gt 2 ] ||
			{ [ "$rc" = 1 ] && { [ "$errors" != "$perdir" ] || [ $((perdir * 20)) -gt "$moddirs" ]; }; }; then
			echo "bench-lint: $name failed (exit $rc):" >&2
			head -c 3000 "$out" >&2
			head -c 3000 "$err" >&2
			exit 1
		fi
		if [ "$name" = tflint+queuecap ]; then
			echo "$queuecap" >"$work/$name.queuecap"
			echo "$issues issues ($queuecap queuecap, $notchecked not checked), $errors of $moddirs modules not evaluated"
		else
			echo "$issues issues, $errors of $moddirs modules not evaluated"
		fi
		;;
	esac
}

# measure NAME runs one command under GNU time and records
# "wall rss_kib cpu_s" (cpu: user + system).
measure() {
	local name=$1 rc=0 note wall_s rss_kib user_s sys_s cpu_s
	command_for "$name"
	local dir=$scaled
	[ "$name" = lint_large ] && dir=$large
	(cd "$dir" && /usr/bin/time -f '%e %M %U %S' -o "$work/$name.time" "${cmd[@]}" >"$work/$name.out" 2>"$work/$name.err") || rc=$?
	note=$(check "$name" "$rc" "$work/$name.out" "$work/$name.err")
	read -r wall_s rss_kib user_s sys_s < <(tail -n 1 "$work/$name.time")
	cpu_s=$(awk -v u="$user_s" -v s="$sys_s" 'BEGIN {print u + s}')
	echo "$wall_s $rss_kib $cpu_s" >>"$work/$name.runs"
	echo "$note" >"$work/$name.note"
	printf '  %-15s %7.2f s %8.1f MiB %7.2f cpu s  %s\n' "$name" "$wall_s" "$(awk -v k="$rss_kib" 'BEGIN {print k / 1024}')" "$cpu_s" "$note" >&2
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "warming the page cache" >&2
find "$scaled" ${large:+"$large"} -type f -exec cat {} + >/dev/null

# The linter runs right after the parallel parse it is measured against,
# so that the two of each pair see the same machine (its speed drifts by
# a fifth from minute to minute here); the ratio reported is the median
# of the pairs' ratios.
names=(parse_par lint parse_seq parse_keep)
if [ -n "$large" ]; then
	names+=(lint_large)
fi
if [ "$with_tflint" != 0 ]; then
	names+=(tflint tflint+queuecap)
fi
for r in $(seq 1 "$repeat"); do
	echo "run $r of $repeat" >&2
	for name in "${names[@]}"; do
		measure "$name"
	done
done
# More pairs of the parallel parse and the linter, about 15 s each, than
# the repetitions of everything: one pair's ratio moves by a fifth here.
for r in $(seq $((repeat + 1)) "$pairs_wanted"); do
	echo "pair $r of $pairs_wanted (the parallel parse and the linter)" >&2
	measure parse_par
	measure lint
done

# With BENCH_INSTRUCTIONS=1, the instructions each of the two executes on
# one CPU, counted by valgrind's callgrind (the two run side by side, each
# on one thread: a count does not depend on the machine's speed or load).
instr_ratio=
if [ "$count_instructions" = 1 ]; then
	echo "counting instructions under callgrind (about ten minutes)" >&2
	count() { # NAME: prints the instructions of one run
		local name=$1
		command_for "$name"
		if [ "${cmd[0]}" = env ]; then
			# valgrind follows no exec: the variable set beside it instead.
			cmd=("${cmd[@]:2}")
			export QUEUECAP_BENCH_CORPUS=$scaled
		fi
		# No preemption signals (callgrind loses track of them), one thread.
		(cd "$scaled" && GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "${cmd[@]}" >/dev/null 2>"$work/$name.vg") || true
		sed -n 's/.*I *refs: *//p' "$work/$name.vg" | tr -d ,
	}
	count parse_par >"$work/parse_par.instr" &
	count lint >"$work/lint.instr"
	wait
	instr_lint=$(cat "$work/lint.instr")
	instr_parse=$(cat "$work/parse_par.instr")
	[ -n "$instr_lint" ] && [ -n "$instr_parse" ] || die "callgrind counted nothing: $(tail -n 3 "$work/lint.vg" "$work/parse_par.vg")"
	instr_ratio=$(awk -v a="$instr_lint" -v b="$instr_parse" 'BEGIN {printf "%.3f", a / b}')
fi

# Median wall and CPU time; peak RSS is the highest of the runs.
median() { cut -d' ' -f"${2:-1}" "$work/$1.runs" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
peak() { cut -d' ' -f2 "$work/$1.runs" | sort -n | tail -n 1 | awk '{printf "%.1f", $1 / 1024}'; }
declare -A wall rss cpu
for name in "${names[@]}"; do
	wall[$name]=$(median "$name")
	cpu[$name]=$(median "$name" 3)
	rss[$name]=$(peak "$name")
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }
verdict() { awk -v v="$1" -v lim="$2" -v op="$3" 'BEGIN {ok = (op == "<=") ? v <= lim : (op == ">=") ? v >= lim : v < lim; print ok ? "met" : "MISSED"}'; }
cpus=$(getconf _NPROCESSORS_ONLN)

# paired_ratio FIELD: the median over the repetitions of lint / parse_par,
# each from the same repetition (FIELD 1 wall, 3 CPU).
paired_ratio() {
	paste -d' ' <(cut -d' ' -f"$1" "$work/lint.runs") <(cut -d' ' -f"$1" "$work/parse_par.runs") |
		awk '$2 > 0 {print $1 / $2}' | sort -n |
		awk '{v[NR] = $1} END {printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
pairs=$(paste -d' ' <(cut -d' ' -f1 "$work/lint.runs") <(cut -d' ' -f1 "$work/parse_par.runs") | awk '{printf "%s%.2f", (NR > 1) ? " " : "", $1 / $2}')
lint_parse=$(paired_ratio 1)
lint_parse_seq=$(ratio "${wall[lint]}" "${wall[parse_seq]}")
lint_parse_keep=$(ratio "${wall[lint]}" "${wall[parse_keep]}")
lint_parse_cpu=$(paired_ratio 3)
tflint_lint=$(ratio "${wall[tflint]:-0}" "${wall[lint]}")
plugin_tflint=$(ratio "${wall[tflint+queuecap]:-0}" "${wall[tflint]:-0}")
plugin_tflint_cpu=$(ratio "${cpu[tflint+queuecap]:-0}" "${cpu[tflint]:-0}")
plugin_lint=$(ratio "${wall[tflint+queuecap]:-0}" "${wall[lint]}")

cat <<EOF

queuecap lint benchmark: $scaled
  $copies copies of $corpus: $total files ($size MiB),
  $tffiles .tf/.tf.json in $moddirs directories; $cpus CPUs
  wall and CPU (user + system) seconds: median of $repeat runs, $(( pairs_wanted > repeat ? pairs_wanted : repeat )) for the linter and
  the parallel parse (linter / parse: the median of the pairs' ratios, the two
  run back to back); peak RSS: highest
  of the runs (for tflint, its largest process: the bundled ruleset and the
  queuecap plugin run as child processes). Load average before / after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg)
  (with more than $cpus, other work shared the CPUs and wall times are noisy;
  the CPU-time ratio is the steadier one)

  command                                    wall s   peak RSS MiB    cpu s   result
EOF
row() { printf '  %-40s %8.2f %14.1f %8.2f   %s\n' "$1" "${wall[$2]}" "${rss[$2]}" "${cpu[$2]}" "$(cat "$work/$2.note")"; }
row "queuecap lint --recursive --format json" lint
if [ -n "$large" ]; then
	row "  the same on the large tree ($large_total files)" lint_large
fi
row "bare HCL parse, 1 worker" parse_seq
row "bare HCL parse, $cpus workers (GOMAXPROCS)" parse_par
row "  the same, keeping every parsed file" parse_keep
if [ "$with_tflint" != 0 ]; then
	row "tflint --recursive --format json" tflint
	row "tflint+queuecap (the plugin enabled)" tflint+queuecap
fi
cat <<EOF

  ratio                                       value   target   verdict
EOF
printf '  %-40s %7sx   <= 1.3x  %s\n' "linter / parse ($cpus workers)" "$lint_parse" "$(verdict "$lint_parse" 1.3 '<=')"
printf '  %-40s %7sx   (info)\n' "linter / parse, CPU time ($cpus workers)" "$lint_parse_cpu"
printf '  %-40s %s\n' "  (median of these pairs, wall:" "$pairs)"
if [ -n "$instr_ratio" ]; then
	printf '  %-40s %7sx   (info)   %s\n' "linter / parse, instructions (1 CPU)" "$instr_ratio" "$instr_lint / $instr_parse, callgrind"
fi
printf '  %-40s %7sx   (info)\n' "linter / parse (1 worker)" "$lint_parse_seq"
printf '  %-40s %7sx   (info)\n' "linter / parse keeping every file" "$lint_parse_keep"
if [ "$with_tflint" != 0 ]; then
	printf '  %-40s %7sx   >= 30x   %s\n' "tflint / linter" "$tflint_lint" "$(verdict "$tflint_lint" 30 '>=')"
	printf '  %-40s %7sx   (info)\n' "tflint+queuecap / tflint" "$plugin_tflint"
	printf '  %-40s %7sx   (info)\n' "tflint+queuecap / tflint, CPU time" "$plugin_tflint_cpu"
	printf '  %-40s %7sx   (info)\n' "tflint+queuecap / linter" "$plugin_lint"
else
	printf '  %-40s %8s   >= 30x   %s\n' "tflint / linter" "-" "not measured (BENCH_TFLINT=0)"
	printf '  %-40s %8s   (info)   %s\n' "tflint+queuecap / tflint" "-" "not measured (BENCH_TFLINT=0)"
	printf '  %-40s %8s   (info)   %s\n' "tflint+queuecap / linter" "-" "not measured (BENCH_TFLINT=0)"
fi
printf '  %-40s %7s MiB <= 150  %s\n' "linter peak RSS" "${rss[lint]}" "$(verdict "${rss[lint]}" 150 '<=')"
if [ -n "$large" ]; then
	large_small=$(ratio "${rss[lint_large]}" "${rss[lint]}")
	printf '  %-40s %7s MiB (info)\n' "linter peak RSS, large tree" "${rss[lint_large]}"
	printf '  %-40s %7sx   <= 1.1x  %s\n' "peak RSS, large tree / scaled tree" "$large_small" "$(verdict "$large_small" 1.1 '<=')"
	printf '  %-40s %7sx   (info)\n' "wall time, large tree / scaled tree" "$(ratio "${wall[lint_large]}" "${wall[lint]}")"
else
	printf '  %-40s %8s   <= 1.1x  %s\n' "peak RSS, large tree / scaled tree" "-" "not measured (BENCH_LARGE_FILES=0)"
fi
if [ "$with_tflint" != 0 ]; then
	cat <<EOF

  queuecap findings (rules queuecap_*, without queuecap_not_checked), last run:
    tflint+queuecap: $(cat "$work/tflint+queuecap.queuecap"), queuecap lint --recursive: $(cat "$work/lint.queuecap")
    (they may differ: tflint reads no .tofu files and loads remote modules
    only with call_module_type = "all")
EOF
fi
